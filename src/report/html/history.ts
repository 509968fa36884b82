/**
 * The HTML report's "Across releases" section, drawn from ledger history: per case, an inline SVG
 * chart of mean time per op (with its error bar) across serializer versions, runtime versions and
 * runs, oldest first, then the same points as a table. Static SVG, no script: it prints and opens
 * offline. Pure; every string from the data is escaped.
 */
import type { HistoryPoint } from '../../results/history.js';
import { historySeries, HISTORY_COLUMNS, historyCells } from '../history.js';
import { formatTime } from '../units.js';
import { escapeHtml } from './escape.js';

const W = 720;
const H = 240;
const PAD = { left: 64, right: 48, top: 16, bottom: 56 };

/** The x-axis label of a point: serializer version, runtime, run date. */
export function pointLabel(p: HistoryPoint): string[] {
  return [p.serializerVersion, `${p.target} ${p.targetVersion}`, p.startedAt.slice(0, 10)];
}

/** One case's chart: measured points only (others have no number to draw). */
export function renderHistoryChart(points: readonly HistoryPoint[]): string {
  const ps = points.filter((p) => p.status === 'measured' && p.meanNs !== null);
  if (ps.length === 0) return '<p class="dim">No measured point to chart.</p>';
  const top = Math.max(...ps.map((p) => p.meanNs! + (p.errorNs ?? 0))) * 1.1;
  const x = (i: number) => PAD.left + (ps.length === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (ps.length - 1));
  const y = (v: number) => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * top);
  const out = [`<svg class="history-chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="mean time per op across releases">`];
  for (const t of ticks) out.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#ddd"/><text x="${PAD.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end" font-size="11">${escapeHtml(formatTime(t))}</text>`);
  out.push(`<polyline fill="none" stroke="#3b6fb6" stroke-width="2" points="${ps.map((p, i) => `${x(i).toFixed(1)},${y(p.meanNs!).toFixed(1)}`).join(' ')}"/>`);
  ps.forEach((p, i) => {
    const e = p.errorNs ?? 0;
    const tip = `${p.serializer} ${p.serializerVersion} · ${p.target} ${p.targetVersion} · run ${p.runId} ${p.startedAt.slice(0, 16)} · ${formatTime(p.meanNs!)} ± ${formatTime(e)}`;
    if (e > 0) out.push(`<line x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="${y(Math.min(top, p.meanNs! + e)).toFixed(1)}" y2="${y(Math.max(0, p.meanNs! - e)).toFixed(1)}" stroke="#3b6fb6"/>`);
    out.push(`<circle cx="${x(i).toFixed(1)}" cy="${y(p.meanNs!).toFixed(1)}" r="4" fill="#3b6fb6"><title>${escapeHtml(tip)}</title></circle>`);
    pointLabel(p).forEach((line, k) => out.push(`<text x="${x(i).toFixed(1)}" y="${H - PAD.bottom + 16 + 13 * k}" text-anchor="middle" font-size="10">${escapeHtml(line)}</text>`));
  });
  out.push('</svg>');
  return out.join('');
}

/** The whole section (cases with at least one measured point); '' when there is none. */
export function renderHistorySection(points: readonly HistoryPoint[]): string {
  const series = historySeries(points).filter((s) => s.points.some((p) => p.status === 'measured'));
  if (!series.length) return '';
  const parts = ['<section class="history"><h2>Across releases</h2>',
    '<p class="dim">The same case across serializer versions, runtime versions and runs, from the ledger (.jsonbench/ledger.db). Mean time per op, ± the 99.9% confidence half-width; each run\'s own machine and load apply, so compare points of one machine.</p>'];
  for (const s of series) {
    parts.push(`<h3>${escapeHtml(s.title)}</h3>`, renderHistoryChart(s.points), '<table><thead><tr>');
    parts.push(...HISTORY_COLUMNS.map((c) => `<th>${escapeHtml(c)}</th>`), '</tr></thead><tbody>');
    for (const p of s.points) parts.push(`<tr>${historyCells(p).map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`);
    parts.push('</tbody></table>');
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** A standalone page of the section, for `jsonbench history --format html`. */
export function renderHistoryPage(points: readonly HistoryPoint[]): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>jsonbench history</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:.5em 0 2em}td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}.dim{color:#666}</style>
</head><body><h1>jsonbench history</h1>\n${renderHistorySection(points) || '<p>No matching cases in the ledger.</p>'}\n</body></html>\n`;
}
