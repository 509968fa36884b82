// The body of the report: one section per group (workload × size × shape × direction), a scaling
// block per workload. Rendered once at build time and again in the page when the state changes,
// from the same functions: shipped verbatim (see client-bundle.ts), so self-contained declarations
// only. Every string from the data goes through escapeHtml.
import type { ViewCase, ViewData, ViewGroup, ViewSection } from './view.js';
import type { ViewState } from './rebase.js';
import { caseKey, effectiveBaseline, isShown, labelOf, sectionRows } from './rebase.js';
import { escapeHtml } from './escape.js';
import { renderTable } from './table.js';
import { takeawayText, unrankedReason } from '../takeaway.js';
import { formatBytes } from '../units.js';
import { sentenceMark } from '../rows.js';

/** The targets shown under the state, in order. */
export function shownTargets(data: ViewData, state: ViewState): string[] {
  return data.targets.filter((t) => isShown(state.target, t));
}

/** The shown targets a section's cases ran on (a .NET section's .NET targets, a JavaScript section's JavaScript ones). */
export function sectionTargets(data: ViewData, section: ViewSection, state: ViewState): string[] {
  return shownTargets(data, state).filter((t) => !section.targets || section.targets.includes(t));
}

/** The takeaway sentence(s) of a section: one per shown target, prefixed by the target when several; `terse`: without the table's figures (takeaway.ts takeawayText). */
export function sectionTakeaway(
  data: ViewData,
  index: Record<string, ViewCase>,
  group: ViewGroup,
  section: ViewSection,
  state: ViewState,
  terse = false,
): string[] {
  const targets = sectionTargets(data, section, state);
  return targets
    .map((t) => {
      const base = effectiveBaseline(index, group, section, t, state);
      const rows = sectionRows(index, group, section, t, state).filter((r) => r.c);
      if (!rows.length || base === null) return '';
      const label = labelOf(base, index[caseKey(group.key, section.cls, base, t)]);
      const text = takeawayText(
        rows.map((r) => {
          const why = unrankedReason((r.c as ViewCase).findings);
          return {
            name: r.serializer,
            label: labelOf(r.serializer, r.c),
            status: (r.c as ViewCase).status,
            ratio: r.ratio,
            interval: r.interval,
            allocRatio: r.allocRatio,
            ...(r.allocRange ? { allocRange: r.allocRange } : {}),
            ...(why ? { unranked: why } : {}),
            ...((r.c as ViewCase).loses ? { loses: true } : {}),
          };
        }),
        base,
        label,
        data.confidence,
        terse,
      );
      return targets.length > 1 ? `${t}: ${text}` : text;
    })
    .filter(Boolean);
}

/** Cases that failed to give numbers (incorrect, failed, timeout, crashed), with their reason and for `incorrect` the path, expected and actual; unsupported ones give their reason in the table row. */
export function renderProblems(cases: ViewCase[]): string {
  if (!cases.length) return '';
  const items = cases.map((c) => {
    const where = c.mismatch
      ? ` <span class="mm">at <code>${escapeHtml(c.mismatch.path)}</code> (${escapeHtml(c.mismatch.side)} output): expected <code>${escapeHtml(c.mismatch.expected)}</code>, got <code>${escapeHtml(c.mismatch.actual)}</code></span>`
      : '';
    return `<li class="st-${escapeHtml(c.status)}"><b>${escapeHtml(c.serializer)}</b> <span class="badge ${escapeHtml(c.status)}">${escapeHtml(c.status)}</span> <span class="dim">${escapeHtml(c.target)}</span>${where}<div class="reason">${escapeHtml(c.reason ?? '')}</div></li>`;
  });
  return `<ul class="problems">${items.join('')}</ul>`;
}

