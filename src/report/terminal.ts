import { PROFILE_DESCRIPTIONS } from '../case/profile.js';
import { profileOf } from '../results/profile.js';
import { createColors } from 'picocolors';
import type { CaseResult, ResultsFile } from '../results/types.js';
import { asRuns, buildModel, type ReportCase } from './model.js';
import {
  notesOf,
  sentenceMark,
  buildTables,
  findingSentences,
  notesLines,
  platformLabel,
  runColumns,
  unreadSentences,
} from './rows.js';
import { fitColumns, renderTable } from './table/write.js';
import { mapColumns, type Column } from './table/column.js';
import { escapeCell } from './table/escape.js';
import { clipLine, DEFAULT_WIDTH, SEE_REPORT, wrap, wrapAtMost } from './fit.js';

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
import { countOf } from './units.js';

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
  /**
   * the columns every table of the run shows, chosen once ({@link terminalLayout}) so that all
   * tables have the same ones (a run streaming its groups' tables passes the layout of its plan);
   * absent: chosen from these results' cases. The columns it leaves out are said once: at the end
   * of this text, or by the caller when `tablesOnly`.
   */
  layout?: TerminalLayout;
  /** the target a table's cases ran on, said in its title (`orders · 100 · list · serialize · on dotnet@9`): a group printed during a run on several targets */
  titleTarget?: string;
}

/** The columns the run tables show at a width, chosen once for all of a run's tables. */
export interface TerminalLayout {
  /** the ids of the columns shown ({@link terminalColumns}) */
  keep: string[];
  /** the headers of the columns left out to fit the width */
  dropped: string[];
}

/**
 * The widest cells a run table's columns usually hold (characters, padding excluded), for
 * choosing the columns before the cases are measured: a ratio with three decimals and its interval,
 * an estimated allocation range, a time, a version.
 */
const TYPICAL_CELL: Readonly<Record<string, number>> = {
  ratio: '0.998 [0.990–1.005]'.length,
  allocated: '~18.1 KiB–18.3 KiB'.length,
  'alloc-ratio': '1.27–1.30'.length,
  mean: '8.62 µs'.length,
  error: '8.62 µs'.length,
  median: '8.62 µs'.length,
  version: 'node 20.20.2'.length,
};

/**
 * Which columns the run tables show at `width`: {@link terminalColumns} dropped by importance
 * (table/write.ts fitColumns) as if every table held the run's longest serializer and target names
 * and the {@link TYPICAL_CELL} widths, so the choice is made once for every table of the run (issue
 * 22: Mean dropped from one table only, while the footer said it was left out). Pure.
 */
export function terminalLayout(o: {
  width: number;
  verbose?: boolean;
  /** the serializer ids the tables will show */
  serializers: readonly string[];
  /** the target keys, when the tables show a Target column (a run on several targets) */
  targets?: readonly string[];
}): TerminalLayout {
  const blank = { id: '', header: '', cell: () => '' };
  const columns = terminalColumns(
    [
      ...['serializer', 'version', 'mean', 'error', 'median', 'ratio', 'allocated', 'alloc-ratio', 'notes'].map(
        (id) => ({ ...blank, id, header: HEADERS[id] ?? id }),
      ),
      { ...blank, id: 'target', header: 'Target' },
    ] as Column<ReportCase>[],
    Boolean(o.verbose),
  ).filter((c) => (o.targets?.length ?? 0) > 1 || c.id !== 'target');
  const longest = (xs: readonly string[] | undefined) => Math.max(0, ...(xs ?? []).map((x) => x.length));
  const natural = columns.map(
    (c) =>
      Math.max(
        c.header.length,
        c.id === 'serializer'
          ? longest(o.serializers)
          : c.id === 'target'
            ? longest(o.targets)
            : c.id === 'notes'
              ? 'baseline'.length
              : (TYPICAL_CELL[c.id] ?? 0),
      ) + 2,
  );
  const fit = fitColumns(columns, natural, o.width);
  return { keep: fit.keep.map((i) => columns[i].id), dropped: fit.dropped };
}

/** The run table's headers by column id (report/rows.ts runColumns). */
const HEADERS: Readonly<Record<string, string>> = Object.fromEntries(
  runColumns().map((c) => [c.id, c.header]),
) as Record<string, string>;

