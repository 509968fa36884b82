// Shipped verbatim into the report's script (see client-bundle.ts): self-contained function
// declarations only, calling each other and nothing imported at run time.
import type { ViewCase, ViewData, ViewGroup, ViewSection } from './view.js';

/**
 * What the reader chose, kept in the URL hash: the serializers, classes, directions and targets
 * shown (null = all) and the baseline (null = the one each class was measured against).
 */
export interface ViewState {
  serializer: string[] | null;
  cls: string[] | null;
  direction: string[] | null;
  target: string[] | null;
  baseline: string | null;
}

/** One row of a table for one target, with ratios against the effective baseline. */
export interface ViewRow {
  serializer: string;
  c: ViewCase | undefined;
  /** ratio against the effective baseline and its log-scale interval */
  ratio: number | null;
  interval: [number, number] | null;
  allocRatio: number | null;
  /** the allocation ratio's range when its windows or the baseline's disagree (their lowest and highest): no single ratio holds */
  allocRange?: [number, number];
  /** true when the ratio is derived (ratio of two measured ratios), not measured in pairs */
  derived: boolean;
}

/** Key of a case in {@link indexCases}. */
export function caseKey(group: string, cls: string, serializer: string, target: string): string {
  return `${group}\u0000${cls}\u0000${serializer}\u0000${target}`;
}

/** Cases by group × class × serializer × target. */
export function indexCases(data: ViewData): Record<string, ViewCase> {
  const out: Record<string, ViewCase> = {};
  for (const c of data.cases) out[caseKey(c.group, c.cls, c.serializer, c.target)] = c;
  return out;
}

/** True when `value` passes a filter (null = everything shown). */
export function isShown(list: string[] | null, value: string): boolean {
  return list === null || list.includes(value);
}

/** The state with nothing filtered and the measured baselines. */
export function defaultState(): ViewState {
  return { serializer: null, cls: null, direction: null, target: null, baseline: null };
}

/** How prose names a serializer: the platform's own JSON by its call (`JSON.stringify`, `JSON.parse`), others by id. */
export function labelOf(serializer: string, c: ViewCase | undefined): string {
  const m = c && c.family === 'builtin' && c.code ? /^(JSON\.[A-Za-z]+)\(/.exec(c.code) : null;
  return m ? m[1] : serializer;
}

/**
 * The baseline a section's ratios are drawn against for one target: the reader's choice when it was
 * measured there with a ratio, else the class's measured baseline.
 */
export function effectiveBaseline(
  index: Record<string, ViewCase>,
  group: ViewGroup,
  section: ViewSection,
  target: string,
  state: ViewState,
): string | null {
  if (state.baseline && state.baseline !== section.baseline) {
    const b = index[caseKey(group.key, section.cls, state.baseline, target)];
    if (b && b.status === 'measured' && b.ratio !== null && b.ratio > 0) return state.baseline;
  }
  return section.baseline;
}

/**
 * The rows of a section for one target, serializers filtered by the state. Against the measured
 * baseline the ratios are the measured ones (paired rounds in one process); against another
 * baseline B a ratio is r / r_B, its interval's log half-widths added in quadrature (the lower
 * side from r's lower and r_B's upper, and the other way round), and marked `derived`.
 */
export function sectionRows(
  index: Record<string, ViewCase>,
  group: ViewGroup,
  section: ViewSection,
  target: string,
  state: ViewState,
): ViewRow[] {
  const base = effectiveBaseline(index, group, section, target, state);
  const b = base === null ? undefined : index[caseKey(group.key, section.cls, base, target)];
  const rebased = base !== section.baseline && b !== undefined;
  return section.serializers
    .filter((s) => isShown(state.serializer, s))
    .map((serializer) => {
      const c = index[caseKey(group.key, section.cls, serializer, target)];
      if (!c || c.status !== 'measured')
        return { serializer, c, ratio: null, interval: null, allocRatio: null, derived: false };
      // the allocation ratio's range when either figure's windows disagree: lowest ÷ baseline's highest, highest ÷ baseline's lowest
      const mine = c.allocRange ?? (c.alloc !== undefined ? [c.alloc, c.alloc] : null);
      const theirs =
        b && b.status === 'measured' ? (b.allocRange ?? (b.alloc !== undefined ? [b.alloc, b.alloc] : null)) : null;
      const spread =
        (c.allocRange || (b && b.allocRange)) && serializer !== base && mine && theirs && theirs[0] > 0
          ? { allocRange: [mine[0] / theirs[1], mine[1] / theirs[0]] as [number, number] }
          : {};
      if (!rebased)
        return {
          serializer,
          c,
          ratio: c.ratio,
          interval: c.ratioInterval,
          allocRatio: c.allocRatio,
          derived: false,
          ...(c.allocRatio !== null ? spread : {}),
        };
      const bb = b as ViewCase;
      const allocRatio = c.alloc !== undefined && bb.alloc !== undefined && bb.alloc > 0 ? c.alloc / bb.alloc : null;
      if (serializer === base) return { serializer, c, ratio: 1, interval: [1, 1], allocRatio, derived: true };
      if (c.ratio === null || bb.ratio === null)
        return {
          serializer,
          c,
          ratio: null,
          interval: null,
          allocRatio,
          derived: true,
          ...(allocRatio !== null ? spread : {}),
        };
      const ratio = c.ratio / bb.ratio;
      const ci = c.ratioInterval;
      const bi = bb.ratioInterval;
      let interval: [number, number] | null = null;
      if (ci !== null && bi !== null) {
        const down = Math.hypot(Math.log(c.ratio / ci[0]), Math.log(bi[1] / bb.ratio));
        const up = Math.hypot(Math.log(ci[1] / c.ratio), Math.log(bb.ratio / bi[0]));
        interval = [ratio * Math.exp(-down), ratio * Math.exp(up)];
      }
      return { serializer, c, ratio, interval, allocRatio, derived: true, ...(allocRatio !== null ? spread : {}) };
    });
}
