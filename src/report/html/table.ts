// Shipped verbatim into the report's script (see client-bundle.ts): self-contained function
// declarations only. Every string from the data goes through escapeHtml.
import type { ViewCase } from './view.js';
import type { ViewRow } from './rebase.js';
import { escapeHtml } from './escape.js';
import { formatAllocation, formatAllocRatio, formatRatio, formatTime } from '../units.js';

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
 * The cells of one row for one target: Mean ± Error, Median, Ratio, Allocated, Alloc Ratio, Status;
 * compact (Mean ± Error, Ratio, Allocated, Status) when several targets share the row.
 */
export function targetCells(row: ViewRow, compact: boolean): string {
  const c = row.c;
  if (!c || c.status !== 'measured')
    return `<td class="why" colspan="${compact ? 3 : 5}" title="${escapeHtml(c?.reason ?? '')}"><div class="reason">${escapeHtml(c?.reason ?? '')}</div></td><td>${statusBadge(c)}</td>`;
  const mean =
    c.mean === undefined ? '—' : `${formatTime(c.mean)}<span class="err"> ± ${formatTime(c.error ?? 0)}</span>`;
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

/** Δ of a target's mean against the first target's: `+12%`, marked `≈` when within the two errors. */
export function deltaCell(first: ViewRow | undefined, other: ViewRow | undefined): string {
  const a = first?.c;
  const b = other?.c;
  if (!a || !b || a.mean === undefined || b.mean === undefined || a.status !== 'measured' || b.status !== 'measured')
    return '<td class="num dim">—</td>';
  const d = b.mean / a.mean - 1;
  const noise = (b.mean / a.mean) * Math.sqrt(((a.error ?? 0) / a.mean) ** 2 + ((b.error ?? 0) / b.mean) ** 2);
  const text = `${d >= 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(1)}%`;
  return Math.abs(d) <= noise
    ? `<td class="num dim" title="within noise (± ${(noise * 100).toFixed(1)}%)">≈ ${text}</td>`
    : `<td class="num ${d < 0 ? 'faster' : 'slower'}" title="± ${(noise * 100).toFixed(1)}%">${text}</td>`;
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
    ? '<th>Mean ± Error</th><th>Ratio</th><th>Allocated</th><th>Status</th>'
    : '<th>Mean ± Error</th><th>Median</th><th>Ratio</th><th>Allocated</th><th>Alloc Ratio</th><th>Status</th>';
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
