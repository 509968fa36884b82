import type { ResultsFile } from '../results/types.js';
import { buildTables, COLUMNS, rowCells } from './rows.js';
import { formatBytes } from './units.js';

function escapeCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, ' ');
}

/**
 * Renders the results as GitHub-flavoured Markdown: an environment line, then one table per
 * workload × size × shape × direction with a Class column. Pure: returns the text.
 */
export function renderMarkdown(results: ResultsFile): string {
  const e = results.environment;
  const out: string[] = [
    '# jsonbench results',
    '',
    `${results.startedAt} · ${e.cpuModel} × ${e.cores} · ${e.os} · Node ${e.node} (V8 ${e.v8}) · jsonbench ${e.jsonbenchVersion} · policy ${results.policy.name} (${results.policy.launches} launch${results.policy.launches > 1 ? 'es' : ''})`,
    '',
    `Mean and Median are per op (median across launches); Error is the half-width of the ${(results.policy.measure.confidence * 100).toFixed(1)}% confidence interval; Ratio is against the class baseline, drawn from alternating rounds in the same process (< 1 is faster). Allocated is bytes/op (Node: GC-corrected heap accounting; pointer compression ${e.pointerCompression ? 'on' : 'off'}).`,
    '',
  ];
  for (const table of buildTables(results.cases)) {
    out.push(`## ${table.title}`, '', `| Class | ${COLUMNS.join(' | ')} |`, `|${' --- |'.repeat(COLUMNS.length + 1)}`);
    for (const s of table.sections) {
      for (const c of s.cases) out.push(`| ${s.caseClass} | ${rowCells(c).map(escapeCell).join(' | ')} |`);
    }
    const payload = table.sections[0]?.cases[0]?.payload;
    if (payload) out.push('', `Payload: ${formatBytes(payload.bytes)}, sha256 \`${payload.sha256.slice(0, 16)}…\``);
    out.push('');
  }
  return out.join('\n');
}
