import { profileOf } from '../results/profile.js';
import { CASE_STATUSES, type ResultsFile } from '../results/types.js';
import { asRuns, buildModel, type ReportCase } from './model.js';
import {
  buildTables,
  findingSentences,
  notesLines,
  notesOf,
  platformLabel,
  runColumns,
  unreadSentences,
} from './rows.js';
import { legendSentences } from './legend.js';
import { renderTargetTables, sideBySideHeading } from './target-columns.js';
import { renderTable } from './table/write.js';
import { escapeCell, markdownCode } from './table/escape.js';
import type { Column } from './table/column.js';
import { countOf, formatBytes } from './units.js';
import { noiseReasons } from './noise.js';
import { toViewData } from './html/view.js';
import { defaultState, indexCases } from './html/rebase.js';
import { sectionTakeaway } from './html/sections.js';
import { renderRecommendations } from './recommend.js';
import { renderProbesMarkdown } from './probes-text.js';
import { behaviourNotes, behaviourSentences } from './probes.js';
import { renderColdStart } from './cold-start.js';
import { shortOfPrecisionCases, shortOfPrecisionText, unresolvedCases, unresolvedExact } from './resolution.js';
import { quickCaveat } from './takeaway.js';
import { buildFailures } from './build-failures.js';
import { caseReason } from './reason.js';

/** The longest takeaway report.md prints whole (characters): a takeaway naming every serializer of a class runs to 600 and more; 500 cut one mid-word (a new user's "class-transformer are m…"). */
const TAKEAWAY_MAX_CHARS = 4000;

/** The most characters a cell of report.md's tables shows (the Notes cell's longer text is cut with …; an unsupported reason cut there is said in full below the table). */
const NOTES_MAX_CHARS = 160;

/** Escapes text for a Markdown list item or sentence (the table escaper: no pipes, no HTML, one line). */
function escapeText(s: string, maxChars?: number): string {
  return escapeCell(s, 'markdown', maxChars);
}

/** At most `max` characters, with an ellipsis when cut (Markdown stays short enough for a PR comment). */
function clip(s: string, max = 300): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function provenanceLine(r: ResultsFile): string {
  const e = r.environment;
  // the cases ran on the targets; the host's Node is named as the host when they ran elsewhere (a .NET or Mono run, node@22, bun…)
  const elsewhere = r.targets.filter((t) => t.kind !== 'node-host' && !t.fault);
  const runtimes = elsewhere.length
    ? `targets ${elsewhere.map((t) => `${t.id}: ${t.runtime} ${t.version} (${t.engine} ${t.engineVersion})`).join(', ')} · host ${e.runtime} (V8 ${e.v8})`
    : `${e.runtime} (V8 ${e.v8})`;
  // the Node variables the workers ran with (NODE_OPTIONS' --require: an APM agent, or code that slows a library): their numbers include it
  const vars = Object.entries(e.variables ?? {});
  const env = vars.length ? ` · workers ran with ${vars.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}` : '';
  return `${r.startedAt} · ${e.cpuModel} × ${e.cores} · ${e.os} · ${runtimes}${env} · load ${e.loadAverage.start.map((x) => x.toFixed(2)).join('/')} · jsonbench ${e.jsonbenchVersion} · policy ${r.policy.name} (${r.policy.launches} launch${r.policy.launches > 1 ? 'es' : ''}, seed ${r.policy.seed}) · profile ${profileOf(r.policy)}${r.unchecked ? ` · integrity: unchecked (${r.unchecked})` : ''}`;
}

/**
 * Renders the results as GitHub-flavoured Markdown for a CI job summary or a pull-request comment:
 * provenance (one line per results file) and any noise warning, a status summary, then per
 * workload × size × shape × direction the takeaway of each class, a table with a Class column
 * (and a Target column when the results span several targets), the cases without numbers with
 * their reason (for `incorrect`: path, expected, actual), and the code being measured in a
 * collapsed block; a run on several targets ends with its side-by-side tables. Accepts one results
 * file or several (merged). Pure: returns the text (what `jsonbench run` writes as report.md).
 */