/** The translation notes of a section's cases (what each library's schema checks more loosely than the payload's), each once per serializer. */
export function renderNotes(cases: ViewCase[]): string {
  const seen: Record<string, boolean> = {};
  const items: string[] = [];
  for (const c of cases)
    for (const n of c.notes ?? []) {
      const key = `${c.serializer}\u0000${n}`;
      if (seen[key]) continue;
      seen[key] = true;
      items.push(`<li><b>${escapeHtml(c.serializer)}</b>: ${escapeHtml(n)}</li>`);
    }
  return items.length
    ? `<details class="notes"><summary>Looser than the schema (${items.length} translation note${items.length === 1 ? '' : 's'})</summary><ul class="problems">${items.join('')}</ul></details>`
    : '';
}

/** The findings told as sentences under the table (≠ mean vs ratio, ⊘ baseline slowed, ⇅ machine drift), as report.md prints them: the table's notes cell points at them. */
export function renderFindings(cases: ViewCase[], multiTarget: boolean): string {
  const items: string[] = [];
  for (const c of cases)
    for (const f of c.findings) {
      const mark = sentenceMark(f.code);
      if (mark !== undefined)
        items.push(
          `<li><b>${escapeHtml(mark)} ${escapeHtml(c.serializer)}</b>${multiTarget ? ` <span class="dim">${escapeHtml(c.target)}</span>` : ''}: ${escapeHtml(mark === '?' ? `${f.code} (a finding written by a newer jsonbench): ${f.message}` : f.message)}.</li>`,
        );
    }
  return items.length ? `<ul class="problems findings">${items.join('')}</ul>` : '';
}

/** "The code being measured": each serializer's call as written in its adapter (unsupported pairs have none). */
export function renderCode(cases: ViewCase[]): string {
  // no prototype: `constructor` was "in" a plain object, and its row left out (hx23 A03d)
  const bySerializer: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  for (const c of cases) {
    if (c.status === 'unsupported') continue;
    if (!(c.serializer in bySerializer) || (c.code && !bySerializer[c.serializer])) bySerializer[c.serializer] = c.code;
  }
  if (!Object.keys(bySerializer).length) return '';
  const rows = Object.keys(bySerializer).map(
    (s) =>
      `<tr><th>${escapeHtml(s)}</th><td>${bySerializer[s] ? `<pre><code>${escapeHtml(bySerializer[s])}</code></pre>` : '<span class="dim">not recorded</span>'}</td></tr>`,
  );
  return `<details class="code"><summary>The code being measured</summary><table>${rows.join('')}</table></details>`;
}

/**
 * One group's section: per class a takeaway, the table and the non-measured cases; then its charts
 * and code. `groupCases`, the group's cases in file order, saves a scan of every case ({@link renderBody} passes them).
 */