/**
 * The lines under a table: its findings that need a sentence, one line per case, or (not verbose)
 * one line for a finding that several of its cases share; then the translation notes, in full when
 * verbose, else one line counting them per serializer. Each fitted to `width`; each said once.
 */
function sentencesUnder(
  all: readonly ReportCase[],
  o: { width: number; verbose: boolean; multiTarget: boolean; tablesOnly?: boolean },
): string[] {
  const esc = (text: string) => escapeCell(text, 'terminal', SENTENCE_MAX_CHARS);
  const brief = (text: string, indent = '') =>
    o.verbose ? wrap(esc(text), o.width, `${indent}  `) : clipLine(esc(text), o.width);
  const out: string[] = [];
  // a run's tables leave ⇉ to the run's end (said once): its widened interval is in the row
  const sentences = findingSentences(all).filter((x) => !(o.tablesOnly && !o.verbose && x.code === 'launch-states'));
  const who = (cs: ReportCase) => `${cs.serializer}${o.multiTarget ? ` (${cs.targetKey})` : ''}`;
  for (const [i, { c: cs, code, message }] of sentences.entries()) {
    const same = sentences.filter((x) => x.code === code);
    const shared = SHARED_FINDING[code];
    if (o.verbose || same.length === 1 || !shared)
      out.push(brief(`${sentenceMark(code) ?? '≠'} ${who(cs)}: ${message}.`));
    else if (same[0] === sentences[i])
      out.push(
        wrap(esc(`${sentenceMark(code)} in ${same.length} rows: ${shared} (report.md says it of each)`), o.width),
      );
  }
  const notes = notesLines(all);
  if (notes.length && o.verbose)
    out.push('Looser than the schema (translation notes):', ...notes.map((n) => `  ${brief(n, '  ')}`));
  else if (notes.length) {
    const per = new Map<string, number>();
    for (const x of all) if (x.notes?.length) per.set(x.serializer, x.notes.length);
    out.push(
      clipLine(
        esc(
          `≈ looser checks than the schema: ${[...per].map(([s, n]) => `${s} ${n}`).join(', ')} (listed in report.md)`,
        ),
        o.width,
      ),
    );
  }
  return out;
}

/** What a finding said under a table means, in words, when several of its cases share it and it is said once for them. */
const SHARED_FINDING: Readonly<Record<string, string>> = {
  'mean-ratio': 'mean and ratio disagree beyond their errors',
  'baseline-slowed': 'the paired baseline ran over 2× slower beside it: not ranked',
  'machine-drift': 'the machine changed speed between launches and the ratio moved with it',
  'launch-states': 'the launches fell into distinct states: the interval is widened to cover them',
};

/** One note of a row in its three lengths: as report.md says it, in a word or two, as a mark; and what the mark means. */
interface NoteForm {
  short: string;
  mark: string;
  /** the legend of `mark` under a table whose notes were shown as marks */
  legend?: string;
}

/**
 * The notes of a case in short words and as marks (the long text is report/rows.ts notesOf), in
 * notesOf's order: "baseline" first and never shortened, the status, the findings, the looser
 * checks. For the Notes column of a narrow terminal (issue 22: "bas… → report.md").
 */
