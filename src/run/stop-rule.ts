/**
 * When a case gets another launch beyond the policy's `launches` (pure): with a `resolve` band,
 * until its reported ratio is resolved against it, and with a band of 1% or finer until its
 * standard error is within the band too ({@link wantsAnotherLaunch}); else while some two of its
 * kept launches disagree beyond their intervals ({@link needsAnotherLaunch}); never past the
 * launch cap or a time budget ({@link budgetStop}). run/scheduler.ts applies it.
 */
import type { LaunchRecord } from '../results/types.js';
import type { RunPolicy } from '../config/policies.js';
import type { CaseRecord } from './assemble.js';
import { disagreeingPair, resolution, type Resolution } from '../stats/intervals.js';
import { keptReadings, launchRatioReadings, launchTimeReadings } from '../analysers/launches-disagree.js';

/**
 * A launch's estimate and its relative standard error, as the intervals, the launch states and the
 * `noisy` analyser read it (analysers/launches-disagree.ts: a paired case's launch ratio, the median
 * of its per-round ratios; else its mean time, ns/op); null without a round.
 */
export function launchEstimate(launch: LaunchRecord, paired: boolean): { value: number; se: number } | null {
  const r = (paired ? launchRatioReadings : launchTimeReadings)([launch])[0];
  return r ? { value: r.value, se: r.se } : null;
}

/**
 * Whether a case needs another launch: some two of its kept launches disagree at `confidence`
 * beyond what the launch-to-launch spread predicts (stats/intervals.ts disagreeingPair:
 * t·√(2·s² + se_a² + se_b²), `spread` the case's yardstick — run/assemble.ts groupYardsticks:
 * its group without it, moderated with the run's other groups' prior — for its ratio when
 * `paired`, else its time), or, without a spread, beyond their own errors alone.
 */
export function needsAnotherLaunch(
  launches: readonly LaunchRecord[],
  paired: boolean,
  confidence: number,
  spread?: { variance: number; df: number },
): boolean {
  const est = keptReadings(launches, paired);
  return (
    disagreeingPair(
      est.map((e) => e.value),
      est.map((e) => e.se),
      confidence,
      spread,
    ) !== null
  );
}

// ---- adaptive launches (docs/adaptive-launches.md) ----

/** How a ratio's interval stands against the ±resolve band around 1 (stats/intervals.ts resolution). */
export type ResolutionState = Resolution;
/** What stopped the launches of a case before it was resolved. */
export type StopReason = 'case budget' | 'run budget' | 'launch cap';

/**
 * A paired case's reported ratio interval with its basis and the standard error of its log
 * (run/assemble.ts groupRatios), or null without a ratio.
 */
export type JudgedRatio = {
  interval: readonly [number, number] | null;
  basis?: 'launches' | 'moderated' | 'rounds';
  se?: number;
} | null;

/**
 * The widest `resolve` band that also asks for precision: with `--resolve 1%` or finer (the long
 * policy's ±1%), a paired case is settled only when, besides its interval standing clear of the
 * band or inside it, the standard error of its ratio's log is at most `resolve` (issue 23,
 * decision 1: "the ≤ 1% ratio-CV figure becomes the target of `--policy long` (and of `--resolve
 * 1%`)"). Without it a ratio far from 1 (weather-station serialize fast-json-stringify ÷ json,
 * 0.66) differed from ±1% after the long policy's first 5 launches, whatever their spread: launches
 * in two states 5–7% apart left its centre's SD near Δ·√(p(1 − p)/5) ≈ 1.1–1.6% from run to run.
 * The SE (run/assemble.ts precisionSe) is, from 4 launches on, the larger of the launch ratios' own
 * s/√k, which holds Δ²·p(1 − p) when two states lie too close to split, and the two-state mixture's
 * where they were split (stats/intervals.ts mixtureInterval: the shares' uncertainty): such a case
 * keeps launching (to about 10–13 launches) up to the cap and the budgets. Coarser bands (the default policy's ±2%) ask for the side of the band only: their
 * suites' time targets are set without it.
 */
export const PRECISION_RESOLVE = 0.01;

/**
 * Whether a judged ratio falls short of the precision a `resolve` band of {@link PRECISION_RESOLVE}
 * or finer asks for: the standard error of its log above `resolve` (or none known: no interval of
 * the launches). False for a coarser band.
 */
export function lacksPrecision(judged: JudgedRatio, resolve: number): boolean {
  if (!(resolve <= PRECISION_RESOLVE)) return false;
  const se = judged?.se;
  return !(se !== undefined && se <= resolve);
}

