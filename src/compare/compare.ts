/**
 * `jsonbench compare`: two runs, case by case. For each case measured in both, each metric's
 * change with its interval and verdict; cases that were measured in one run and not in the other
 * are called out; cases in only one run are listed.
 */
import { allocWindowRange } from '../results/alloc.js';
import { ratioIntervalOf } from '../results/ratio.js';
import type { CaseResult, CaseStatus, ResultsFile } from '../results/types.js';
import {
  compareIntervals,
  compareRatios,
  compareSamples,
  compareValues,
  type Change,
  type NoVerdictBecause,
  type VerdictRule,
} from './change.js';
import { executionWarnings } from './execution.js';
import { comparabilityOf, type Incomparability } from './comparable.js';

/**
 * What can be compared: the paired ratio (time ÷ the class baseline's in the same process, robust
 * to the machine's load), time (ns/op), allocation (bytes/op), instructions (per op, callgrind).
 */
export type Metric = 'ratio' | 'time' | 'alloc' | 'instructions';
/** Every metric, in the order rows show them. */
export const METRICS: readonly Metric[] = ['ratio', 'time', 'alloc', 'instructions'];

/**
 * Default minimum effect sizes, in percent. Time: 5%. Allocation: 10%, because a case's bytes/op
 * varies between processes although its windows agree within one (JIT decisions change what is
 * allocated): two launches of the same code measured class-transformer's deserialize 34.4 KB
 * and 32.1 KB (−6.6%), arktype's +4.8% (weather-station, Node 20, 2026-11). Instructions are
 * deterministic: 0.5%.
 */
export const DEFAULT_THRESHOLDS: Readonly<Record<Metric, number>> = { ratio: 5, time: 5, alloc: 10, instructions: 0.5 };
/** Default significance level (google/benchmark's tools/compare.py uses 0.05 for its U test). */
export const DEFAULT_ALPHA = 0.05;

/** How to compare: significance level, minimum change per metric (percent), which metrics. */
export interface CompareOptions {
  alpha: number;
  thresholds: Record<Metric, number>;
  /** metrics to compare (and gate on); a metric a case lacks on either side is skipped */
  metrics: readonly Metric[];
}

/**
 * One metric of a case in both runs; `unit` is that of `change.baseMean`/`headMean`. `reported`:
 * the figure each run's reports show for it (time: the Mean column, the mean of the launch means;
 * allocation: the Allocated column, the median of the windows), which compare prints as Base and
 * Head; `change` compares the recorded intervals (ratio; time of files with launch intervals) or
 * the raw samples' means (every timing sample; the allocation windows), as its interval does.
 */
export interface MetricChange {
  metric: Metric;
  unit: 'ratio' | 'ns/op' | 'bytes/op' | 'instructions/op';
  change: Change;
  reported?: {
    base: number;
    head: number;
    /** allocation: each side's window range when its windows disagree (results/alloc.ts), printed instead of one figure */ range?: {
      base: [number, number] | null;
      head: [number, number] | null;
    };
  };
}

/**
 * A finding of one side that qualifies the case's verdicts without removing them: `machine-drift`
 * (⇅, analysers/machine-drift.ts: the machine changed speed between that run's launches of the case,
 * so its time moved with the machine) or `interrupted` (⏹, run/recover.ts: that side was rebuilt from
 * a killed run, from fewer launches than its policy makes and without the allocation pass).
 */
export interface Caveat {
  code: 'machine-drift' | 'interrupted' | 'one-launch';
  side: 'base' | 'head';
  message: string;
}

/** The mark of each caveat, as the reports show the finding. */
export const CAVEAT_MARK: Readonly<Record<Caveat['code'], string>> = {
  'machine-drift': '⇅',
  interrupted: '⏹',
  'one-launch': '①',
};

/** One case measured in both runs. */
export interface CaseComparison {
  id: string;
  workload: string;
  size: number;
  shape: string;
  direction: string;
  serializer: string;
  baseVersion: string;
  headVersion: string;
  metrics: MetricChange[];
  /** the findings of either side that qualify its verdicts (empty: none); see {@link Caveat} */
  caveats: Caveat[];
}

