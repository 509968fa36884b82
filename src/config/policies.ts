import type { MeasurePolicy } from '../case/policy.js';
import type { CaseClass, Platform } from '../case/coordinates.js';
import type { ProfileName } from '../case/profile.js';
import { UsageError } from './usage-error.js';
import { deepFreeze } from '../case/frozen.js';

/** A named run policy: how many launches, which sizes, and the worker's measurement settings. */
export interface RunPolicy {
  name: 'quick' | 'default' | 'long';
  description: string;
  /** launches per case; the case reports the median across them */
  launches: number;
  /** at most this many launches per case: more while its ratio is unresolved or its launches disagree (run/stop-rule.ts) */
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
  /** adaptive launches: when launches beyond `launches` stop ({@link AdaptiveLaunches}) */
  adaptive: AdaptiveLaunches;
  measure: MeasurePolicy;
  /**
   * The runtime profile (case/profile.ts): `default` in every named policy (each runtime's default
   * settings, what a user's process pays); `run --profile steady` asks for the lab's GC settings.
   */
  profile: ProfileName;
}

// ---- adaptive launches (docs/adaptive-launches.md): the policy's fields and the flags that set them ----

/**
 * Adaptive launches (tachometer's auto-sample conditions): after the policy's `launches`, a paired
 * case gets another launch (round-robin across its group, one process per launch) until its
 * ratio's interval is clear of the ±`resolve` band around 1, or inside it, or a budget would be
 * passed, or `maxLaunches` is reached (run/stop-rule.ts). A case with no ratio (the baseline's own,
 * an unpaired one) gets another while its launches disagree, as without `resolve`.
 */
export interface AdaptiveLaunches {
  /** the smallest ratio difference that matters, as a fraction (0.02: ±2%); null: extra launches only where launches disagree */
  resolve: number | null;
  /**
   * wall time one case's launches may take before no extra launch is begun (ms): the budget of the launches beyond
   * `launches`, counted from the first (the policy's own launches always run, however long they take; a case whose two
   * first launches took 149 s gets no third, and still took 149 s)
   */
  maxCaseMs: number;
  /** wall time the run's launches may take before no extra launch is begun (ms), paced over the groups by their share of the cases; the policy's `launches` always run, so a run can last far longer */
  maxRunMs: number;
}

/** The launch cap `--resolve` raises a policy to when it has fewer (quick's 1): budgets, not the cap, should stop it. */
export const RESOLVE_MAX_LAUNCHES = 10;

/**
 * `--resolve`: `2%`, `0.5%` or `2` (percent) as a fraction; `off` as null.
 * @throws UsageError naming `--resolve` for anything else, or a band outside (0%, 50%]
 */
export function parseResolve(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (t === 'off') return null;
  const m = /^(\d+(?:\.\d+)?)\s*%?$/.exec(t);
  const pct = m ? Number(m[1]) : NaN;
  if (!(pct > 0 && pct <= 50))
    throw new UsageError('--resolve', `"${text}" is not a difference from 0% to 50% (e.g. 2%, 0.5%) or off`);
  return pct / 100;
}

/**
 * The longest duration a flag takes: Node's timers wait at most 2^31 − 1 ms (about 24.8 days) and
 * fire a longer one after 1 ms (hx13 FL-ct600h: `--case-timeout 600h` killed every case at once as
 * "no result after 2160000 s").
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** `ms` when a timer can wait that long. @throws UsageError naming `flag` and `text` when it cannot */
function timerSafe(flag: string, text: string, ms: number): number {
  if (ms > MAX_DURATION_MS)
    throw new UsageError(
      flag,
      `"${text}" is longer than jsonbench can wait: Node's timers hold at most 2^31 − 1 ms (24 days 20 h)`,
    );
  return ms;
}

/** A duration: `500ms`, `20s`, `4m`, `1h`, `1m30s`; a bare number is seconds. NaN when it is none. */
function durationMs(text: string): number {
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const t = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== t) return NaN;
  return parts.reduce((ms, p) => ms + Number(p[1]) * unit[p[2]], 0);
}

/**
 * `text` as a duration above zero (ms). @throws UsageError naming `flag`: for zero (hx32 G-6: "case=0s is not a
 * duration such as … case=20s", though written as the examples are), that it must be above zero; else, not a duration
 * such as `examples`
 */
function positiveDuration(flag: string, given: string, text: string, examples: string): number {
  const ms = durationMs(text);
  if (ms === 0)
    throw new UsageError(flag, `"${given}" is no time at all: give a duration above zero, such as ${examples}`);
  if (!(ms > 0) || !Number.isFinite(ms)) throw new UsageError(flag, `"${given}" is not a duration such as ${examples}`);
  return ms;
}

