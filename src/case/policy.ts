/**
 * The measurement settings one worker launch is given (part of the case vocabulary: the config
 * layer names them, the worker and measure/ obey them, results record them).
 */

/** Measurement settings for one launch (times in ms, thresholds as fractions). */
export interface MeasurePolicy {
  /** Warmup: at least this many ops AND this many ms per side (the on-device study warmed up 200 parses). */
  warmupMinOps: number;
  warmupMinMs: number;
  /** Upper bound on warmup wall time per side, so a 50 ms/op serializer does not warm up for 10 s (ms). */
  warmupMaxMs: number;
  /** Pilot: grow ops per sample until one sample lasts at least this long (ms). */
  sampleTargetMs: number;
  samplesPerRound: number;
  minRounds: number;
  maxRounds: number;
  /** Stop when the 99.9% CI half-width of the mean is under this fraction of it (0.02 = 2%). */
  targetRelativeError: number;
  /** Confidence level of every error this lab reports. */
  confidence: number;
  /** Stop rounds after this long (ms) even if the error target is not met; the case is flagged noisy. */
  timeCapMs: number;
  /** Allocation: number of windows (median reported) and minimum window length (ms). */
  allocWindows: number;
  allocWindowMinMs: number;
}
