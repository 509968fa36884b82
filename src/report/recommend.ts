/**
 * The recommendation of a run on a user's payload (issue 10): per scenario (workload × size ×
 * shape × target) and per direction and guarantee class, the fastest serializer that passed the
 * correctness gate and is clearly faster than the class baseline, with its ratio and error, its
 * allocation and what it costs in behaviour — or that nothing is clearly faster, so use the
 * baseline (the built-in, for serialize and parse). One sentence each, to paste into a design
 * review. A pure function of a results file.
 *
 * "Clearly faster" is the takeaway's rule, from the same function (takeaway.ts
 * `fasterThanBaseline`): the log-scale interval of the case's per-round ratio against the baseline
 * (results/ratio.ts `ratioIntervalOf`) lies entirely below 1. A case without a paired ratio, one
 * flagged too fast to be real, and one whose paired baseline ran slowed beside it (the
 * `baseline-slowed` finding) are never picked. The confidence level is the run policy's (99.9% by
 * default).
 *
 * Behaviour costs come from {@link CostSource}s: the need for a schema at all, the translation
 * notes (what the library's schema checks more loosely than the payload's schema), and the
 * capability probes (issue 11) when the results file carries them (`probes`: each ✗ wrong,
 * ⚠ throws or ✘ cannot verdict of the pick's serializer, direction and target becomes a cost);
 * a caller may pass other sources.
 */
import type { CaseClass, Direction } from '../case/coordinates.js';
import type { CaseResult, MeasuredCase, PayloadRecord, ResultsFile } from '../results/types.js';
import { isMeasured } from '../results/types.js';
import { ratioIntervalOf } from '../results/ratio.js';
import { allocRatioRange, allocWindowRange } from '../results/alloc.js';
import { targetLabel } from './model.js';
import { countOf, formatBytes, formatRatio, formatTime } from './units.js';
import { escapeCell } from './table/escape.js';
import { clipLine, wrap } from './fit.js';
import { ratioVerdict, type RatioVerdict } from '../results/decision.js';
import { payloadCosts } from './costs.js';
import {
  fasterThanBaseline,
  formatInterval,
  quickCaveat,
  unrankedFinding,
  unrankedReason,
  type TakeawayRow,
} from './takeaway.js';

/** One thing a serializer costs in behaviour, and where it was found. */
export interface BehaviourCost {
  /** `schema`: it needs the payload's schema; `translation`: a translation note; `probe`: a failed capability probe (issue 11) */
  source: 'schema' | 'translation' | 'probe';
  text: string;
}

/**
 * A source of behaviour costs for a measured case (the hook capability probes plug into: issue 11
 * passes one that turns each failed probe of `c`'s serializer into a cost). Pure.
 */
export type CostSource = (c: MeasuredCase, results: ResultsFile) => BehaviourCost[];

/** A schema-driven serializer needs the payload's schema: the cost says where this run's came from. */
export const schemaCost: CostSource = (c, results) => {
  if (c.family !== 'schema-compiled' && c.family !== 'validator' && c.family !== 'reflection') return [];
  const payload = results.payloads?.find((p) => p.workload === c.workload);
  if (!payload) return [{ source: 'schema', text: "it needs the workload's schema" }];
  const origin =
    payload.schema.source === 'inferred'
      ? 'here inferred from your payload: review it with --print-schema, pass it back with --schema'
      : `here your ${payload.schema.source === 'json-schema' ? 'JSON Schema' : `${payload.schema.source} schema`}${payload.schema.file ? ` ${payload.schema.file}` : ''}`;
  return [
    {
      source: 'schema',
      text: `it needs the payload's schema (${origin}); a payload that drifts from it fails or loses data`,
    },
  ];
};

/** The case's translation notes, each a cost. */
export const translationCosts: CostSource = (c) => (c.notes ?? []).map((text) => ({ source: 'translation', text }));

/**
 * The parts of issue 11's probe records a recommendation reads (results `probes`, written by
 * `jsonbench probe` and by timed runs that include the probes relevant to their payloads). Read
 * structurally: a results file without probes, or with records of another shape, gives no costs.
 */
