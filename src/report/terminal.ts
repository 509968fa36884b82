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
import { clipLine, DEFAULT_WIDTH, SEE_REPORT, wrap } from './fit.js';

export { clipLine, DEFAULT_WIDTH, outputWidth, SEE_REPORT, wrap } from './fit.js';
import { renderInstructions } from './instructions.js';
import { renderColdStart } from './cold-start.js';
import { renderTargetTables } from './target-columns.js';
import { noiseReasons } from './noise.js';
import { legendSentences } from './legend.js';
import { toViewData } from './html/view.js';
import { defaultState, indexCases } from './html/rebase.js';
import { sectionTakeaway } from './html/sections.js';
import { quickCaveat } from './takeaway.js';
import { renderRecommendations } from './recommend.js';

/** The longest sentence shown (takeaways, findings): a longer one is cut with … (the full text is in report.md and results.json). */
const SENTENCE_MAX_CHARS = 1000;

/** Options of {@link renderTerminal}. */
export interface TerminalOptions {
  /** the width to fit (characters): tables drop columns and clip notes, sentences wrap; default {@link DEFAULT_WIDTH} */
  width?: number;
  /** list unsupported pairs as rows (default: one line with their count and names under each table) */
  showUnsupported?: boolean;
  /** only the tables with their takeaways and findings (a group printed as it finishes): no banner, instruction counts, target tables or legend */
  tablesOnly?: boolean;
  /** more columns (Version, Error, Median, Alloc Ratio), every finding and translation note in full, and the legend */
  verbose?: boolean;
  /** called with the headers of the columns a table left out to fit `width` (the caller says it once); absent: a line under each table says it */
  onDropped?: (headers: string[]) => void;
  /** the target a table's cases ran on, said in its title (`orders · 100 · list · serialize · on dotnet@9`): a group printed during a run on several targets */
  titleTarget?: string;
}

/**
 * The run table's columns as the terminal shows them, by importance (issue 22): Serializer, Ratio
 * [CI], Allocated and Notes (one line, clipped with → report.md) stay; Mean goes first on a narrow
 * terminal. `verbose` adds Alloc Ratio, Error, Median and Version, which go before Mean.
 */
export function terminalColumns(columns: readonly Column<ReportCase>[], verbose: boolean): Column<ReportCase>[] {
  const byId = new Map(columns.map((c) => [c.id, c]));
  // drop order on a narrow terminal: the highest priority first; 0: never dropped
  const order: [string, number][] = verbose
    ? [
        ['serializer', 0],
        ['target', 0],
        ['ratio', 0],
        ['allocated', 1],
        ['alloc-ratio', 3],
        ['mean', 2],
        ['error', 4],
        ['median', 5],
        ['version', 6],
        ['notes', 0],
      ]
    : [
        ['serializer', 0],
        ['target', 0],
        ['ratio', 0],
        ['allocated', 1],
        ['mean', 2],
        ['notes', 0],
      ];
  return order.flatMap(([id, priority]) => {
    const c = byId.get(id);
    if (!c) return [];
    const { wrap: _wrap, ...rest } = c;
    return [{ ...rest, priority, ...(id === 'notes' ? { clip: SEE_REPORT } : {}) }];
  });
}

/**
 * Renders the results as terminal text, fitted to `options.width`: the machine banner (only when
 * the load plausibly moved a reading: report/noise.ts), then per workload × size × shape ×
 * direction the takeaway of each class, the run table ({@link terminalColumns}: a Target column
 * when the results span several targets; unsupported pairs behind one line with their count unless
 * `showUnsupported`), the findings that need a sentence and the translation notes (one line each,
 * clipped, unless `verbose`); then the instruction counts, the side-by-side tables of a run on
 * several targets, and (verbose) the legend. The policy caveat of a quick run is not repeated per
 * takeaway: the caller says it once ({@link runCaveat}). Every string from the data is escaped
 * for the terminal (control characters as control pictures) and cut. Colours follow `color`
 * (callers pass false for NO_COLOR or a pipe). Pure: returns the text.
 */
/** What the run's profile means, in a few words (case/profile.ts); an unrecorded one was the lab's steady settings. */
function profileLine(p: ResultsFile['policy']): string {
  const known = (PROFILE_DESCRIPTIONS as Record<string, string | undefined>)[profileOf(p)];
  return `${known ?? 'written by a newer jsonbench'}${p.profile === undefined ? ' (not recorded: written before profiles)' : ''}`;
}

