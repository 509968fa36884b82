/**
 * The behaviour costs a recommendation names from the probe pass (issue 24: "each cost it names is
 * one this payload can pay"). A failed probe of the picked serializer becomes a cost line only when
 * - it is reachable by this payload: the probe was chosen for the case's workload (`relevantTo`,
 *   from its schema's value kinds: plan/probe-plan.ts `isRelevant`), and
 * - it is not shared by the baseline the pick is compared to: a probe the baseline fails the same
 *   way (-0 written as 0 by JSON.stringify too, NaN as null) costs nothing by choosing the pick.
 * Payload probes (probes/catalog/payload.ts: the user's own sample, pruned, and mutated copies of it)
 * are said as what the pick does to this payload against JSON.parse / JSON.stringify, a refusal its
 * schema asks for (✔ "rejects …", no failure: case/probe.ts `isRefusal`) included; the other
 * families keep the probe's title. Each cost carries its kind and severity tier
 * ({@link COST_TIERS}): a recommendation says costs of one kind as one line ({@link costGroups}),
 * the output defects first, and prefers the serializer with the less severe costs among those its
 * intervals cannot separate. Pure: reads only the results file.
 */
import type { Direction } from '../case/coordinates.js';
import { isRefusal } from '../case/probe.js';
import type { MeasuredCase, ResultsFile } from '../results/types.js';
import { expandVerdicts } from '../results/verdict-groups.js';
import { deepFreeze } from '../case/frozen.js';

/** A cost line, as recommend.ts's `BehaviourCost` of source `probe` (said structurally: recommend.ts imports this file). */
export interface ProbeCost {
  source: 'probe';
  text: string;
  /** the probe's id (`string.value.plain.lone-high.L40`): report.md names it beside the text, for reference */
  probe?: string;
  /** the cost's kind: costs of one kind are said as one line ({@link costGroups}) */
  kind: string;
  /** how severe, 0 the most ({@link COST_TIERS}) */
  tier: number;
  /** true for a payload probe (the user's own records, pruned or mutated: `payload.…`); absent for a catalog probe (a made-up input the schema allows) */
  onPayload?: boolean;
  /** the cost in a few words, for a sentence: `an extra key at $ (silent-loss at $.x)` */
  short?: string;
  /** a refusal the schema asks for (✔ "rejects …"): a cost against a baseline that reads it, never a loss ({@link isLoss}) */
  refusal?: boolean;
}

/**
 * The severity tiers of a behaviour cost, most severe first (the index is a cost's `tier`): output
 * that is not valid JSON or not well-formed Unicode (issue 24 item 10: an output defect, never a
 * "looser check"); a crash, hang or prototype pollution; data lost silently or invalid input
 * accepted; a wrong value; a throw where the baseline gives output; a declared "cannot"; a looser
 * check than the schema (translation notes); the need for a schema at all.
 */
export const COST_TIERS = deepFreeze([
  'output defect',
  'unsafe',
  'silent loss',
  'wrong value',
  'throws',
  'cannot',
  'looser check',
  'schema',
] as const);

/** The tier of a failed probe verdict ({@link COST_TIERS}). */
function tierOf(d: VerdictLike): number {
  if (d.mark === '⚠') return 4;
  if (d.mark === '✘') return 5;
  switch (d.fault) {
    case 'invalid-json':
    case 'ill-formed':
      return 0;
    case 'pollution':
    case 'crash':
    case 'hang':
      return 1;
    case 'silent-loss':
    case 'accepts-invalid':
      return 2;
    default:
      return 3;
  }
}

/**
 * The kind of a failed probe, for collapsing: its mark and fault, and the probe's family and
 * subject (the first two parts of its id: `string.value`, `edge.number`), so the 66 lone-surrogate
 * probes of one serializer (plain, date-time and email strings, each length) are one kind. A
 * payload probe (`payload.<n>.<mutation>`) is a kind of its own.
 */
function kindOf(probe: string, d: VerdictLike): string {
  const parts = probe.split('.');
  const subject = parts[0] === 'payload' ? probe : parts.slice(0, 2).join('.');
  return `probe ${d.mark} ${d.fault ?? ''} ${subject}`;
}

