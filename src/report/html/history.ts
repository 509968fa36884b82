/**
 * The HTML report's "Across releases" section, drawn from ledger history: per case, an inline SVG
 * chart of mean time per op (with its error bar) by serializer version, one line per runtime, then
 * every point (every run) as a table. Static SVG, no script: it prints and opens
 * offline. Pure; every string from the data is escaped.
 */
import { pointTimeInterval, type HistoryPoint } from '../../results/history.js';
import { historySeries, HISTORY_COLUMNS, historyCells, SETUP_LEGEND, setupChangeLines } from '../history.js';
import { schemaName } from '../../results/payload-schema.js';
import { formatTime, formatTimeInterval } from '../units.js';
import { escapeHtml } from './escape.js';
import semver from 'semver';

const W = 720;
const H = 240;
const PAD = { left: 64, right: 48, top: 16, bottom: 56 };

/** Series colours (colour-blind-safe Okabe–Ito order), one per runtime. */
const COLORS = ['#0072B2', '#D55E00', '#009E73', '#E69F00', '#CC79A7', '#56B4E9', '#000000'];

/** Semver-aware order of version labels (9 before 10); labels that are not versions after, alphabetically. */
function byVersion(a: string, b: string): number {
  const va = semver.valid(a);
  const vb = semver.valid(b);
  if (va && vb) return semver.compare(va, vb);
  if (va || vb) return va ? -1 : 1;
  return a.localeCompare(b);
}

/** The runtime a point ran on, as a series name: `node 20.20.2`. */
function lineOf(p: HistoryPoint): string {
  return `${p.target} ${p.targetVersion}`;
}

/**
 * How a point was measured, as a line's name where a case's policy, schema or payload changed: `quick · inferred`
 * (the schema's hash too when only it tells; `payload 1a2b3c4d` when the bytes differ).
 */
function setupOf(p: HistoryPoint, payloads: boolean): string {
  const schema = p.schema
    ? ` · ${schemaName(p.schema)}${p.schema.sha256 ? ` ${p.schema.sha256.slice(0, 8)}` : ''}`
    : '';
  const payload = payloads && p.payloadSha256 ? ` · payload ${p.payloadSha256.slice(0, 8)}` : '';
  return `${p.policy ?? 'policy not recorded'}${schema}${payload}`;
}

/**
 * One case's chart: x is the serializer version (semver order, one column per version measured),
 * one line per runtime (a serializer × runtime series: node 20 and chromium never share a line),
 * at each version the mean of that runtime's latest run there, with its interval as the error bar
 * (results/history.ts pointTimeInterval: asymmetric); measured
 * points only (others have no number to draw). Earlier runs of the same version and runtime stay
 * in the table under the chart.
 */
