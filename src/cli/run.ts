import { unconvertedLine } from '../results/payload-schema.js';
import { PROFILE_DESCRIPTIONS } from '../case/profile.js';
import { profileOf } from '../results/profile.js';
import { isAbsolute, relative } from 'node:path';
import { findingsForTargets, payloadOption, resolveRunRequest, type RunOptions } from '../run/request.js';
import { toJsonSchema } from '../workloads/json-schema.js';
import { checkChoices, checkNotEmpty, splitList, UsageError } from '../config/usage-error.js';
import { clip, visibleControls, visibleName } from '../report/table/escape.js';
import type { CaseResult, ResultsFile } from '../results/types.js';
import { runSession, type SessionEvent } from '../run/session.js';
import { outputWidth, renderRunEnd, renderTerminal, wrap } from '../report/terminal.js';
import { wrapLines } from '../report/fit.js';
import { jsonStdout } from './streams.js';
import { sameDestination, sayOnStderr } from './output.js';
import { countOf } from '../report/units.js';
import {
  shortOfPrecisionCases,
  shortOfPrecisionHeading,
  shortOfPrecisionText,
  unresolvedCases,
  unresolvedHeading,
  unresolvedPlain,
} from '../report/resolution.js';
import { progressView, type ProgressView } from './progress.js';
import type { RunRequest } from '../run/request.js';
import { parseMaxTime, withAdaptive, policies } from '../config/policies.js';
import { armHost } from '../config/user-config.js';
import { HostPatched } from '../config/host-guard.js';
import { checkInputPaths, conformanceSkippedLines } from './input-files.js';
import { caseTimeoutFlag, resolveFlag } from './flag-values.js';

/**
 * What stderr says about the paired cases adaptive launches left unresolved (their ratio's
 * interval reached both sides of an edge of the ±resolve band when a budget or the launch cap
 * stopped them), in plain words: a heading ("too close to call at this precision"), then one line
 * per case with its interval and what stopped it (at most `max`; report.md and results.json hold
 * every case's exact figures). Empty when every case was resolved or the run had no band. Pure.
 */
export function unresolvedLines(results: Pick<ResultsFile, 'cases'>, max = 10): string[] {
  const lines: string[] = [];
  const open = unresolvedCases(results.cases);
  if (open.length) {
    lines.push(
      `jsonbench: ${unresolvedHeading(open, open[0].resolution.resolve, policies.long.maxLaunches)}`,
      ...open.slice(0, max).map((o) => `  ~ ${o.id}: ${unresolvedPlain(o.resolution)}`),
    );
    if (open.length > max) lines.push(`  … and ${open.length - max} more`);
  }
  // a band of 1% or finer (--policy long): the cases whose SE stayed over it
  const short = shortOfPrecisionCases(results.cases);
  if (short.length) {
    lines.push(
      `jsonbench: ${shortOfPrecisionHeading(short.length, short[0].resolution.resolve)}`,
      ...short.slice(0, max).map((o) => `  ~ ${o.id}: ${shortOfPrecisionText(o.resolution)}`),
    );
    if (short.length > max) lines.push(`  … and ${short.length - max} more`);
  }
  return lines;
}

/** Options of `jsonbench run`, as commander parses them (lists repeated or comma-separated). */
export interface RunCliOptions extends Omit<RunOptions, 'cwd'> {
  json?: boolean;
  printSchema?: boolean;
  /** `--fail-on`: case statuses that make the run exit 1 (CI gating); default none */
  failOn?: string[];
  /** `--resolve`: the smallest ratio difference that matters (`2%`, `off`); default the policy's */
  resolve?: string;
  /** `--max-time`: budgets of the adaptive launches (`20s`, `case=20s`, `run=4m`) */
  maxTime?: string[];
  /** `--case-timeout`: a launch's timeout per case it carries (`300s`, `5m`) instead of the policy's */
  caseTimeout?: string;
  /** `--verbose`: more table columns, every finding and note in full, the legend */
  verbose?: boolean;
}

/** The statuses of a case that gave no number; `--fail-on` chooses among them (spelled as `compare --fail-on`: a comma-separated or repeated list). */
// frozen when this module loads, before any config (hx8: a config emptied it from supports() and `--fail-on incorrect` exited 0)
export const NO_NUMBER_STATUSES = Object.freeze(['incorrect', 'failed', 'timeout', 'crashed'] as const);