export function renderTerminal(results: ResultsFile, color: boolean, options: TerminalOptions = {}): string {
  const c = createColors(color);
  const width = options.width ?? DEFAULT_WIDTH;
  const verbose = Boolean(options.verbose);
  const esc = (text: string) => escapeCell(text, 'terminal', SENTENCE_MAX_CHARS);
  const say = (text: string) => wrap(esc(text), width);
  // a finding or a note: in full when verbose, else one line pointing at report.md
  const brief = (text: string, indent = '') =>
    verbose ? wrap(esc(text), width, `${indent}  `) : clipLine(esc(text), width);
  const model = buildModel(asRuns(results));
  const multiTarget = model.targets.length > 1;
  const out: string[] = [];
  // the runtime profile names every report's header (issue 23, decision 3)
  if (!options.tablesOnly)
    out.push(c.dim(say(`Profile ${profileOf(results.policy)}: ${profileLine(results.policy)}`)), '');
  if (!options.tablesOnly) {
    const banner = machineBanner(results);
    if (banner) out.push(c.yellow(say(banner)), '');
  }
  for (const sentence of unreadSentences(model.runs)) out.push(c.yellow(say(`⚠ ${sentence}`)), '');
  const run = mapColumns(runColumns({ cases: model.cases }), (r: ReportCase) => r);
  const columns = terminalColumns(
    [...run, { id: 'target', header: 'Target', cell: (x: ReportCase) => x.targetKey }],
    verbose,
  ).filter((col) => multiTarget || col.id !== 'target');
  // the takeaways without the quick policy's caveat: it is said once per run
  const data = { ...toViewData(model), firstLook: false };
  const index = indexCases(data);
  for (const [gi, table] of buildTables(model.cases).entries()) {
    const group = data.groups[gi];
    // the table's title opens its first takeaway (one line saved per table); bold after wrapping (codes are not width)
    const title = escapeCell(`${table.title}${options.titleTarget ? ` · on ${options.titleTarget}` : ''}`, 'terminal');
    let titled = false;
    for (const [si, s] of table.sections.entries()) {
      for (const t of sectionTakeaway(data, index, group, group.sections[si], defaultState())) {
        const text = `${s.caseClass}${platformLabel(s.platform) ? ` · ${platformLabel(s.platform)}` : ''} (against ${s.baseline ?? 'none'}): ${t}`;
        if (titled) out.push(say(text));
        else {
          out.push(c.bold(title) + say(`${title} · ${text}`).slice(title.length));
          titled = true;
        }
      }
    }
    if (!titled) out.push(c.bold(title));
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
            // one section: the takeaway above already names its class and baseline
            ...(table.sections.length > 1 ? { sectionOf: (r: (typeof rows)[number]) => r.section } : {}),
            tone: (r) =>
              r.cs.status === 'measured'
                ? undefined
                : r.cs.status === 'unsupported' || r.cs.status === 'not-run'
                  ? 'dim'
                  : 'red',
            compact: true,
          },
          'terminal',
          { color, width, ...(options.onDropped ? { onDropped: options.onDropped } : {}) },
        ),
      );
    }
    const all = table.sections.flatMap((s) => s.cases) as ReportCase[];
    const unsupported = all.filter((x) => x.status === 'unsupported');
    if (unsupported.length && !options.showUnsupported) {
      const names = [...new Set(unsupported.map((x) => x.serializer))];
      out.push(
        c.dim(
          clipLine(
            esc(
              `– ${unsupported.length} unsupported pair${unsupported.length === 1 ? '' : 's'} not shown (reasons in report.md): ${names.join(', ')}`,
            ),
            width,
          ),
        ),
      );
    }
    for (const { c: cs, code, message } of findingSentences(all))
      out.push(
        brief(`${sentenceMark(code) ?? '≠'} ${cs.serializer}${multiTarget ? ` (${cs.targetKey})` : ''}: ${message}.`),
      );
    const notes = notesLines(all);
    if (notes.length && verbose)
      out.push('Looser than the schema (translation notes):', ...notes.map((n) => `  ${brief(n, '  ')}`));
    else if (notes.length) {
      const per = new Map<string, number>();
      for (const x of all) if (x.notes?.length) per.set(x.serializer, x.notes.length);
      out.push(
        clipLine(
          esc(
            `≈ looser checks than the schema: ${[...per].map(([s, n]) => `${s} ${n}`).join(', ')} (listed in report.md)`,
          ),
          width,
        ),
      );
    }
    out.push('');
  }
  if (options.tablesOnly) return out.join('\n');
  const instructions = renderInstructions(results);
  if (instructions) out.push(instructions);
  const cold = renderColdStart(results);
  if (cold) out.push(cold);
  if (results.targets.length > 1) out.push(renderTargetTables(results, 'text'));
  if (verbose) out.push(...legendSentences(results).map((l) => c.dim(say(l))));
  return out.join('\n');
}