/**
 * `--probe-budget`: the probe pass's total wall time, a duration (`15m`, `1h`, `90s`) or `off` (no
 * budget: undefined). @throws UsageError naming the flag for anything else
 */
export function parseProbeBudget(text: string): number | undefined {
  if (text.trim().toLowerCase() === 'off') return undefined;
  const ms = positiveDuration('--probe-budget', text, text, '15m, 1h or 1h30m, or off');
  return timerSafe('--probe-budget', text, ms);
}

/**
 * `--case-timeout`: how long one launch per case it carries may run before its worker is killed and the case is
 * `timeout` (a duration, `5m`, `300s`). @throws UsageError naming `--case-timeout` for anything but a positive duration
 */
export function parseCaseTimeout(text: string): number {
  const ms = positiveDuration('--case-timeout', text, text, '300s, 5m or 1m30s');
  return timerSafe('--case-timeout', text, ms);
}

/** The shortest probe timeout: a probe side's worker takes longer than this to start on a loaded machine. */
export const MIN_PROBE_TIMEOUT_MS = 1000;

/**
 * `probe --timeout`: per probe side, a duration with its unit (`120s`, `2m`, `1500ms`), at least
 * {@link MIN_PROBE_TIMEOUT_MS}. A bare number is refused (hx3, issue 25: `--timeout 5` was 5 ms
 * there while `run --case-timeout 5` is 5 s; 1,569 probes were then "hang").
 * @throws UsageError naming `--timeout`
 */
export function parseProbeTimeout(text: string): number {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t))
    throw new UsageError(
      '--timeout',
      `"${text}" has no unit: give ${t}s or ${t}ms (a duration, as --case-timeout and --probe-budget take; default 120s)`,
    );
  const ms = positiveDuration('--timeout', text, t, '120s, 2m or 1500ms');
  if (ms < MIN_PROBE_TIMEOUT_MS)
    throw new UsageError(
      '--timeout',
      `"${text}" is less than 1s: a probe side's worker takes longer than that to start, so every probe would "hang" (give 1s or more; default 120s)`,
    );
  return timerSafe('--timeout', text, ms);
}

/**
 * `--max-time` (comma-separated or repeated): `20s` or `case=20s` per case, `run=4m` per run.
 * @throws UsageError naming `--max-time` for a value that is not a positive duration
 */
export function parseMaxTime(values: readonly string[]): { maxCaseMs?: number; maxRunMs?: number } {
  const out: { maxCaseMs?: number; maxRunMs?: number } = {};
  for (const v of values) {
    const m = /^(?:(case|run)=)?(.+)$/.exec(v.trim())!;
    const ms = positiveDuration('--max-time', v, m[2], '20s, case=20s, run=4m or run=1m30s');
    timerSafe('--max-time', v, ms);
    if (m[1] === 'run') out.maxRunMs = ms;
    else out.maxCaseMs = ms;
  }
  return out;
}

/**
 * The policy with `--resolve` and `--max-time` applied (each absent: the policy's own). A given
 * `--resolve` raises the launch cap to {@link RESOLVE_MAX_LAUNCHES} where it is lower.
 */
export function withAdaptive(
  policy: RunPolicy,
  given: { resolve?: number | null; maxCaseMs?: number; maxRunMs?: number },
): RunPolicy {
  const adaptive: AdaptiveLaunches = {
    resolve: given.resolve !== undefined ? given.resolve : policy.adaptive.resolve,
    maxCaseMs: given.maxCaseMs ?? policy.adaptive.maxCaseMs,
    maxRunMs: given.maxRunMs ?? policy.adaptive.maxRunMs,
  };
  const maxLaunches =
    given.resolve !== undefined && given.resolve !== null
      ? Math.max(policy.maxLaunches, RESOLVE_MAX_LAUNCHES)
      : policy.maxLaunches;
  return { ...policy, maxLaunches, adaptive };
}

// ---- end of adaptive launches ----

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

/**
 * The three named policies, deep-frozen when this module loads (before any user config: hx8 rewrote
 * `policies.default` to quick's launch plan from a config, and the report said "policy default (1
 * launch)"). A run takes a copy ({@link policyNamed}), so nothing downstream aliases this table.
 */