interface VerdictLike {
  mark: string;
  label?: string;
  fault?: string;
  path?: string;
  expected?: string;
  actual?: string;
  message?: string;
  reason?: string;
}
interface ProbeVerdictLike {
  probe: string;
  direction: Direction;
  serializer: string;
  target: string;
  verdict: VerdictLike;
}
interface ProbesLike {
  probes?: { id: string; title?: string }[];
  verdicts?: ProbeVerdictLike[];
  relevantTo?: Record<string, string[]>;
}

/** Marks that are a cost: ✗ wrong, ⚠ throws, ✘ cannot. */
const FAILED = new Set(['✗', '⚠', '✘']);

const clip = (s: string, max = 80) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** How a verdict fails, for comparing with the baseline's: the mark, and for ✗ the fault and path. */
const failureKey = (v: VerdictLike) =>
  v.mark === '✗' ? `✗ ${v.fault ?? ''} ${v.path ?? ''}` : isRefusal(v) ? 'rejects' : v.mark;

/** The sentence of a failed verdict of a payload probe: what the pick does to this payload where JSON does not. */
function payloadCostText(title: string, direction: Direction, d: VerdictLike): string {
  const json = direction === 'serialize' ? 'JSON.stringify writes' : 'JSON.parse reads';
  const on = `on ${title.replace(/^([^:]+): your payload \(one element per array\)$/, 'your payload $1')}`;
  if (d.mark === '✗')
    return `${on}: ${d.fault ?? 'wrong'} at ${d.path ?? '$'} (${json} ${clip(d.expected ?? '?', 40)}, it gives ${clip(d.actual ?? '?', 40)})`;
  if (d.mark === '⚠') return `${on}: it throws where ${json} it (${clip(d.message ?? '', 60)})`;
  // a refusal its schema asks for (✔, no failure): what this payload costs where JSON reads it
  if (isRefusal(d)) return `${on}: it ${d.label} (${json} it)`;
  return `${on}: it cannot (${clip(d.reason ?? '', 60)})`;
}

/** The sentence of a failed verdict of a catalog probe. */
function probeCostText(title: string, d: VerdictLike): string {
  if (d.mark === '✗')
    return `${title}: ${d.fault ?? 'wrong'} at ${d.path ?? '$'} (expected ${clip(d.expected ?? '?')}, got ${clip(d.actual ?? '?')})`;
  if (d.mark === '⚠') return `${title}: throws (${clip(d.message ?? '')})`;
  return `${title}: cannot (${clip(d.reason ?? '')})`;
}

/**
 * The failed probes of the case's serializer (same direction and target) that this payload can
 * reach and its baseline does not share, each a cost (see the module comment). A results file
 * without probes gives none.
 */
export const payloadCosts = (c: MeasuredCase, results: ResultsFile): ProbeCost[] => {
  const p = probeVerdicts(results);
  if (!p || !Array.isArray(p.verdicts)) return [];
  const titles = new Map((p.probes ?? []).map((x) => [x.id, x.title ?? x.id]));
  const mine = (v: ProbeVerdictLike, serializer: string) =>
    v.serializer === serializer && v.direction === c.direction && v.target === c.target.id;
  const baseline = new Map<string, string>();
  if (c.baseline) for (const v of p.verdicts) if (mine(v, c.baseline)) baseline.set(v.probe, failureKey(v.verdict));
  const out: ProbeCost[] = [];
  for (const v of p.verdicts) {
    const refusal = v.probe.startsWith('payload.') && isRefusal(v.verdict);
    if (!mine(v, c.serializer) || !(FAILED.has(v.verdict.mark) || refusal)) continue;
    if (p.relevantTo && !(p.relevantTo[v.probe] ?? []).includes(c.workload)) continue;
    if (baseline.get(v.probe) === failureKey(v.verdict)) continue;
    const title = titles.get(v.probe) ?? v.probe;
    const onPayload = v.probe.startsWith('payload.');
    out.push({
      // a refusal is stricter than the baseline, never a loss (isLoss): nu6's "keeping typebox costs: … left out at $.ts"
      ...(refusal ? { refusal } : {}),
      ...(onPayload
        ? {
            onPayload,
            short: `${title.replace(/^[^:]+: /, '')} (${v.verdict.mark === '✗' ? `${v.verdict.fault ?? 'wrong'} at ${v.verdict.path ?? '$'}` : v.verdict.mark === '⚠' ? 'throws' : 'cannot'})`,
          }
        : {}),
      source: 'probe',
      text: v.probe.startsWith('payload.')
        ? payloadCostText(title, v.direction, v.verdict)
        : probeCostText(title, v.verdict),
      kind: kindOf(v.probe, v.verdict),
      tier: tierOf(v.verdict),
      probe: v.probe,
    });
  }
  return out;
};

