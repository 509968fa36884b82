/**
 * Pure renderer of the instruction counts of a run: a plain table in the run's case order, never
 * sorted by the count, under a title saying what the number is and is not.
 */
import Table from 'cli-table3';
import type { ResultsFile } from '../results/types.js';

/** The label every report puts on this metric. */
export const INSTRUCTIONS_LABEL = 'Instructions per op (Valgrind callgrind; deterministic, for CI gates — not time, and not a ranking: it ignores caches, branch misses and memory stalls)';

/** Terminal (or Markdown with `markdown`) table of the cases that have an instruction count; '' when none has. */
export function renderInstructions(results: ResultsFile, markdown = false): string {
  const rows = results.cases.filter((c) => c.instructions).map((c) => [
    `${c.workload} · ${c.size} · ${c.shape} · ${c.direction}`, c.serializer, c.serializerVersion,
    Math.round(c.instructions!.perOp).toLocaleString('en-US'), `${c.instructions!.iterations[0]} / ${c.instructions!.iterations[1]}`,
  ]);
  if (!rows.length) return '';
  const head = ['Case', 'Serializer', 'Version', 'Instructions/op', 'Iterations N₁ / N₂'];
  if (markdown) return [`### ${INSTRUCTIONS_LABEL}`, '', `| ${head.join(' | ')} |`, `|${' --- |'.repeat(head.length)}`, ...rows.map((r) => `| ${r.join(' | ')} |`), ''].join('\n');
  const t = new Table({ head, style: { head: [], border: [] } });
  t.push(...rows);
  return `${INSTRUCTIONS_LABEL}\n${t.toString()}\n`;
}