/** The caveats of a case measured in both runs: base's, then head's (its findings, then a time interval from one launch). */
function caveatsOf(b: CaseResult, h: CaseResult): Caveat[] {
  return (
    [
      ['base', b],
      ['head', h],
    ] as const
  ).flatMap(([side, c]) => [
    ...c.findings
      .filter(
        (f): f is typeof f & { code: 'machine-drift' | 'interrupted' } =>
          f.code === 'machine-drift' || f.code === 'interrupted',
      )
      .map((f) => ({ code: f.code, side, message: f.message })),
    ...(c.time?.basis === 'rounds'
      ? [
          {
            code: 'one-launch' as const,
            side,
            message:
              "measured in one launch: its interval is from that launch's rounds, which cannot show how far another process lands",
          },
        ]
      : []),
  ]);
}

/** The caveats of `k` that bear on `metric` (all of them without one): machine drift and a one-launch interval are about time and the ratio alone. */
export function caveatsFor(k: CaseComparison, metric?: Metric): Caveat[] {
  return (k.caveats ?? []).filter(
    (c) => metric === undefined || c.code === 'interrupted' || metric === 'time' || metric === 'ratio',
  );
}

/** How a caveat is said beside a `--fail-on` reason or under the table: `⇅ machine drift in head: …`. */
export function caveatText(c: Caveat): string {
  return c.code === 'machine-drift'
    ? `${CAVEAT_MARK[c.code]} machine drift in ${c.side}: the machine changed speed between its launches of this case, so part of the change may be the machine's`
    : `${CAVEAT_MARK[c.code]} ${c.side}: ${c.message}`;
}

/** A case measured in one run and not in the other (`broken`: measured → not; `fixed`: not → measured). */
export interface StatusChange {
  id: string;
  kind: 'broken' | 'fixed';
  base: CaseStatus;
  head: CaseStatus;
  reason: string | null;
}

/** The whole comparison of two runs (head against base). */
export interface Comparison {
  options: CompareOptions;
  /** why the two runs are not comparable (empty: they are): then the verdicts are not evidence, and `--fail-on slower` does not fail on them */
  notComparable: Incomparability[];
  /**
   * the machines' loads differed (compare/comparable.ts; null: they did not): a caveat on the time
   * verdicts only. A busier machine slows every case's time, not its ratio (both sides of a ratio
   * run in one process, alternating rounds), so the ratio verdicts stand; a slower time of a head
   * measured on the busier machine does not fail `--fail-on slower`.
   */
  load: Incomparability | null;
  cases: CaseComparison[];
  statusChanges: StatusChange[];
  onlyInBase: string[];
  onlyInHead: string[];
  /** said before the verdicts: how the runs differ in ways that move every case (compare/execution.ts) */
  warnings: string[];
  /** cases of either run left out when it was read (a status of a newer jsonbench), with the sentence said about each */
  unread: { side: 'base' | 'head'; id: string; problem: string }[];
}

/** Raw time samples of a case (ns/op): every round of every kept (not discarded) launch. */
export function timeSamples(c: CaseResult): number[] {
  return c.samples.launches.filter((l) => !l.discarded).flatMap((l) => l.rounds.flatMap((r) => r.serializerNs));
}

/** Mean time of each kept launch that has samples (ns/op). */
export function launchMeans(c: CaseResult): number[] {
  return c.samples.launches
    .filter((l) => !l.discarded)
    .map((l) => l.rounds.flatMap((r) => r.serializerNs))
    .filter((xs) => xs.length)
    .map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);
}

/** Instructions per op of a case, when it was measured with `--metric instructions`. */
export function instructionsOf(c: CaseResult): number | undefined {
  return c.instructions?.perOp;
}

/**
 * Why a case's sampled metric cannot get a verdict, or undefined when it can: `noisy` when either
 * side's time carries the `noisy` finding (time only), `one-launch` when either side kept fewer
 * than 2 launches with samples (time and allocation: both move between processes more than
 * within one, see {@link DEFAULT_THRESHOLDS}).
 */
export function noVerdictOf(b: CaseResult, h: CaseResult, metric: 'time' | 'alloc'): NoVerdictBecause | undefined {
  if (metric === 'time' && [b, h].some((c) => c.findings.some((f) => f.code === 'noisy'))) return 'noisy';
  if ([b, h].some((c) => launchMeans(c).length < 2)) return 'one-launch';
  return undefined;
}

