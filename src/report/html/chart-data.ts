// From view data and state to chart options. Shipped verbatim (see client-bundle.ts):
// self-contained function declarations only.
import type { ViewCase, ViewData } from './view.js';
import type { ViewState } from './rebase.js';
import { caseKey, effectiveBaseline, isShown, labelOf, sectionRows } from './rebase.js';
import { sectionTargets, shownTargets } from './sections.js';
import { ratioChartOption, scalingChartOption, scatterChartOption } from './charts.js';

/** The ratio-bars option of group `gi`, class section `si`; null when nothing there has a ratio. */
export function ratioOptionFor(
  data: ViewData,
  index: Record<string, ViewCase>,
  gi: number,
  si: number,
  state: ViewState,
): Record<string, unknown> | null {
  const group = data.groups[gi];
  const section = group.sections[si];
  const targets = sectionTargets(data, section, state);
  const rows = targets.map((t) => sectionRows(index, group, section, t, state));
  const bars = (rows[0] ?? [])
    .map((r, i) => ({
      name: r.serializer,
      values: rows.map((rs) => ({ ratio: rs[i].ratio, interval: rs[i].interval })),
    }))
    .filter((b) => b.values.some((v) => v.ratio !== null));
  if (!bars.length) return null;
  const base = effectiveBaseline(index, group, section, targets[0], state);
  const label = base === null ? 'baseline' : labelOf(base, index[caseKey(group.key, section.cls, base, targets[0])]);
  return ratioChartOption(
    `Time relative to ${label} (${section.cls}), log scale; whiskers: confidence interval`,
    bars,
    targets,
    label,
    section.cls,
  );
}

/** The speed-vs-allocation option of group `gi` (measured cases with an allocation figure). */
export function scatterOptionFor(data: ViewData, gi: number, state: ViewState): Record<string, unknown> | null {
  const group = data.groups[gi];
  const multi = shownTargets(data, state).length > 1;
  const points = data.cases
    .filter(
      (c) =>
        c.group === group.key &&
        c.status === 'measured' &&
        c.mean !== undefined &&
        c.alloc !== undefined &&
        isShown(state.serializer, c.serializer) &&
        isShown(state.cls, c.cls) &&
        isShown(state.target, c.target),
    )
    .map((c) => ({
      name: c.serializer,
      series: multi ? `${c.cls} · ${c.target}` : c.cls,
      time: c.mean as number,
      alloc: c.alloc as number,
      estimate: Boolean(c.allocEstimate),
    }));
  return points.length
    ? scatterChartOption('Speed vs allocation (each point one serializer; down-left is better)', points)
    : null;
}

/** The scaling option of `data.scaling[i]`: time per op against size, one line per serializer (× target). */
export function scalingOptionFor(data: ViewData, i: number, state: ViewState): Record<string, unknown> | null {
  const s = data.scaling[i];
  const multi = shownTargets(data, state).length > 1;
  // no prototype: a serializer named `constructor` read Object's constructor here and stopped every chart (hx23 A10)
  const lines: Record<string, [number, number][]> = Object.create(null) as Record<string, [number, number][]>;
  for (const c of data.cases) {
    if (
      c.workload !== s.workload ||
      c.shape !== s.shape ||
      c.direction !== s.direction ||
      c.cls !== s.cls ||
      c.status !== 'measured' ||
      c.mean === undefined
    )
      continue;
    if (!isShown(state.serializer, c.serializer) || !isShown(state.target, c.target)) continue;
    const name = multi ? `${c.serializer} · ${c.target}` : c.serializer;
    (lines[name] = lines[name] ?? []).push([c.size, c.mean]);
  }
  const list = Object.keys(lines).map((name) => ({ name, points: lines[name].sort((a, b) => a[0] - b[0]) }));
  return list.length
    ? scalingChartOption(`${s.workload} · ${s.shape} · ${s.direction} · ${s.cls}: time per op by size (log-log)`, list)
    : null;
}