/**
 * The exit code of a finished run and what stderr says about it. A run that measured and wrote
 * its results exits 0, whatever its cases found: an `incorrect` case is a finding about that
 * library (ajv-jtd writing lone surrogates raw), not a failure of the run; each case without a
 * number is listed (id, status, reason). It exits 1 when nothing at all was measured, or when a
 * case ended with a status named in `failOn` (`--fail-on incorrect,failed`, for CI gates). When the
 * user named serializers (`--serializer`, given as `asked`) and none of them gave a number, that is
 * nothing measured too (exit 1): the baseline added beside them is measured for their ratios, not
 * for its own sake. Errors of the lab itself never get here (main: 1 for an internal error, 2 for a
 * usage or config error). A shard (`run --shard`) with no case, or only unsupported ones, exits 0:
 * nothing failed, and a CI matrix job must not. Pure.
 */
export function runExit(
  results: Pick<ResultsFile, 'cases' | 'shard'>,
  failOn: readonly string[],
  asked?: readonly string[],
  options: { listBroken?: boolean } = {},
): { code: 0 | 1; lines: string[] } {
  const broken = results.cases.filter((c) => (NO_NUMBER_STATUSES as readonly string[]).includes(c.status));
  const lines: string[] = [];
  if (broken.length && options.listBroken !== false) {
    lines.push(
      `jsonbench: ${broken.length} case${broken.length === 1 ? '' : 's'} gave no numbers (never ranked; the reasons are in report.md):`,
    );
    for (const c of broken) lines.push(`  ✗ ${c.id} ${c.status}: ${clip((c.reason ?? '').replace(/\s+/g, ' '), 160)}`);
  }
  // a shard (run --shard) may hold no case, or only unsupported ones: nothing failed, and its CI job must not
  if (results.shard && broken.length === 0 && !results.cases.some((c) => c.status === 'measured')) {
    lines.push(
      `jsonbench: shard ${results.shard.index}/${results.shard.count} holds ${results.cases.length ? `only unsupported cases (${results.cases.length})` : 'no case of this plan'}: nothing to measure, nothing failed`,
    );
    return { code: 0, lines };
  }
  if (!results.cases.some((c) => c.status === 'measured')) {
    lines.push(
      `jsonbench: nothing was measured (${results.cases.length} case${results.cases.length === 1 ? '' : 's'}, none with a number): exit 1`,
    );
    return { code: 1, lines };
  }
  if (asked?.length && !results.cases.some((c) => c.status === 'measured' && asked.includes(c.serializer))) {
    const others = [...new Set(results.cases.filter((c) => c.status === 'measured').map((c) => c.serializer))];
    lines.push(
      `jsonbench: none of the serializers asked for (--serializer ${asked.join(',')}) gave a number; only ${others.join(', ')}, added as the baseline${others.length === 1 ? '' : 's'}, ${others.length === 1 ? 'was' : 'were'} measured: exit 1`,
    );
    return { code: 1, lines };
  }
  const gating = broken.filter((c) => failOn.includes(c.status));
  if (gating.length) {
    lines.push(
      `jsonbench: failing (--fail-on ${failOn.join(',')}): ${gating.length} case${gating.length === 1 ? '' : 's'} ${[...new Set(gating.map((c) => c.status))].join(' or ')}`,
    );
    return { code: 1, lines };
  }
  if (broken.length)
    lines.push(
      `jsonbench: the run measured and wrote its results: exit 0 (--fail-on ${[...new Set(broken.map((c) => c.status))].join(',')} would make these cases fail it)`,
    );
  return { code: 0, lines };
}

/**
 * `jsonbench run`: resolves the options, runs the session, prints the tables (or the results JSON
 * with `--json`). Returns the exit code of {@link runExit}: 0 when it measured and wrote its
 * results, 1 when nothing was measured or a case ended with a `--fail-on` status.
 * @throws UsageError, ConfigError, WorkloadError (exit 2 in main)
 */
export async function runCommand(opts: RunCliOptions): Promise<number> {
  // a FIFO as --config or --schema blocked opening it, with no output (hx8): refused before anything opens it
  checkInputPaths(opts);
  // JSON on stdout and nothing else: what user code prints while the command runs goes to stderr (cli/streams.ts)
  const json = opts.json || opts.printSchema ? jsonStdout() : null;
  try {
    return opts.printSchema ? await printSchema(opts, json!.write) : await runAndReport(opts, json?.write);
  } finally {
    json?.release();
  }
}

