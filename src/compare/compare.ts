/**
 * `jsonbench compare`: two runs, case by case. For each case measured in both, each metric's
 * change with its interval and verdict; cases that were measured in one run and not in the other
 * are called out; cases in only one run are listed.
 */
import { unrankingFinding } from '../results/unranked.js';
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
import { caseReason } from '../report/reason.js';

/**
 * What can be compared: the paired ratio (time ÷ the class baseline's in the same process, robust
 * to the machine's load), time (ns/op), allocation (bytes/op), instructions (per op, callgrind).
 */
export type Metric = 'ratio' | 'time' | 'alloc' | 'instructions';
/** Every metric, in the order rows show them. */
// frozen (compare/ may not import case/'s deepFreeze: flat tables, Object.freeze is deep enough)
export const METRICS: readonly Metric[] = Object.freeze<Metric[]>(['ratio', 'time', 'alloc', 'instructions']);

/**
 * Default minimum effect sizes, in percent. Time: 5%. Allocation: 10%, because a case's bytes/op
 * varies between processes although its windows agree within one (JIT decisions change what is
 * allocated): two launches of the same code measured class-transformer's deserialize 34.4 KB
 * and 32.1 KB (−6.6%), arktype's +4.8% (weather-station, Node 20, 2026-11). Instructions are
 * deterministic: 0.5%.
 */
export const DEFAULT_THRESHOLDS: Readonly<Record<Metric, number>> = Object.freeze({
  ratio: 5,
  time: 5,
  alloc: 10,
  instructions: 0.5,
});
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
export const CAVEAT_MARK: Readonly<Record<Caveat['code'], string>> = Object.freeze({
  'machine-drift': '⇅',
  interrupted: '⏹',
  'one-launch': '①',
});

