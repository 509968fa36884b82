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
 * families keep the probe's title. Pure: reads only the results file.
 */
import type { Direction } from '../case/coordinates.js';
import { isRefusal } from '../case/probe.js';
import type { MeasuredCase, ResultsFile } from '../results/types.js';

/** A cost line, as recommend.ts's `BehaviourCost` of source `probe` (said structurally: recommend.ts imports this file). */
export interface ProbeCost {
  source: 'probe';
  text: string;
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
  const p = (results as { probes?: ProbesLike }).probes;
  if (!p || typeof p !== 'object' || !Array.isArray(p.verdicts)) return [];
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
    out.push({
      source: 'probe',
      text: v.probe.startsWith('payload.')
        ? payloadCostText(title, v.direction, v.verdict)
        : probeCostText(title, v.verdict),
    });
  }
  return out;
};