interface ProbeVerdictLike {
  probe: string;
  direction: Direction;
  serializer: string;
  target: string;
  verdict: {
    mark: string;
    fault?: string;
    path?: string;
    expected?: string;
    actual?: string;
    message?: string;
    reason?: string;
  };
}
interface ProbesLike {
  probes?: { id: string; title?: string }[];
  verdicts?: ProbeVerdictLike[];
  relevantTo?: Record<string, string[]>;
}

/** The probes section of a results file, when it has one of the expected shape. */
export function probesOf(results: ResultsFile): ProbesLike | null {
  const p = (results as { probes?: unknown }).probes;
  if (!p || typeof p !== 'object' || !Array.isArray((p as ProbesLike).verdicts)) return null;
  return p as ProbesLike;
}

const clipText = (s: string, max = 80) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * Each failed probe of the case's serializer (same direction and target; for a timed run, only
 * probes chosen for the case's workload) as a cost: ✗ wrong (`<probe>: silent-loss at $.a
 * (expected …, got …)`), ⚠ throws (`<probe>: throws (message)`), ✘ cannot (`<probe>: cannot
 * (reason)`). ✔ and – (not expressible in jsonbench yet) are not costs.
 */
export const probeCosts: CostSource = (c, results) => {
  const p = probesOf(results);
  if (!p) return [];
  const titles = new Map((p.probes ?? []).map((x) => [x.id, x.title ?? x.id]));
  const out: BehaviourCost[] = [];
  for (const v of p.verdicts ?? []) {
    if (v.serializer !== c.serializer || v.direction !== c.direction || v.target !== c.target.id) continue;
    if (p.relevantTo && !(p.relevantTo[v.probe] ?? []).includes(c.workload)) continue;
    const title = titles.get(v.probe) ?? v.probe;
    const d = v.verdict;
    if (d.mark === '✗')
      out.push({
        source: 'probe',
        text: `${title}: ${d.fault ?? 'wrong'} at ${d.path ?? '$'} (expected ${clipText(d.expected ?? '?')}, got ${clipText(d.actual ?? '?')})`,
      });
    else if (d.mark === '⚠') out.push({ source: 'probe', text: `${title}: throws (${clipText(d.message ?? '')})` });
    else if (d.mark === '✘') out.push({ source: 'probe', text: `${title}: cannot (${clipText(d.reason ?? '')})` });
  }
  return out;
};

/** The cost sources used when none are given. */
export const DEFAULT_COST_SOURCES: readonly CostSource[] = [schemaCost, translationCosts, payloadCosts];

/** The scenario a recommendation is for. */
export interface Scenario {
  workload: string;
  size: number;
  shape: string;
  /** the target's label (`node 20.20.2`) */
  target: string;
  /** payload bytes measured */
  bytes: number;
}

/** The recommended serializer of one direction × class. */
export interface Pick {
  serializer: string;
  version: string;
  /** time ÷ the baseline's time (median of per-round ratios when paired, else the ratio of means) */
  ratio: number;
  /** the ratio's confidence interval [low, high] on the log scale; null when the case was not paired */
  ratioInterval: [number, number] | null;
  meanNs: number;
  errorNs: number;
  baselineMeanNs: number;
  /** bytes allocated per op, and ÷ the baseline's (absent where the runtime has no counter) */
  allocatedBytes?: number;
  allocRatio?: number | null;
  /** when the pick's allocation windows disagree: their [lowest, highest] bytes/op, and the allocation ratio's range they and the baseline's support */
  allocatedRange?: [number, number];
  allocRatioRange?: [number, number];
  noisy: boolean;
  costs: BehaviourCost[];
}

/** The recommendation for one scenario × direction × class. */
export interface Recommendation {
  scenario: Scenario;
  direction: Direction;
  caseClass: CaseClass;
  /** the class baseline (null: the class had none) */
  baseline: string | null;
  baselineVersion?: string;
  /** null: nothing is clearly faster than the baseline (or the baseline has no number) */
  pick: Pick | null;
  /** measured cases other than the baseline that were compared */
  compared: number;
  /**
   * With no pick: the compared serializer with the lowest ratio (never one too fast to be real),
   * whose interval reaches the baseline's — what a design review will ask about
   */
  closest?: { serializer: string; ratio: number; interval: [number, number] | null };
  /** how many of the measured cases (baseline included) were flagged noisy */
  noisy: number;
  /** serializers of the class that gave no number, with their status, and measured ones not ranked (status `not ranked`: the baseline-slowed finding): never candidates */
  excluded: { serializer: string; status: string; reason: string }[];
  /**
   * What the sentence says (issue 22): `use` a serializer clearly faster than the baseline (`pick`);
   * `borderline`: the fastest-looking one's interval ends at the decision line, so a rerun could say
   * either (`borderline`); `baseline`: every other is clearly slower; `no-clear-winner`: the others
   * are within noise of the baseline; `none`: nothing to compare (no baseline, or it has no number,
   * or it ran alone)
   */
  state: 'use' | 'borderline' | 'baseline' | 'no-clear-winner' | 'none';
  /** with state `borderline` (or beside a pick): the lowest-ratio serializer whose call is too close to make */
  borderline?: { serializer: string; ratio: number; interval: [number, number] };
  /** one sentence, ready to paste */
  sentence: string;
}

const CLASS_ORDER: readonly CaseClass[] = ['serialize', 'parse', 'validate', 'transform'];

/** What a direction × class does, as the sentence says it. */
function doing(direction: Direction, cls: CaseClass): string {
  if (direction === 'serialize') return 'serializing';
  if (cls === 'parse') return 'parsing (no type checks)';
  if (cls === 'validate') return 'parsing with type validation';
  return 'parsing into typed values (validate and transform)';
}

/** How a sentence names the baseline: the built-in's own call for `json`. */
function baselineName(id: string, direction: Direction): string {
  return id === 'json' ? (direction === 'serialize' ? 'the built-in JSON.stringify' : 'the built-in JSON.parse') : id;
}

function scenarioText(s: Scenario, payload: PayloadRecord | undefined): string {
  const unit =
    s.shape === 'single'
      ? 'document'
      : s.shape === 'list'
        ? `array of ${countOf(s.size, 'record')}`
        : `${countOf(s.size, payload?.kind === 'samples' ? 'sample' : 'record')} one by one`;
  const what = payload
    ? `${payload.file} (${formatBytes(s.bytes)} ${unit})`
    : `${s.workload} (${formatBytes(s.bytes)} ${unit})`;
  return `${what} on ${s.target}`;
}

/** A measured case as the takeaway ranks it (takeaway.ts): its paired ratio and interval, and why it is not ranked when a finding says so. */
export function takeawayRowOf(c: MeasuredCase): TakeawayRow {
  const why = unrankedReason(c.findings);
  return {
    name: c.serializer,
    label: c.serializer,
    status: c.status,
    ratio: c.ratio,
    interval: c.ratio !== null ? ratioIntervalOf(c) : null,
    allocRatio: c.allocRatio ?? null,
    ...(why ? { unranked: why } : {}),
  };
}

/**
 * Clearly faster than the baseline: the takeaway's rule ({@link fasterThanBaseline} on
 * {@link takeawayRowOf}), so the recommendation and the group's takeaway never disagree: the
 * paired ratio's log-scale interval lies entirely below 1 (the ratio is already against the baseline).
 */
export function clearlyFaster(c: MeasuredCase): boolean {
  return fasterThanBaseline(takeawayRowOf(c));
}

/**
 * What the pick costs in behaviour, as lines under its sentence (terminal, report.md): one per cost
 * (`schema: …`, `looser check: …`, `probe: …`), or one saying the gate found none. THE one place
 * their content is made (issue 24 reworks it): every renderer calls this. Empty without a pick.
 * @param probed the results file carries capability probes
 */
export function costLines(r: { pick: Recommendation['pick'] }, probed: boolean): string[] {
  if (!r.pick) return [];
  if (!r.pick.costs.length)
    return [
      `costs: the gate found no behaviour cost${probed ? ' and no probe failed' : ' (capability probes: not in this run)'}`,
    ];
  return r.pick.costs.map((k) => `${k.source === 'translation' ? 'looser check' : k.source}: ${k.text}`);
}

/** What to confirm a noisy timing with, after a run of this policy: the next longer policy, on a quieter machine (a default run was told to confirm with --policy default). */
export function confirmWith(policyName: string): string {
  return policyName === 'quick'
    ? 'confirm with --policy default on a quieter machine'
    : policyName === 'default'
      ? 'confirm with --policy long on a quieter machine'
      : 'confirm on a quieter machine';
}

/**
 * The paste-ready sentence of a recommendation in its {@link Recommendation.state}: `use X (faster
 * by …)`, `borderline: X looks 0.83× … but the interval reaches 1.00; rerun with …`, `no clear
 * winner: … within …`, or that the baseline is fastest. Ratio intervals are labelled with their
 * confidence (`0.45× (99.9% CI 0.31–0.66×)`), as the takeaways write them. The policy's caveat is
 * not in it: a run says it once ({@link renderRecommendations}); the behaviour costs are the lines
 * under it ({@link costLines}).
 */
function sentenceOf(
  r: Omit<Recommendation, 'sentence'>,
  payload: PayloadRecord | undefined,
  confidence: number,
  policyName: string,
): string {
  const head = `For ${doing(r.direction, r.caseClass)} ${scenarioText(r.scenario, payload)}`;
  if (!r.baseline) return `${head}, there is no baseline to compare with: nothing is recommended.`;
  const baseText = baselineName(r.baseline, r.direction);
  const use = r.baseline === 'json' ? 'use the built-in' : `use the baseline, ${r.baseline}`;
  const noisyClause = r.noisy
    ? `; ${r.noisy} of the ${r.compared + 1} timings ${r.noisy === 1 ? 'was' : 'were'} noisy, so a difference may be hidden: ${confirmWith(policyName)}`
    : '';
  if (!r.pick && r.borderline) {
    const b = r.borderline;
    const hi = b.interval[1];
    const reach =
      hi >= 1
        ? `the interval reaches ${ratioNumberOf(hi)}`
        : `the interval ends at ${ratioNumberOf(hi)}, within a rerun's spread of 1.00`;
    return `${head}, borderline: ${b.serializer} looks ${formatInterval(b.ratio, b.interval, '×', confidence)} the time of ${baseText}, but ${reach}, so a rerun could call it either way; ${rerunWith(policyName)} before switching (until then, ${use}).`;
  }
  if (!r.pick) {
    if (r.compared === 0 && r.excluded.length === 0) return `${head}, only ${baseText} ran: use it.`;
    if (r.state === 'baseline' && r.closest) {
      // every other clearly slower, or slower-looking with an interval that ends near 1: none is faster
      const clearly = !(r.closest.interval && ratioVerdict(r.closest.ratio, r.closest.interval) === 'borderline');
      return `${head}, use ${baseText}: ${clearly ? `the ${r.compared === 1 ? 'other serializer is' : `${r.compared} others are`} clearly slower` : `no other serializer is faster (${r.compared} compared)`} (the closest, ${r.closest.serializer}, takes ${formatInterval(r.closest.ratio, r.closest.interval, '×', confidence)} as long)${noisyClause}.`;
    }
    if (r.state === 'no-clear-winner' && r.closest)
      return `${head}, no clear winner: ${baseText} and ${r.closest.serializer} within ${r.closest.interval ? `${ratioNumberOf(r.closest.interval[0])}–${ratioNumberOf(r.closest.interval[1])}×` : 'an unknown error'} of each other (${ciLabelOf(confidence)}; ${r.compared} other serializer${r.compared === 1 ? '' : 's'} compared${noisyClause}): ${use}.`;
    const closest =
      r.closest && r.closest.ratio < 1
        ? `; the closest, ${r.closest.serializer} at ${formatInterval(r.closest.ratio, r.closest.interval, '×', confidence)}, is within the noise`
        : '';
    return `${head}, nothing is clearly faster than ${baseText} (${r.compared} other serializer${r.compared === 1 ? '' : 's'} compared at ${(confidence * 100).toFixed(1)}% confidence${closest}${noisyClause}): ${use}.`;
  }
  const p = r.pick;
  const ratio =
    p.ratioInterval !== null
      ? formatInterval(p.ratio, p.ratioInterval, '×', confidence)
      : `${formatRatio(p.ratio)}× (unpaired)`;
  // windows that disagree give a range, never one figure (results/alloc.ts)
  const allocRatio =
    p.allocRatio === null || p.allocRatio === undefined
      ? ''
      : p.allocRatioRange
        ? ` (${p.allocRatioRange[0].toFixed(2)}–${p.allocRatioRange[1].toFixed(2)}× ${r.baseline}'s: the allocation windows disagree)`
        : ` (${p.allocRatio.toFixed(2)}× ${r.baseline}'s)`;
  const alloc =
    p.allocatedBytes !== undefined
      ? `, ${p.allocatedRange ? `${formatBytes(p.allocatedRange[0])}–${formatBytes(p.allocatedRange[1])}` : formatBytes(p.allocatedBytes)} allocated per op${allocRatio}`
      : '';
  const faster = `faster by ${formatRatio(1 / p.ratio)}×`;
  const also = r.borderline
    ? `; ${r.borderline.serializer} looks faster still (${formatRatio(r.borderline.ratio)}×) but its interval reaches the decision line: borderline`
    : '';
  return (
    `${head}, use ${p.serializer} ${p.version} (${faster}): ${ratio} the time of ${baseText} (${formatTime(p.meanNs)} vs ${formatTime(p.baselineMeanNs)} per op)${alloc}` +
    `; it passed the correctness gate on this payload and on a generated one of the same schema${p.noisy ? `; its timing was noisy, so ${confirmWith(policyName)}` : ''}${also}.`
  );
}