/**
 * Whether a live case wants a launch beyond the policy's `launches`: a paired case of a run with
 * `resolve` while its reported ratio interval (`judged`: run/assemble.ts groupRatios, the interval
 * results.json will carry, with the group's spread from the current launches) is unresolved
 * (stats/intervals.ts resolution: straddling an edge of the band, no interval, or one launch's
 * rounds only, `basis: 'rounds'`, which never resolves), or, with a band of
 * {@link PRECISION_RESOLVE} or finer, while the standard error of its ratio's log exceeds the band
 * ({@link lacksPrecision}); any other case (no `resolve`, or no ratio:
 * the baseline's own case, an unpaired one) while its launches disagree beyond what the spread
 * model predicts ({@link needsAnotherLaunch}; `yardstick`: run/assemble.ts groupYardsticks).
 */
export function wantsAnotherLaunch(
  rec: CaseRecord,
  policy: RunPolicy,
  judged: JudgedRatio,
  yardstick?: { time?: { variance: number; df: number }; ratio?: { variance: number; df: number } },
): boolean {
  const { resolve } = policy.adaptive;
  if (resolve !== null && rec.paired)
    return (
      resolution(judged?.interval ?? null, resolve, judged?.basis, rec.launches.filter((x) => !x.discarded).length) ===
        'unresolved' || lacksPrecision(judged, resolve)
    );
  return needsAnotherLaunch(
    rec.launches,
    rec.paired,
    policy.measure.confidence,
    rec.paired ? yardstick?.ratio : yardstick?.time,
  );
}

/** What the budgets see of a case before its next launch (all times wall ms). */
export interface BudgetState {
  /** the number the next launch would have */
  launch: number;
  maxLaunches: number;
  /** each launch that carried the case so far (the longest predicts the next) */
  spentMs: readonly number[];
  maxCaseMs: number;
  /** the run's launches so far, from the first */
  runElapsedMs: number;
  /** what the run budget allows up to the end of this group ({@link runQuotaMs}) */
  runQuotaMs: number;
}

/**
 * Why the next launch of a case must not begin, or null when it may: the launch cap, or a budget
 * the next launch is predicted to pass (its predicted time: the longest of the case's launches so
 * far, not their mean: at load 22 a launch after four of 3.2–4.3 s took 7.1 s). A budget is never
 * passed by a launch the prediction saw coming; a launch longer than all before it may pass it by
 * its excess.
 */
export function budgetStop(b: BudgetState): StopReason | null {
  if (b.launch > b.maxLaunches) return 'launch cap';
  const spent = b.spentMs.reduce((n, x) => n + x, 0);
  const next = b.spentMs.length ? Math.max(...b.spentMs) : 0;
  if (spent + next > b.maxCaseMs) return 'case budget';
  if (b.runElapsedMs + next > b.runQuotaMs) return 'run budget';
  return null;
}

/**
 * The run budget paced over the groups: by the end of a group, the run may have used its share of
 * `maxRunMs` in proportion to the cases planned up to and including it, so the first groups
 * cannot spend what the last ones need. @param casesThrough cases of the groups up to this one
 */
export function runQuotaMs(maxRunMs: number, casesThrough: number, casesTotal: number): number {
  return casesTotal > 0 ? (maxRunMs * casesThrough) / casesTotal : maxRunMs;
}

/** `±2%`, `±0.5%`. */
export function bandText(resolve: number): string {
  return `±${Number((resolve * 100).toPrecision(3))}%`;
}

/**
 * A case's resolution line: `differs: interval [1.102–1.150] clear of ±2%`, `within ±2%: interval
 * [0.991–1.008]`, `unresolved: interval [0.970–1.040] straddles ±2% (case budget 20 s: 20.4 s spent)`; a case whose
 * first launches alone passed the budget: `(case budget 20 s: 149.0 s spent by the first launches; no extra launch)`.
 */
export function resolutionText(
  state: ResolutionState,
  interval: readonly [number, number] | null,
  resolve: number,
  stop?: { by: StopReason; spentMs: number; budgetMs?: number },
): string {
  const iv = interval ? `interval [${interval[0].toFixed(3)}–${interval[1].toFixed(3)}]` : 'no interval';
  const band = bandText(resolve);
  if (state === 'differs') return `differs: ${iv} clear of ${band}`;
  if (state === 'within') return `within ${band}: ${iv}`;
  // a case budget bounds only the extra launches: the spent time (often far over it) is the first launches' own
  const limit =
    stop?.budgetMs !== undefined && stop.by !== 'launch cap'
      ? ` ${Number((stop.budgetMs / 1000).toPrecision(3))} s`
      : '';
  const spent = stop ? `${(stop.spentMs / 1000).toFixed(1)} s` : '';
  const why = !stop
    ? ''
    : stop.by === 'run budget' && limit
      ? ` (run budget${limit} used up by the run's launches; this case ${spent})`
      : ` (${stop.by}${limit}: ${spent} spent${limit && stop.spentMs > stop.budgetMs! ? ' by the first launches; no extra launch' : ''})`;
  return `unresolved: ${iv} ${interval ? 'straddles' : 'at'} ${band}${why}`;
}