export const policies: Readonly<Record<RunPolicy['name'], RunPolicy>> = deepFreeze({
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
    adaptive: { resolve: null, maxCaseMs: 10_000, maxRunMs: 45_000 },
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
      "two interleaved launches per case, then more until each ratio is resolved against ±2% (up to 10 launches; no extra launch once a case has spent 20 s or the run 3.5 min, but the first two of every case always run, so the run's length is set by its cases: a case of 10,000 records can take minutes), each workload's default size (its smallest: 100 records, company 1,000 employees; larger ones with --size or the long policy)",
    launches: 2,
    maxLaunches: 10,
    sizes: 'default',
    relaunchFactor: 1.25,
    maxRelaunches: 1,
    caseTimeoutMs: 120_000,
    coldStart: { processes: 3, byDefault: false },
    profile: 'default',
    adaptive: { resolve: 0.02, maxCaseMs: 20_000, maxRunMs: 210_000 },
    measure: base,
  },
  long: {
    name: 'long',
    description:
      'eight interleaved launches, then more until each ratio is resolved against ±1% and its standard error is within 1% (up to 20 launches; no extra launch once a case has spent 2 min or the run 1 h: the first eight always run), every size, longer warmup and time cap, cold start in 5 fresh processes per case',
    launches: 8,
    maxLaunches: 20,
    sizes: 'all',
    relaunchFactor: 1.25,
    maxRelaunches: 3,
    caseTimeoutMs: 300_000,
    coldStart: { processes: 5, byDefault: true },
    profile: 'default',
    adaptive: { resolve: 0.01, maxCaseMs: 120_000, maxRunMs: 3_600_000 },
    measure: { ...base, warmupMinMs: 500, warmupMaxMs: 5000, targetRelativeError: 0.005, timeCapMs: 5000 },
  },
});

/** The policy table as this module loaded it, as JSON text (a string cannot be changed in place): what {@link policyChanges} compares with. */
const AS_LOADED = JSON.stringify(policies);
/** JSON.parse as this module loaded it (before any user code). */
const parseJson = JSON.parse;

/**
 * A copy of the policy named `name` (structuredClone: the caller may change it, as `--resolve` and
 * `--serialize-to` do, and results written from it never alias {@link policies}), or undefined for
 * an unknown name.
 */
export function policyCopy(name: string): RunPolicy | undefined {
  if (!Object.hasOwn(policies, name)) return undefined;
  return structuredClone(policies[name as RunPolicy['name']]);
}

/** The fields a flag may change in a named policy (`--resolve`, `--max-time`, `--case-timeout`, `--profile`, `--serialize-to`): left out of {@link policyChanges}. */
const SET_BY_FLAGS: readonly string[] = deepFreeze([
  'maxLaunches',
  'adaptive',
  'caseTimeoutMs',
  'profile',
  'measure.serializeTo',
]);

/**
 * What differs in `policy` from the named policy it carries the name of, as this module loaded it
 * (`launches 1 (its own: 2)`, one entry per field, `measure.confidence` for a measure field), leaving
 * out what flags set ({@link SET_BY_FLAGS}); `[]` when nothing does. A name that is no policy's is
 * one entry. The check at plan time (run/request.ts) refuses a run whose policy differs: a results
 * file that says "policy default" is compared and recorded as one, so its launch plan and confidence
 * must be the default's (hx8).
 */
export function policyChanges(policy: RunPolicy): string[] {
  const own = (parseJson(AS_LOADED) as Record<string, RunPolicy | undefined>)[policy.name];
  if (!own || !Object.hasOwn(policies, policy.name)) return [`name "${String(policy.name)}" (no such policy)`];
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    if (SET_BY_FLAGS.includes(path)) return;
    if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const k of keys)
        walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push(`${path} ${JSON.stringify(a) ?? 'absent'} (its own: ${JSON.stringify(b) ?? 'absent'})`);
  };
  walk(policy, own, '');
  return out;
}

/**
 * Preferred baseline per platform and class, in order; the first serializer that supports the
 * workload is used. JavaScript: the runtime's own `JSON` for serialize and parse. .NET: System.Text.Json
 * with reflection (`stj`) for every class, as in the report site's tables and the .NET studies
 * (its deserializers are typed: class `transform`).
 */
export const baselinePreference: Readonly<Record<Platform, Readonly<Record<CaseClass, readonly string[]>>>> =
  deepFreeze({
    javascript: {
      serialize: ['json'],
      parse: ['json'],
      validate: ['typebox', 'ajv-jtd', 'typia'],
      transform: ['zod', 'valibot', 'arktype', 'class-transformer'],
    },
    dotnet: { serialize: ['stj'], parse: ['stj'], validate: ['stj'], transform: ['stj'] },
  });