/** One case measured in both runs. */
export interface CaseComparison {
  id: string;
  workload: string;
  size: number;
  shape: string;
  direction: string;
  serializer: string;
  /** the target it ran on, when the runs named their targets (its id ends `@<target>`; absent: the host's Node) */
  target?: string;
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

/** A case measured in neither run (failed, incorrect, timed out, crashed, not run in both): nothing to compare, so listed. */
export interface FailedInBoth {
  id: string;
  target: string;
  base: CaseStatus;
  head: CaseStatus;
  /** the head's reason (else the base's), when there is one */
  reason: string | null;
}

/** How many cases of one run a target measured, and how many ended without numbers (unsupported pairs apart). */
export interface TargetCount {
  measured: number;
  /** incorrect, failed, timeout, crashed or not run */
  failed: number;
  /** why every case of the target failed without running (not installed, failed to start), with the fix */
  fault?: string;
}

/** One target of either run: its cases measured and failed in each (null: the target is not in that run). */
export interface TargetTally {
  id: string;
  base: TargetCount | null;
  head: TargetCount | null;
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
  /** cases measured in neither run (whose target measured something: a target that measured nothing is said once in `targets`) */
  failedInBoth: FailedInBoth[];
  /** every target of either run, in order (base's, then those only the head has), with its cases measured and failed in each */
  targets: TargetTally[];
  onlyInBase: string[];
  /** of {@link onlyInBase}, the cases measured in base: `--fail-on broken` fails on them (measured in base, not in head) */
  measuredOnlyInBase: string[];
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

/**
 * A ratio or time change of a case that either run did not rank (results/unranked.ts: its ratio or time is not the
 * work's) as `no verdict (not ranked in its run)`, its estimates kept (hx37 l02: a ratio the run refused, its
 * baseline charged another thread's CPU, compared as "same"); a time only when the finding bears on the case's own
 * time (too-fast, waits, clocks-disagree: not baseline-slowed, which is of the baseline's); other changes as they are.
 */
function unrankedNoVerdict(b: CaseResult, h: CaseResult, m: MetricChange): MetricChange {
  if (m.metric !== 'ratio' && m.metric !== 'time') return m;
  // baseline-slowed speaks of the baseline's time beside it: the case's own time stands
  const bears = (c: CaseResult) =>
    m.metric === 'ratio'
      ? unrankingFinding(c.findings)
      : unrankingFinding(c.findings.filter((f) => f.code !== 'baseline-slowed'));
  if (![b, h].some(bears)) return m;
  const { sameBecause: _, ...change } = m.change;
  return { ...m, change: { ...change, verdict: 'no-verdict', noVerdictBecause: 'not-ranked' } };
}

function metricChanges(b: CaseResult, h: CaseResult, o: CompareOptions): MetricChange[] {
  return measuredChanges(b, h, o).map((m) => unrankedNoVerdict(b, h, m));
}

function measuredChanges(b: CaseResult, h: CaseResult, o: CompareOptions): MetricChange[] {
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

/** A run's cases on each of its targets: measured, and ended without numbers (unsupported pairs apart). */
function countsOf(r: ResultsFile): Map<string, TargetCount> {
  const out = new Map<string, TargetCount>();
  for (const t of r.targets) out.set(t.id, { measured: 0, failed: 0, ...(t.fault ? { fault: t.fault } : {}) });
  for (const c of r.cases) {
    if (c.status === 'unsupported') continue;
    if (!out.has(c.target.id)) out.set(c.target.id, { measured: 0, failed: 0 });
    const n = out.get(c.target.id)!;
    if (c.status === 'measured') n.measured++;
    else n.failed++;
  }
  return out;
}

/** Every target of either run (base's order, then the head's new ones), counted in each. */
function targetTallies(base: ResultsFile, head: ResultsFile): TargetTally[] {
  const [b, h] = [countsOf(base), countsOf(head)];
  return [...new Set([...b.keys(), ...h.keys()])].map((id) => ({
    id,
    base: b.get(id) ?? null,
    head: h.get(id) ?? null,
  }));
}

/**
 * Compares `head` against `base`, case by case (matched by case id), in `head`'s order.
 * Unsupported cases are skipped; a case not measured in either run is skipped too.
 */
export function compareResults(base: ResultsFile, head: ResultsFile, options: CompareOptions): Comparison {
  const baseById = new Map(base.cases.map((c) => [c.id, c]));
  const measuredAny = new Set(
    [...base.cases, ...head.cases].filter((c) => c.status === 'measured').map((c) => c.target.id),
  );
  const headIds = new Set(head.cases.map((c) => c.id));
  const differences = comparabilityOf(base, head);
  const out: Comparison = {
    options,
    notComparable: differences.filter((x) => x.what !== 'load'),
    load: differences.find((x) => x.what === 'load') ?? null,
    cases: [],
    statusChanges: [],
    failedInBoth: [],
    targets: targetTallies(base, head),
    onlyInBase: [],
    measuredOnlyInBase: [],
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
        ...(h.id.endsWith(`@${h.target.id}`) ? { target: h.target.id } : {}),
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
        reason: reasonOf(bm ? h : b),
      });
    } else if (b.status !== 'unsupported' && h.status !== 'unsupported' && measuredAny.has(h.target.id)) {
      out.failedInBoth.push({
        id: h.id,
        target: h.target.id,
        base: b.status,
        head: h.status,
        reason: reasonOf(h) ?? reasonOf(b),
      });
    }
  }
  for (const b of base.cases)
    if (!headIds.has(b.id) && b.status !== 'unsupported') {
      out.onlyInBase.push(b.id);
      if (b.status === 'measured') out.measuredOnlyInBase.push(b.id);
    }
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

/** Incomparabilities that do not touch instruction counts (callgrind simulates the CPU): the machine's load, the clock's resolution. */
const NOT_FOR_INSTRUCTIONS: ReadonlySet<string> = new Set(['load', 'clock']);

/**
 * The incomparabilities of `c` that bear on its metrics: all of them, except that a comparison of
 * instruction counts alone (`--metric instructions`) is not touched by the machine's load or the
 * clock's resolution.
 */
export function relevantIncomparabilities(c: Comparison): Comparison['notComparable'] {
  const countsOnly = c.options.metrics.every((m) => m === 'instructions');
  return countsOnly ? c.notComparable.filter((x) => !NOT_FOR_INSTRUCTIONS.has(x.what)) : c.notComparable;
}

/** One reason a comparison fails the gate: a slower case, a broken one, a head that stopped early, or nothing compared. */
export interface GateReason {
  kind: 'slower' | 'broken' | 'incomplete' | 'nothing-compared';
  /** the case, for `slower` and `broken` */
  id?: string;
  /** one line: the case and what changed, or why the gate cannot vouch */
  text: string;
}

/**
 * The reasons a comparison fails the gate (empty: it passes). `slower` gates on instruction counts
 * where both runs have them (`--metric instructions`: deterministic, so the case's time is not gated
 * on), else on ratio, time and allocation verdicts. A verdict of a case either run measured in **one
 * launch** (the quick policy, marked ①) is shown and never gates: one launch's interval comes from
 * its rounds and cannot show how far another process lands (a docs-only pull request at
 * policy quick failed on "+13% [2.6–23%] slower ①" on unchanged code, a new user's tryout). A
 * verdict from launch intervals (the default policy) gates. `slower` never fails when the runs
 * are not comparable ({@link Comparison.notComparable}: the verdicts are not evidence), except for
 * instruction counts, which no clock moves ({@link relevantIncomparabilities}). A load difference
 * ({@link Comparison.load}) bears on time alone (both sides of a ratio ran in one process): where
 * the *base* ran busier, time verdicts gate, as a busier base can only hide a slowdown of the head,
 * never make one (the action's rehearsal met a 20× regression passed as "not comparable" because
 * the base's load was 26.4 and the head's 24.3); where the *head* ran busier, a slower time gates
 * only when its whole interval lies beyond twice the slowdown that load can explain
 * (Incomparability `loadFactor`: a 19× slower head on a machine 7% busier passed the gate at
 * load 15 before). `broken`
 * still does (a case that stopped being measured is a fact whatever the machine did). A slower case
 * with a {@link Caveat} (⇅ machine drift, ⏹ rebuilt from a killed run) still fails, its reason
 * saying so: its verdict passed the same tests, against a noise floor that the launch-to-launch
 * spread of a drifting machine already widens, and a gate that skipped it would pass slower code
 * whenever a CI machine is busy; the reader is told the verdict is not a clean one. With any
 * `failOn`, a comparison where no case was measured in both runs fails (`nothing-compared`): a
 * gate must not pass on nothing.
 */
export function gateReasons(c: Comparison, failOn: readonly FailOn[]): GateReason[] {
  const reasons: GateReason[] = [];
  // a file of an older jsonbench's comparison may list the load among notComparable
  const load = c.load ?? c.notComparable.find((x) => x.what === 'load') ?? null;
  const others = c.notComparable.filter((x) => x.what !== 'load');
  // instruction counts are not touched by the clock's resolution (relevantIncomparabilities)
  const blocked = (metric: Metric) =>
    (metric === 'instructions' ? others.filter((x) => !NOT_FOR_INSTRUCTIONS.has(x.what)) : others).length > 0;
  // a busier head explains a slower time up to twice what its load factor allows, not beyond: a change whose
  // whole interval lies above that is the code's (a 19× slower head on a machine 7% busier passed the gate before)
  const loadExplains = (metric: Metric, ch: Change) =>
    metric === 'time' &&
    load?.busier === 'head' &&
    !(ch.ci !== null && ch.ci.low > 200 * ((load.loadFactor ?? Infinity) - 1));
  if (failOn.includes('slower')) {
    // hx19 F08: runs that measured other payload bytes (or another schema) under one id passed `--fail-on slower`
    // (exit 0): every case measured other work, so nothing was compared (a machine, runtime or policy that differs
    // still blocks its verdicts without failing: a CI base from another runner)
    const otherWork = others.filter((x) => x.what === 'payload' || x.what === 'schema');
    if (c.cases.length && otherWork.length)
      reasons.push({
        kind: 'nothing-compared',
        text: `the runs measured other work (${otherWork.map((x) => x.message).join('; ')}): nothing to gate on`,
      });
    for (const k of c.cases) {
      // where both runs counted instructions, they gate (deterministic); the case's time and ratio are then shown, not gated on
      const counted = k.metrics.some((m) => m.metric === 'instructions');
      for (const m of k.metrics) {
        if (m.change.verdict !== 'slower' || (counted && (m.metric === 'time' || m.metric === 'ratio'))) continue;
        if (blocked(m.metric) || loadExplains(m.metric, m.change)) continue;
        const caveats = caveatsFor(k, m.metric);
        // a one-launch (①) verdict is shown, never gated on
        if (caveats.some((x) => x.code === 'one-launch')) continue;
        reasons.push({
          kind: 'slower',
          id: k.id,
          text: `${k.id}: ${m.metric} ${m.change.percent >= 0 ? '+' : ''}${m.change.percent.toFixed(1)}%${caveats.length ? ` (not a clean verdict: ${caveats.map(caveatText).join('; ')})` : ''}`,
        });
      }
    }
  }
  // a case the head's killed run never reached (`not-run`) did not break: the run stopped before it
  if (failOn.includes('broken'))
    for (const s of c.statusChanges)
      if (s.kind === 'broken' && s.head !== 'not-run')
        reasons.push({ kind: 'broken', id: s.id, text: `${s.id}: ${s.base} → ${s.head}` });
  // measured in base and not in the head run at all (hx35 g3: "Only in base", exit 0 under --fail-on broken)
  if (failOn.includes('broken'))
    for (const id of c.measuredOnlyInBase)
      reasons.push({ kind: 'broken', id, text: `${id}: measured → not in the head run` });
  // …but a gate must not pass on what was never measured (hostile tester: a head killed before its first case passed --fail-on broken,slower)
  if (failOn.length) {
    const unmeasured = c.statusChanges.filter((s) => s.head === 'not-run').map((s) => s.id);
    if (unmeasured.length)
      reasons.push({
        kind: 'incomplete',
        text: `head run incomplete: ${unmeasured.length} case${unmeasured.length === 1 ? '' : 's'} never measured (the run was killed before ${unmeasured.length === 1 ? 'it' : 'them'}: ${unmeasured.slice(0, 3).join(', ')}${unmeasured.length > 3 ? ', …' : ''}); the gate cannot vouch for ${unmeasured.length === 1 ? 'it' : 'them'}`,
      });
    if (c.cases.length === 0)
      reasons.push({ kind: 'nothing-compared', text: 'no case was measured in both runs: nothing to gate on' });
    // hx18 A45: `--metric instructions --fail-on slower` passed (exit 0, an empty table) when neither run counted them
    else if (
      failOn.includes('slower') &&
      c.cases.every((k) => k.metrics.length === 0) &&
      !reasons.some((r) => r.kind === 'nothing-compared')
    )
      reasons.push({
        kind: 'nothing-compared',
        text: `no case has ${c.options.metrics.join(', ')} in both runs: nothing to gate on (a metric is compared only where both runs measured it: run both with the same --metric)`,
      });
  }
  return reasons;
}

/** {@link gateReasons} as lines (empty: the gate passes). */
export function gateFailures(c: Comparison, failOn: readonly FailOn[]): string[] {
  return gateReasons(c, failOn).map((r) => r.text);
}

/**
 * The gate's outcome in a few words, for a heading: `no regression`, `regression: 1 case slower,
 * 2 broken`, or, when nothing was compared, `gate failed: no case was measured in both runs`. Pure.
 */
export function gateHeadline(reasons: readonly GateReason[]): string {
  if (!reasons.length) return 'no regression';
  const nothing = reasons.find((r) => r.kind === 'nothing-compared');
  if (nothing) return `gate failed: ${nothing.text.split(':')[0]}`;
  const cases = (kind: GateReason['kind']) => new Set(reasons.filter((r) => r.kind === kind).map((r) => r.id)).size;
  const parts = [
    cases('slower') ? `${cases('slower')} case${cases('slower') === 1 ? '' : 's'} slower` : '',
    cases('broken') ? `${cases('broken')} broken` : '',
    reasons.some((r) => r.kind === 'incomplete') ? 'head run incomplete' : '',
  ].filter(Boolean);
  return `regression: ${parts.join(', ')}`;
}

/** A case's reason as reports print it (report/reason.ts: a failure on the gate's variant says so first); null when it has none. */
function reasonOf(c: CaseResult): string | null {
  return c.reason === undefined ? null : caseReason(c);
}
