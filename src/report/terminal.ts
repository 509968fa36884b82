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
import { renderTable } from './table/write.js';
import { mapColumns, type Column } from './table/column.js';
import { escapeCell } from './table/escape.js';
import { boldLead, clipLine, DEFAULT_WIDTH, SEE_REPORT, wrap, wrapAtMost } from './fit.js';

export { clipLine, DEFAULT_WIDTH, outputWidth, SEE_REPORT, wrap } from './fit.js';
import { renderInstructions } from './instructions.js';
import { renderColdStart } from './cold-start.js';
import { renderTargetTables, targetDeltaLines } from './target-columns.js';
import { noiseReasons } from './noise.js';
import { legendSentences } from './legend.js';
import { toViewData } from './html/view.js';
import { defaultState, indexCases } from './html/rebase.js';
import { sectionTakeaway } from './html/sections.js';
import { renderRecommendations } from './recommend.js';
import { countOf } from './units.js';
import { joinNames, quickCaveat } from './takeaway.js';
import { caseReason } from './reason.js';

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
  /** told the headers of the columns a table left out to fit `width` (each table fits its own cells; a run says them once at its end) */
  onDropped?: (headers: readonly string[]) => void;
  /** the target a table's cases ran on, said in its title (`orders · 100 · list · serialize · on dotnet@9`): a group printed during a run on several targets */
  titleTarget?: string;
}

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
        esc(`≈ checks weaker than the schema: ${[...per].map(([s, n]) => `${s} ${n}`).join(', ')} (each in report.md)`),
        o.width,
      ),
    );
  }
  return out;
}

/** What a finding said under a table means, in words, when several of its cases share it and it is said once for them. */
const SHARED_FINDING: Readonly<Record<string, string>> = {
  'mean-ratio': 'mean and ratio disagree (beyond their errors, or in direction)',
  'baseline-slowed': 'the paired baseline ran slowed beside it (over 2×, or charged other threads’ CPU): not ranked',
  waits: 'it waits (its wall time far over its CPU time): not ranked',
  'machine-drift': 'the machine changed speed between launches and the ratio moved with it',
  'launch-states': 'the launches fell into distinct states: the interval counts them all',
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
    else if (f.code === 'waits') out.push({ short: '⌛ waits', mark: '⌛', legend: '⌛ waits: not ranked (below)' });
    else if (f.code === 'clocks-disagree')
      out.push({ short: '⇄ clocks', mark: '⇄', legend: '⇄ CPU and wall clocks disagree: not ranked (below)' });
    else if (f.code === 'machine-drift')
      out.push({ short: '⇅ drift', mark: '⇅', legend: '⇅ the machine changed speed (below)' });
    else if (f.code === 'launch-states')
      out.push({ short: '⇉ widened', mark: '⇉', legend: '⇉ launches in distinct states: interval widened' });
    else if (mark === '?') out.push({ short: `? ${f.code}`, mark: '?', legend: '? a newer jsonbench’s finding' });
  }
  if (c.notes?.length)
    // no legend: the line under the table starting with ≈ says what it means
    out.push({ short: `≈ ${c.notes.length} weaker`, mark: '≈' });
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

/** What the run's profile means, in a few words (case/profile.ts); an unrecorded one was the lab's steady settings. */
function profileLine(p: ResultsFile['policy']): string {
  const known = (PROFILE_DESCRIPTIONS as Record<string, string | undefined>)[profileOf(p)];
  return `${known ?? 'written by a newer jsonbench'}${p.profile === undefined ? ' (not recorded: written before profiles)' : ''}`;
}

/**
 * Renders the results as terminal text, fitted to `options.width`: the machine banner (only when
 * the load plausibly moved a reading: report/noise.ts), then per workload × size × shape ×
 * direction one table ({@link tableBlock}); then the columns left out to fit the width, the
 * instruction counts, the side-by-side tables of a run on several targets, and (verbose) the
 * legend. The policy caveat of a quick run is not repeated per takeaway: the caller says it once
 * ({@link runCaveat}). Every string from the data is escaped for the terminal (control characters
 * as control pictures) and cut. Colours follow `color` (callers pass false for NO_COLOR or a
 * pipe). Pure: returns the text.
 */