/** {@link runCommand} past `--print-schema`; `writeJson` (with `--json`) writes the results JSON on stdout. */
async function runAndReport(opts: RunCliOptions, writeJson?: (text: string) => void): Promise<number> {
  const failOn = splitList(opts.failOn);
  checkNotEmpty('--fail-on', opts.failOn, failOn, NO_NUMBER_STATUSES);
  checkChoices('--fail-on', failOn, NO_NUMBER_STATUSES);
  const adaptive = {
    ...(opts.resolve !== undefined ? { resolve: resolveFlag(opts.resolve) } : {}),
    ...parseMaxTime(splitList(opts.maxTime)),
  };
  // at least what the policy's warmup needs (hx8: 1ms timed every case out, blaming "a kill from outside")
  const caseTimeoutMs = opts.caseTimeout !== undefined ? caseTimeoutFlag(opts.caseTimeout, opts.policy) : undefined;
  // every line names data (a payload file name, a serializer id): its control characters are shown, never sent to the terminal
  // before the progress view exists straight to stderr; after, above its bar (never over it)
  let progress: ReturnType<typeof progressView> | null = null;
  const say = (line: string) => {
    if (opts.json) return;
    if (progress) progress.note(line.replace(/\n$/, ''));
    // wrapped at stderr's width; a path is never cut (a word longer than the line keeps a line of its own)
    else sayOnStderr(line);
  };
  // jsonbench's own process only: a programmatic run() leaves its caller's process as it was (config/user-config.ts)
  armHost();
  const { request, release } = await resolveRunRequest(opts, say);
  request.policy = withAdaptive(request.policy, adaptive);
  if (caseTimeoutMs !== undefined) request.policy = { ...request.policy, caseTimeoutMs };
  if (request.payload) for (const line of payloadFacts(request.payload)) say(line);
  const errTty = Boolean(process.stderr.isTTY);
  // tables go to stdout (or above the bar when stdout is the same terminal), fitted to its width: the terminal's, COLUMNS, or 100
  const width = outputWidth(process.stdout);
  const color = !process.env.NO_COLOR && Boolean(process.stdout.isTTY);
  const verbose = Boolean(opts.verbose);
  // each table fits its own cells (issue 22: a layout chosen once from typical widths left Mean out where it fit); the columns left out are said once at the end
  const dropped = new Set<string>();
  const view = progressView({ isTty: errTty && !opts.json, width: outputWidth(process.stderr) });
  progress = view;
  const tables = tablePrinter((group) =>
    opts.json
      ? null
      : renderTerminal(group, color, {
          width,
          tablesOnly: true,
          verbose,
          onDropped: (headers) => headers.forEach((h) => dropped.add(h)),
          // a run on several targets prints each group as it ends: its title names the group's target
          ...(request.targets.length > 1
            ? { titleTarget: [...new Set(group.cases.map((c) => c.target.id))].join(', ') }
            : {}),
        }),
  );
  // Ctrl-C, or SIGTERM / SIGHUP (kill, a CI job cancelled, a closed terminal: they ended the run
  // with no word, issue 25): restore the terminal (the bar hides the cursor) and say where the
  // measured data is; exit 128 + the signal's number, as a shell reports a death by it.
  let interrupted = '';
  // the results path was said on stderr while running (before the probe pass: the line a killed pass leaves)
  let resultsSaid = false;
  const stops = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;
  const onStop = (signal: keyof typeof stops) => {
    view.stop();
    // hx9: a serializer's code can signal jsonbench (its worker knows the parent's pid), which read as an outside stop
    const how =
      signal === 'SIGINT'
        ? 'interrupted'
        : `stopped by ${signal} (sent from outside jsonbench, or by the code of a serializer being measured)`;
    process.stderr.write('\n');
    sayOnStderr(`jsonbench: ${how}. ${interrupted || 'Nothing was measured yet.'}`);
    process.exit(128 + stops[signal]);
  };
  for (const signal of Object.keys(stops) as (keyof typeof stops)[]) process.once(signal, onStop);
  try {
    const run = await runSession(request, (e) => {
      if (e.type === 'note') {
        say(e.message);
        // results.json is written and named (before the probe pass): a stop from now on keeps it, and says so without the path again
        if (e.resultsPath) {
          resultsSaid = true;
          interrupted = 'results.json and the reports named above are written; they lack the probe matrix.';
        }
      } else if (e.type === 'warning') {
        if (!opts.json) view.note(`jsonbench: warning: ${e.message}`);
        else sayOnStderr(`jsonbench: warning: ${e.message}`);
      } else if (e.type === 'started')
        interrupted = `What was measured is kept (finished cases: ${e.partialPath}; every finished launch: ${e.launchLogPath}). Rebuild the report with: jsonbench report ${e.outDir}`;
      else {
        tables.onEvent(e, view);
        view.onEvent(e);
      }
    });
    tables.flush(view);
    view.stop();
    progress = null;
    const { results, reports } = run;
    if (opts.json) {
      if (reports.written.html) sayOnStderr(`report: ${reports.written.html}`);
      writeJson!(JSON.stringify(results, null, 2) + '\n');
    } else {
      // the groups' tables were printed as each finished: only what is new now (report/terminal.ts renderRunEnd), then the paths
      const end = renderRunEnd(results, color, { width, verbose, dropped: [...dropped] });
      if (end) process.stdout.write(`${tables.printed() ? '\n' : ''}${end}\n`);
      // what was too close to call is read before the paths, the last thing printed (new-user tryout)
      for (const line of unresolvedLines(results)) sayOnStderr(line);
      for (const line of conformanceSkippedLines(results)) sayOnStderr(line);
      // the path once: left out here when stderr said it and stdout is the same place (a terminal, 2>&1)
      const paths = pathLines(run, width, resultsSaid && sameDestination());
      // a path is never cut (it is to be copied): a long one takes its own line
      process.stdout.write(`${wrapLines(visibleControls(paths.join('\n')), width, '  ', { keepLongWords: true })}\n`);
    }
    const exit = runExit(
      results,
      failOn,
      splitList(opts.serializer).length ? request.serializers.map((s) => s.id) : undefined,
      { listBroken: Boolean(opts.json) },
    );
    for (const line of [...(opts.json ? unresolvedLines(results) : []), ...exit.lines]) sayOnStderr(line);
    return exit.code;
  } catch (e) {
    // the groups' tables went to stdout as each finished; a change user code made to jsonbench's process found at the
    // end withdraws them (hx26: Math.log patched by a config, the means printed were wrong and stdout never said so)
    if (e instanceof HostPatched && !opts.json && tables.printed()) {
      tables.flush(view);
      view.stop();
      process.stdout.write(
        `\n${wrap("The tables above are withdrawn: user code changed jsonbench's own process during the run, so their numbers cannot be trusted (stderr says what changed; nothing was written).", width)}\n`,
      );
    }
    throw e;
  } finally {
    view.stop();
    progress = null;
    for (const signal of Object.keys(stops)) process.off(signal, onStop);
    release();
  }
}