/** What a borderline call is told to rerun with: the next longer policy, on a quieter machine. */
export function rerunWith(policyName: string): string {
  return policyName === 'quick'
    ? 'rerun with --policy default on a quieter machine'
    : policyName === 'default'
      ? 'rerun with --policy long on a quieter machine'
      : 'rerun on a quieter machine';
}

const ratioNumberOf = (x: number) => x.toFixed(2);
const ciLabelOf = (confidence: number) => `${Number((confidence * 100).toFixed(2))}% CI`;

/**
 * The recommendations of a results file: one per scenario × direction × class that has cases,
 * scenarios in order of first appearance, classes serialize, parse, validate, transform.
 * `costSources` adds behaviour costs (default: schema and translation notes). Pure.
 */
export function recommend(
  results: ResultsFile,
  costSources: readonly CostSource[] = DEFAULT_COST_SOURCES,
): Recommendation[] {
  const groups = new Map<string, CaseResult[]>();
  for (const c of results.cases) {
    const target = targetLabel(c, results.environment);
    const key = JSON.stringify([c.workload, c.size, c.shape, target, c.direction, c.class]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(c);
  }
  const out: Recommendation[] = [];
  for (const cases of groups.values()) {
    // a class no serializer of the run can do (every case unsupported: e.g. parse with only fast-json-stringify asked) has nothing to recommend
    if (cases.every((c) => c.status === 'unsupported')) continue;
    const first = cases[0];
    const baselineId = cases.find((c) => c.baseline)?.baseline ?? null;
    const base = cases.find((c) => c.serializer === baselineId && isMeasured(c)) as MeasuredCase | undefined;
    const scenario: Scenario = {
      workload: first.workload,
      size: first.size,
      shape: first.shape,
      target: targetLabel(first, results.environment),
      bytes: first.payload.bytes,
    };
    const others = cases.filter((c): c is MeasuredCase => isMeasured(c) && c.serializer !== baselineId);
    const excluded = [
      ...cases
        .filter((c) => !isMeasured(c) && c.status !== 'unsupported')
        .map((c) => ({ serializer: c.serializer, status: c.status, reason: c.reason ?? '' })),
      // measured, but its ratio is unearned (the baseline-slowed finding): never a candidate, said why
      ...others.flatMap((c) => {
        const f = unrankedFinding(c.findings);
        return f ? [{ serializer: c.serializer, status: 'not ranked', reason: f.message }] : [];
      }),
    ];
    let pick: Pick | null = null;
    const real = others.filter((c) => !c.findings.some((f) => f.code === 'too-fast') && !unrankedReason(c.findings));
    const verdictOf = (c: MeasuredCase): RatioVerdict =>
      c.ratio === null ? 'unknown' : ratioVerdict(c.ratio, ratioIntervalOf(c));
    const byRatio = (a: MeasuredCase, b: MeasuredCase) => (a.ratio as number) - (b.ratio as number);
    const border = real.filter((c) => verdictOf(c) === 'borderline' && (c.ratio as number) < 1).sort(byRatio)[0];
    if (base) {
      // clearly faster: the interval lies below 1, clear of the border band (results/decision.ts); ranked by ratio
      const candidates = real.filter((c) => verdictOf(c) === 'faster').sort(byRatio);
      const best = candidates[0];
      if (best) {
        const counted = best.allocated && best.allocated.method !== 'n/a' ? best.allocated.mean : undefined;
        pick = {
          serializer: best.serializer,
          version: best.serializerVersion,
          ratio: best.ratio ?? best.time.mean / base.time.mean,
          ratioInterval: best.ratio !== null ? ratioIntervalOf(best) : null,
          meanNs: best.time.mean,
          errorNs: best.time.error,
          baselineMeanNs: base.time.mean,
          ...(counted !== undefined ? { allocatedBytes: counted, allocRatio: best.allocRatio } : {}),
          ...(counted !== undefined && allocWindowRange(best.allocated)
            ? { allocatedRange: allocWindowRange(best.allocated)! }
            : {}),
          ...(counted !== undefined && allocRatioRange(best, base)
            ? { allocRatioRange: allocRatioRange(best, base)! }
            : {}),
          noisy: best.findings.some((f) => f.code === 'noisy'),
          costs: costSources.flatMap((source) => source(best, results)),
        };
      }
    }
    // the one a design review asks about: with no clear winner, the lowest ratio of those within noise of the baseline
    const same = real.filter((c) => verdictOf(c) === 'same');
    const pool = !border && same.length && !real.every((c) => verdictOf(c) === 'slower') ? same : real;
    const lowest =
      base && !pick
        ? pool.map((c) => ({ c, ratio: c.ratio ?? c.time.mean / base.time.mean })).sort((a, b) => a.ratio - b.ratio)[0]
        : undefined;
    const rec: Omit<Recommendation, 'sentence'> = {
      scenario,
      direction: first.direction,
      caseClass: first.class,
      baseline: baselineId,
      ...(base ? { baselineVersion: base.serializerVersion } : {}),
      pick,
      compared: base ? others.length : 0,
      excluded,
      ...(lowest
        ? {
            closest: {
              serializer: lowest.c.serializer,
              ratio: lowest.ratio,
              interval: lowest.c.ratio !== null ? ratioIntervalOf(lowest.c) : null,
            },
          }
        : {}),
      noisy: base ? [base, ...others].filter((c) => c.findings.some((f) => f.code === 'noisy')).length : 0,
      state: !base
        ? 'none'
        : pick
          ? 'use'
          : border
            ? 'borderline'
            : real.length &&
                real.every(
                  (c) => verdictOf(c) === 'slower' || (verdictOf(c) === 'borderline' && (c.ratio as number) > 1),
                )
              ? 'baseline'
              : real.length
                ? 'no-clear-winner'
                : 'none',
      ...(base && border && (!pick || (border.ratio as number) < pick.ratio)
        ? {
            borderline: {
              serializer: border.serializer,
              ratio: border.ratio as number,
              interval: ratioIntervalOf(border) as [number, number],
            },
          }
        : {}),
    };
    const payload = results.payloads?.find((p) => p.workload === first.workload);
    const sentence =
      base || !baselineId
        ? sentenceOf(rec, payload, results.policy.measure.confidence, results.policy.name)
        : `For ${doing(first.direction, first.class)} ${scenarioText(scenario, payload)}, the baseline ${baselineId} has no number (${cases.find((c) => c.serializer === baselineId)?.status ?? 'not run'}): nothing can be called faster.`;
    out.push({ ...rec, sentence });
  }
  const order = (r: Recommendation) => CLASS_ORDER.indexOf(r.caseClass);
  // stable: scenarios keep their order, classes sorted within a scenario
  const scenarioKey = (r: Recommendation) =>
    JSON.stringify([r.scenario.workload, r.scenario.size, r.scenario.shape, r.scenario.target]);
  const scenarios = [...new Set(out.map(scenarioKey))];
  return out.sort(
    (a, b) =>
      scenarios.indexOf(scenarioKey(a)) - scenarios.indexOf(scenarioKey(b)) ||
      (a.direction === b.direction ? 0 : a.direction === 'serialize' ? -1 : 1) ||
      order(a) - order(b),
  );
}

/** The lines under a sentence about the serializers that were not candidates (no number, or not ranked). */
function excludedLines(r: Recommendation): string[] {
  return r.excluded.map((e) => `not a candidate: ${e.serializer} ${e.status}: ${e.reason}`);
}

/** The payload facts a report states above the recommendation: file, bytes, sha256, schema, findings. */
export function payloadLines(p: PayloadRecord): string[] {
  const schema =
    p.schema.source === 'inferred'
      ? `schema inferred from ${p.kind === 'samples' ? 'every sample' : 'the payload'}`
      : `schema from ${p.schema.file ?? p.schema.source} (${p.schema.source})`;
  const generated = p.payloads.filter((x) => x.generated).map((x) => x.size);
  return [
    `${p.file}: ${p.kind === 'ndjson' ? `${countOf(p.units, 'record')} (NDJSON)` : p.kind === 'samples' ? (p.file.endsWith('.json') ? 'one of several samples' : `${countOf(p.units, 'sample')} of one endpoint (a folder), each once per op`) : 'one document'}, ${formatBytes(p.bytes)}, sha256 ${p.sha256}; ${schema}${generated.length ? `; sizes ${generated.join(', ')} generated from it (seeded)` : ''}`,
    ...p.findings.map((f) => `found: ${f.text}`),
    ...p.schema.unconverted.map((u) => `not converted: ${u}`),
  ];
}

/** Options of {@link renderRecommendations}. */
export interface RenderRecommendationOptions {
  color?: boolean;
  /** terminal: the width to fit (characters); sentences wrap to it, cost lines are cut to one line each (absent: no fitting) */
  width?: number;
  /** terminal: cost lines in full (wrapped) instead of one line each */
  verbose?: boolean;
  costSources?: readonly CostSource[];
}

/**
 * The recommendation block of a run on a user's payload (results with `payloads`). `markdown`
 * (the top of report.md): the machine and policy, the payload's facts, one sentence per direction
 * × class with its cost lines ({@link costLines}) and the serializers that were not candidates,
 * and the quick policy's caveat once. `terminal` (first in what a run prints at its end): the
 * sentences and their cost lines alone, fitted to the width (the payload's facts were printed
 * before measuring, the serializers without a number are summarised after, the caveat and the
 * load are said once by the caller). Empty for a run on built-in workloads. Pure. (The HTML report
 * renders the same {@link recommend} output itself.)
 */
export function renderRecommendations(
  results: ResultsFile,
  dialect: 'terminal' | 'markdown',
  options: RenderRecommendationOptions = {},
): string {
  if (!results.payloads?.length) return '';
  const recs = recommend(results, options.costSources);
  const probed = probesOf(results) !== null;
  const load = results.environment.loadAverage.start.map((x) => x.toFixed(2)).join('/');
  const machine = `${results.environment.cores} cores, load average ${load} at the start (1/5/15 min), policy ${results.policy.name}`;
  const esc = (s: string) => escapeCell(s, dialect, Infinity);
  if (dialect === 'markdown') {
    const out = ['## Recommendation', '', `Measured on ${esc(machine)}.`, ''];
    if (results.policy.name === 'quick') out.push(esc(quickCaveat()), '');
    for (const p of results.payloads) for (const line of payloadLines(p)) out.push(`- ${esc(line)}`);
    out.push('');
    for (const r of recs) {
      out.push(
        `- **${esc(r.direction === 'serialize' ? 'serialize' : `deserialize, ${r.caseClass}`)}:** ${esc(r.sentence)}`,
      );
      for (const d of [...costLines(r, probed), ...excludedLines(r)]) out.push(`  - ${esc(d)}`);
    }
    return `${out.join('\n')}\n`;
  }
  const bold = (s: string) => (options.color ? `\x1b[1m${s}\x1b[22m` : s);
  const w = options.width;
  const line = (d: string) => (options.verbose ? wrap(`    ${esc(d)}`, w, '      ') : clipLine(`    ${esc(d)}`, w));
  const out = [bold('Recommendation')];
  for (const r of recs) {
    const label = r.direction === 'serialize' ? 'serialize' : `deserialize, ${r.caseClass}`;
    // wrapped without the colour codes (they would count as width), then the label made bold
    out.push(bold(label) + wrap(`${label}: ${esc(r.sentence)}`, w).slice(label.length));
    for (const d of costLines(r, probed)) out.push(line(d));
    // not ranked (its baseline ran slowed beside it) is said here; the cases without a number in the run's summary
    for (const e of r.excluded.filter((x) => x.status === 'not ranked'))
      out.push(line(`not a candidate: ${e.serializer} ${e.status}: ${e.reason}`));
  }
  return `${out.join('\n')}\n`;
}