export function renderTerminal(results: ResultsFile, color: boolean, options: TerminalOptions = {}): string {
  const c = createColors(color);
  const width = options.width ?? DEFAULT_WIDTH;
  const verbose = Boolean(options.verbose);
  const say = (text: string) => wrap(escapeCell(text, 'terminal', SENTENCE_MAX_CHARS), width);
  const model = buildModel(asRuns(results));
  const out: string[] = [];
  if (!options.tablesOnly) {
    // the runtime profile names every report's header (issue 23, decision 3)
    out.push(c.dim(say(`Profile ${profileOf(results.policy)}: ${profileLine(results.policy)}`)), '');
    const banner = machineBanner(results);
    if (banner) out.push(c.yellow(say(banner)), '');
  }
  // a file read unchecked (results/integrity.ts: no sidecar, or one this user's jsonbench did not sign), said before its numbers
  for (const r of model.runs)
    if (r.unchecked)
      out.push(c.yellow(say(`⚠ integrity: unchecked (${r.unchecked}): its numbers are read as they are`)), '');
  for (const sentence of unreadSentences(model.runs)) out.push(c.yellow(say(`⚠ ${sentence}`)), '');
  const dropped = new Set<string>();
  const onDropped = (headers: readonly string[]) => {
    for (const h of headers) dropped.add(h);
    options.onDropped?.(headers);
  };
  // the takeaways without the quick policy's caveat: it is said once per run
  const data = { ...toViewData(model), firstLook: false };
  const index = indexCases(data);
  const blocks = buildTables(model.cases).map((table, gi) =>
    tableBlock(table, { data, index, group: data.groups[gi] }, { ...options, width, verbose, color, onDropped }),
  );
  out.push(...blocks.filter(Boolean).join('\n\n').split('\n'));
  if (options.tablesOnly) return out.join('\n');
  out.push('');
  if (dropped.size) out.push(c.dim(say(droppedSentence([...dropped], width))), '');
  const instructions = renderInstructions(results);
  if (instructions) out.push(instructions);
  const cold = renderColdStart(results);
  if (cold) out.push(cold);
  if (results.targets.length > 1) out.push(acrossTargets(results, width, verbose));
  if (verbose) out.push(...legendSentences(results).map((l) => c.dim(say(l))));
  return out.join('\n').trimEnd();
}

/** What {@link tableBlock} renders a table's takeaways from: the view data of the HTML report, indexed, and the table's group in it. */
interface TakeawaySource {
  data: ReturnType<typeof toViewData>;
  index: ReturnType<typeof indexCases>;
  group: ReturnType<typeof toViewData>['groups'][number];
}

/** A run table's row: its case and the section (class and platform) it sits in. */
interface BlockRow {
  cs: ReportCase;
  section: number;
}

/**
 * One run table as the terminal shows it (issue 22: each number said once, in the table): its
 * title opening the first class's takeaway (terse: the figures are in the rows below it), the
 * header, the rows of that class; then for each further class its takeaway (`validate (against
 * typebox): …`) as the heading of its rows. An open table ({@link renderTable} `open`): no rules.
 * The columns fit `width` from the table's own cells (columns left out are told to `onDropped`);
 * the Notes cell one line (short words or marks, with a legend line). Under it the findings that
 * need a sentence and the translation notes. Unsupported pairs are left out unless
 * `showUnsupported` (the run's end says once which libraries do one direction only). Empty when
 * the table has no row to show.
 */
