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
  /**
   * Stop a launch's rounds when the relative standard error (MAD-based, measure/timing.ts
   * medianRelativeError) of what it reports is under this fraction: the median per-round ratio of
   * a paired case, the median per-round median of a side timed alone (0.01 = 1%).
   */
  targetRelativeError: number;
  /** Confidence level of every error this lab reports. */
  confidence: number;
  /**
   * Stop rounds after this long (ms, on the measuring clock: CPU time where the runtime has one; or
   * 5 × this of wall time) even if the error target is not met; the launch is flagged noisy.
   */
  timeCapMs: number;
  /** Allocation: number of windows (median reported) and minimum window length (ms). */
  allocWindows: number;
  allocWindowMinMs: number;
  /**
   * What a serialize op produces: `bytes` (default: the string encoded to UTF-8 — `Buffer.from(s,
   * 'utf8')` where there is a Buffer, else TextEncoder — what a server writing it to a socket pays)
   * or `string` (the serializer's string as returned, dropped). See the README, "What a serialize op
   * measures". Absent: `string` (files before the option).
   */
  serializeTo?: 'bytes' | 'string';
}
