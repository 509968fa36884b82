/**
 * The recommendation of a run on a user's payload (issue 10): per scenario (workload × size ×
 * shape × target) and per direction and guarantee class, what to use — one sentence each, to paste
 * into a design review, with what the pick costs in behaviour as lines under it. A pure function of
 * a results file.
 *
 * One call decides it, the takeaway's (issue 22): each case's paired ratio against the class
 * baseline gets results/decision.ts `ratioCall` (faster / borderline / same / slower / too
 * uncertain), and the group `groupCall`, which the takeaway above the group's table reads too, so
 * the two never disagree. The states: `use` X (faster, clear of the border band); `borderline` (the
 * fastest-looking one's interval ends at 1: a rerun could call it either way, so use the baseline
 * until a rerun settles it); `uncertain` (an interval holds 1 and is too wide to resolve 0.8–1.25:
 * too uncertain to call); `no-clear-winner` (the others are the same as the baseline);
 * `baseline` (every other is slower). A case without a paired ratio, one flagged too fast to be
 * real, and one whose paired baseline ran slowed beside it (the `baseline-slowed` finding) are
 * never picked. The confidence level is the run policy's (99.9% by default).
 *
 * Among the faster serializers whose intervals do not separate them from the fastest (a tie), the
 * one with the fewer and less severe costs on this payload is picked (report/costs.ts
 * `COST_TIERS`: output that is not valid JSON or not well-formed Unicode is the most severe), and
 * the sentence says they tied and why. Every figure in a sentence agrees with the ratio: the time
 * saved per op is the results' `difference` ((ratio − 1) × the baseline's mean beside it), never
 * two means of another statistic.
 *
 * Behaviour costs come from {@link CostSource}s: the need for a schema at all, the translation
 * notes (what the library's schema checks more loosely than the payload's schema), and the
 * capability probes (issue 11) this payload can reach (report/costs.ts); a caller may pass other
 * sources. Costs of one kind are said as one line with their count (report/costs.ts `costGroups`);
 * report.md lists each under it.
 */
import { unconvertedLine } from '../results/payload-schema.js';
import type { CaseClass, Direction } from '../case/coordinates.js';
import type { CaseResult, MeasuredCase, PayloadRecord, ResultsFile } from '../results/types.js';
import { isMeasured } from '../results/types.js';
import { ratioIntervalOf, timeIntervalOf } from '../results/ratio.js';
import { allocRatioRange, allocWindowRange } from '../results/alloc.js';
import { targetLabel } from './model.js';
import { countOf, formatBytes, formatRatio, formatTime, ratioNumber } from './units.js';
import { escapeCell, markdownCode } from './table/escape.js';
import { boldLead, DEFAULT_WIDTH, wrap, wrapAtMost } from './fit.js';
import { groupCall, ratioCall } from '../results/decision.js';
import {
  COST_TIERS,
  costGroups,
  costTier,
  isLoss,
  lossClause,
  payloadCosts,
  probeVerdicts,
  type CostGroup,
} from './costs.js';
import {
  borderlineReach,
  ciLabel,
  fasterThanBaseline,
  formatInterval,
  joinNames,
  unrankedFinding,
  unrankedReason,
  withinNoise,
  type TakeawayRow,
} from './takeaway.js';
import { caseReason } from './reason.js';
import { deepFreeze } from '../case/frozen.js';

/** One thing a serializer costs in behaviour, and where it was found. */
export interface BehaviourCost {
  /** `schema`: it needs the payload's schema; `translation`: a translation note; `probe`: a failed capability probe (issue 11) */
  source: 'schema' | 'translation' | 'probe';
  text: string;
  /** the cost's kind, for saying costs of one kind as one line (report/costs.ts `costGroups`); absent: by source and text */
  kind?: string;
  /** how severe, 0 the most (report/costs.ts `COST_TIERS`); absent: by source */
  tier?: number;
  /** a probe cost found on the user's own records (a payload probe), not on a made-up input (report/costs.ts) */
  onPayload?: boolean;
  /** the cost in a few words, for a sentence (report/costs.ts) */
  short?: string;
  /** a refusal its schema asks for: stricter than the baseline, never a loss (report/costs.ts `isLoss`) */
  refusal?: boolean;
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

/** The parts of issue 11's probe records a report reads to know whether a results file carries probes. */
interface ProbesLike {
  verdicts?: unknown[];
}

/** The probes section of a results file, when it has one of the expected shape. */
export function probesOf(results: ResultsFile): ProbesLike | null {
  // as written (verdictRows + verdictGroups) or as read (verdicts): report/costs.ts probeVerdicts
  const p = probeVerdicts(results);
  if (!p || !Array.isArray((p as ProbesLike).verdicts)) return null;
  return p as ProbesLike;
}

/** Whether a results file carries capability probes: `unfinished` when its run's probe pass never ended ({@link ResultsFile} `probePending`). */
export function probedState(results: ResultsFile): boolean | 'unfinished' {
  if (probesOf(results) !== null) return true;
  return results.probePending ? 'unfinished' : false;
}

/** The cost sources used when none are given. */
export const DEFAULT_COST_SOURCES: readonly CostSource[] = deepFreeze([schemaCost, translationCosts, payloadCosts]);

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
  /**
   * results.json's `time.error`: since branch `stats5` the mean × its interval's larger log
   * half-width, not a ± of either end (read `timeInterval`); before it, the ± half-width
   */
  errorNs: number;
  /** the mean's confidence interval [low, high], ns/op (results/ratio.ts timeIntervalOf: log scale, asymmetric); null when not finite */
  timeInterval: [number, number] | null;
  baselineMeanNs: number;
  /**
   * The time saved per op against the baseline, ns (positive: saved), with the ratio's interval
   * carried over: the results' `difference` negated ((1 − ratio) × the baseline's mean beside it,
   * `baselineBesideNs`). Absent when the results file has no `difference` for the case.
   */
  saving?: { value: number; low: number; high: number };
  /** the baseline's mean time per op in the same rounds as the pick (ns), the figure `saving` is a share of */
  baselineBesideNs?: number;
  /** bytes allocated per op, and ÷ the baseline's (absent where the runtime has no counter) */
  allocatedBytes?: number;
  allocRatio?: number | null;
  /** when the pick's allocation windows disagree: their [lowest, highest] bytes/op, and the allocation ratio's range they and the baseline's support */
  allocatedRange?: [number, number];
  allocRatioRange?: [number, number];
  noisy: boolean;
  costs: BehaviourCost[];
  /**
   * Why no probe ran on it in its direction while the run probed the others (its `supports()`
   * took no probe workload: a config's serializer written for the user's payload alone), so its
   * empty costs say nothing of its behaviour (nu10: "use team-orders" beside "costs: … no probe
   * failed", while opting in found 3 silent losses). Absent when it was probed or nothing was.
   */
  unprobed?: string;
}