/**
 * The machine banner, or null: only when the load was high at the start (report/noise.ts) AND some
 * cases' launches disagreed beyond their own errors or ran in different machine states, so the
 * load plausibly moved a reading; it names those cases (at most 4, then how many more).
 */
export function machineBanner(results: ResultsFile): string | null {
  const n = noiseReasons(results);
  return n.length ? `⚠ Busy machine: ${n.join('; ')}.` : null;
}

/** The policy caveat, said once per run (a quick run's figures are a first look), or null. */
export function runCaveat(results: Pick<ResultsFile, 'policy'>): string | null {
  return results.policy.name === 'quick' ? quickCaveat() : null;
}

/** Options of {@link renderRunEnd}. */
export interface RunEndOptions {
  width?: number;
  verbose?: boolean;
  /** the columns the streamed tables left out to fit the width (said once here) */
  dropped?: readonly string[];
}

/** The statuses of a case that gave no number. */
const NO_NUMBER = ['incorrect', 'failed', 'timeout', 'crashed'];

/**
 * What a run prints at its end, after its groups' tables were streamed (issue 22: "at the end
 * print only what is new"): the recommendation first (a run on the user's payload: report/
 * recommend.ts), a summary of the cases that gave no number (one line each, cut to the width), the
 * machine banner when the load plausibly moved a reading, the columns left out to fit the width,
 * the instruction counts, cold starts and side-by-side target tables when the run has them, the
 * legend (verbose), and the policy's caveat once. Pure: returns the text (no trailing newline;
 * empty when there is nothing to say).
 */
export function renderRunEnd(results: ResultsFile, color: boolean, options: RunEndOptions = {}): string {
  const c = createColors(color);
  const width = options.width ?? DEFAULT_WIDTH;
  const esc = (text: string) => escapeCell(text, 'terminal', SENTENCE_MAX_CHARS);
  const out: string[] = [];
  const rec = renderRecommendations(results, 'terminal', { color, width, verbose: Boolean(options.verbose) }).trimEnd();
  if (rec) out.push(rec, '');
  const broken = results.cases.filter((x) => NO_NUMBER.includes(x.status));
  if (broken.length) {
    out.push(
      c.red(
        clipLine(
          esc(
            `✗ ${broken.length} case${broken.length === 1 ? '' : 's'} gave no number (never ranked; the reasons in full are in report.md):`,
          ),
          width,
        ),
      ),
    );
    for (const x of broken)
      out.push(
        clipLine(
          esc(
            `  ${x.serializer} · ${x.workload} ${x.direction}${x.class !== x.direction ? ` ${x.class}` : ''} · ${x.status}: ${(x.reason ?? '').replace(/\s+/g, ' ')}`,
          ),
          width,
        ),
      );
    out.push('');
  }
  const banner = machineBanner(results);
  if (banner) out.push(c.yellow(wrap(esc(banner), width)), '');
  const extras = [
    renderInstructions(results),
    renderColdStart(results),
    results.targets.length > 1 ? renderTargetTables(results, 'text') : '',
  ].filter(Boolean);
  for (const e of extras) out.push(e, '');
  if (options.verbose) out.push(...legendSentences(results).map((l) => c.dim(wrap(esc(l), width))), '');
  const notes: string[] = [];
  if (options.dropped?.length)
    notes.push(
      `columns left out to fit ${width} characters: ${options.dropped.join(', ')} (a wider terminal${options.verbose ? '' : ' or --verbose'} shows more; report.md has every column)`,
    );
  else if (!options.verbose)
    notes.push('--verbose shows more columns, every finding and the legend; report.md has them all');
  const caveat = runCaveat(results);
  if (caveat) notes.push(caveat);
  for (const n of notes) out.push(c.dim(wrap(esc(n), width)));
  return out.join('\n').trimEnd();
}
