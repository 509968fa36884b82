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
  PROBES_UNFINISHED,
  probeSideFor,
  summaryLine,
  versionChanges,
  type VersionChange,
} from './probes.js';
import { countOf } from './units.js';
import { DEFAULT_WIDTH, wrap } from './fit.js';

/**
 * The probe matrix of a results file as terminal text and as Markdown (through the one table
 * writer): per direction the matrix, the rows without a column, the changes between versions of a
 * library, and the failing verdicts with their input, expected and actual. Pure.
 */

/** Options of the text renderers: one row per probe (`full`), marks only (`narrow`), colours and width (terminal). */
export interface ProbeTextOptions {
  full?: boolean;
  narrow?: boolean;
  color?: boolean;
  /** the width to fit (characters; default {@link DEFAULT_WIDTH}): a matrix too wide shows marks only, then comes in parts of a few serializers each */
  width?: number;
}

/** A cell's width on a terminal table: its longest line and the padding. */
const cellWidth = (text: string) => Math.max(...text.split('\n').map((l) => l.length)) + 2;

/**
 * A table too wide for `width` in parts: the first `keep` columns (the row's name) in every part,
 * the others in as many as fit beside them (at least one a part), each part a table of its own
 * with its place said above it (`serializers 4–6 of 9`). One part when it fits. Pure.
 */
function partsOf<Row>(
  table: Table<Row>,
  keep: number,
  width: number,
  noun: string,
): { note: string; table: Table<Row> }[] {
  const natural = table.columns.map((c) =>
    Math.max(cellWidth(c.header), ...table.rows.map((r) => cellWidth(escapeCell(c.cell(r), 'terminal', c.maxChars)))),
  );
  const fixed = natural.slice(0, keep).reduce((a, b) => a + b + 1, 1);
  const parts: number[][] = [];
  let used = fixed;
  for (let i = keep; i < table.columns.length; i++) {
    const last = parts.at(-1);
    if (last && used + natural[i] + 1 <= width) {
      last.push(i);
      used += natural[i] + 1;
    } else {
      parts.push([i]);
      used = fixed + natural[i] + 1;
    }
  }
  if (parts.length <= 1) return [{ note: '', table }];
  const total = table.columns.length - keep;
  return parts.map((idx) => ({
    note: `${noun} ${idx[0] - keep + 1}${idx.length > 1 ? `–${idx.at(-1)! - keep + 1}` : ''} of ${total}`,
    table: { ...table, columns: [...table.columns.slice(0, keep), ...idx.map((i) => table.columns[i])] },
  }));
}

/** Whether `table` fits `width` laid out at its natural widths. */
function fits<Row>(table: Table<Row>, width: number): boolean {
  const natural = table.columns.map((c) =>
    Math.max(cellWidth(c.header), ...table.rows.map((r) => cellWidth(escapeCell(c.cell(r), 'terminal', c.maxChars)))),
  );
  return natural.reduce((a, b) => a + b + 1, 1) <= width;
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
  const width = options.width ?? DEFAULT_WIDTH;
  if (!section) return results.probePending ? wrap(`Probes: ${PROBES_UNFINISHED}`, width, '  ') : '';
  const k = createColors(Boolean(options.color));
  const say = (text: string, indent = '  ') => wrap(text, width, indent);
  const out: string[] = [
    k.bold(
      say(`Probes (${section.selection === 'asked' ? 'asked' : 'relevant to the payloads'}): ${summaryLine(section)}`),
    ),
  ];
  // a wide table: marks only (as --narrow) when the labels do not fit, then in parts of a few serializers
  const tables = <Row>(title: string, labelled: Table<Row>, marks: Table<Row>, keep: number, noun: string) => {
    // marks only; then headers on several lines, broken after each hyphen (`fast-` `json-` `stringify`)
    const stacked = {
      ...marks,
      columns: marks.columns.map((c, i) => (i < keep ? c : { ...c, header: c.header.replace(/-(?=.)/g, '-\n') })),
    };
    const table = fits(labelled, width) ? labelled : fits(marks, width) ? marks : stacked;
    for (const part of partsOf(table, keep, width, noun))
      out.push(
        k.bold(say(part.note ? `${title}, ${part.note}` : title)),
        renderTable(part.table, 'terminal', { color: options.color, width }),
      );
  };
  for (const direction of DIRECTIONS) {
    const m = probeMatrix(section, direction, options.full);
    // a direction no serializer was probed in (probe --direction serialize) says nothing
    if (m.rows.length === 0 || (m.columns.length === 0 && m.absent.length === 0)) continue;
    const title = `${direction} (${countOf(m.rows.length, 'row')}${options.full ? '' : ', grouped'}; ${countOf(m.columns.length, 'serializer')})`;
    out.push('');
    if (m.columns.length) tables(title, matrixTable(m, !options.narrow), matrixTable(m, false), 1, 'serializers');
    else out.push(k.bold(say(title)));
    if (m.absent.length)
      out.push(
        'not probed (its supports() declined every probe of this direction: ✘):',
        ...m.absent.map((a) =>
          say(`  ${escapeCell(a.header, 'terminal')}: ${escapeCell(a.reason, 'terminal', 200)}`, '    '),
        ),
      );
    out.push(...failingLines(results, direction, 'terminal').map((l) => say(l, '      ')));
  }
  const changes = versionChanges(section);
  if (changes.length) {
    out.push('');
    const t = changesTable(changes);
    tables(`Verdicts that change between versions (${changes.length})`, t, t, 2, 'versions');
  }
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
  if (!section) return results.probePending ? `## Probes relevant to the payloads\n\n${PROBES_UNFINISHED}\n` : '';
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
        `Not probed (its supports() declined every probe: ✘): ${m.absent.map((a) => `${md(a.header)} (${md(a.reason, 160)})`).join('; ')}`,
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