/** A serializer named in a sentence beside the pick or instead of one, with its ratio. */
export interface Named {
  serializer: string;
  ratio: number;
  interval: [number, number] | null;
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
   * With no pick: the compared serializer a design review asks about — the lowest ratio of those the
   * same as the baseline (`no-clear-winner`), or of all (`baseline`); never one too fast to be real
   */
  closest?: Named & {
    /** the run's probes show it losing data ({@link lossClause}): said beside it, as the takeaway above its table says it (nu9) */
    loses?: string;
  };
  /** how many of the measured cases (baseline included) were flagged noisy */
  noisy: number;
  /** serializers of the class that gave no number, with their status, and measured ones not ranked (status `not ranked`: the baseline-slowed finding): never candidates */
  excluded: { serializer: string; status: string; reason: string }[];
  /**
   * What the sentence says (issue 22; results/decision.ts `groupCall`, as the takeaway): `use` a
   * serializer clearly faster than the baseline (`pick`); `borderline`: the fastest-looking one's
   * interval ends at the decision line, so a rerun could say either (`borderline`); `uncertain`:
   * an interval holds 1 and is too wide to resolve (`uncertain`), too uncertain to call;
   * `no-clear-winner`: the others are the same as the baseline; `baseline`: every other is slower;
   * `none`: nothing to compare (no baseline, or it has no number, or it ran alone)
   */
  state: 'use' | 'borderline' | 'uncertain' | 'baseline' | 'no-clear-winner' | 'none';
  /** with state `borderline` (or beside a pick, when it looks faster still): the lowest-ratio serializer whose call is too close to make */
  borderline?: {
    serializer: string;
    ratio: number;
    interval: [number, number];
    /** what its probes show it losing on this payload (report/costs.ts `lossClause`), said in the same sentence: absent when nothing */
    loses?: string;
  };
  /**
   * without a pick (the sentence tells the reader to keep the baseline): the baseline's own behaviour
   * costs on this payload (translation notes and failed probes; the schema cost left out, the
   * reader already has it), which the terminal says in one line under the sentence (new-user
   * tryout: "zod drops an extra key" stood in report.md only). Absent when it has none.
   */
  baselineCosts?: BehaviourCost[];
  /**
   * The other measured serializers of the group that fail the probe of the first of `baselineCosts`' kinds too (nu16:
   * "keeping zod costs … an extra key … loses data" read as avoidable, while valibot, the other one named, fails the
   * same probe). Absent when none does.
   */
  baselineCostsShared?: string[];
  /**
   * When the baseline ran alone (`only X ran: use it`): where its checks are looser than the schema (its
   * translation notes, the table's `≈ N checks weaker than the schema`), said in the sentence (hx36 E3: "only ajv-jtd
   * ran: use it" on a payload whose integers ajv JTD checks only as float64). Absent when it has none.
   */
  loneLooser?: BehaviourCost[];
  /** the serializers too uncertain to call (their interval holds 1 and reaches beyond 0.8–1.25, or is unknown), lowest ratio first */
  uncertain?: Named[];
  /**
   * With a pick: the other faster serializers its interval cannot be told from (a tie), and why the
   * pick was chosen among them (`reason`, words to follow "because")
   */
  tie?: { with: Named[]; reason: string };
  /**
   * The library users compare against on the platform, when it was measured and is neither the
   * pick nor the baseline: Newtonsoft.Json (`newtonsoft`) on .NET, with its ratio against the
   * baseline (issue 22: a .NET recommendation never named it)
   */
  reference?: Named;
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
  return id === 'json'
    ? direction === 'serialize'
      ? 'the built-in JSON.stringify'
      : 'the built-in JSON.parse'
    : plainName(id);
}

/**
 * ` <version>` for a sentence naming a serializer with its version, or '' when the version is not
 * known (`n/a`: a config's serializer with no package; hx7: "use leafcache n/a (faster by 2.55×)").
 */
function knownVersion(version: string | undefined): string {
  return version && version !== 'n/a' ? ` ${version}` : '';
}

/**
 * How a sentence names a serializer whose id is shorthand (issue 22: `stj-sourcegen` read as
 * jargon): the library's name, with the id a table row shows; any other id as it is.
 */
function plainName(id: string): string {
  const names: Record<string, string> = {
    stj: 'System.Text.Json (stj)',
    'stj-sourcegen': 'System.Text.Json source-generated (stj-sourcegen)',
    newtonsoft: 'Newtonsoft.Json (newtonsoft)',
  };
  return names[id] ?? id;
}

/** `response.json (11.7 KiB document)`, `users.json (an array of 100 records, 20.1 KiB)`, `app-logs.ndjson (1000 records, 205 KiB in all, one call per record)`, then `on <target>`. */
function scenarioText(s: Scenario, payload: PayloadRecord | undefined): string {
  const size = formatBytes(s.bytes);
  const unit = payload?.kind === 'samples' ? 'sample' : 'record';
  const what =
    s.shape === 'single'
      ? `${size} document`
      : s.shape === 'list'
        ? `an array of ${countOf(s.size, 'record')}, ${size}`
        : `${countOf(s.size, unit)}, ${size} in all, one call per ${unit}`;
  return `${payload ? payload.file : s.workload} (${what}) on ${s.target}`;
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
 * {@link takeawayRowOf}: the call on the paired ratio, results/decision.ts `ratioCall`, is
 * `faster`), so the recommendation and the group's takeaway never disagree.
 */
export function clearlyFaster(c: MeasuredCase): boolean {
  return fasterThanBaseline(takeawayRowOf(c));
}

/**
 * What the pick costs in behaviour, as lines under its sentence (terminal, report.md, HTML): one per
 * kind of cost, the output defects first (report/costs.ts `costGroups`: `output defect: writes
 * output that is not valid JSON for number values: 3 probes, e.g. NaN: …`, `schema: …`,
 * `looser check: …`, `probe: …`), or one saying the gate found none. THE one place their content
 * is made (issue 24 reworks it): every renderer calls this; report.md and the HTML list each cost
 * of a kind under its line ({@link costGroupsOf}). Empty without a pick.
 * @param probed the results file carries capability probes (`unfinished`: its run's probe pass did not finish)
 */
