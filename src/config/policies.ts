import type { MeasurePolicy } from '../case/policy.js';
import type { CaseClass, Platform } from '../case/coordinates.js';
import type { ProfileName } from '../case/profile.js';

/** A named run policy: how many launches, which sizes, and the worker's measurement settings. */
export interface RunPolicy {
  name: 'quick' | 'default' | 'long';
  description: string;
  /** launches per case; the case reports the median across them */
  launches: number;
  /** at most this many launches per case: one more while its launches disagree beyond their intervals (run/runner.ts needsAnotherLaunch) */
  maxLaunches: number;
  /** which sizes of each workload: its smallest, its defaults, or all */
  sizes: 'smallest' | 'default' | 'all';
  /** a launch whose baseline mean exceeds this × the best seen for that payload is relaunched */
  relaunchFactor: number;
  /** at most this many relaunches per case */
  maxRelaunches: number;
  /** a worker still running after this is killed and its case is `timeout` (ms) */
  caseTimeoutMs: number;
  /**
   * Cold start (worker/cold.ts): fresh processes per measured case, and whether the policy measures
   * it without `--metric cold-start`. Off in quick and default, whose time targets (≤ 60 s, ≤ 5 min)
   * it would break: each fresh process costs a worker start (~0.2–0.35 s) plus the case's prepare.
   */
  coldStart: { processes: number; byDefault: boolean };
  measure: MeasurePolicy;
  /**
   * The runtime profile (case/profile.ts): `default` in every named policy (each runtime's default
   * settings, what a user's process pays); `run --profile steady` asks for the lab's GC settings.
   */
  profile: ProfileName;
}

/**
 * Defaults that hold in every policy, on the measuring clock (process CPU time where the runtime
 * has one). Warmup of at least 100 ops and 100 ms of CPU time, at most 1 s (the on-device study
 * warmed up 200 parses; issue 13's prototype found 100 ms of CPU time enough for the ratio);
 * ~2.5 ms samples (the CPU clock steps in 1 µs: 0.04% of a sample), 4 per side and round, at
 * least 6 rounds; a launch stops when its ratio's MAD-based relative standard error is under 1%
 * (measure/timing.ts), else after 1 s of CPU time in rounds; 99.9% confidence for every reported
 * interval. Serialize ops produce UTF-8 bytes (README: what a serialize op measures).
 */
const base: MeasurePolicy = {
  warmupMinOps: 100,
  warmupMinMs: 100,
  warmupMaxMs: 1000,
  sampleTargetMs: 2.5,
  samplesPerRound: 4,
  minRounds: 6,
  maxRounds: 200,
  targetRelativeError: 0.01,
  confidence: 0.999,
  timeCapMs: 1000,
  allocWindows: 5,
  allocWindowMinMs: 10,
  serializeTo: 'bytes',
};

/** The three named policies. */
export const policies: Readonly<Record<RunPolicy['name'], RunPolicy>> = {
  quick: {
    name: 'quick',
    description:
      'one launch per group (its cases share the process), the smallest size of each workload, short warmup and rounds (2% target, 0.3 s CPU cap): a first look',
    launches: 1,
    maxLaunches: 1,
    sizes: 'smallest',
    relaunchFactor: 1.25,
    maxRelaunches: 0,
    caseTimeoutMs: 60_000,
    coldStart: { processes: 1, byDefault: false },
    profile: 'default',
    measure: {
      ...base,
      warmupMinOps: 50,
      warmupMinMs: 50,
      warmupMaxMs: 400,
      samplesPerRound: 3,
      minRounds: 5,
      targetRelativeError: 0.02,
      timeCapMs: 300,
      allocWindows: 3,
      allocWindowMinMs: 5,
    },
  },
  default: {
    name: 'default',
    description:
      "two interleaved launches per case and a third where they disagree, each workload's default size (its smallest: 100 records, company 1,000 employees; larger ones with --size or the long policy)",
    launches: 2,
    maxLaunches: 3,
    sizes: 'default',
    relaunchFactor: 1.25,
    maxRelaunches: 1,
    caseTimeoutMs: 120_000,
    coldStart: { processes: 3, byDefault: false },
    profile: 'default',
    measure: base,
  },
  long: {
    name: 'long',
    description:
      'five interleaved launches, up to ten where they disagree, every size, longer warmup and time cap, cold start in 5 fresh processes per case',
    launches: 5,
    maxLaunches: 10,
    sizes: 'all',
    relaunchFactor: 1.25,
    maxRelaunches: 3,
    caseTimeoutMs: 300_000,
    coldStart: { processes: 5, byDefault: true },
    profile: 'default',
    measure: { ...base, warmupMinMs: 500, warmupMaxMs: 5000, targetRelativeError: 0.005, timeCapMs: 5000 },
  },
};

/**
 * Preferred baseline per platform and class, in order; the first serializer that supports the
 * workload is used. JavaScript: the runtime's own `JSON` for serialize and parse. .NET: System.Text.Json
 * with reflection (`stj`) for every class, as in the report site's tables and the .NET studies
 * (its deserializers are typed: class `transform`).
 */
export const baselinePreference: Readonly<Record<Platform, Readonly<Record<CaseClass, readonly string[]>>>> = {
  javascript: {
    serialize: ['json'],
    parse: ['json'],
    validate: ['typebox', 'ajv-jtd', 'typia'],
    transform: ['zod', 'valibot', 'arktype', 'class-transformer'],
  },
  dotnet: { serialize: ['stj'], parse: ['stj'], validate: ['stj'], transform: ['stj'] },
};