export function renderGroup(
  data: ViewData,
  index: Record<string, ViewCase>,
  group: ViewGroup,
  gi: number,
  state: ViewState,
  groupCases?: readonly ViewCase[],
): string {
  const targets = shownTargets(data, state);
  const sections = group.sections
    .map((section, si) => ({ section, si }))
    .filter(({ section }) => isShown(state.cls, section.cls));
  if (!sections.length || !isShown(state.direction, group.direction) || !targets.length) return '';
  const inGroup = (groupCases ?? data.cases.filter((c) => c.group === group.key)).filter(
    (c) => isShown(state.serializer, c.serializer) && isShown(state.target, c.target) && isShown(state.cls, c.cls),
  );
  const body = sections
    .map(({ section, si }) => {
      const own = sectionTargets(data, section, state);
      if (!own.length) return '';
      const base = effectiveBaseline(index, group, section, own[0], state);
      const rowsByTarget = own.map((t) => sectionRows(index, group, section, t, state));
      const bars = rowsByTarget[0].filter((_, i) => rowsByTarget.some((rs) => rs[i].ratio !== null)).length;
      const takeaways = sectionTakeaway(data, index, group, section, state)
        .map((t) => `<p class="takeaway">${escapeHtml(t)}</p>`)
        .join('');
      const problems = inGroup.filter(
        (c) =>
          c.cls === section.cls &&
          section.serializers.includes(c.serializer) &&
          c.status !== 'measured' &&
          c.status !== 'unsupported',
      );
      const noted = inGroup.filter(
        (c) => c.cls === section.cls && section.serializers.includes(c.serializer) && c.status === 'measured',
      );
      return (
        `<div class="cls"><h4>${escapeHtml(section.cls)}${section.platform === 'dotnet' ? ' · .NET' : ''} <span class="dim">· ratios against ${escapeHtml(base ?? 'none')}${base !== section.baseline ? ` (chosen; measured against ${escapeHtml(section.baseline ?? 'none')})` : ''}</span></h4>${takeaways}` +
        `<div class="table-wrap">${renderTable(own, rowsByTarget, base)}</div>${renderFindings(noted, own.length > 1)}${renderProblems(problems)}${renderNotes(noted)}` +
        `<div class="chart" data-kind="ratio" data-group="${gi}" data-section="${si}" style="height:${Math.max(170, 84 + bars * (own.length > 1 ? 16 * own.length + 10 : 30))}px"></div></div>`
      );
    })
    .join('');
  const measured = inGroup.filter((c) => c.status === 'measured' && c.alloc !== undefined);
  const scatter =
    measured.length > 1 ? `<div class="chart" data-kind="scatter" data-group="${gi}" style="height:340px"></div>` : '';
  const pay = group.payloads
    .map(
      (p) =>
        `${formatBytes(p.bytes)}, sha256 <code title="${escapeHtml(p.sha256)}">${escapeHtml(p.sha256.slice(0, 12))}…</code>`,
    )
    .join(' / ');
  return (
    `<section class="group" id="g${gi}"><h3>${escapeHtml(group.workload)} <span class="dim">·</span> size ${escapeHtml(group.size)} <span class="dim">·</span> ${escapeHtml(group.shape)} <span class="dim">·</span> ${escapeHtml(group.direction)}</h3>` +
    `<div class="payload">payload ${pay}${group.payloads.length > 1 ? ' <b class="warn">the merged files measured different payloads</b>' : ''}</div>` +
    `${body}${scatter}${renderCode(inGroup)}</section>`
  );
}

/** The whole body for a state: per workload, its scaling charts (several sizes only), then its groups. */
export function renderBody(data: ViewData, index: Record<string, ViewCase>, state: ViewState): string {
  // each workload's groups, each group's cases and the scaling charts gathered in one pass: a scan of
  // all per workload and of every case per group made a report of 40,000 cases quadratic (hostile
  // tester hx2: killed after 565 s; 40,000 cases 52 s, 4,000 2.5 s before this). No module state:
  // the page ships these functions as source (client-bundle.ts)
  const casesOf = new Map<string, ViewCase[]>();
  for (const c of data.cases) {
    const list = casesOf.get(c.group);
    if (list) list.push(c);
    else casesOf.set(c.group, [c]);
  }
  const groupsOf = new Map<string, number[]>();
  data.groups.forEach((g, gi) => {
    const list = groupsOf.get(g.workload);
    if (list) list.push(gi);
    else groupsOf.set(g.workload, [gi]);
  });
  const scalingOf = new Map<string, number[]>();
  data.scaling.forEach((s, i) => {
    if (!isShown(state.cls, s.cls) || !isShown(state.direction, s.direction)) return;
    const list = scalingOf.get(s.workload);
    if (list) list.push(i);
    else scalingOf.set(s.workload, [i]);
  });
  const out = [...groupsOf]
    .map(([w, gis]) => {
      const charts = (scalingOf.get(w) ?? [])
        .map((i) => `<div class="chart" data-kind="scaling" data-scaling="${i}" style="height:320px"></div>`)
        .join('');
      const groups = gis
        .map((gi) => renderGroup(data, index, data.groups[gi], gi, state, casesOf.get(data.groups[gi].key) ?? []))
        .join('');
      if (!groups && !charts) return '';
      return `<section class="workload"><h2 id="w-${escapeHtml(w)}">${escapeHtml(w)}</h2>${charts ? `<div class="scaling"><h3>Scaling with size</h3><div class="chart-grid">${charts}</div></div>` : ''}${groups}</section>`;
    })
    .join('');
  return out || '<p class="empty">Nothing matches the filters.</p>';
}
