import type { MeasurePolicy } from '../case/policy.js';
import type { CaseClass } from '../case/coordinates.js';

/** A named run policy: how many launches, which sizes, and the worker's measurement settings. */
export interface RunPolicy {
  name: 'quick' | 'default' | 'long';
  description: string;
  /** launches per case; the case reports the median across them */
  launches: number;
  /** which sizes of each workload: its smallest, its defaults, or all */
  sizes: 'smallest' | 'default' | 'all';
  /** a launch whose baseline mean exceeds this × the best seen for that payload is relaunched */
  relaunchFactor: number;
  /** at most this many relaunches per case */
  maxRelaunches: number;
  /** a worker still running after this is killed and its case is `timeout` (ms) */
  caseTimeoutMs: number;
  measure: MeasurePolicy;
}

/**
 * Defaults that hold in every policy. Warmup of at least 200 ops follows the on-device study
 * (200 warm-up parses); 4 rounds minimum follows its 4 alternating rounds; 99.9% confidence and
 * the 2% error target follow BenchmarkDotNet's defaults (its `MaxRelativeError` is 0.02);
 * ~10 ms samples keep timer resolution and loop overhead far below 1%.
 */
const base: MeasurePolicy = {
  warmupMinOps: 200,
  warmupMinMs: 500,
  warmupMaxMs: 3000,
  sampleTargetMs: 10,
  samplesPerRound: 5,
  minRounds: 4,
  maxRounds: 200,
  targetRelativeError: 0.02,
  confidence: 0.999,
  timeCapMs: 3000,
  allocWindows: 5,
  allocWindowMinMs: 20,
};

/** The three named policies. */
export const policies: Readonly<Record<RunPolicy['name'], RunPolicy>> = {
  quick: {
    name: 'quick',
    description: 'one launch, the smallest size of each workload, short warmup: a first look in about a minute',
    launches: 1, sizes: 'smallest', relaunchFactor: 1.25, maxRelaunches: 0, caseTimeoutMs: 60_000,
    measure: { ...base, warmupMinMs: 150, warmupMaxMs: 1000, timeCapMs: 800, samplesPerRound: 3, allocWindowMinMs: 10 },
  },
  default: {
    name: 'default',
    description: 'three interleaved launches, the default sizes',
    launches: 3, sizes: 'default', relaunchFactor: 1.25, maxRelaunches: 2, caseTimeoutMs: 120_000,
    measure: base,
  },
  long: {
    name: 'long',
    description: 'ten interleaved launches, every size, longer warmup and time cap',
    launches: 10, sizes: 'all', relaunchFactor: 1.25, maxRelaunches: 3, caseTimeoutMs: 300_000,
    measure: { ...base, warmupMinMs: 1000, warmupMaxMs: 5000, timeCapMs: 10_000 },
  },
};

/** Preferred baseline per class, in order; the first adapter that supports the workload is used. */
export const baselinePreference: Readonly<Record<CaseClass, readonly string[]>> = {
  serialize: ['json'],
  parse: ['json'],
  validate: ['typebox', 'ajv-jtd', 'typia'],
  transform: ['zod', 'valibot', 'arktype', 'class-transformer'],
};
