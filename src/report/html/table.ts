// Shipped verbatim into the report's script (see client-bundle.ts): self-contained function
// declarations only. Every string from the data goes through escapeHtml.
import type { ViewCase } from './view.js';
import type { ViewRow } from './rebase.js';
import { escapeHtml } from './escape.js';
import { formatAllocation, formatAllocRatio, formatRatio, formatTime, formatTimeInterval } from '../units.js';

/** The status badge of a case: ✓ measured (passed the correctness gate), ✗ incorrect/failed/crashed, ⏱ timeout, – unsupported. */
export function statusBadge(c: ViewCase | undefined): string {
  if (!c) return '<span class="badge none">not run</span>';
  const text: Record<string, string> = {
    measured: '✓ correct',
    incorrect: '✗ incorrect',
    failed: '✗ failed',
    timeout: '⏱ timeout',
    crashed: '✗ crashed',
    unsupported: '– unsupported',
  };
  const flags = c.findings
    .filter((f) => f.code !== 'outliers')
    .map((f) => {
      const icon: Record<string, string> = {
        noisy: '⚠ noisy',
        'too-fast': '! too fast',
        relaunched: '↻ relaunched',
        'no-gc': 'no GC',
        'baseline-unavailable': 'no ratio',
        'mean-ratio': '≠ mean vs ratio',
        interrupted: '⏹ interrupted',
        'baseline-slowed': '⊘ baseline slowed: not ranked',
        waits: '⌛ waits: not ranked',
        'machine-drift': '⇅ machine speed changed',
        'launch-states': '⇉ launch states',
      };
      // a code of a newer jsonbench: shown as it is, said to be so
      const known = Object.prototype.hasOwnProperty.call(icon, f.code) || f.code === 'outliers';
      return `<span class="flag" title="${escapeHtml(known ? f.message : `written by a newer jsonbench: ${f.message}`)}">${escapeHtml(known ? icon[f.code] : `? ${f.code}`)}</span>`;
    });
  if (c.notes && c.notes.length)
    flags.push(`<span class="flag" title="${escapeHtml(c.notes.join('\n'))}">≈ ${c.notes.length} looser</span>`);
  const title = c.status === 'measured' ? 'output passed the correctness gate' : (c.reason ?? '');
  return `<span class="badge ${escapeHtml(c.status)}" title="${escapeHtml(title)}">${text[c.status] ?? escapeHtml(c.status)}</span>${flags.join('')}`;
}

/**
 * The cells of one row for one target: Mean [interval], Median, Ratio, Allocated, Alloc Ratio,
 * Status; compact (Mean [interval], Ratio, Allocated, Status) when several targets share the row.
 * The interval is the mean's as recorded (log scale, asymmetric: `63.2 µs [16.0–250 µs]`).
 */
export function targetCells(row: ViewRow, compact: boolean): string {
  const c = row.c;
  if (!c || c.status !== 'measured')
    return `<td class="why" colspan="${compact ? 3 : 5}" title="${escapeHtml(c?.reason ?? '')}"><div class="reason">${escapeHtml(c?.reason ?? '')}</div></td><td>${statusBadge(c)}</td>`;
  const mean =
    c.mean === undefined
      ? '—'
      : `${formatTime(c.mean)}${c.interval ? `<span class="err"> [${escapeHtml(formatTimeInterval(c.interval))}]</span>` : ''}`;
  const ratio = row.ratio === null ? '—' : formatRatio(row.ratio, row.interval);
  const ratioTitle = row.derived
    ? 'derived: ratio of two measured ratios, log-scale errors added in quadrature'
    : 'geometric mean of the launch ratios (each the median of its per-round ratios, paired in one process); [interval] on the log scale';
  const faster = row.ratio !== null && row.interval !== null && row.interval[1] < 1;
  const cells = [
    `<td class="num">${mean}</td>`,
    compact ? '' : `<td class="num">${c.median === undefined ? '—' : formatTime(c.median)}</td>`,
    `<td class="num ratio${faster ? ' faster' : ''}" title="${ratioTitle}">${escapeHtml(ratio)}${row.derived ? '<sup>d</sup>' : ''}${!row.derived && c.saves ? `<br><span class="err saves">${escapeHtml(c.saves)}</span>` : ''}</td>`,
    `<td class="num"${c.allocEstimate ? ' title="estimated (see the provenance)"' : ''}>${c.alloc === undefined ? '—' : escapeHtml(formatAllocation(c.alloc, c.allocRange, c.allocEstimate))}</td>`,
    compact ? '' : `<td class="num">${escapeHtml(formatAllocRatio(row.allocRatio, row.allocRange))}</td>`,
    `<td>${statusBadge(c)}</td>`,
  ];
  return cells.join('');
}

