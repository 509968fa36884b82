import type { Direction } from '../case/coordinates.js';
import type { Fault, Verdict } from '../case/probe.js';

/**
 * The failed probes of each serializer row, as the results file keeps them for readers that do not
 * want the whole matrix (the recommendation, a CI summary): `probes.failing[<serializer row>]` is
 * the list of that row's ✗ wrong and ⚠ throws verdicts, in the matrix's order, each with the probe
 * id, direction, target, title, and a one-line description (`<title>: silent-loss at $.a
 * (expected -0, got 0)`, `<title>: throws (message)`). ✘ cannot and – are not failures: the
 * adapter declared them, or jsonbench cannot state the probe yet. Pure.
 */

/** One failed probe side of one serializer row. */
export interface FailedProbe {
  probe: string;
  direction: Direction;
  target: string;
  title: string;
  mark: '✗' | '⚠';
  /** the ✗ kind (absent for ⚠) */
  fault?: Fault;
  /** one line, at most {@link FAILED_TEXT_MAX} characters */
  text: string;
}

/** Longest description kept per failed probe (characters). */
export const FAILED_TEXT_MAX = 200;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The one-line description of a failing verdict. */
export function failedProbeText(title: string, v: Verdict): string {
  if (v.mark === '✗')
    return clip(
      oneLine(`${title}: ${v.fault} at ${v.path} (expected ${clip(v.expected, 60)}, got ${clip(v.actual, 60)})`),
      FAILED_TEXT_MAX,
    );
  if (v.mark === '⚠')
    return clip(
      oneLine(`${title}: throws${v.stage === 'prepare' ? ' in prepare()' : ''} (${clip(v.message, 80)})`),
      FAILED_TEXT_MAX,
    );
  return clip(oneLine(`${title}: ${v.mark}`), FAILED_TEXT_MAX);
}

/** What {@link failedProbesBySerializer} reads of a probe section. */
export interface ProbeVerdictsLike {
  probes: readonly { id: string; title: string }[];
  verdicts: readonly { probe: string; direction: Direction; serializer: string; target: string; verdict: Verdict }[];
}

/** Every row's ✗ and ⚠ verdicts, keyed by serializer row (rows with none are absent), in the verdicts' order. */
export function failedProbesBySerializer(section: ProbeVerdictsLike): Record<string, FailedProbe[]> {
  const titles = new Map(section.probes.map((p) => [p.id, p.title]));
  // no prototype: a serializer id such as `constructor` or `__proto__` is a key like any other (hx23 A03)
  const out: Record<string, FailedProbe[]> = Object.create(null) as Record<string, FailedProbe[]>;
  for (const r of section.verdicts) {
    const v = r.verdict;
    if (v.mark !== '✗' && v.mark !== '⚠') continue;
    const title = titles.get(r.probe) ?? r.probe;
    (out[r.serializer] ??= []).push({
      probe: r.probe,
      direction: r.direction,
      target: r.target,
      title,
      mark: v.mark,
      ...(v.mark === '✗' ? { fault: v.fault } : {}),
      text: failedProbeText(title, v),
    });
  }
  return out;
}
