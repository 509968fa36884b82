/**
 * The HTML report's "Side by side, by target" section of a run on several targets: what report.md
 * ends with (one table per workload × size × shape × direction with every target's mean, Δ and
 * allocation, the ranking per target, and the across-platforms table when the targets span
 * JavaScript and .NET), drawn from the same {@link buildTargetTables} the Markdown and terminal
 * renderers lay out: one source for the rows, laid out here as HTML tables. Pure; every string from
 * the data is escaped.
 */
import type { ResultsFile } from '../../results/types.js';
import {
  acrossIntro,
  buildTargetTables,
  RANKING_LABEL,
  sideBySideHeading,
  targetSummaryLines,
} from '../target-columns.js';
import { escapeHtml } from './escape.js';

/** One table: its head and rows (cells as the shared builder wrote them). */
function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return `<div class="table-wrap"><table class="results"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`;
}

/** The side-by-side section of one run ('' when it ran on one target). */
function renderRunTargets(r: ResultsFile, index: number, several: boolean): string {
  if (r.targets.length <= 1) return '';
  const parts = [
    `<section class="targets"><h2>${escapeHtml(sideBySideHeading(index, several))}</h2>`,
    `<ul class="dim">${targetSummaryLines(r)
      .map((l) => `<li>${escapeHtml(l)}</li>`)
      .join('')}</ul>`,
  ];
  for (const t of buildTargetTables(r)) {
    parts.push(
      `<h3>${escapeHtml(t.title)} — by target</h3>`,
      table(t.head, t.rows),
      `<p class="dim">${escapeHtml(RANKING_LABEL)}</p><ul>${t.rankings.map((x) => `<li>${escapeHtml(x)}</li>`).join('')}</ul>`,
    );
    if (t.across)
      parts.push(
        `<h4>${escapeHtml(t.title)} — across platforms</h4><p class="dim">${escapeHtml(acrossIntro(t.across))}</p>`,
        table(t.across.head, t.across.rows),
      );
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** The side-by-side sections of every run on several targets, in order ('' when none has several). */
export function renderTargetsHtml(runs: readonly ResultsFile[]): string {
  return runs
    .map((r, i) => renderRunTargets(r, i, runs.length > 1))
    .filter(Boolean)
    .join('\n');
}