const expanded = new WeakMap<object, ProbesLike | null>();

/**
 * The probes section of a results file with its verdicts as records: a file as written holds them
 * as `verdictRows` + `verdictGroups` (results/verdict-groups.ts), expanded here (once per file), so
 * a report made from a results file read with JSON.parse finds the same costs as one read with
 * readResults (nu6: recommend() on a saved results.json found none). Null without probes.
 * @throws ResultsFileError when the groups are malformed (results/verdict-groups.ts `expandVerdicts`)
 */
export function probeVerdicts(results: ResultsFile): ProbesLike | null {
  const p = (results as { probes?: ProbesLike }).probes;
  if (!p || typeof p !== 'object') return null;
  if (Array.isArray(p.verdicts) || !('verdictGroups' in p)) return p;
  if (!expanded.has(p)) {
    const file = expandVerdicts({ probes: p }, 'results file') as { probes?: ProbesLike };
    expanded.set(p, file.probes ?? null);
  }
  return expanded.get(p) ?? null;
}

/** A loss: a failed probe that writes wrong or unreadable output or loses data (tiers 0–3 of {@link COST_TIERS}), not a throw, a "cannot" or a refusal. */
export function isLoss(c: { source: string; tier?: number; refusal?: boolean }): boolean {
  return c.source === 'probe' && !c.refusal && c.tier !== undefined && c.tier <= 3;
}

/**
 * The losses among a serializer's costs ({@link isLoss}) in one clause for a sentence, or null
 * without any: `its probes show it losing data: 56 failing probes that the baseline passes, 3 on your records with one change (an
 * extra key at $ (silent-loss at $.k); …), the rest on made-up inputs your schema allows
 * (writes a lone surrogate raw …)`. Pure.
 */
export function lossClause(
  costs: readonly (CostLike & { onPayload?: boolean; short?: string; refusal?: boolean })[],
): string | null {
  const losses = costs.filter(isLoss);
  if (!losses.length) return null;
  const mine = losses.filter((c) => c.onPayload);
  const made = losses.filter((c) => !c.onPayload);
  const shorts = [...new Set(mine.map((c) => c.short ?? c.text))];
  const onMine = mine.length
    ? `${mine.length} on your records with one change (${shorts.slice(0, 2).join('; ')}${shorts.length > 2 ? `; ${shorts.length - 2} more` : ''})`
    : '';
  const heads = [...new Set(costGroups(made).map((g) => probeHeadline(g.items[0].kind ?? '')))];
  const onMade = made.length
    ? `${mine.length ? 'the rest' : `${made.length}`} on made-up inputs your schema allows (${heads.slice(0, 1).join('')}${heads.length > 1 ? `; ${heads.length - 1} more kind${heads.length > 2 ? 's' : ''}` : ''})`
    : '';
  // the costs are those the baseline does not share (payloadCosts): said, so the count is not read against report.md's
  // "fails 7 probe groups relevant to this payload", which counts every failure (nu12: 4 here, 7 there)
  return `its probes show it losing data: ${losses.length} failing probe${losses.length === 1 ? '' : 's'} that the baseline passes, ${[onMine, onMade].filter(Boolean).join(', ')}`;
}

/** A behaviour cost as {@link costGroups} reads it (recommend.ts's `BehaviourCost`, said structurally). */
interface CostLike {
  source: 'schema' | 'translation' | 'probe';
  text: string;
  kind?: string;
  tier?: number;
  refusal?: boolean;
}