export function costLines(r: { pick: Recommendation['pick'] }, probed: boolean | 'unfinished'): string[] {
  if (!r.pick) return [];
  if (r.pick.unprobed)
    return [
      ...costGroupsOf(r).map((g) => `${g.label}: ${g.text}`),
      `not probed: no probe ran on ${r.pick.serializer} (${r.pick.unprobed}), so what it does with inputs other than this payload is unknown; let its supports() take the probe:* workloads to have it probed`,
    ];
  if (!r.pick.costs.length)
    return [
      `costs: the gate found no behaviour cost${probed === 'unfinished' ? ' (capability probes: the probe pass did not finish)' : probed ? ' and no probe failed' : ' (capability probes: not in this run)'}`,
    ];
  return costGroupsOf(r).map((g) => `${g.label}: ${g.text}`);
}

/**
 * Why `serializer` has no probe verdict but ✘ in `direction` while another serializer has one there
 * ({@link Pick.unprobed}): its ✘ reason, or that no probe was given to it; null when it was probed, or
 * when the run has no probes.
 */
function unprobedReason(serializer: string, direction: Direction, results: ResultsFile): string | null {
  const verdicts = (probeVerdicts(results)?.verdicts ?? []).filter((v) => v.direction === direction);
  if (!verdicts.some((v) => v.serializer !== serializer && v.verdict.mark !== '✘')) return null;
  const mine = verdicts.filter((v) => v.serializer === serializer);
  if (mine.some((v) => v.verdict.mark !== '✘')) return null;
  const reason = (mine[0]?.verdict as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' && reason ? reason : 'its supports() took no probe workload';
}

/** The pick's costs grouped by kind, the most severe first (report/costs.ts `costGroups`); empty without a pick. */
export function costGroupsOf(r: { pick: Recommendation['pick'] }): CostGroup<BehaviourCost>[] {
  return r.pick ? costGroups(r.pick.costs) : [];
}

/** What a borderline, too uncertain or noisy call is told to rerun with, once per run: the next longer policy, on a quieter machine. */
function rerunWith(policyName: string): string {
  return policyName === 'quick'
    ? 'rerun with --policy default on a quieter machine'
    : policyName === 'default'
      ? 'rerun with --policy long on a quieter machine'
      : 'rerun on a quieter machine';
}

/**
 * The line a recommendation block ends with when some call is not settled (issue 22: said once per
 * run, never in each sentence): `To settle the borderline and noisy calls above: rerun with
 * --policy long on a quieter machine.` Null when every call is settled.
 */
export function settleLine(recs: readonly Recommendation[], policyName: string): string | null {
  const kinds = [
    recs.some((r) => r.state === 'borderline' || r.borderline) ? 'borderline' : '',
    recs.some((r) => r.state === 'uncertain') ? 'uncertain' : '',
    recs.some((r) => r.noisy > 0) ? 'noisy' : '',
  ].filter(Boolean);
  if (!kinds.length) return null;
  return `To settle the ${joinNames(kinds)} calls above: ${rerunWith(policyName)}.`;
}

/** `7.38 µs` per op, for a saving or a time. */
const perOp = (ns: number) => formatTime(ns);

/** The severity vector of a serializer's costs: per tier (report/costs.ts COST_TIERS), the number of kinds. */
function severityOf(costs: readonly BehaviourCost[]): number[] {
  const v: number[] = COST_TIERS.map(() => 0);
  for (const g of costGroups(costs)) v[costTier(g.items[0])]++;
  return v;
}

/** The first tier where two severity vectors differ (−1: equal). */
const firstDifference = (a: number[], b: number[]) => a.findIndex((x, i) => x !== b[i]);

/** What output defects a serializer's costs hold, in words: `invalid JSON`, `ill-formed Unicode`, or both. */
function defectWords(costs: readonly BehaviourCost[]): string {
  const kinds = costGroups(costs)
    .filter((g) => g.tier === 0)
    .map((g) => g.text)
    .join(' ');
  const what = [
    /not valid JSON|invalid-json/.test(kinds) ? 'invalid JSON' : '',
    /ill-formed/.test(kinds) ? 'ill-formed Unicode' : '',
  ].filter(Boolean);
  return joinNames(what.length ? what : ['malformed']);
}

/**
 * Why `name` lost a tie to `pick`, from the costs at the first tier where theirs differ (words after
 * "because"): `ajv-jtd's output can be invalid JSON and ill-formed Unicode for values this
 * payload's schema holds, and fast-json-stringify's cannot`, `a has 2 kinds of silent loss on this
 * payload, b 1`.
 * @param mine how many kinds of that tier the pick has
 */
function worseBecause(name: string, costs: readonly BehaviourCost[], tier: number, pick: string, mine: number): string {
  if (tier === 0)
    return `${name}'s output can be ${defectWords(costs)} for values this payload's schema holds${mine === 0 ? `, and ${pick}'s cannot` : ''}`;
  const theirs = costGroups(costs).filter((g) => g.tier === tier).length;
  if (tier === 7) return `${name} needs the schema and ${pick} does not`;
  const what = tier === 6 ? 'looser check than the schema' : COST_TIERS[tier];
  return `${name} has ${countOf(theirs, `kind of ${what}`, `kinds of ${what}`)} on this payload, ${pick} ${mine === 0 ? 'none' : mine}`;
}

/**
 * The paste-ready sentence of a recommendation in its {@link Recommendation.state}: `use X (faster
 * by …)`, or, in every state that keeps the baseline, the same opening `keep the built-in
 * JSON.stringify:` (`keep the baseline, zod:`) followed by why — `borderline, X looks 0.83× … but
 * the interval reaches 1.00, so it may be no faster at all; rerun before switching`, `too uncertain
 * to call, …`, `no clear winner, none of the N others is clearly faster …`, or that the others are
 * slower — so that reruns which move between those states (issue 22: "borderline X" against "no
 * clear winner" near the line) say the same thing first. Ratios are written as the table writes
 * them (units.ts `ratioNumber`), intervals labelled with their confidence (`0.45× (99.9% CI
 * 0.31–0.66×)`) as the takeaways write them; the only times quoted are the pick's saving per op
 * and the baseline's time beside it, which agree with the ratio. The policy's caveat and what to
 * rerun with are not in it: a run says them once ({@link settleLine}); the behaviour costs are the
 * lines under it ({@link costLines}).
 */
function sentenceOf(
  r: Omit<Recommendation, 'sentence'>,
  payload: PayloadRecord | undefined,
  confidence: number,
): string {
  const head = `For ${doing(r.direction, r.caseClass)} ${scenarioText(r.scenario, payload)}`;
  if (!r.baseline) {
    // hx22 S1i: a serializer whose supports() threw read "there is no baseline to compare with", as if
    // JSON.stringify could not serialize the payload: no case of the group reached timing, so none ran beside it
    const failed = [...new Set(r.excluded.map((e) => e.serializer))];
    if (failed.length)
      return `${head}, nothing was measured: ${failed.length === 1 ? failed[0] : `${failed.slice(0, -1).join(', ')} and ${failed[failed.length - 1]}`} ${r.excluded[0].status === 'failed' && r.excluded.every((e) => e.status === 'failed') ? 'failed' : 'ended'} before timing, so no baseline ran beside ${failed.length === 1 ? 'it' : 'them'}; nothing is recommended.`;
    return `${head}, there is no baseline to compare with: nothing is recommended.`;
  }
  const baseText = baselineName(r.baseline, r.direction);
  // every state without a pick opens with the same action (issue 22: a rerun that moves between
  // "borderline X" and "no clear winner" must not read as a flip): keep the baseline
  const keep = r.baseline === 'json' ? `keep ${baseText}` : `keep the baseline, ${baseText}`;
  const iv = (x: Named) => formatInterval(x.ratio, x.interval, '×', confidence);
  const noisyClause = r.noisy
    ? `; ${r.noisy} of the ${r.compared + 1} timings ${r.noisy === 1 ? 'was' : 'were'} noisy, so a difference may be hidden`
    : '';
  if (r.state === 'borderline' && r.borderline) return `${head}, ${keep}: ${borderlineText(r.borderline, iv)}`;
  if (r.state === 'uncertain' && r.uncertain?.length) {
    const u = r.uncertain;
    const spans = u.map((x, i) =>
      x.interval
        ? `${x.serializer}${i === 0 ? ' takes' : ''} ${ratioNumber(x.interval[0], 2)}–${ratioNumber(x.interval[1], 2)}×`
        : `${x.serializer}${i === 0 ? ' takes' : ''} an unknown multiple`,
    );
    return `${head}, ${keep}: too uncertain to call, ${joinNames(spans)} its time (${ciLabel(confidence)}${u.length > 1 ? 's' : ''}), too wide a range to say whether ${u.length > 1 ? 'they are' : 'it is'} faster or slower${noisyClause}; rerun before switching.`;
  }
  if (!r.pick) {
    if (r.compared === 0 && r.excluded.length === 0) {
      const looser = r.loneLooser ?? [];
      const more = looser.length > 1 ? `, and ${looser.length - 1} more (each under its table in report.md)` : '';
      return looser.length
        ? `${head}, only ${baseText} ran: use it, knowing its checks are looser than the schema: ${looser[0].text}${more}.`
        : `${head}, only ${baseText} ran: use it.`;
    }
    const closestLoss = r.closest?.loses ? `, and ${r.closest.loses}` : '';
    if (r.state === 'baseline' && r.closest) {
      // every other slower; one whose interval ends near 1 is "not faster", never "clearly slower"
      const clearly = ratioCall(r.closest.ratio, r.closest.interval) === 'slower';
      const verdict = clearly
        ? `${r.compared === 1 ? 'the other serializer is' : `the ${r.compared} others are`} clearly slower`
        : r.compared === 1
          ? 'the other serializer is not faster'
          : `none of the ${r.compared} others is faster`;
      return `${head}, ${keep}: ${verdict}; the closest, ${r.closest.serializer}, takes ${iv(r.closest)} as long${referenceClause(r, baseText)}${closestLoss}${noisyClause}.`;
    }
    if (r.state === 'no-clear-winner' && r.closest)
      return `${head}, ${keep}: no clear winner, ${r.compared === 1 ? 'the other serializer is not' : `none of the ${r.compared} others is`} clearly faster; the closest, ${r.closest.serializer}, takes ${iv(r.closest)} its time${closestLoss}${noisyClause}.`;
    return `${head}, ${keep}: nothing is clearly faster (${countOf(r.compared, 'other serializer')} compared${noisyClause}).`;
  }
  const p = r.pick;
  const ratio =
    p.ratioInterval !== null
      ? formatInterval(p.ratio, p.ratioInterval, '×', confidence)
      : `${formatRatio(p.ratio)}× (unpaired)`;
  // the time saved agrees with the ratio by construction (the results' difference); never two means of another statistic
  const saving =
    p.saving && p.baselineBesideNs !== undefined
      ? `, ${perOp(p.saving.value)} less per op (${ciLabel(confidence)} ${perOp(p.saving.low)}–${perOp(p.saving.high)}) than its ${perOp(p.baselineBesideNs)}`
      : '';
  // windows that disagree give a range, never one figure (results/alloc.ts)
  const allocRatio =
    p.allocRatio === null || p.allocRatio === undefined
      ? ''
      : p.allocRatioRange
        ? ` (${ratioNumber(p.allocRatioRange[0], 2)}–${ratioNumber(p.allocRatioRange[1], 2)}× ${r.baseline}'s: its allocation measurements differ)`
        : ` (${ratioNumber(p.allocRatio, 2)}× ${r.baseline}'s)`;
  const alloc =
    p.allocatedBytes !== undefined
      ? `; ${p.allocatedRange ? `${formatBytes(p.allocatedRange[0])}–${formatBytes(p.allocatedRange[1])}` : formatBytes(p.allocatedBytes)} allocated per op${allocRatio}`
      : '';
  const faster = `faster by ${formatRatio(1 / p.ratio)}×`;
  // an output defect on this payload's values is said in the sentence, not only in a cost line (issue 24 item 10)
  const losesOnMine = p.costs.filter((k) => isLoss(k) && k.onPayload && costTier(k) > 0);
  const defect = costGroups(p.costs).some((g) => g.tier === 0)
    ? `, but its output can be ${defectWords(p.costs)} for values this payload's schema holds (the output defect lines below)`
    : losesOnMine.length
      ? `, but ${lossClause(losesOnMine)} (the lines below)`
      : '';
  const tie = r.tie
    ? `; it tied with ${joinNames(r.tie.with.map((t) => `${t.serializer} at ${iv(t)}`))} (the intervals overlap): ${p.serializer} is picked because ${r.tie.reason}`
    : '';
  const also = r.borderline
    ? `; ${r.borderline.serializer} looks faster still, ${iv(r.borderline)}, but it is borderline: ${borderlineReach(r.borderline.interval[1])}${r.borderline.loses ? `, and ${r.borderline.loses}` : ''}`
    : '';
  return (
    `${head}, use ${plainName(p.serializer)}${knownVersion(p.version)} (${faster}): ${ratio} the time of ${baseText}${referenceClause(r, baseText)}${saving}${alloc}` +
    `; it passed the correctness gate on this payload and on a generated one of the same schema${defect}${p.unprobed ? '; no probe ran on it, so its behaviour beyond the gate is unknown' : ''}${p.noisy ? '; its timing was noisy' : ''}${tie}${also}.`
  );
}

/**
 * The borderline state's words after the sentence's `…, keep the built-in JSON.stringify: ` (the
 * same opening as "no clear winner": both keep the baseline): `borderline, X looks 0.95× (…) its
 * time, but the interval reaches 1.03, so it may be no faster at all; rerun before switching.`;
 * for one the probes show losing data, never a suggestion: `X looks 0.94× (…) its time,
 * borderline (…), and its probes show it losing data: …` (nu6). Pure.
 */
function borderlineText(b: NonNullable<Recommendation['borderline']>, iv: (x: Named) => string): string {
  const looks = `${b.serializer} looks ${iv(b)} its time`;
  if (b.loses) return `${looks}, borderline (${borderlineReach(b.interval[1])}), and ${b.loses}.`;
  return `borderline, ${looks}, but ${borderlineReach(b.interval[1])}; rerun before switching.`;
}

/** The serializer users compare against on a platform (Newtonsoft.Json on .NET); the sentence says the pick or baseline against it. */
const REFERENCES: readonly string[] = ['newtonsoft'];

/** {@link Recommendation.reference} from the ranked cases: a measured reference with a ratio that is not the pick. */
function referenceOf(
  real: readonly MeasuredCase[],
  pick: string | undefined,
  named: (c: MeasuredCase) => Named,
): { reference?: Named } {
  const c = real.find((x) => REFERENCES.includes(x.serializer) && x.serializer !== pick && x.ratio !== null);
  return c ? { reference: named(c) } : {};
}

/**
 * `; 2.41× faster than newtonsoft (point estimates)`: the pick, or the baseline the sentence
 * keeps, against the platform's reference ({@link REFERENCES}), from the two ratios against the
 * baseline measured beside it; nothing when there is no reference, or it is not slower.
 */
function referenceClause(r: Omit<Recommendation, 'sentence'>, baseText: string): string {
  const ref = r.reference;
  if (!ref) return '';
  const who = r.pick ? plainName(r.pick.serializer) : baseText;
  const times = ref.ratio / (r.pick ? r.pick.ratio : 1);
  return times > 1
    ? `; ${who} is ${formatRatio(times)}× faster than ${plainName(ref.serializer)} (point estimates)`
    : '';
}

/** A case as a sentence names it: its ratio (of means when unpaired) and interval. */
function namedOf(c: MeasuredCase, base: MeasuredCase | undefined): Named {
  return {
    serializer: c.serializer,
    ratio: c.ratio ?? (base ? c.time.mean / base.time.mean : NaN),
    interval: c.ratio !== null ? ratioIntervalOf(c) : null,
  };
}

/**
 * The pick among the faster cases (call `faster`): the fastest and those its interval cannot be
 * told from (a tie, takeaway.ts `withinNoise`); among a tie, the one with the fewer and less severe
 * costs on this payload (report/costs.ts COST_TIERS, compared tier by tier, output defects first),
 * then the lower ratio; with the tie's other members and why each lost. The figures: the ratio
 * and its interval, the time saved from the results' `difference`, the allocation.
 */
function choosePick(
  faster: readonly MeasuredCase[],
  base: MeasuredCase,
  costsOf: (c: MeasuredCase) => BehaviourCost[],
): { pick: Pick; tie?: Recommendation['tie'] } {
  const byRatio = (a: MeasuredCase, b: MeasuredCase) => namedOf(a, base).ratio - namedOf(b, base).ratio;
  const sorted = [...faster].sort(byRatio);
  const tied = sorted.filter((c) => withinNoise(takeawayRowOf(c), takeawayRowOf(sorted[0])));
  const costs = new Map(tied.map((c) => [c, costsOf(c)]));
  const severity = new Map(tied.map((c) => [c, severityOf(costs.get(c)!)]));
  const best = [...tied].sort((a, b) => {
    const at = firstDifference(severity.get(a)!, severity.get(b)!);
    return at >= 0 ? severity.get(a)![at] - severity.get(b)![at] : byRatio(a, b);
  })[0];
  const rivals = tied.filter((c) => c !== best);
  const mine = severity.get(best)!;
  // one reason per rival, from the most severe tier where its costs differ from the pick's
  const reasons = rivals.map((c) => {
    const at = firstDifference(severity.get(c)!, mine);
    return at >= 0
      ? worseBecause(c.serializer, costs.get(c)!, at, best.serializer, mine[at])
      : `${c.serializer}'s costs on this payload are alike and ${best.serializer} has the lower ratio`;
  });
  const counted = best.allocated && best.allocated.method !== 'n/a' ? best.allocated.mean : undefined;
  // the baseline's mean beside the pick (its samples in the same rounds), from difference = (ratio − 1) × it
  const beside =
    best.difference && best.ratio !== null && best.ratio !== 1 ? best.difference.value / (best.ratio - 1) : undefined;
  const pick: Pick = {
    serializer: best.serializer,
    version: best.serializerVersion,
    ratio: best.ratio ?? best.time.mean / base.time.mean,
    ratioInterval: best.ratio !== null ? ratioIntervalOf(best) : null,
    meanNs: best.time.mean,
    errorNs: best.time.error,
    timeInterval: timeIntervalOf(best.time),
    baselineMeanNs: base.time.mean,
    ...(best.difference && beside !== undefined && beside > 0
      ? {
          saving: { value: -best.difference.value, low: -best.difference.high, high: -best.difference.low },
          baselineBesideNs: beside,
        }
      : {}),
    ...(counted !== undefined ? { allocatedBytes: counted, allocRatio: best.allocRatio } : {}),
    ...(counted !== undefined && allocWindowRange(best.allocated)
      ? { allocatedRange: allocWindowRange(best.allocated)! }
      : {}),
    ...(counted !== undefined && allocRatioRange(best, base) ? { allocRatioRange: allocRatioRange(best, base)! } : {}),
    noisy: best.findings.some((f) => f.code === 'noisy'),
    costs: costs.get(best)!,
  };
  return {
    pick,
    ...(rivals.length ? { tie: { with: rivals.map((c) => namedOf(c, base)), reason: reasons.join('; ') } } : {}),
  };
}

/**
 * The recommendations of a results file: one per scenario × direction × class that has cases,
 * scenarios in order of first appearance, classes serialize, parse, validate, transform.
 * `costSources` adds behaviour costs (default: schema, translation notes and the probes this
 * payload can reach). Pure.
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
        .map((c) => ({ serializer: c.serializer, status: c.status, reason: caseReason(c) })),
      // measured, but its ratio is unearned (the baseline-slowed finding): never a candidate, said why
      ...others.flatMap((c) => {
        const f = unrankedFinding(c.findings);
        return f ? [{ serializer: c.serializer, status: 'not ranked', reason: f.message }] : [];
      }),
    ];
    const real = others.filter((c) => !c.findings.some((f) => f.code === 'too-fast') && !unrankedReason(c.findings));
    const callOf = (c: MeasuredCase) => ratioCall(c.ratio, c.ratio !== null ? ratioIntervalOf(c) : null);
    const named = (c: MeasuredCase): Named => namedOf(c, base);
    const byRatio = (a: Named, b: Named) => a.ratio - b.ratio;
    // THE group call, the takeaway's (results/decision.ts groupCall)
    const state = !base ? 'none' : groupCall(real.map((c) => ({ ratio: c.ratio, call: callOf(c) })));
    const chosen =
      base && state === 'use'
        ? choosePick(
            real.filter((c) => callOf(c) === 'faster'),
            base,
            (c) => costSources.flatMap((source) => source(c, results)),
          )
        : null;
    const unprobed = chosen ? unprobedReason(chosen.pick.serializer, first.direction, results) : null;
    const pick = chosen ? { ...chosen.pick, ...(unprobed ? { unprobed } : {}) } : null;
    const tie = chosen?.tie;
    const baselineCosts =
      base && !pick
        ? // against no baseline: its own failures are not shared-with-the-baseline ones to leave out (costs.ts payloadCosts)
          costSources
            .flatMap((source) => source({ ...base, baseline: null }, results))
            // only data it loses on the user's own records: not a correct rejection, not a made-up probe input
            // every serializer but one fails (nu6: JSON.stringify "costs" an Invalid Date the payload never holds)
            .filter((k) => isLoss(k) && k.onPayload)
        : [];
    // ran alone: where its checks are looser than the schema, said in its "use it" (hx36 E3)
    const loneLooser =
      base && !others.length && !excluded.length
        ? costSources
            .flatMap((source) => source({ ...base, baseline: null }, results))
            .filter((k) => k.source === 'translation')
        : [];
    // who else fails the probe the keeping line names (nu16: zod's stripped extra key, which valibot strips too)
    const keptFirst = baselineCosts.length
      ? (costGroups(baselineCosts)[0].items[0] as BehaviourCost & { probe?: string })
      : undefined;
    const baselineCostsShared = keptFirst?.probe
      ? others
          .filter((c) =>
            costSources
              .flatMap((source) => source({ ...c, baseline: null }, results))
              .some((k) => (k as { probe?: string }).probe === keptFirst.probe && k.kind === keptFirst.kind),
          )
          .map((c) => c.serializer)
      : [];
    // the borderline one: the lowest ratio below 1 whose call is too close to make (beside a pick only when it looks faster still)
    const borderCase = real
      .filter((c) => callOf(c) === 'borderline' && (c.ratio as number) < 1)
      .sort((a, b) => (a.ratio as number) - (b.ratio as number))[0];
    // a borderline one that the run's probes show losing data is never suggested without saying so (nu6: ajv-jtd)
    const borderLoses = borderCase ? lossClause(costSources.flatMap((source) => source(borderCase, results))) : null;
    const border = borderCase ? { ...named(borderCase), ...(borderLoses ? { loses: borderLoses } : {}) } : undefined;
    const uncertain = real
      .filter((c) => callOf(c) === 'uncertain' || callOf(c) === 'unknown')
      .map(named)
      .sort(byRatio);
    // the one a design review asks about: with no clear winner the lowest ratio of those the same as the baseline, else of all
    const same = real.filter((c) => callOf(c) === 'same');
    const closestCase =
      base && (state === 'no-clear-winner' || state === 'baseline')
        ? [...(state === 'no-clear-winner' && same.length ? same : real)].sort((a, b) => byRatio(named(a), named(b)))[0]
        : undefined;
    // the one a review asks about, losing data on the user's records: said beside it (nu9: the takeaway said
    // "see the recommendation", which named fast-json-stringify as the closest and nothing of its losses)
    const closestLoses = closestCase ? lossClause(costSources.flatMap((source) => source(closestCase, results))) : null;
    const closest = closestCase
      ? { ...named(closestCase), ...(closestLoses ? { loses: closestLoses } : {}) }
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
      ...(closest ? { closest } : {}),
      noisy: base ? [base, ...others].filter((c) => c.findings.some((f) => f.code === 'noisy')).length : 0,
      state,
      ...(base && border && (!pick || border.ratio < pick.ratio)
        ? { borderline: { ...border, interval: border.interval as [number, number] } }
        : {}),
      ...(uncertain.length ? { uncertain } : {}),
      ...(baselineCosts.length ? { baselineCosts } : {}),
      ...(baselineCostsShared.length ? { baselineCostsShared } : {}),
      ...(loneLooser.length ? { loneLooser } : {}),
      ...(tie ? { tie } : {}),
      ...referenceOf(real, pick?.serializer, named),
    };
    const payload = results.payloads?.find((p) => p.workload === first.workload);
    const sentence =
      base || !baselineId
        ? sentenceOf(rec, payload, results.policy.measure.confidence)
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
    ...[unconvertedLine(p.schema.unconverted)].flatMap((u) => (u ? [u] : [])),
  ];
}

/**
 * The payload facts that bind every JavaScript serializer of the run, said with the recommendation
 * itself rather than among the payload's facts: integers beyond 2^53, which JSON.parse (and so
 * every serializer that reads or checks through it) rounds, so the gate's expected value is
 * rounded too and passes (a new user's snowflake ids: "use fast-json-stringify … passed the
 * correctness gate" while every id was changed), and date-times a Date does not hold whole where the
 * transform class ran. Empty when no case ran on a JavaScript target.
 */
export function bindingFacts(results: ResultsFile): string[] {
  const js = results.cases.filter((c) => (c.platform ?? 'javascript') === 'javascript');
  if (!js.length) return [];
  // date-times a Date does not hold whole bind the transform class only (hx30 pay-dates2)
  const transform = js.some((c) => c.class === 'transform');
  return (results.payloads ?? []).flatMap((p) =>
    p.findings.flatMap((f) =>
      f.kind === 'integer beyond 2^53'
        ? [
            `⚠ ${f.text}: the gate compares against that rounded value, so "correct" below does not cover them; keep such ids as strings in the payload, or parse with a BigInt-aware parser (lossless-json, json-bigint), which this run did not measure.`,
          ]
        : f.kind === 'decimal beyond a double'
          ? [
              `⚠ ${f.text}: the gate compares against that rounded value, so "correct" below does not cover them; keep such numbers as strings in the payload, or parse with a lossless parser (lossless-json), which this run did not measure.`,
            ]
          : f.kind === 'date-time precision' && transform
            ? [
                `⚠ ${f.text}: the gate compares the Dates, so "correct" below for parsing into typed values does not cover those digits and offsets; keep the field a string if they matter.`,
              ]
            : [],
    ),
  );
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
 * × class with its cost lines ({@link costLines}, each line of several costs followed by every one
 * of them) and the serializers that were not candidates, and once what settles the calls that are
 * not settled ({@link settleLine}); the quick policy's caveat is said once by report.md, above it. `terminal` (first in what a
 * run prints at its end): the sentences and their cost lines alone (one per kind), fitted to the
 * width, then the settle line once (the payload's facts were printed before measuring, the
 * serializers without a number are summarised after, the caveat and the load are said once by the
 * caller). Empty for a run on built-in workloads. Pure. (The HTML report renders the same
 * {@link recommend} output itself.)
 */
export function renderRecommendations(
  results: ResultsFile,
  dialect: 'terminal' | 'markdown',
  options: RenderRecommendationOptions = {},
): string {
  if (!results.payloads?.length)
    return dialect === 'terminal' ? renderSuiteRecommendations(results, options) : suiteMarkdown(results, options);
  const recs = recommend(results, options.costSources);
  const probed = probedState(results);
  const load = results.environment.loadAverage.start.map((x) => x.toFixed(2)).join('/');
  const machine = `${results.environment.cores} cores, load average ${load} at the start (1/5/15 min), policy ${results.policy.name}`;
  const esc = (s: string) => escapeCell(s, dialect, Infinity);
  const settle = settleLine(recs, results.policy.name);
  if (dialect === 'markdown') {
    const out = ['## Recommendation', '', `Measured on ${esc(machine)}.`, ''];
    for (const p of results.payloads) for (const line of payloadLines(p)) out.push(`- ${esc(line)}`);
    out.push('');
    for (const f of bindingFacts(results)) out.push(`**${esc(f)}**`, '');
    for (const r of recs) {
      out.push(
        `- **${esc(r.direction === 'serialize' ? 'serialize' : `deserialize, ${r.caseClass}`)}:** ${esc(r.sentence)}`,
      );
      const groups = costGroupsOf(r);
      const lines = costLines(r, probed);
      // report.md names each probe cost's probe id, for reference (the titles are for people)
      const ref = (k: object) =>
        'probe' in k && typeof k.probe === 'string' ? ` (probe ${markdownCode(k.probe)})` : '';
      for (const [i, d] of lines.entries()) {
        const g = groups[i];
        out.push(`  - ${esc(d)}${g && g.items.length === 1 ? ref(g.items[0]) : ''}`);
        // report.md keeps the full list: every cost of a kind said as one line
        if (g && g.items.length > 1) for (const k of g.items) out.push(`    - ${esc(k.text)}${ref(k)}`);
      }
      const kept = keepingLine(r);
      const all = r.baselineCosts ?? [];
      if (kept) out.push(`  - ${esc(kept)}${all.length === 1 ? ref(all[0]) : ''}`);
      if (kept && all.length > 1) for (const k of all) out.push(`    - ${esc(k.text)}${ref(k)}`);
      for (const d of excludedLines(r)) out.push(`  - ${esc(d)}`);
    }
    if (settle) out.push('', esc(settle));
    return `${out.join('\n')}\n`;
  }
  const bold = (s: string) => (options.color ? `\x1b[1m${s}\x1b[22m` : s);
  const w = options.width;
  // a cost or probe line in plain words: two lines at most, cut at a word (the full text is in report.md)
  const line = (d: string) =>
    options.verbose
      ? wrap(`    ${esc(plainFaults(d))}`, w, '      ')
      : wrapAtMost(`    ${esc(plainFaults(d))}`, w ?? DEFAULT_WIDTH, '  ', 2);
  const out = [bold('Recommendation'), ...bindingFacts(results).map((f) => wrap(esc(f), w))];
  for (const r of recs) {
    const label = r.direction === 'serialize' ? 'serialize' : `deserialize, ${r.caseClass}`;
    // wrapped without the colour codes (they would count as width), then the label made bold
    out.push(boldLead(wrap(`${label}: ${esc(r.sentence)}`, w), label, bold));
    for (const d of costLines(r, probed)) out.push(line(d));
    // the baseline it says to keep loses data on the user's records: the most severe kind, wrapped (report.md lists them all)
    const kept = keepingLine(r);
    if (kept) out.push(wrapAtMost(`    ${esc(plainFaults(kept))}`, w ?? DEFAULT_WIDTH, '  ', 2));
    // not ranked (its baseline ran slowed beside it) is said here; the cases without a number in the run's summary
    for (const e of r.excluded.filter((x) => x.status === 'not ranked'))
      out.push(line(`not a candidate: ${e.serializer} ${e.status}: ${e.reason}`));
  }
  if (settle) out.push(wrap(esc(settle), w));
  return `${out.join('\n')}\n`;
}

/**
 * The line under a sentence that keeps a baseline which loses data on the user's own records
 * (`baselineCosts`: payload probes only, no refusal: see recommend), or null: `keeping zod costs,
 * on your records with one change: an extra key at $: silent-loss at $.k (…)`, and how many more kinds.
 * The same words in the terminal (wrapped, two lines at most) and report.md (with every cost
 * under it). Pure.
 */
export function keepingLine(r: Recommendation): string | null {
  const kept = r.baselineCosts ? costGroups(r.baselineCosts) : [];
  if (!kept.length || !r.baseline) return null;
  const first = kept[0].text.replace(/^on [^:]+: /, '');
  const more = kept.length > 1 ? `; ${kept.length - 1} more kind${kept.length > 2 ? 's' : ''} in report.md` : '';
  const shared = r.baselineCostsShared ?? [];
  const also = shared.length
    ? `, as ${shared.length > 3 ? `${shared.slice(0, 3).join(', ')} and ${shared.length - 3} more` : joinNames(shared)} ${shared.length === 1 ? 'does' : 'do'} too`
    : '';
  return `keeping ${r.baseline} costs, on your records with one change: ${first}${also}${more}`;
}

/**
 * A probe verdict's fault code said in words for the terminal (`a Date: wrong-value at $` → `a
 * Date: gives a wrong value at $`; issue 22: the codes read as jargon); report.md keeps the codes,
 * which its legend defines. Pure.
 */
export function plainFaults(text: string): string {
  const words: Record<string, string> = {
    'silent-loss': 'loses data without an error',
    'wrong-value': 'gives a wrong value',
    'accepts-invalid': 'accepts input it must refuse',
    'invalid-json': 'writes invalid JSON',
    'ill-formed': 'writes ill-formed Unicode',
  };
  return text.replace(
    /\b(silent-loss|wrong-value|accepts-invalid|invalid-json|ill-formed) at\b/g,
    (_, code: string) => `${words[code]} at`,
  );
}

/** How the built-in suite's summary names a baseline: the platform's call for `json`. */
function baseLabel(r: Recommendation): string {
  return r.baseline === 'json' ? (r.direction === 'serialize' ? 'JSON.stringify' : 'JSON.parse') : (r.baseline ?? '—');
}

/**
 * The built-in suite's recommendation (a run without --payload): one line per direction × class
 * across the workloads, from the same {@link recommend} (so it agrees with the takeaways above the
 * tables): where a serializer is faster, it and its speed-up per workload; elsewhere the baseline,
 * with the workloads whose call is borderline or too uncertain named or counted (a single one
 * named once: `parse: JSON.parse on users · 100 · list (too uncertain to call)`; `serialize:
 * fast-json-stringify on weather-station · 1 · single (1.53× faster); JSON.stringify on the other 7
 * (fast-json-stringify looks 1.47× faster on users · 100 · many, borderline; too uncertain to call
 * on 2)`: a borderline call gives the speed-up it looks to have, so three reruns of one pair near the
 * line name the same serializer and about the same number whether or not each calls it borderline),
 * then a
 * pointer to --payload for a recommendation on the reader's own data and the settle line. Short by
 * design (issue 22: the default suite prints at most ~250 lines). Empty when nothing was measured.
 */
function renderSuiteRecommendations(results: ResultsFile, options: RenderRecommendationOptions): string {
  const suite = suiteRecommendation(results, options.costSources);
  if (!suite) return '';
  const esc = (s: string) => escapeCell(s, 'terminal', Infinity);
  const bold = (s: string) => (options.color ? `\x1b[1m${s}\x1b[22m` : s);
  // wrapped without the colour codes (they would count as width), then the first word made bold
  const out = [boldLead(wrap(suite.title, options.width), 'Recommendation', bold)];
  for (const l of suite.lines) out.push(wrap(esc(l), options.width));
  if (suite.settle) out.push(wrap(esc(suite.settle), options.width));
  return `${out.join('\n')}\n`;
}

/** The built-in suite's recommendation in report.md: the terminal's text, one item per class (nu6: report.md had none). */
function suiteMarkdown(results: ResultsFile, options: RenderRecommendationOptions): string {
  const suite = suiteRecommendation(results, options.costSources);
  if (!suite) return '';
  const esc = (s: string) => escapeCell(s, 'markdown', Infinity);
  const lines = suite.lines.map((l) => {
    const at = l.indexOf(': ');
    return `- **${esc(l.slice(0, at))}:** ${esc(l.slice(at + 2))}`;
  });
  return `${['## Recommendation', '', esc(suite.title.replace(/^Recommendation per/, 'Per')), '', ...lines, ...(suite.settle ? ['', esc(suite.settle)] : [])].join('\n')}\n`;
}

/**
 * The built-in suite's recommendation as plain text, unwrapped and unescaped, the one source of the
 * terminal's, report.md's and report.html's: a title, one line per class (`serialize: JSON.stringify
 * on all 16 (…)`) and what settles the unsettled calls. Null without recommendations. Pure.
 */
export function suiteRecommendation(
  results: ResultsFile,
  costSources?: readonly CostSource[],
): { title: string; lines: string[]; settle: string | null } | null {
  const recs = recommend(results, costSources);
  if (!recs.length) return null;
  const multiTarget = results.targets.length > 1;
  const where = (r: Recommendation) =>
    [r.scenario.workload, r.scenario.size, r.scenario.shape, ...(multiTarget ? [r.scenario.target] : [])].join(' · ');
  // "built-in" was said of a config's workloads too (hx19 WL3)
  const title = 'Recommendation per class across the workloads (for your own data: jsonbench run --payload FILE)';
  const out: string[] = [];
  const classes = [...new Set(recs.map((r) => `${r.direction} ${r.caseClass}`))];
  for (const key of classes) {
    const rs = recs.filter((r) => `${r.direction} ${r.caseClass}` === key);
    const label = rs[0].direction === 'serialize' ? 'serialize' : rs[0].caseClass;
    const parts: string[] = [];
    const picks = [...new Set(rs.filter((r) => r.pick).map((r) => r.pick!.serializer))];
    for (const name of picks)
      parts.push(
        `${name} on ${joinNames(rs.filter((r) => r.pick?.serializer === name).map((r) => `${where(r)} (${formatRatio(1 / r.pick!.ratio)}× faster)`))}`,
      );
    // no call where the baseline gave no number (hx19 WL3: "serialize: JSON.stringify on wl-rigged · 1 · single" for a
    // JSON.stringify that failed its gate there, exit 0): said, never "keep" it
    const failedBase = (r: Recommendation) => r.excluded.find((e) => e.serializer === r.baseline);
    const none = rs.filter((r) => !r.pick && r.state === 'none' && failedBase(r));
    for (const r of none)
      parts.push(
        `no call on ${where(r)} (its baseline ${baseLabel(r)} is ${failedBase(r)!.status}: nothing was compared with it)`,
      );
    for (const base of [...new Set(rs.filter((r) => !r.pick && !none.includes(r)).map(baseLabel))]) {
      const kept = rs.filter((r) => !r.pick && !none.includes(r) && baseLabel(r) === base);
      const border = kept.filter((r) => r.state === 'borderline' && r.borderline);
      const vague = kept.filter((r) => r.state === 'uncertain');
      // one workload is named once, in `on`, not again in its notes
      const one = kept.length === 1;
      const notes = [
        border.length
          ? joinNames(
              [...new Set(border.map((r) => r.borderline!.serializer))].map((b) => {
                const hers = border.filter((r) => r.borderline!.serializer === b);
                // the speed-up it looks to have, so that a rerun that calls it faster reads the same number
                const looks = joinNames(hers.map((r) => `${formatRatio(1 / r.borderline!.ratio)}×`));
                // within 2% of 1 everywhere: "about as fast", never "looks 1.00× faster" (nu6)
                const level = hers.every((r) => r.borderline!.ratio >= 0.98);
                return `${b} ${level ? `is about as fast (${looks})` : `looks ${looks} faster`}${one ? '' : ` on ${joinNames(hers.map(where))}`}, borderline`;
              }),
            )
          : '',
        vague.length ? `too uncertain to call${one ? '' : ` on ${vague.length}`}` : '',
      ].filter(Boolean);
      const on = one
        ? where(kept[0])
        : kept.length === rs.length
          ? `all ${kept.length}`
          : picks.length || none.length
            ? `the other ${kept.length}`
            : `${kept.length}`;
      parts.push(`${base} on ${on}${notes.length ? ` (${notes.join('; ')})` : ''}`);
    }
    out.push(`${label}: ${parts.join('; ')}`);
  }
  return { title, lines: out, settle: settleLine(recs, results.policy.name) || null };
}