export function noteForms(c: CaseResult): NoteForm[] {
  const out: NoteForm[] = [];
  if (c.serializer === c.baseline && c.status === 'measured') out.push({ short: 'baseline', mark: 'baseline' });
  if (c.status === 'unsupported') out.push({ short: '– unsupported', mark: '–', legend: '– unsupported' });
  else if (c.status === 'not-run') out.push({ short: '⏹ not run', mark: '⏹', legend: '⏹ not run or rebuilt' });
  else if (c.status !== 'measured')
    out.push({ short: `✗ ${c.status}`, mark: '✗', legend: '✗ no number (reasons: report.md)' });
  for (const f of c.findings) {
    const mark = sentenceMark(f.code);
    if (f.code === 'noisy') out.push({ short: '⚠ noisy', mark: '⚠', legend: '⚠ noisy' });
    else if (f.code === 'too-fast') out.push({ short: '! too fast', mark: '!', legend: '! too fast to be real' });
    else if (f.code === 'baseline-unavailable') out.push({ short: 'no ratio', mark: 'no ratio' });
    else if (f.code === 'relaunched')
      out.push({ short: `↻ ${c.samples.relaunches}×`, mark: '↻', legend: '↻ relaunched' });
    else if (f.code === 'interrupted') out.push({ short: '⏹ rebuilt', mark: '⏹', legend: '⏹ not run or rebuilt' });
    else if (f.code === 'mean-ratio')
      out.push({ short: '≠ see below', mark: '≠', legend: '≠ mean and ratio disagree (below)' });
    else if (f.code === 'baseline-slowed')
      out.push({ short: '⊘ not ranked', mark: '⊘', legend: '⊘ baseline slowed: not ranked (below)' });
    else if (f.code === 'machine-drift')
      out.push({ short: '⇅ drift', mark: '⇅', legend: '⇅ the machine changed speed (below)' });
    else if (f.code === 'launch-states')
      out.push({ short: '⇉ widened', mark: '⇉', legend: '⇉ launches in distinct states: interval widened' });
    else if (mark === '?') out.push({ short: `? ${f.code}`, mark: '?', legend: '? a newer jsonbench’s finding' });
  }
  if (c.notes?.length)
    // no legend: the line under the table starting with ≈ says what it means
    out.push({ short: `≈ ${c.notes.length} looser`, mark: '≈' });
  return out;
}

/** The Notes cell's shorter forms ({@link Column.shorter}): short words, then marks; empty when the cell has no note. */
function shorterNotes(c: CaseResult): string[] {
  const forms = noteForms(c);
  if (!forms.length) return [];
  const words = forms.map((f) => f.short).join('; ');
  const marks = [...new Set(forms.map((f) => f.mark))].join(' ');
  return words === notesOf(c) ? [marks] : [words, marks];
}

/** The legend line of the marks the rows were shown with (`Notes: ⚠ noisy · ≈ looser checks…`), or null. */
function marksLegend(cases: readonly CaseResult[]): string | null {
  const order = '–⏹✗⚠!↻≠⊘⇅⇉?';
  const legends = [...new Set(cases.flatMap((c) => noteForms(c).flatMap((f) => (f.legend ? [f.legend] : []))))].sort(
    (a, b) => order.indexOf(a[0]) - order.indexOf(b[0]),
  );
  return legends.length ? `Notes: ${legends.join(' · ')}` : null;
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
    return [{ ...rest, priority, ...(id === 'notes' ? { clip: SEE_REPORT, shorter: shorterNotes } : {}) }];
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
  // the columns are chosen once for every table (issue 22): the caller's layout, else from these cases
  const layout =
    options.layout ??
    terminalLayout({
      width,
      verbose,
      serializers: model.cases.map((x) => x.serializer),
      ...(multiTarget ? { targets: model.cases.map((x) => x.targetKey) } : {}),
    });
  const columns = terminalColumns(
    [...run, { id: 'target', header: 'Target', cell: (x: ReportCase) => x.targetKey }],
    verbose,
  ).filter((col) => (multiTarget || col.id !== 'target') && layout.keep.includes(col.id));
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
    // the rows whose notes were shown as marks: a legend line under the table says what they mean
    const marked: CaseResult[] = [];
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
          {
            color,
            width,
            onShortened: (id, r, form) => {
              if (id === 'notes' && form === shorterNotes(r.cs).length) marked.push(r.cs);
            },
          },
        ),
      );
    }
    const legend = marksLegend(marked);
    if (legend) out.push(c.dim(wrap(legend, width)));
    const all = table.sections.flatMap((s) => s.cases) as ReportCase[];
    const unsupported = all.filter((x) => x.status === 'unsupported');
    // a run's tables (tablesOnly) leave the count to the run's end: one line for every table
    if (unsupported.length && !options.showUnsupported && !options.tablesOnly) {
      const names = [...new Set(unsupported.map((x) => esc(x.serializer)))];
      out.push(
        c.dim(
          namesLine(
            `– ${unsupported.length} unsupported pair${unsupported.length === 1 ? '' : 's'} not shown (reasons in report.md): `,
            names,
            width,
          ),
        ),
      );
    }
    out.push(...sentencesUnder(all, { width, verbose, multiTarget, tablesOnly: Boolean(options.tablesOnly) }));
    out.push('');
  }
  if (options.tablesOnly) return out.join('\n');
  if (layout.dropped.length) out.push(c.dim(say(droppedSentence(layout.dropped, width, verbose))), '');
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