/**
 * The lines a run ends with on stdout: the profile in words (an opt-in one), the run's facts
 * (cases, seconds, policy, profile, load at the start), then where its results, reports and ledger
 * row are; `resultsSaid`: without the results path, which stderr already said where this output goes
 * too. Pure.
 */
function pathLines(run: Awaited<ReturnType<typeof runSession>>, width: number, resultsSaid = false): string[] {
  const { results, reports } = run;
  const load = results.environment.loadAverage.start[0];
  const profile = profileOf(results.policy);
  const facts = `${countOf(results.cases.length, 'case')} in ${(run.elapsedMs / 1000).toFixed(1)} s · policy ${results.policy.name} · profile ${profile} · load ${load !== undefined ? load.toFixed(2) : '?'} on ${results.environment.cores} cores at the start`;
  // an opt-in profile changes the runtime: said in words, once, beside the run's facts (the default's name is in them)
  const profileNote =
    profile === 'default'
      ? []
      : [
          wrap(
            `Profile ${profile}: ${(PROFILE_DESCRIPTIONS as Record<string, string | undefined>)[profile] ?? 'a profile this jsonbench does not know'}`,
            width,
          ),
        ];
  return [
    ...profileNote,
    facts,
    // a path with a line break (hx15 OUT-newline: an --out that printed a line of its own) shows it as ␊
    ...(resultsSaid ? [] : [`results: ${visibleName(run.resultsPath)}`]),
    `report: ${visibleName(reports.written.html ?? reports.written.md ?? 'not written')}`,
    ...(reports.written.md && reports.written.html ? [`Markdown: ${visibleName(reports.written.md)}`] : []),
    ...(run.ledger ? [`ledger: ${visibleName(run.ledger.path)} (run ${run.ledger.runId})`] : []),
  ];
}