export function renderMarkdown(input: ResultsFile | readonly ResultsFile[]): string {
  const model = buildModel(asRuns(input));
  const several = model.runs.length > 1;
  const multiTarget = model.targets.length > 1;
  const first = model.runs[0];
  const out: string[] = ['# jsonbench results', ''];
  for (const [i, r] of model.runs.entries())
    out.push(`${several ? `**#${i + 1}** ` : ''}${escapeText(provenanceLine(r), Infinity)}`, '');
  for (const [i, r] of model.runs.entries()) {
    const noise = noiseReasons(r);
    if (noise.length)
      out.push(
        `> ⚠ Busy machine${several ? ` (#${i + 1})` : ''}: ${noise.join('; ')}. Differences inside the error bars are not evidence of a difference.`,
        '',
      );
  }
  // a quick run's caveat, once per report (never per takeaway or recommendation)
  if (model.runs.some((r) => r.policy.name === 'quick')) out.push(`> ${quickCaveat()}`, '');
  // a run on the user's payload opens with its recommendation (report/recommend.ts)
  for (const [i, r] of model.runs.entries()) {
    const rec = renderRecommendations(r, 'markdown');
    if (rec) out.push(several ? rec.replace('## Recommendation', `## Recommendation (#${i + 1})`) : rec);
  }
  const probeSections = model.runs.map((r) => renderProbesMarkdown(r)).filter(Boolean);
  if (model.cases.length === 0 && probeSections.length) return [...out, ...probeSections].join('\n');
  out.push(...legendSentences(first), '');
  const counts = new Map<string, number>();
  for (const c of model.cases) counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
  const order: readonly string[] = CASE_STATUSES;
  out.push(
    `**${countOf(model.cases.length, 'case')}:** ${[...counts]
      .sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
      .map(([s, n]) => `${n} ${s}`)
      .join(', ')}`,
    '',
  );
  for (const sentence of unreadSentences(model.runs)) out.push(`> ⚠ ${escapeText(sentence, 600)}`, '');
  const data = toViewData(model);
  const index = indexCases(data);
  const run = runColumns({ maxChars: NOTES_MAX_CHARS, cases: model.cases, saves: true });
  const columns: Column<ReportCase>[] = [
    { id: 'class', header: 'Class', cell: (c) => c.class },
    run[0],
    ...(multiTarget ? [{ id: 'target', header: 'Target', cell: (c: ReportCase) => c.targetKey }] : []),
    ...run.slice(1),
  ];
  for (const [gi, table] of buildTables(model.cases).entries())
    out.push(...tableSection(table, data.groups[gi], { model, data, index, columns }), '');
  for (const [i, r] of model.runs.entries()) {
    const cold = renderColdStart(r, true);
    if (cold) out.push(several ? cold.replace('### ', `### (#${i + 1}) `) : cold);
  }
  out.push(...probeSections);
  const failed = model.runs.flatMap((r) => buildFailures(r));
  if (failed.length)
    out.push(
      '## Builds that failed',
      '',
      ...failed.map(
        (f) =>
          `- ${f.row ? `**${escapeText(f.row)}** on ` : ''}${escapeText(f.target)}: ${escapeText(f.reason)}. Log: ${markdownCode(f.log)}${f.firstError ? `; first error: ${markdownCode(clip(f.firstError, 400))}` : ''}`,
      ),
      '',
    );
  const text = out.join('\n');
  // a run on several targets ends with its side-by-side tables (one section per results file that has them)
  const sideBySide = model.runs
    .map((r, i) =>
      r.targets.length > 1 ? `\n## ${sideBySideHeading(i, several)}\n\n${renderTargetTables(r, 'markdown')}` : '',
    )
    .join('');
  return text + sideBySide;
}

/** What {@link tableSection} renders a table with: the model, the view data of its takeaways (indexed) and the table's columns. */
interface SectionContext {
  model: ReturnType<typeof buildModel>;
  data: ReturnType<typeof toViewData>;
  index: ReturnType<typeof indexCases>;
  columns: Column<ReportCase>[];
}

/**
 * One workload × size × shape × direction of report.md: its heading, the takeaway of each class,
 * the behaviour sentences of the failed probes relevant to it, the table, its payload, then
 * {@link belowTable}. Pure: returns the lines.
 */
function tableSection(
  table: ReturnType<typeof buildTables>[number],
  group: ReturnType<typeof toViewData>['groups'][number],
  { model, data, index, columns }: SectionContext,
): string[] {
  const multiTarget = model.targets.length > 1;
  const out: string[] = [];
  out.push(`## ${escapeText(table.title)}`, '');
  for (const [si, s] of table.sections.entries()) {
    const sentences = sectionTakeaway(data, index, group, group.sections[si], defaultState());
    for (const t of sentences)
      out.push(
        `**${s.caseClass}${platformLabel(s.platform) ? ` · ${platformLabel(s.platform)}` : ''}** (against ${escapeText(s.baseline ?? 'none')}): ${escapeText(t, TAKEAWAY_MAX_CHARS)}`,
        '',
      );
  }
  // What the fast choice costs in behaviour: the failed probes relevant to this payload (a timed run's probe pass).
  const first = table.sections[0]?.cases[0] as ReportCase | undefined;
  if (first) {
    const run = model.runs[first.source];
    const inTable = table.sections.flatMap((s) => s.cases.map((c) => c.serializer));
    for (const sentence of behaviourSentences(
      behaviourNotes(run, first.workload, first.direction, first.target.id, inTable),
    ))
      out.push(`Behaviour: ${escapeText(sentence, 600)}`, '');
  }
  const rows = table.sections.flatMap(
    (s) =>
      (multiTarget
        ? [...s.cases].sort(
            (a, b) =>
              s.cases.findIndex((x) => x.serializer === a.serializer) -
              s.cases.findIndex((x) => x.serializer === b.serializer),
          )
        : s.cases) as ReportCase[],
  );
  out.push(renderTable({ columns, rows }, 'markdown'));
  const all = table.sections.flatMap((s) => s.cases) as ReportCase[];
  const payloads = [...new Map(all.map((c) => [c.payload.sha256, c.payload])).values()];
  out.push(
    '',
    `Payload: ${payloads.map((p) => `${formatBytes(p.bytes)}, sha256 \`${p.sha256.slice(0, 16)}…\``).join(' / ')}`,
  );
  out.push(...belowTable(all, multiTarget));
  return out;
}

/**
 * What report.md says under a table: the findings that need a sentence, the cases too close to
 * call, the cases without a number (with the mismatch of an `incorrect` one), the translation
 * notes, and the code being measured in a collapsed block. Pure: returns the lines.
 */
function belowTable(all: readonly ReportCase[], multiTarget: boolean): string[] {
  const out: string[] = [];
  const sentences = findingSentences(all);
  if (sentences.length) {
    out.push('', 'Findings:', '');
    for (const { c, message } of sentences)
      out.push(
        `- **${escapeText(c.serializer)}**${multiTarget ? ` (${escapeText(c.targetKey)})` : ''}: ${escapeText(message)}.`,
      );
  }
  const open = unresolvedCases(all);
  if (open.length) {
    out.push(
      '',
      "Unsettled (the launches stopped before the ratio's interval cleared the band or fell inside it):",
      '',
    );
    for (const o of open) {
      const c = all.find((x) => x.id === o.id)!;
      out.push(
        `- **${escapeText(o.serializer)}**${multiTarget ? ` (${escapeText(c.targetKey)})` : ''} (${c.class}): ${unresolvedExact(o.resolution)}`,
      );
    }
  }
  const short = shortOfPrecisionCases(all);
  if (short.length) {
    const band = `±${Number((short[0].resolution.resolve * 100).toPrecision(3))}%`;
    out.push(
      '',
      `Short of the ${band} precision (the standard error of the ratio's log was still over ${band} when the launches stopped; the call stands on the interval, a rerun may move the ratio by more):`,
      '',
    );
    for (const o of short) {
      const c = all.find((x) => x.id === o.id)!;
      out.push(
        `- **${escapeText(o.serializer)}**${multiTarget ? ` (${escapeText(c.targetKey)})` : ''} (${c.class}): ${shortOfPrecisionText(o.resolution, true)}`,
      );
    }
  }
  const broken = all.filter((c) => c.status !== 'measured' && c.status !== 'unsupported');
  if (broken.length) {
    out.push('', 'Not ranked:', '');
    for (const c of broken) {
      const mm = c.mismatch
        ? ` at ${markdownCode(c.mismatch.path)}: expected ${markdownCode(clip(c.mismatch.expected, 120))}, got ${markdownCode(clip(c.mismatch.actual, 120))}`
        : '';
      out.push(
        `- **${escapeText(c.serializer)}**${multiTarget ? ` (${escapeText(c.targetKey)})` : ''} ${c.status}${mm}: ${escapeText(clip(caseReason(c)))}`,
      );
    }
  }
  // an unsupported case's reason the table's Notes cell cut (NOTES_MAX_CHARS): said in full here, once per serializer and reason
  const cut = new Map<string, ReportCase>();
  for (const c of all)
    if (c.status === 'unsupported' && notesOf(c).length > NOTES_MAX_CHARS) cut.set(`${c.serializer}\n${c.reason}`, c);
  if (cut.size) {
    out.push('', 'Unsupported, in full:', '');
    for (const c of cut.values()) out.push(`- **${escapeText(c.serializer)}**: ${escapeText(c.reason ?? '')}`);
  }
  const notes = notesLines(all);
  if (notes.length)
    out.push('', 'Looser than the schema (translation notes):', '', ...notes.map((n) => `- ${escapeText(n)}`));
  const code = new Map<string, string>();
  for (const c of all) if (c.code && !code.has(c.serializer)) code.set(c.serializer, c.code);
  if (code.size) {
    out.push(
      '',
      '<details><summary>The code being measured</summary>',
      '',
      renderTable(
        {
          columns: [
            { id: 'serializer', header: 'Serializer', cell: ([name]) => name },
            { id: 'code', header: 'Code', cell: ([, src]) => src, code: true },
          ],
          rows: [...code],
        },
        'markdown',
      ),
      '',
      '</details>',
    );
  }
  return out;
}