/**
 * `prefix` and as many of `names` as fit `width` whole, then `and N more` (never a name cut in
 * the middle: "typebox, zo… → report.md"). Pure.
 */
export function namesLine(prefix: string, names: readonly string[], width: number): string {
  const all = `${prefix}${names.join(', ')}`;
  if (all.length <= width) return all;
  for (let n = names.length - 1; n >= 0; n--) {
    const more = `${n ? ', ' : ''}and ${names.length - n} more`;
    const line = `${prefix}${names.slice(0, n).join(', ')}${more}`;
    if (line.length <= width) return line;
  }
  return clipLine(all, width);
}

/** The sentence naming the columns every table left out to fit the width (said once per run). */
function droppedSentence(dropped: readonly string[], width: number, verbose: boolean): string {
  return `columns left out of every table to fit ${width} characters: ${dropped.join(', ')} (a wider terminal${verbose ? '' : ' or --verbose'} shows more; report.md has every column)`;
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
    // one line per serializer and status: its cases (each named in full, so no two read alike) and the first reason
    const groups = new Map<string, typeof broken>();
    for (const x of broken)
      groups.set(`${x.serializer}\u0000${x.status}`, [...(groups.get(`${x.serializer}\u0000${x.status}`) ?? []), x]);
    for (const xs of groups.values()) {
      const x = xs[0];
      const where = xs.map(
        (y) => `${y.workload} ${y.size} ${y.shape} ${y.direction}${y.class !== y.direction ? ` ${y.class}` : ''}`,
      );
      const text = `${x.serializer} · ${x.status} in ${xs.length === 1 ? where[0] : `${xs.length} cases (${where.join('; ')})`}: ${(x.reason ?? '').replace(/\s+/g, ' ')}`;
      out.push(`  ${wrapAtMost(esc(text).slice(0, 4 * width), width - 2, '    ', 3)}`);
    }
    out.push('');
  }
  const banner = machineBanner(results);
  if (banner) out.push(c.yellow(wrap(esc(banner), width)), '');
  // ⇉ is said once for the run, not under each table (its rows say "⇉ widened"; their intervals show it)
  const states = results.cases.filter((x) => x.findings.some((f) => f.code === 'launch-states')).length;
  if (states && !options.verbose)
    out.push(
      c.dim(
        wrap(`⇉ in ${countOf(states, 'row')}: ${SHARED_FINDING['launch-states']} (report.md says it of each)`, width),
      ),
    );
  const unsupported = results.cases.filter((x) => x.status === 'unsupported');
  if (unsupported.length) {
    const per = new Map<string, number>();
    for (const x of unsupported) per.set(x.serializer, (per.get(x.serializer) ?? 0) + 1);
    out.push(
      c.dim(
        namesLine(
          `– ${countOf(unsupported.length, 'unsupported pair')} not measured (reasons in report.md): `,
          [...per].map(([name, n]) => (n > 1 ? `${esc(name)} (${n})` : esc(name))),
          width,
        ),
      ),
    );
  }
  const extras = [
    renderInstructions(results),
    renderColdStart(results),
    results.targets.length > 1 ? renderTargetTables(results, 'text') : '',
  ].filter(Boolean);
  for (const e of extras) out.push(e, '');
  if (options.verbose) out.push(...legendSentences(results).map((l) => c.dim(wrap(esc(l), width))), '');
  const notes: string[] = [];
  if (options.dropped?.length) notes.push(droppedSentence(options.dropped, width, Boolean(options.verbose)));
  else if (!options.verbose)
    notes.push('--verbose shows more columns, every finding and the legend; report.md has them all');
  const caveat = runCaveat(results);
  if (caveat) notes.push(caveat);
  for (const n of notes) out.push(c.dim(wrap(esc(n), width)));
  return out.join('\n').trimEnd();
}