function tableBlock(
  table: ReturnType<typeof buildTables>[number],
  src: TakeawaySource,
  o: TerminalOptions & { width: number; verbose: boolean; color: boolean; onDropped: (h: readonly string[]) => void },
): string {
  const c = createColors(o.color);
  const say = (text: string) => wrap(escapeCell(text, 'terminal', SENTENCE_MAX_CHARS), o.width);
  const multiTarget = new Set(table.sections.flatMap((s) => s.cases.map((x) => (x as ReportCase).targetKey))).size > 1;
  const rows: BlockRow[] = table.sections.flatMap((s, si) =>
    sectionCases(s, multiTarget)
      .filter((cs) => o.showUnsupported || cs.status !== 'unsupported')
      .map((cs) => ({ cs, section: si })),
  );
  if (!rows.length) return '';
  const first = rows[0].section;
  // one class shown: the title names it in place of its direction (`users · 100 · list · parse`: a parse is a deserialize)
  const parts = table.title.split(' · ');
  if (rows.every((r) => r.section === first)) parts[parts.length - 1] = table.sections[first].caseClass;
  const title = escapeCell(`${parts.join(' · ')}${o.titleTarget ? ` · on ${o.titleTarget}` : ''}`, 'terminal');
  // each shown section's heading: its class (unless the title names it), platform and baseline, then its takeaway
  // (one line per target when it spans several)
  const tail = parts[parts.length - 1];
  const headings = table.sections.map((s, si) => {
    const label = [si === first && s.caseClass === tail ? '' : s.caseClass, platformLabel(s.platform)]
      .filter(Boolean)
      .join(' · ');
    const [one, ...more] = sectionTakeaway(
      src.data,
      src.index,
      src.group,
      src.group.sections[si],
      defaultState(),
      !o.verbose,
    );
    return [`${label ? `${label} ` : ''}(against ${s.baseline ?? 'none'}): ${one ?? 'nothing to rank.'}`, ...more];
  });
  const marked: CaseResult[] = [];
  const drawn = renderTable<BlockRow>(
    {
      columns: mapColumns(runTableColumns(rows, o.verbose, multiTarget), (r: BlockRow) => r.cs),
      rows,
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
      color: o.color,
      width: o.width,
      open: true,
      onDropped: o.onDropped,
      onShortened: (id, r, form) => {
        if (id === 'notes' && form === shorterNotes(r.cs).length) marked.push(r.cs);
      },
    },
  ).split('\n');
  const [opening, ...more] = headings[first];
  // the title opens the first takeaway (one line saved per table); bold after wrapping (codes are not width)
  const joined = `${title}${opening.startsWith('(') ? ' ' : ' · '}${opening}`;
  const wrapped = say(joined);
  // bold only a title the wrap kept whole on the first line (a title wider than the terminal is wrapped as it is)
  const opened = boldLead(wrapped, title, c.bold);
  const out = [opened, ...more.map(say), drawn[0]];
  // one line per row (the Notes cell is clipped to one line): each further section's heading before its first row
  rows.forEach((r, i) => {
    if (i > 0 && r.section !== rows[i - 1].section) out.push(...headings[r.section].map(say));
    out.push(drawn[i + 1] ?? '');
  });
  out.push(...drawn.slice(rows.length + 1));
  const legend = marksLegend(marked);
  if (legend) out.push(c.dim(wrap(legend, o.width)));
  const all = table.sections.flatMap((s) => s.cases) as ReportCase[];
  out.push(
    ...sentencesUnder(all, { width: o.width, verbose: o.verbose, multiTarget, tablesOnly: Boolean(o.tablesOnly) }),
  );
  return out.join('\n');
}

/** A section's cases in row order; on several targets each serializer's rows together, in the section's order. */
function sectionCases(
  s: ReturnType<typeof buildTables>[number]['sections'][number],
  multiTarget: boolean,
): ReportCase[] {
  const cases = s.cases as ReportCase[];
  if (!multiTarget) return cases;
  const first = (x: ReportCase) => cases.findIndex((y) => y.serializer === x.serializer);
  return [...cases].sort((a, b) => first(a) - first(b));
}

/** The run table's columns ({@link terminalColumns}) over these rows: a Target column when they span several targets. */
function runTableColumns(rows: readonly BlockRow[], verbose: boolean, multiTarget: boolean): Column<ReportCase>[] {
  const run = mapColumns(runColumns({ cases: rows.map((r) => r.cs) }), (r: ReportCase) => r);
  return terminalColumns(
    [...run, { id: 'target', header: 'Target', cell: (x: ReportCase) => x.targetKey }],
    verbose,
  ).filter((col) => multiTarget || col.id !== 'target');
}