/**
 * Prints each table once its groups are done: the groups of one table (workload × size × shape ×
 * direction; a class each) are held until the run launches another table's case, or the last
 * group ends, then `render` makes one table with a section per class of them (null: print
 * nothing). With `--jobs` above 1 groups interleave, and a table may come in parts.
 */
function tablePrinter(render: (results: ResultsFile) => string | null) {
  let pending: { prefix: string; results: ResultsFile; cases: CaseResult[] } | null = null;
  // tables printed so far: a blank line goes between two (an open table has no rules to part them)
  let printed = 0;
  const flush = (view: ProgressView) => {
    const p = pending;
    pending = null;
    if (!p || p.cases.every((c) => c.status === 'unsupported')) return;
    const text = render({ ...p.results, cases: p.cases })?.trimEnd();
    if (text) view.table(`${printed++ ? '\n' : ''}${text}\n`);
  };
  const onEvent = (e: SessionEvent, view: ProgressView) => {
    if (e.type === 'launch' && pending && !e.caseId.startsWith(pending.prefix)) flush(view);
    if (e.type !== 'group-done' || !e.cases.length) return;
    const c = e.cases[0];
    const prefix = `${c.workload}/${c.size}/${c.shape}/${c.direction}/`;
    if (pending && pending.prefix !== prefix) flush(view);
    pending = pending
      ? { ...pending, cases: [...pending.cases, ...e.cases] }
      : { prefix, results: e.results, cases: [...e.cases] };
    if (e.done === e.groups) flush(view);
  };
  return { onEvent, flush, printed: () => printed };
}

/**
 * `jsonbench run --payload FILE --print-schema`: the payload's schema (inferred, or `--schema`'s
 * as jsonbench reads it) as JSON Schema 2020-12 on stdout, 2-space indented, then what inference
 * found and what did not convert on stderr; nothing is measured. Edit it and pass it back with
 * `--schema`. @throws UsageError without `--payload`
 */
async function printSchema(opts: RunCliOptions, writeJson: (text: string) => void): Promise<number> {
  const payload = await payloadOption({ ...opts, size: undefined }, undefined, (line) =>
    process.stderr.write(`jsonbench: ${visibleControls(line)}\n`),
  );
  if (!payload) throw new UsageError('--print-schema', 'prints the schema of a payload: give --payload FILE too');
  writeJson(`${JSON.stringify(toJsonSchema(payload.schema, { dialect: true }), null, 2)}\n`);
  for (const w of payload.source.warnings ?? []) sayOnStderr(`jsonbench: warning: ${w}`);
  for (const f of findingsForTargets(payload, opts.target)) sayOnStderr(`jsonbench: found: ${f.text}`);
  const unconverted = unconvertedLine(payload.origin.unconverted);
  if (unconverted) sayOnStderr(`jsonbench: ${unconverted}`);
  return 0;
}

/**
 * What a run on `--payload` says on stderr before measuring: where the schema came from, what of
 * the user's schema did not convert (each construct with its path), and what inference found
 * (integers beyond 2^53, always-null fields…), so a surprise is seen before the tables.
 */
export function payloadFacts(p: NonNullable<RunRequest['payload']>, cwd = process.cwd()): string[] {
  // the path as the user would type it: relative to the working directory when inside it
  const shown = (path: string) => {
    const r = relative(cwd, path);
    // one visible line: a name carrying a line break put `::error …` workflow commands at the start of a line (hx5 I-ghcmd)
    return visibleName(r && !r.startsWith('..') && !isAbsolute(r) ? r : path);
  };
  const units =
    p.source.kind === 'ndjson'
      ? countOf(p.source.units.length, 'record')
      : p.source.units.length > 1
        ? `${p.source.units.length} samples`
        : 'one document';
  const schema =
    p.origin.library === 'inferred'
      ? 'schema inferred from it (review it with --print-schema)'
      : `schema from ${shown(p.origin.file ?? '')} (${p.origin.library})`;
  return [
    `jsonbench: payload ${shown(p.source.path)}: ${units}; ${schema}`,
    ...(p.source.warnings ?? []).map((w) => `jsonbench: warning: ${visibleName(w)}`),
    ...[unconvertedLine(p.origin.unconverted)].flatMap((u) => (u ? [`jsonbench: ${visibleName(u)}`] : [])),
    ...p.findings.map((f) => `jsonbench: found: ${visibleName(f.text)}`),
  ];
}
