import { createColors } from 'picocolors';
import { DIRECTIONS } from '../case/coordinates.js';
import type { ResultsFile } from '../results/types.js';
import { renderTable } from './table/write.js';
import { escapeCell, markdownCode, type Dialect } from './table/escape.js';
import { escapeHtml } from './html/escape.js';
import type { Table } from './table/column.js';
import {
  describeVerdict,
  dotnetTargetIds,
  failingVerdicts,
  groupOf,
  matrixTable,
  probeMatrix,
  probeSideFor,
  summaryLine,
  versionChanges,
  type VersionChange,
} from './probes.js';
import { countOf } from './units.js';

/**
 * The probe matrix of a results file as terminal text and as Markdown (through the one table
 * writer): per direction the matrix, the rows without a column, the changes between versions of a
 * library, and the failing verdicts with their input, expected and actual. Pure.
 */

/** Options of the text renderers: one row per probe (`full`), marks only (`narrow`), colours (terminal). */
export interface ProbeTextOptions {
  full?: boolean;
  narrow?: boolean;
  color?: boolean;
}

/** The changes between versions as a table. */
function changesTable(changes: readonly VersionChange[]): Table<VersionChange> {
  const rows = [...new Set(changes.flatMap((c) => c.verdicts.map((v) => v.serializer)))];
  // A row without its version in its label (the built-in adapter beside version-matrix rows) says it in the header.
  const versionOf = new Map(changes.flatMap((c) => c.verdicts.map((v) => [v.serializer, v.version] as const)));
  return {
    columns: [
      { id: 'probe', header: 'Probe', cell: (c) => c.probe },
      { id: 'direction', header: 'Direction', cell: (c) => c.direction },
      ...rows.map((r) => ({
        id: r,
        header: r.includes('@') ? r : `${r} ${versionOf.get(r)}`,
        cell: (c: VersionChange) => {
          const v = c.verdicts.find((x) => x.serializer === r)?.verdict;
          return v ? (v.mark === '✗' ? `✗ ${v.fault}` : v.mark) : '';
        },
      })),
    ],
    rows: changes,
  };
}

/** How many failing verdicts of one serializer × group the detail lists show before saying "… more". */
const SHOWN_PER_GROUP = 2;

/** The probe section as terminal text (empty when the file has none). */
export function renderProbesTerminal(results: ResultsFile, options: ProbeTextOptions = {}): string {
  const section = results.probes;
  if (!section) return '';
  const k = createColors(Boolean(options.color));
  const out: string[] = [
    k.bold(`Probes (${section.selection === 'asked' ? 'asked' : 'relevant to the payloads'}): ${summaryLine(section)}`),
  ];
  for (const direction of DIRECTIONS) {
    const m = probeMatrix(section, direction, options.full);
    if (m.rows.length === 0) continue;
    out.push(
      '',
      k.bold(
        `${direction} (${countOf(m.rows.length, 'row')}${options.full ? '' : ', grouped'}; ${countOf(m.columns.length, 'serializer')})`,
      ),
    );
    if (m.columns.length) out.push(renderTable(matrixTable(m, !options.narrow), 'terminal', { color: options.color }));
    if (m.absent.length)
      out.push(
        'no column (✘ for every probe of this direction):',
        ...m.absent.map((a) => `  ${escapeCell(a.header, 'terminal')}: ${escapeCell(a.reason, 'terminal', 200)}`),
      );
    out.push(...failingLines(results, direction, 'terminal'));
  }
  const changes = versionChanges(section);
  if (changes.length)
    out.push(
      '',
      k.bold(`Verdicts that change between versions (${changes.length})`),
      renderTable(changesTable(changes), 'terminal', { color: options.color }),
    );
  return out.join('\n') + '\n';
}