function metricChanges(b: CaseResult, h: CaseResult, o: CompareOptions): MetricChange[] {
  const rule = (m: Metric): VerdictRule => ({ alpha: o.alpha, thresholdPercent: o.thresholds[m] });
  const out: MetricChange[] = [];
  // the paired ratio: not of a baseline against itself (always 1), nor against another baseline
  const paired = (c: CaseResult) => (c.status === 'measured' && c.serializer !== c.baseline ? c.ratio : null);
  const [rb, rh] = [paired(b), paired(h)];
  if (o.metrics.includes('ratio') && rb && rh && b.baseline === h.baseline) {
    out.push({
      metric: 'ratio',
      unit: 'ratio',
      change: compareRatios(
        { ratio: rb, interval: ratioIntervalOf(b) },
        { ratio: rh, interval: ratioIntervalOf(h) },
        rule('ratio'),
      ),
      reported: { base: rb, head: rh },
    });
  }
  if (o.metrics.includes('time')) {
    const bs = timeSamples(b);
    const hs = timeSamples(h);
    if (bs.length && hs.length)
      out.push({
        metric: 'time',
        unit: 'ns/op',
        change:
          b.time?.basis && h.time?.basis
            ? // launch intervals carry a noisy case's launch-to-launch spread in their Error: no veto
              // (a 19× slower head flagged noisy passed the gate as "no verdict": the action's test)
              compareIntervals(b.time, h.time, bs, hs, rule('time'))
            : compareSamples(bs, hs, rule('time'), {
                fastDecile: true,
                launchMeans: { base: launchMeans(b), head: launchMeans(h) },
                noVerdict: noVerdictOf(b, h, 'time'),
              }),
        ...(b.time && h.time ? { reported: { base: b.time.mean, head: h.time.mean } } : {}),
      });
  }
  const bw = b.allocated?.windows;
  const hw = h.allocated?.windows;
  if (o.metrics.includes('alloc') && bw?.length && hw?.length) {
    out.push({
      metric: 'alloc',
      unit: 'bytes/op',
      change: compareSamples(bw, hw, rule('alloc'), { noVerdict: noVerdictOf(b, h, 'alloc') }),
      ...(b.allocated?.mean !== undefined && h.allocated?.mean !== undefined
        ? {
            reported: {
              base: b.allocated.mean,
              head: h.allocated.mean,
              range: { base: allocWindowRange(b.allocated), head: allocWindowRange(h.allocated) },
            },
          }
        : {}),
    });
  }
  const bi = instructionsOf(b);
  const hi = instructionsOf(h);
  if (o.metrics.includes('instructions') && bi !== undefined && hi !== undefined && bi > 0) {
    out.push({ metric: 'instructions', unit: 'instructions/op', change: compareValues(bi, hi, rule('instructions')) });
  }
  return out;
}

/**
 * Compares `head` against `base`, case by case (matched by case id), in `head`'s order.
 * Unsupported cases are skipped; a case not measured in either run is skipped too.
 */
export function compareResults(base: ResultsFile, head: ResultsFile, options: CompareOptions): Comparison {
  const baseById = new Map(base.cases.map((c) => [c.id, c]));
  const headIds = new Set(head.cases.map((c) => c.id));
  const differences = comparabilityOf(base, head);
  const out: Comparison = {
    options,
    notComparable: differences.filter((x) => x.what !== 'load'),
    load: differences.find((x) => x.what === 'load') ?? null,
    cases: [],
    statusChanges: [],
    onlyInBase: [],
    onlyInHead: [],
    warnings: executionWarnings(base, head),
    unread: [
      ...(base.unread ?? []).map((u) => ({ side: 'base' as const, id: u.id, problem: u.problem })),
      ...(head.unread ?? []).map((u) => ({ side: 'head' as const, id: u.id, problem: u.problem })),
    ],
  };
  for (const h of head.cases) {
    const b = baseById.get(h.id);
    if (!b) {
      if (h.status !== 'unsupported') out.onlyInHead.push(h.id);
      continue;
    }
    if (b.status === 'unsupported' && h.status === 'unsupported') continue;
    const bm = b.status === 'measured';
    const hm = h.status === 'measured';
    if (bm && hm) {
      out.cases.push({
        id: h.id,
        workload: h.workload,
        size: h.size,
        shape: h.shape,
        direction: h.direction,
        serializer: h.serializer,
        baseVersion: b.serializerVersion,
        headVersion: h.serializerVersion,
        metrics: metricChanges(b, h, options),
        caveats: caveatsOf(b, h),
      });
    } else if (bm !== hm) {
      out.statusChanges.push({
        id: h.id,
        kind: bm ? 'broken' : 'fixed',
        base: b.status,
        head: h.status,
        reason: (bm ? h.reason : b.reason) ?? null,
      });
    }
  }
  for (const b of base.cases) if (!headIds.has(b.id) && b.status !== 'unsupported') out.onlyInBase.push(b.id);
  return out;
}