/**
 * What a run on several targets adds after its group tables: the targets and each mean against the
 * same serializer's on the first target (report/target-columns.ts targetDeltaLines: each number
 * said once); `verbose`, the side-by-side tables, rankings and across-platforms tables too.
 */
function acrossTargets(results: ResultsFile, width: number, verbose: boolean): string {
  return verbose ? renderTargetTables(results, 'text', width) : targetDeltaLines(results, width).join('\n');
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
 * `prefix` and as many of `names` as fit `width` whole, then `and N more`, N at least 2 (never a name cut in
 * the middle: "typebox, zo… → report.md"; never "and 1 more"). Pure.
 */
export function namesLine(prefix: string, names: readonly string[], width: number): string {
  const all = `${prefix}${names.join(', ')}`;
  if (all.length <= width) return all;
  // never "and 1 more": that one name costs about what the words do (nu16: "typebox, zod, valibot, arktype, and 1 more")
  for (let n = names.length - 2; n >= 0; n--) {
    const more = `${n ? ', ' : ''}and ${names.length - n} more`;
    const line = `${prefix}${names.slice(0, n).join(', ')}${more}`;
    if (line.length <= width) return line;
  }
  return clipLine(all, width);
}

/**
 * The sentence naming the columns tables left out to fit the width (said once per run; each table
 * keeps what fits it). Only a wider terminal brings them back: --verbose adds columns, which the
 * same width drops again (nu8 at 80 columns: "--verbose shows more" gained none).
 */
function droppedSentence(dropped: readonly string[], width: number): string {
  return `left out where a table did not fit ${width} characters: ${dropped.join(', ')} (a wider terminal shows more; report.md has every column)`;
}

/** The statuses of a case that gave no number. */
const NO_NUMBER = ['incorrect', 'failed', 'timeout', 'crashed'];

/**
 * The cases that gave no number, for the run's end: a heading, then one line per serializer and
 * status (at most two lines, cut to the width: the reasons in full are in report.md) with its
 * cases (`all 6 serialize cases` when it failed every case of a direction it does) and its first
 * reason; a blank line after. Empty when every case gave a number. Pure.
 */
function noNumberLines(results: ResultsFile, width: number, red: (s: string) => string): string[] {
  const esc = (text: string) => escapeCell(text, 'terminal', SENTENCE_MAX_CHARS);
  const broken = results.cases.filter((x) => NO_NUMBER.includes(x.status));
  if (!broken.length) return [];
  const groups = new Map<string, typeof broken>();
  for (const x of broken)
    groups.set(`${x.serializer}\u0000${x.status}`, [...(groups.get(`${x.serializer}\u0000${x.status}`) ?? []), x]);
  // one serializer and status: its line is the heading (`✗ ajv-jtd · incorrect in all 6 serialize cases (no number…)`)
  const heading = `✗ ${countOf(broken.length, 'case')} gave no number (never ranked; reasons in report.md):`;
  const out = groups.size === 1 ? [] : [red(clipLine(esc(heading), width))];
  for (const xs of groups.values()) {
    const x = xs[0];
    const directions = [...new Set(xs.map((y) => y.direction))];
    // every case of the serializer in that direction (unsupported ones aside): counted, not listed
    const every =
      directions.length === 1 &&
      results.cases.filter(
        (y) => y.serializer === x.serializer && y.direction === x.direction && y.status !== 'unsupported',
      ).length === xs.length;
    const where =
      every && xs.length > 1
        ? `${xs.length === 2 ? 'both' : `all ${xs.length}`} ${x.direction} cases`
        : xs
            .map(
              (y) => `${y.workload} ${y.size} ${y.shape} ${y.direction}${y.class !== y.direction ? ` ${y.class}` : ''}`,
            )
            .join('; ');
    // a failure on the gate's variant payload says so first (report/reason.ts), where a line cut to the width keeps it
    const reason = caseReason(x).replace(/\s+/g, ' ');
    if (groups.size === 1) {
      const text = `✗ ${x.serializer} · ${x.status} in ${where}, no number (never ranked; reasons in report.md): ${reason}`;
      out.push(red(wrapAtMost(esc(text).slice(0, 4 * width), width, '  ', 2)));
    } else
      out.push(
        `  ${wrapAtMost(esc(`${x.serializer} · ${x.status} in ${where}: ${reason}`).slice(0, 4 * width), width - 2, '    ', 2)}`,
      );
  }
  return [...out, ''];
}

/**
 * The unsupported pairs, for the run's end (issue 22: a validator asked to serialize is no result
 * to show): first the libraries that do one direction only in this run — every case of theirs in
 * the other direction is unsupported (zod writes no JSON; fast-json-stringify parses none) — named
 * once (`serialize only: …; deserialize only: …`); then the count of the other unsupported pairs
 * (a workload a library cannot express) with their serializers. Each line fits `width`. Pure.
 */
export function unsupportedLines(results: Pick<ResultsFile, 'cases'>, width: number): string[] {
  const unsupported = results.cases.filter((x) => x.status === 'unsupported');
  if (!unsupported.length) return [];
  const directions = ['serialize', 'deserialize'] as const;
  const oneWay = new Map<string, (typeof directions)[number]>();
  for (const name of new Set(results.cases.map((x) => x.serializer)))
    for (const d of directions) {
      const own = results.cases.filter((x) => x.serializer === name);
      const missing = own.filter((x) => x.direction !== d);
      // it does `d`: some case of it in `d` is not unsupported (nu6: class-transformer, unsupported both
      // ways on a union payload, was said "deserialize only" while `list` says "ser only")
      const does = own.some((x) => x.direction === d && x.status !== 'unsupported');
      if (missing.length && missing.every((x) => x.status === 'unsupported') && does) oneWay.set(name, d);
    }
  const out: string[] = [];
  const only = directions
    .map((d) => [d, [...oneWay].filter(([, x]) => x === d).map(([n]) => escapeCell(n, 'terminal'))] as const)
    .filter(([, names]) => names.length)
    .map(([d, names]) => `${d} only: ${joinNames(names)}`);
  // how many pairs that is, so that the progress's "N unsupported, not run" adds up with the count below (nu6)
  const oneWayPairs = unsupported.filter(
    (x) => oneWay.get(x.serializer) === (x.direction === 'serialize' ? 'deserialize' : 'serialize'),
  ).length;
  if (only.length)
    out.push(
      wrap(`– Not in the tables, one direction only (${countOf(oneWayPairs, 'pair')}): ${only.join('; ')}.`, width),
    );
  const rest = unsupported.filter(
    (x) => oneWay.get(x.serializer) !== (x.direction === 'serialize' ? 'deserialize' : 'serialize'),
  );
  if (rest.length) {
    const per = new Map<string, number>();
    for (const x of rest) per.set(x.serializer, (per.get(x.serializer) ?? 0) + 1);
    out.push(
      namesLine(
        `– ${countOf(rest.length, 'other pair')} unsupported (reasons in report.md): `,
        [...per].map(([name, n]) => (n > 1 ? `${escapeCell(name, 'terminal')} (${n})` : escapeCell(name, 'terminal'))),
        width,
      ),
    );
  }
  return out;
}

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
  out.push(...noNumberLines(results, width, c.red));
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
  out.push(...unsupportedLines(results, width).map((l) => c.dim(l)));
  const extras = [
    renderInstructions(results),
    renderColdStart(results),
    results.targets.length > 1 ? acrossTargets(results, width, Boolean(options.verbose)) : '',
  ].filter(Boolean);
  if (extras.length && out.length && out[out.length - 1] !== '') out.push('');
  for (const e of extras) out.push(e, '');
  if (options.verbose) out.push(...legendSentences(results).map((l) => c.dim(wrap(esc(l), width))), '');
  const notes: string[] = [];
  if (options.dropped?.length) notes.push(droppedSentence(options.dropped, width));
  else if (!options.verbose)
    notes.push('--verbose shows more columns, every finding and the legend; report.md has them all');
  const caveat = runCaveat(results);
  if (caveat) notes.push(caveat);
  for (const n of notes) out.push(c.dim(wrap(esc(n), width)));
  return out.join('\n').trimEnd();
}