/** The failing verdicts of a direction, at most {@link SHOWN_PER_GROUP} per serializer × group, as lines. */
function failingLines(results: ResultsFile, direction: (typeof DIRECTIONS)[number], dialect: Dialect): string[] {
  const failing = failingVerdicts(results.probes!, direction);
  if (!failing.length) return [];
  const out = ['', `failing verdicts (${failing.length}):`];
  const shown = new Map<string, number>();
  for (const { v, probe } of failing) {
    const g = `${v.serializer}\u0000${v.target}\u0000${probe ? groupOf(probe) : v.probe}`;
    const n = (shown.get(g) ?? 0) + 1;
    shown.set(g, n);
    const who = `${v.serializer}${results.probes!.verdicts.some((x) => x.target !== v.target) ? ` · ${v.target}` : ''}`;
    if (n <= SHOWN_PER_GROUP)
      out.push(
        `  ${escapeCell(who, dialect)}  ${escapeCell(v.probe, dialect)}  ${escapeCell(describeVerdict(v.verdict), dialect, 300)}`,
      );
    else if (n === SHOWN_PER_GROUP + 1)
      out.push(
        `  ${escapeCell(who, dialect)}  ${escapeCell(probe ? groupOf(probe) : v.probe, dialect)}  … more in this group`,
      );
  }
  return out;
}

/** The probe section as Markdown: summary, matrices, version changes, and the failing verdicts in collapsed blocks (input, expected, actual). */
export function renderProbesMarkdown(results: ResultsFile): string {
  const section = results.probes;
  if (!section) return '';
  const md = (s: string, max?: number) => escapeCell(s, 'markdown', max);
  const dotnetTargets = dotnetTargetIds(results);
  const out: string[] = [
    `## Probes${section.selection === 'relevant' ? ' relevant to the payloads' : ''}`,
    '',
    md(summaryLine(section), Infinity),
    '',
    'Marks: ✔ does it · ✘ cannot (declared by the adapter) · ✗ wrong (silent loss, invalid or ill-formed JSON, wrong value) · ⚠ throws · – not expressible in jsonbench yet. A cell that groups probes counts the marks (`✗3 ✔87`).',
    '',
  ];
  for (const direction of DIRECTIONS) {
    const m = probeMatrix(section, direction);
    if (m.rows.length === 0) continue;
    out.push(`### ${direction}`, '');
    if (m.columns.length) out.push(renderTable(matrixTable(m), 'markdown'), '');
    if (m.absent.length)
      out.push(
        `No column (✘ for every probe): ${m.absent.map((a) => `${md(a.header)} (${md(a.reason, 160)})`).join('; ')}`,
        '',
      );
    const failing = failingVerdicts(section, direction);
    const bySerializer = new Map<string, typeof failing>();
    for (const f of failing) bySerializer.set(f.v.serializer, [...(bySerializer.get(f.v.serializer) ?? []), f]);
    for (const [serializer, fs] of bySerializer) {
      // an HTML block: GitHub shows its text as HTML (entities decoded, backslash escapes not)
      out.push(
        `<details><summary>${escapeHtml(escapeCell(serializer, 'terminal'))}: ${fs.length} failing ${direction} verdict${fs.length === 1 ? '' : 's'}</summary>`,
        '',
      );
      for (const { v, probe } of fs) {
        const { title, side } = probeSideFor(probe, v, dotnetTargets);
        const where =
          v.verdict.mark === '✗'
            ? `✗ ${v.verdict.fault} at ${markdownCode(v.verdict.path)}: expected ${markdownCode(v.verdict.expected, 160)}, got ${markdownCode(v.verdict.actual, 160)}`
            : md(describeVerdict(v.verdict), 300);
        out.push(
          `- ${markdownCode(v.probe)}${results.targets.length > 1 ? ` (${md(v.target)})` : ''} — ${md(title)}. ${where}${side ? `. Input ${markdownCode(side.input, 120)}; expected ${md(side.expected, 160)}` : ''}`,
        );
      }
      out.push('', '</details>', '');
    }
  }
  const changes = versionChanges(section);
  if (changes.length)
    out.push('### Verdicts that change between versions', '', renderTable(changesTable(changes), 'markdown'), '');
  return out.join('\n');
}