/**
 * Δ of a target's mean against the first target's: `+12%`, marked `≈` when the quotient's interval
 * holds no change. The interval is on the log scale from the two means' own (asymmetric) intervals:
 * ln(b/a) − √(down_b² + up_a²) to ln(b/a) + √(up_b² + down_a²), up and down each interval's log
 * distances above and below its mean (the delta method for a quotient of two independent
 * estimates, side by side; Casella & Berger, "Statistical Inference", 2nd ed., §5.5.4); the title
 * gives its ends in percent. Without either interval, no `≈` and no title; an interval reaching 0
 * makes the quotient's unbounded (`≈`).
 */
export function deltaCell(first: ViewRow | undefined, other: ViewRow | undefined): string {
  const a = first?.c;
  const b = other?.c;
  if (!a || !b || a.mean === undefined || b.mean === undefined || a.status !== 'measured' || b.status !== 'measured')
    return '<td class="num dim">—</td>';
  const d = b.mean / a.mean - 1;
  const text = `${d >= 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(1)}%`;
  const ia = a.interval;
  const ib = b.interval;
  if (!ia || !ib || !(a.mean > 0) || !(b.mean > 0))
    return `<td class="num ${d < 0 ? 'faster' : 'slower'}">${text}</td>`;
  const q = Math.log(b.mean / a.mean);
  const low = q - Math.hypot(Math.log(b.mean / ib[0]), Math.log(ia[1] / a.mean));
  const high = q + Math.hypot(Math.log(ib[1] / b.mean), Math.log(a.mean / ia[0]));
  // an interval reaching 0 (a file written before branch stats5: mean − error cut at 0) is unbounded on the log scale
  const pct = (x: number) =>
    x === Infinity ? '+∞' : `${x >= 0 ? '+' : '−'}${Math.abs((Math.exp(x) - 1) * 100).toFixed(1)}%`;
  const range = `${pct(low)} to ${pct(high)}`;
  return low <= 0 && 0 <= high
    ? `<td class="num dim" title="within noise (${range})">≈ ${text}</td>`
    : `<td class="num ${d < 0 ? 'faster' : 'slower'}" title="${range}">${text}</td>`;
}

/**
 * A section's table. One target: Serializer, Version, then the target cells. Several: a compact
 * column group per target, then Δ mean of each later target against the first. A serializer's name is a
 * button that makes it the baseline.
 * @param rowsByTarget rows of each shown target, same serializers in the same order
 */
export function renderTable(targets: string[], rowsByTarget: ViewRow[][], baseline: string | null): string {
  const multi = targets.length > 1;
  const sub = multi
    ? '<th>Mean [interval]</th><th>Ratio</th><th>Allocated</th><th>Status</th>'
    : '<th>Mean [interval]</th><th>Median</th><th>Ratio</th><th>Allocated</th><th>Alloc Ratio</th><th>Status</th>';
  const head = multi
    ? `<tr><th rowspan="2">Serializer</th><th rowspan="2">Version</th>${targets.map((t) => `<th colspan="4" class="target">${escapeHtml(t)}</th>`).join('')}${targets
        .slice(1)
        .map(
          (t) =>
            `<th rowspan="2" title="mean on ${escapeHtml(t)} against ${escapeHtml(targets[0])}">Δ ${escapeHtml(t)}</th>`,
        )
        .join('')}</tr><tr>${targets.map(() => sub).join('')}</tr>`
    : `<tr><th>Serializer</th><th>Version</th>${sub}</tr>`;
  const body = (rowsByTarget[0] ?? [])
    .map((_, i) => {
      const rows = rowsByTarget.map((rs) => rs[i]);
      const serializer = rows[0].serializer;
      const versions = [...new Set(rows.map((r) => r.c?.version).filter((v) => v !== undefined))];
      const isBase = serializer === baseline;
      const cls = `${isBase ? 'baseline ' : ''}st-${escapeHtml(rows.find((r) => r.c)?.c?.status ?? 'none')}`;
      const name = `<button class="pick" data-baseline="${escapeHtml(serializer)}" title="use ${escapeHtml(serializer)} as the baseline">${escapeHtml(serializer)}</button>${isBase ? ' <span class="tag">baseline</span>' : ''}`;
      return `<tr class="${cls}"><td class="name">${name}</td><td class="ver">${escapeHtml(versions.join(' / '))}</td>${rows.map((r) => targetCells(r, multi)).join('')}${rows
        .slice(1)
        .map((r) => deltaCell(rows[0], r))
        .join('')}</tr>`;
    })
    .join('');
  return `<table class="results"><thead>${head}</thead><tbody>${body}</tbody></table>`;
}