/** Costs of one kind: said as one line with their count and the first as the example. */
export interface CostGroup<C extends CostLike = CostLike> {
  /** the label the line opens with: `output defect`, `schema`, `looser check`, `stricter` (a refusal its schema asks for) or `probe` */
  label: string;
  /** how severe, 0 the most ({@link COST_TIERS}) */
  tier: number;
  /** the line: the cost itself for one, else what they share, their count and one example */
  text: string;
  /** every cost of the kind, in the order found (report.md lists them all) */
  items: C[];
}

/** The tier of a cost: a probe's own, a translation note's `looser check`, the schema's `schema`. */
export function costTier(c: CostLike): number {
  if (c.tier !== undefined) return c.tier;
  return c.source === 'translation' ? 6 : c.source === 'schema' ? 7 : 3;
}

/** What the costs of one probe kind share, as the collapsed line says it. */
function probeHeadline(kind: string): string {
  const [, mark, fault, subject] = kind.split(' ');
  const where =
    subject === 'string.value'
      ? ' in any string field'
      : subject === 'string.key'
        ? ' in any key'
        : subject === 'edge.number'
          ? ' for number values'
          : subject === 'edge.date'
            ? ' for Date values'
            : subject === 'edge.int'
              ? ' for large integers'
              : '';
  if (mark === '⚠') return `throws${where}`;
  if (mark === '✘') return `cannot${where}`;
  if (fault === 'ill-formed') return `writes a lone surrogate raw (ill-formed Unicode: UTF-8 cannot encode it)${where}`;
  if (fault === 'invalid-json') return `writes output that is not valid JSON${where}`;
  const words: Record<string, string> = {
    'silent-loss': 'loses data without an error',
    'wrong-value': 'gives a wrong value',
    'accepts-invalid': 'accepts input it must refuse',
    pollution: 'changes Object.prototype',
    crash: 'crashes the process',
    hang: 'hangs',
  };
  return `${words[fault] ?? fault}${where}`;
}

/**
 * The costs grouped by kind, the most severe first (output defects, then the schema, then the
 * others by tier; first-found order within a tier). A kind of one cost is said as it is
 * (`probe: NaN: invalid-json at $ …`); several as one line with their count and the first as an
 * example (`output defect: writes a lone surrogate raw (…) in any string field: 66 probes, e.g.
 * a 40-character string holding unpaired high surrogates …, as a plain string value: ill-formed at $ …`). Translation notes of one kind share
 * the text before their first `: ` (`ajv JTD has no null type: 5 places, e.g. $.a (always null)
 * accepts any value`). Pure.
 */
export function costGroups<C extends CostLike>(costs: readonly C[]): CostGroup<C>[] {
  const byKind = new Map<string, C[]>();
  for (const c of costs) {
    const prefix = c.source === 'translation' ? /^([^:]+): /.exec(c.text)?.[1] : undefined;
    const kind = c.kind ?? (prefix ? `translation ${prefix}` : `${c.source} ${c.text}`);
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind)!.push(c);
  }
  const order = (tier: number) => (tier === 0 ? 0 : tier === 7 ? 1 : tier + 1);
  return [...byKind]
    .map(([kind, items]) => {
      const first = items[0];
      const tier = costTier(first);
      // a refusal its schema asks for is no loss: labelled apart from the probes that lose data (nu15: five "probe:"
      // lines under "its probes show it losing data", two of them correct rejections)
      const label =
        tier === 0
          ? 'output defect'
          : first.source === 'translation'
            ? 'looser check'
            : first.refusal
              ? 'stricter'
              : first.source;
      let text = first.text;
      if (items.length > 1 && first.source === 'probe')
        text = `${probeHeadline(kind)}: ${items.length} probes, e.g. ${first.text}`;
      else if (items.length > 1 && kind.startsWith('translation ')) {
        const prefix = kind.slice('translation '.length);
        text = `${prefix}: ${items.length} places, e.g. ${first.text.slice(prefix.length + 2)}`;
      }
      return { label, tier, text, items };
    })
    .sort((a, b) => order(a.tier) - order(b.tier));
}