export function renderHistoryChart(points: readonly HistoryPoint[]): string {
  const ps = points.filter((p) => p.status === 'measured' && p.meanNs !== null);
  if (ps.length === 0) return '<p class="dim">No measured point to chart.</p>';
  const versions = [...new Set(ps.map((p) => p.serializerVersion))].sort(byVersion);
  // a case measured with two policies, schemas or payloads: one line per runtime × policy, schema and payload, never
  // one line across them (the payload's hash named only when the bytes differ)
  const payloads = new Set(ps.map((p) => p.payloadSha256)).size > 1;
  const split = new Set(ps.map((p) => setupOf(p, payloads))).size > 1;
  const runtimeOf = (p: HistoryPoint) => (split ? `${lineOf(p)} · ${setupOf(p, payloads)}` : lineOf(p));
  const runtimes = [...new Set(ps.map(runtimeOf))];
  // a line named by its policy and schema too is longer than the right corner holds: its legend starts at the left
  const legendX = split ? PAD.left + 8 : W - PAD.right - 150;
  const latest = new Map<string, HistoryPoint>();
  for (const p of ps) {
    const k = `${runtimeOf(p)}\u0000${p.serializerVersion}`;
    const seen = latest.get(k);
    if (!seen || seen.startedAt < p.startedAt || (seen.startedAt === p.startedAt && seen.runId < p.runId))
      latest.set(k, p);
  }
  const drawn = [...latest.values()];
  const top = Math.max(...drawn.map((p) => Math.max(p.meanNs!, pointTimeInterval(p)?.[1] ?? 0))) * 1.1;
  const x = (v: string) => {
    const i = versions.indexOf(v);
    return (
      PAD.left +
      (versions.length === 1
        ? (W - PAD.left - PAD.right) / 2
        : (i * (W - PAD.left - PAD.right)) / (versions.length - 1))
    );
  };
  const y = (v: number) => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * top);
  const out = [
    `<svg class="history-chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="mean time per op by serializer version, one line per runtime">`,
  ];
  for (const t of ticks)
    out.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#ddd"/><text x="${PAD.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end" font-size="11">${escapeHtml(formatTime(t))}</text>`,
    );
  for (const v of versions)
    out.push(
      `<text x="${x(v).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle" font-size="10">${escapeHtml(v)}</text>`,
    );
  out.push(
    `<text x="${((W + PAD.left - PAD.right) / 2).toFixed(1)}" y="${H - PAD.bottom + 36}" text-anchor="middle" font-size="11" fill="#555">serializer version</text>`,
  );
  runtimes.forEach((rt, ri) => {
    const color = COLORS[ri % COLORS.length];
    const line = versions.map((v) => latest.get(`${rt}\u0000${v}`)).filter((p): p is HistoryPoint => p !== undefined);
    if (line.length > 1)
      out.push(
        `<polyline fill="none" stroke="${color}" stroke-width="2" points="${line.map((p) => `${x(p.serializerVersion).toFixed(1)},${y(p.meanNs!).toFixed(1)}`).join(' ')}"/>`,
      );
    for (const p of line) {
      // the error bar is the mean's interval as recorded (log scale, asymmetric), never mean ± error
      const iv = pointTimeInterval(p);
      const tip = `${p.serializer} ${p.serializerVersion} · ${rt} · run ${p.runId} ${p.startedAt.slice(0, 16)} · ${formatTime(p.meanNs!)}${iv ? ` [${formatTimeInterval(iv)}]` : ''}`;
      if (iv && iv[1] > iv[0])
        out.push(
          `<line x1="${x(p.serializerVersion).toFixed(1)}" x2="${x(p.serializerVersion).toFixed(1)}" y1="${y(Math.min(top, iv[1])).toFixed(1)}" y2="${y(Math.max(0, iv[0])).toFixed(1)}" stroke="${color}"/>`,
        );
      out.push(
        `<circle cx="${x(p.serializerVersion).toFixed(1)}" cy="${y(p.meanNs!).toFixed(1)}" r="4" fill="${color}"><title>${escapeHtml(tip)}</title></circle>`,
      );
    }
    out.push(
      `<rect x="${legendX}" y="${PAD.top + 14 * ri}" width="10" height="10" fill="${color}"/><text x="${legendX + 14}" y="${PAD.top + 9 + 14 * ri}" font-size="11">${escapeHtml(rt)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('');
}

/** The whole section (cases with at least one measured point); '' when there is none. */
export function renderHistorySection(points: readonly HistoryPoint[]): string {
  const series = historySeries(points).filter((s) => s.points.some((p) => p.status === 'measured'));
  if (!series.length) return '';
  const parts = [
    '<section class="history"><h2>Across releases</h2>',
    '<p class="dim">The same case across serializer versions (x, in version order) and runtimes (one line each), from the ledger (.jsonbench/ledger.db): the latest run of each version on each runtime, mean time per op with its 99.9% confidence interval (log scale, asymmetric); every run is in the table. Each run\'s own machine and load apply, so compare points of one machine.</p>',
  ];
  for (const s of series) {
    // in a scrolling wrapper like the results tables (nu10: at 800 px this table scrolled the whole page sideways)
    parts.push(
      `<h3>${escapeHtml(s.title)}</h3>`,
      renderHistoryChart(s.points),
      '<div class="table-wrap"><table><thead><tr>',
    );
    parts.push(...HISTORY_COLUMNS.map((c) => `<th>${escapeHtml(c)}</th>`), '</tr></thead><tbody>');
    for (const p of s.points)
      parts.push(
        `<tr>${historyCells(p)
          .map((c) => `<td>${escapeHtml(c)}</td>`)
          .join('')}</tr>`,
      );
    parts.push('</tbody></table></div>');
    const changes = setupChangeLines(s);
    if (changes.length) parts.push(`<p class="dim">${changes.map(escapeHtml).join('<br>')}</p>`);
  }
  if (series.some((s) => s.changes.length)) parts.push(`<p class="dim">${escapeHtml(SETUP_LEGEND)}</p>`);
  parts.push('</section>');
  return parts.join('\n');
}

/** A standalone page of the section, for `jsonbench history --format html`. */
export function renderHistoryPage(points: readonly HistoryPoint[]): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>jsonbench history</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:.5em 0 2em}td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}.dim{color:#666}.table-wrap{overflow-x:auto}</style>
</head><body><h1>jsonbench history</h1>\n${renderHistorySection(points) || '<p>No matching cases in the ledger.</p>'}\n</body></html>\n`;
}
