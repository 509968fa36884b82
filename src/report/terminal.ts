import { PROFILE_DESCRIPTIONS } from '../case/profile.js';
import { profileOf } from '../results/profile.js';
import { createColors } from 'picocolors';
import type { ResultsFile } from '../results/types.js';
import { asRuns, buildModel, type ReportCase } from './model.js';
import {
  sentenceMark,
  buildTables,
  findingSentences,
  notesLines,
  platformLabel,
  runColumns,
  unreadSentences,
} from './rows.js';
import { renderTable } from './table/write.js';
import { mapColumns, type Column } from './table/column.js';
import { escapeCell } from './table/escape.js';
import { renderInstructions } from './instructions.js';
import { renderColdStart } from './cold-start.js';
import { renderTargetTables } from './target-columns.js';
import { noiseReasons } from './noise.js';
import { legendSentences } from './legend.js';
import { toViewData } from './html/view.js';
import { defaultState, indexCases } from './html/rebase.js';
import { sectionTakeaway } from './html/sections.js';

/** Width of the Notes column (characters); longer notes wrap (narrower still on a narrow terminal). */
const NOTES_WIDTH = 50;

/** The longest sentence shown (takeaways, findings): a longer one is cut with … (the full text is in report.md and results.json). */
const SENTENCE_MAX_CHARS = 1000;

/** Options of {@link renderTerminal}. */
export interface TerminalOptions {
  /** the terminal's width (characters): tables drop columns and wrap notes to fit, sentences wrap; absent: no fitting */
  width?: number;
  /** list unsupported pairs as rows (default: one line with their count and names under each table) */
  showUnsupported?: boolean;
  /** only the tables with their takeaways and findings (a group printed as it finishes): no noise warning, instruction counts, target tables or legend */
  tablesOnly?: boolean;
}

/** Greedy word wrap of one line at `width` (no wrapping when absent); a following line starts with `indent`. */
export function wrap(text: string, width: number | undefined, indent = '  '): string {
  if (!width || text.length <= width) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/**
 * Renders the results as terminal text: the noise warning (as report.md gives it), then per
 * workload × size × shape × direction the takeaway of each class, the run table (table/write.ts:
 * a Target column when the results span several targets, columns dropped and notes wrapped to fit
 * `options.width`; unsupported pairs behind one line with their count unless `showUnsupported`)
 * and its findings as sentences; then the instruction counts, the side-by-side tables of a run on
 * several targets, and a legend. Every string from the data is escaped for the terminal (control
 * characters as control pictures) and cut. Colours follow `color` (callers pass false for
 * NO_COLOR or a pipe). Pure: returns the text.
 */
/** What the run's profile means, in a few words (case/profile.ts); an unrecorded one was the lab's steady settings. */
function profileLine(p: ResultsFile['policy']): string {
  const known = (PROFILE_DESCRIPTIONS as Record<string, string | undefined>)[profileOf(p)];
  return `${known ?? 'written by a newer jsonbench'}${p.profile === undefined ? ' (not recorded: written before profiles)' : ''}`;
}

export function renderTerminal(results: ResultsFile, color: boolean, options: TerminalOptions = {}): string {
  const c = createColors(color);
  const width = options.width;
  const say = (text: string) => wrap(escapeCell(text, 'terminal', SENTENCE_MAX_CHARS), width);
  const model = buildModel(asRuns(results));
  const multiTarget = model.targets.length > 1;
  const out: string[] = [];
  const noise = noiseReasons(results);
  // the runtime profile names every report's header (issue 23, decision 3)
  if (!options.tablesOnly)
    out.push(c.dim(say(`Profile ${profileOf(results.policy)}: ${profileLine(results.policy)}`)), '');
  if (noise.length && !options.tablesOnly)
    out.push(
      c.yellow(
        say(
          `⚠ Noisy machine: ${noise.join('; ')}. Differences inside the error bars are not evidence of a difference.`,
        ),
      ),
      '',
    );
  for (const sentence of unreadSentences(model.runs)) out.push(c.yellow(say(`⚠ ${sentence}`)), '');
  const run = mapColumns(runColumns({ notesWrap: NOTES_WIDTH, cases: model.cases }), (r: ReportCase) => r);
  const columns: Column<ReportCase>[] = [
    run[0],
    ...(multiTarget ? [{ id: 'target', header: 'Target', cell: (x: ReportCase) => x.targetKey }] : []),
    ...run.slice(1),
  ];
  const data = toViewData(model);
  const index = indexCases(data);
  for (const [gi, table] of buildTables(model.cases).entries()) {
    const group = data.groups[gi];
    out.push(c.bold(escapeCell(table.title, 'terminal')));
    for (const [si, s] of table.sections.entries()) {
      for (const t of sectionTakeaway(data, index, group, group.sections[si], defaultState()))
        out.push(
          say(
            `${s.caseClass}${platformLabel(s.platform) ? ` · ${platformLabel(s.platform)}` : ''} (against ${s.baseline ?? 'none'}): ${t}`,
          ),
        );
    }
    const rows = table.sections.flatMap((s) => {
      const cases = (
        multiTarget
          ? [...s.cases].sort(
              (a, b) =>
                s.cases.findIndex((x) => x.serializer === a.serializer) -
                s.cases.findIndex((x) => x.serializer === b.serializer),
            )
          : s.cases
      ) as ReportCase[];
      return cases
        .filter((cs) => options.showUnsupported || cs.status !== 'unsupported')
        .map((cs) => ({
          cs,
          section: `class ${s.caseClass}${platformLabel(s.platform) ? ` · ${platformLabel(s.platform)}` : ''}${s.baseline ? ` — ratios against ${s.baseline}` : ''}`,
        }));
    });
    if (rows.length) {
      out.push(
        renderTable<(typeof rows)[number]>(
          {
            columns: mapColumns(columns, (r: (typeof rows)[number]) => r.cs),
            rows,
            sectionOf: (r) => r.section,
            tone: (r) =>
              r.cs.status === 'measured'
                ? undefined
                : r.cs.status === 'unsupported' || r.cs.status === 'not-run'
                  ? 'dim'
                  : 'red',
          },
          'terminal',
          { color, width },
        ),
      );
    }
    const all = table.sections.flatMap((s) => s.cases) as ReportCase[];
    const unsupported = all.filter((x) => x.status === 'unsupported');
    if (unsupported.length && !options.showUnsupported) {
      const names = [...new Set(unsupported.map((x) => x.serializer))];
      out.push(
        c.dim(
          say(
            `– ${unsupported.length} unsupported pair${unsupported.length === 1 ? '' : 's'} not shown: ${names.join(', ')} (the reasons are in report.md)`,
          ),
        ),
      );
    }
    for (const { c: cs, code, message } of findingSentences(all))
      out.push(
        say(`${sentenceMark(code) ?? '≠'} ${cs.serializer}${multiTarget ? ` (${cs.targetKey})` : ''}: ${message}.`),
      );
    const notes = notesLines(all);
    if (notes.length) out.push('Looser than the schema (translation notes):', ...notes.map((n) => `  ${say(n)}`));
    out.push('');
  }
  if (options.tablesOnly) return out.join('\n');
  const instructions = renderInstructions(results);
  if (instructions) out.push(instructions);
  const cold = renderColdStart(results);
  if (cold) out.push(cold);
  if (results.targets.length > 1) out.push(renderTargetTables(results, 'text'));
  out.push(...legendSentences(results).map((l) => c.dim(say(l))));
  return out.join('\n');
}