/**
 * A case's verdict over its metrics: `slower` when any metric is slower; else `faster` when any is
 * faster; else `no-verdict` when any has none; else `same`. A case without metrics has no verdict.
 * (The notes under compare's table count each metric's verdicts, as its rows show them.)
 */
export function caseVerdict(k: CaseComparison): Change['verdict'] {
  const vs = k.metrics.map((m) => m.change.verdict);
  for (const v of ['slower', 'faster', 'no-verdict'] as const) if (vs.includes(v)) return v;
  return vs.length ? 'same' : 'no-verdict';
}

/** What `--fail-on` can gate on: any metric `slower`, or any case `broken` (measured in base, not in head; a head killed before the case, `not-run`, is not a break). */
export type FailOn = 'slower' | 'broken';

/**
 * The reasons a comparison fails the gate (empty: it passes). `slower` gates on instruction counts
 * where both runs have them (`--metric instructions`: deterministic, so the case's time is not gated
 * on), else on time and allocation verdicts; a time verdict of files with launch intervals comes
 * from those intervals (change.ts compareIntervals), so a quick run (one launch) can fail too, its
 * reason carrying the one-launch caveat (①). `slower` never fails when the runs
 * are not comparable ({@link Comparison.notComparable}: the verdicts are not evidence). A load
 * difference ({@link Comparison.load}) keeps every verdict but a slower *time* of a head measured on
 * the busier machine (the load's as likely as the code's); where the *base* ran busier, its time
 * verdicts gate too, as a busier base can only hide a slowdown of the head, never make one (a shared
 * CI runner's load moves between the two measurements; the action's rehearsal met a 20× regression
 * passed as "not comparable" because the base's load was 26.4 and the head's 24.3); `broken`
 * still does (a case that stopped being measured is a fact whatever the machine did). A slower case
 * with a {@link Caveat} (⇅ machine drift, ⏹ rebuilt from a killed run) still fails, its reason
 * saying so: its verdict passed the same tests, against a noise floor that the launch-to-launch
 * spread of a drifting machine already widens, and a gate that skipped it would pass slower code
 * whenever a CI machine is busy; the reader is told the verdict is not a clean one.
 */
export function gateFailures(c: Comparison, failOn: readonly FailOn[]): string[] {
  const reasons: string[] = [];
  // a file of an older jsonbench's comparison may list the load among notComparable
  const blocking = c.notComparable.filter((x) => x.what !== 'load');
  const load = c.load ?? c.notComparable.find((x) => x.what === 'load') ?? null;
  if (failOn.includes('slower') && blocking.length === 0) {
    for (const k of c.cases) {
      // where both runs counted instructions, they gate (deterministic); the case's time and ratio are then shown, not gated on
      const counted = k.metrics.some((m) => m.metric === 'instructions');
      for (const m of k.metrics) {
        if (m.change.verdict !== 'slower' || (counted && (m.metric === 'time' || m.metric === 'ratio'))) continue;
        if (m.metric === 'time' && load?.busier === 'head') continue;
        const caveats = caveatsFor(k, m.metric).map(caveatText);
        reasons.push(
          `${k.id}: ${m.metric} ${m.change.percent >= 0 ? '+' : ''}${m.change.percent.toFixed(1)}%${caveats.length ? ` (not a clean verdict: ${caveats.join('; ')})` : ''}`,
        );
      }
    }
  }
  // a case the head's killed run never reached (`not-run`) did not break: the run stopped before it
  if (failOn.includes('broken'))
    for (const s of c.statusChanges)
      if (s.kind === 'broken' && s.head !== 'not-run') reasons.push(`${s.id}: ${s.base} → ${s.head}`);
  // …but a gate must not pass on what was never measured (hostile tester: a head killed before its first case passed --fail-on broken,slower)
  if (failOn.length) {
    const unmeasured = c.statusChanges.filter((s) => s.head === 'not-run').map((s) => s.id);
    if (unmeasured.length)
      reasons.push(
        `head run incomplete: ${unmeasured.length} case${unmeasured.length === 1 ? '' : 's'} never measured (the run was killed before ${unmeasured.length === 1 ? 'it' : 'them'}: ${unmeasured.slice(0, 3).join(', ')}${unmeasured.length > 3 ? ', …' : ''}); the gate cannot vouch for ${unmeasured.length === 1 ? 'it' : 'them'}`,
      );
    if (c.cases.length === 0) reasons.push('no case was measured in both runs: nothing to gate on');
  }
  return reasons;
}
