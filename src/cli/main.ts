// first: the environment and machine facts as jsonbench started, before any config's top level runs in this process
// bin/jsonbench.js ends the process with it (files/process-end.ts); imported here, statically, so it loads before any user code
export { endProcess } from '../files/process-end.js';
import { tolerateUndiciWasm } from '../files/process-end.js';
import '../case/startup.js';
import { PROFILE_DESCRIPTIONS, PROFILE_NAMES } from '../case/profile.js';
import { Command, CommanderError, Option } from 'commander';
import { visibleControls } from '../report/table/escape.js';
import { PROBE_FAMILIES } from '../case/probe.js';
import { reportFormatInfo } from '../report/formats.js';
import { addRuntimesCommands } from './runtimes-commands.js';
import { acceptChanged, ACCEPT_CHANGED_HELP, addLedgerCommands, LEDGER_HELP } from './ledger-commands.js';
import { UsageError } from '../config/usage-error.js';
import { ResultsFileError } from '../results/errors.js';
import { toolVersion } from '../results/tool.js';
import { policies } from '../config/policies.js';
import { maskOutput } from './streams.js';

// Start-up (issue 22): this file and what it imports statically are what `--version` and `--help`
// load, so each is light (names, descriptions, constants; no serializer, schema or build
// library). A command's own module is imported by its action, when it runs; the help texts that
// need more (the runtimes' `--target` forms) are loaded by {@link helpData} for the commands that
// show them. test/cli/startup-modules.test.ts lists the modules these load.

const collect = (value: string, prev: string[] = []) => [...prev, value];

/** Help texts that come from modules heavier than this file's static imports. */
interface HelpData {
  /** the `--target` forms (`node (…), node@20|22|24|26, bun, …`), from the runtimes' registry */
  targetForms?: string;
  /** the targets `runtimes install` installs */
  installableTargets?: readonly string[];
  /** the built-in workloads' and serializers' ids, from their registries' keys (no adapter is imported) */
  workloadIds?: readonly string[];
  serializerIds?: readonly string[];
  dotnetSerializerIds?: readonly string[];
}

/**
 * The help data the command `argv` addresses can show: the runtimes' registry (about 40 modules:
 * each runtime's launcher) and the keys of the workloads' and serializers' registries (their index
 * files only: no adapter or workload is imported) only for `run`, `probe` and `runtimes` — the
 * commands whose options or help name them — or their help (`jsonbench help run`). Every other command, the
 * program's `--help` and `--version` get none and never load it. The program takes no option with
 * a value, so the first argument without a dash names the command (as commander reads it).
 */
async function helpData(argv: readonly string[]): Promise<HelpData> {
  const operands = argv.filter((a) => !a.startsWith('-'));
  const command = operands[0] === 'help' ? operands[1] : operands[0];
  if (command !== 'run' && command !== 'probe' && command !== 'runtimes') return {};
  const [{ TARGET_FORMS, INSTALLABLE_TARGETS }, { workloads }, { serializers }, { dotnetSerializers }] =
    await Promise.all([
      import('../runtimes/index.js'),
      import('../workloads/index.js'),
      import('../serializers/index.js'),
      import('../serializers/dotnet/index.js'),
    ]);
  return {
    targetForms: TARGET_FORMS,
    installableTargets: INSTALLABLE_TARGETS,
    workloadIds: workloads.ids,
    serializerIds: serializers.ids,
    dotnetSerializerIds: dotnetSerializers.ids,
  };
}

/** `: <the --target forms>` when `help` has them (the commands that show them always do), else nothing. */
const targetForms = (help: HelpData) => (help.targetForms ? `: ${help.targetForms}` : '');
/** `: a, b, c` when `ids` are known, else nothing. */
const listed = (ids: readonly string[] | undefined) => (ids ? `: ${ids.join(', ')}` : '');

/**
 * Builds the commander program; each command's action stores its exit code in `exit`. `help`
 * completes the help texts of the command addressed ({@link helpData}). Exported for tests that
 * check a documented command line against the commands and options it names.
 */
export function program(exit: { code: number }, help: HelpData = {}): Command {
  const p = new Command('jsonbench')
    .description(
      'A benchmark lab for JSON serializers: time and allocated bytes per op, both directions, checked for correctness.',
    )
    .version(toolVersion())
    .exitOverride()
    .showHelpAfterError();
  addRunCommand(p, exit, help);
  addProbeCommand(p, exit, help);
  addReportCommands(p, exit);
  addLedgerCommands(p, exit);
  addRuntimesCommands(p, exit, help.installableTargets);
  refuseRepeatedValues(p);
  return p;
}

/**
 * Makes every option that takes one value (not a list: those collect each repeat) refuse to be given
 * twice on one command line, in `p` and its subcommands (issue 25, hostile tester hx8: `run --payload
 * a.json --payload b.json` measured b.json alone, exit 0, with no word of a.json; commander keeps
 * the last value of such an option). Refused rather than taken both: each of these options names
 * one thing (a payload, an output folder, a policy), and which of two the user meant cannot be
 * guessed; silently keeping one measures something the user did not ask for. A choice option keeps
 * its check of the choices. Throws a UsageError naming the flag and both values (exit 2).
 */
function refuseRepeatedValues(p: Command): void {
  const given = new Map<string, string>();
  for (const cmd of [p, ...allSubcommands(p)])
    for (const option of cmd.options) {
      const own = option.parseArg as ((value: string, previous: unknown) => unknown) | undefined;
      // a list (collect) has a parser of its own and no choices; a flag without a value has nothing to drop
      if ((own && !option.argChoices) || option.variadic || !(option.required || option.optional)) continue;
      const flag = option.long ?? option.short ?? option.flags;
      const key = `${cmd.name()} ${flag}`;
      option.parseArg = ((value: string, previous: unknown) => {
        const before = given.get(key);
        if (before !== undefined)
          throw new UsageError(
            flag,
            `given twice (${JSON.stringify(before)}, then ${JSON.stringify(value)}): it takes one value, and one of them would be dropped without a word; give it once${flag === '--payload' ? ' (several samples of one endpoint: a folder of .json files; several payloads: one run each)' : ''}`,
          );
        given.set(key, value);
        return own ? own(value, previous) : value;
      }) as Option['parseArg'];
    }
}

/** Every command under `cmd`, at any depth. */
function allSubcommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allSubcommands(c)]);
}

/** `jsonbench run`: its options (the payload's first, {@link withPayloadOptions}) and its action, which imports cli/run.ts when it runs. */
function addRunCommand(p: Command, exit: { code: number }, help: HelpData): void {
  const run = p
    .command('run')
    .description(
      'measure serializers on workloads or on your payload and print tables and a recommendation; writes results.json, report.md and report.html',
    );
  withPayloadOptions(run)
    .option(
      '--workload <ids>',
      `workloads (comma-separated or repeated; default: all)${listed(help.workloadIds)}`,
      collect,
    )
    .option(
      '--serializer <ids>',
      `serializers (comma-separated or repeated; default: all)${listed(help.serializerIds && [...help.serializerIds, ...(help.dotnetSerializerIds ?? [])])}`,
      collect,
    )
    .option(
      '--size <n>',
      "sizes (comma-separated or repeated; default: the policy's); with --payload: records to generate of its shape",
      collect,
    )
    .option('--direction <d>', 'serialize, deserialize (default: both)', collect)
    .addOption(
      new Option(
        '--policy <name>',
        Object.entries(policies)
          .map(([k, v]) => `${k}: ${v.description}`)
          .join('; '),
      ).default('default'),
    )
    .option(
      '--resolve <difference>',
      "the smallest ratio difference that matters (2%, 0.5%; off): paired cases get more launches until their ratio's interval is clear of ±difference around 1 or inside it, or --max-time runs out (default: the policy's; quick off, default 2%, long 1%)",
    )
    .option(
      '--max-time <budget>',
      "time budgets of those extra launches: 20s or case=20s per case, run=4m per run (comma-separated or repeated; default: the policy's, default policy case=20s,run=3m30s). They bound only the launches beyond the policy's first ones, which always run: a run lasts at least its cases' first launches",
      collect,
    )
    .option(
      '--case-timeout <duration>',
      "how long a launch may run per case it carries before its worker is killed and the case is timeout (300s, 5m; default: the policy's, quick 60s, default 2m, long 5m)",
    )
    .option('--out <dir>', 'output folder (default: jsonbench-results/<timestamp>/)')
    .option('--json', 'print the results JSON to stdout instead of tables')
    .option(
      '--verbose',
      'more columns on the terminal (Version, Error, Median, Alloc Ratio), every finding and translation note in full, and the legend',
    )
    .option('--config <file>', 'a jsonbench.config.{ts,mjs,js} adding serializers and workloads')
    .option('--seed <n>', 'seed of the generated payloads', '42')
    .addOption(
      new Option(
        '--serialize-to <what>',
        "what a serialize op produces: bytes (UTF-8, what a server writing the text to a socket pays; default) or string (the serializer's string as returned)",
      ).choices(['bytes', 'string']),
    )
    .addOption(
      new Option(
        '--profile <name>',
        `runtime settings: ${PROFILE_NAMES.map((p) => `${p}: ${PROFILE_DESCRIPTIONS[p]}`).join('; ')}`,
      ).choices([...PROFILE_NAMES]),
    )
    .option(
      '--target <ids>',
      `runtimes to measure on, side by side (comma-separated or repeated)${targetForms(help)}`,
      collect,
    )
    .option('--chromium-path <path>', 'Chromium executable for --target chromium (default /usr/bin/chromium)')
    .option('--ledger <path>', `record this run in ${LEDGER_HELP}`)
    .option('--no-ledger', 'do not record this run in the ledger')
    .option(
      '--jobs <n>',
      'groups measured at once, each pinned to its own core (taskset); a case and its baseline always share one (default: half the cores, 1 on 2 cores)',
    )
    .option(
      '--shard <index/count>',
      'measure one shard of the plan (1/3: the first of three, every third group), for a CI matrix; jsonbench merge joins the shards into one run',
    )
    .option(
      '--metric <list>',
      'time (always measured); instructions: also count instructions/op of each case under valgrind callgrind (deterministic, for CI gates via compare); cold-start: also time prepare() and the first call in fresh processes (on in the long policy)',
      collect,
    )
    .option(
      '--no-probes',
      'skip the probes relevant to the payloads (run untimed after the cases; jsonbench probe runs them all)',
    )
    .option(
      '--probe-budget <duration>',
      "the probe pass's total wall time (15m, 1h, off; default 15m): the probe sides left when it runs out are skipped, saying so",
    )
    .option(
      '--no-probe-cache',
      'judge every relevant probe again instead of reading the verdicts an earlier run of the same jsonbench, serializer version and runtime left in the cache (built-in serializers, no config)',
    )
    .option(
      '--conformance <folder>',
      'add conformance probes from a folder of JSONTestSuite / json.org checker / roundtrip files to the probe pass',
    )
    .option(
      '--fail-on <list>',
      'exit 1 when a case ends with one of these statuses: incorrect, failed, timeout, crashed (comma-separated or repeated; for CI gates). Without it a run that measured and wrote its results exits 0 and lists the cases without numbers; nothing measured exits 1',
      collect,
    )
    .action(async (opts) => {
      const { runCommand } = await import('./run.js');
      exit.code = await runCommand(opts);
    });
}

/** The options of `run` about `--payload` (the payload, its schema, how it is read), in the order `--help` lists them. */
function withPayloadOptions(run: Command): Command {
  return run
    .option(
      '--payload <path>',
      'your payload instead of the built-in workloads: a JSON document, an NDJSON file (one record per line) or a folder of samples of one endpoint; deserialize cases parse its exact bytes',
    )
    .option(
      '--schema <file>',
      "the payload's schema instead of the inferred one: JSON Schema (.json, as --print-schema writes it) or a module exporting a zod, valibot or TypeBox schema",
    )
    .option(
      '--enums',
      'with --payload: type a string field seen with few distinct values (10+ values, fewer distinct than their square root) as an enum of them; default: a string',
    )
    .option(
      '--max-payload <size>',
      'the largest payload file read (200MiB, 1GB; default 500MiB, at most 512MiB): a larger one, a device or a pipe is refused',
    )
    .option(
      '--print-schema',
      "print the payload's schema (inferred, or --schema's) as JSON Schema to stdout and exit, to review, edit and pass back with --schema",
    )
    .option(
      '--shape <s>',
      'only these shapes: single, list (one JSON array), many (one message per record); with --payload of records list and/or many (default: many for an NDJSON file, list for --size)',
      collect,
    );
}

/** `jsonbench probe`: the capability probes alone; its action imports cli/probe.ts when it runs. */
function addProbeCommand(p: Command, exit: { code: number }, help: HelpData): void {
  p.command('probe')
    .description(
      'run capability probes (names, policies, edge values, hostile strings, structure, safety, conformance) against serializers in their workers and print the matrix; writes results.json, report.md and report.html (nothing is timed)',
    )
    .option(
      '--serializer <ids>',
      `serializers, with versions for a matrix such as fast-json-stringify@5,6,7 (comma-separated or repeated; default: all on the targets' platforms; .NET ones need a .NET target)${listed(help.serializerIds && [...help.serializerIds, ...(help.dotnetSerializerIds ?? [])])}`,
      collect,
    )
    .option(
      '--family <names>',
      `probe families: ${PROBE_FAMILIES.join(', ')} (default: all; conformance needs --conformance)`,
      collect,
    )
    .option(
      '--conformance <folder>',
      'a folder of JSONTestSuite y_/n_/i_, json.org checker pass/fail or nativejson-benchmark roundtrip files',
    )
    .option('--direction <d>', 'serialize, deserialize (default: both)', collect)
    .option('--filter <regex>', 'only probes whose id matches')
    .option('--target <ids>', `runtimes to probe on (comma-separated or repeated)${targetForms(help)}`, collect)
    .option('--chromium-path <path>', 'Chromium executable for --target chromium (default /usr/bin/chromium)')
    .option('--timeout <duration>', 'per probe side, with its unit: 120s, 2m, 1500ms (at least 1s; default 120s)')
    .option(
      '--probe-budget <duration>',
      "the total wall time (15m, 1h, off; default 15m, as run's probe pass): the probe sides left when it runs out are skipped, saying so; after a hang, a serializer's other probes are skipped",
    )
    .option('--out <dir>', 'output folder (default: jsonbench-results/probes-<timestamp>/)')
    .option('--config <file>', 'a jsonbench.config.{ts,mjs,js} adding serializers')
    .option('--full', 'one matrix row per probe instead of per group')
    .option('--narrow', 'marks and counts only (no ✔ labels)')
    .option('--json', 'print the results JSON to stdout instead of the matrix')
    .action(async (opts) => {
      const { probeCommand } = await import('./probe.js');
      exit.code = await probeCommand(opts);
    });
}

/** `jsonbench list`, `report`, `merge` and `site`: each action imports its command's module when it runs. */
function addReportCommands(p: Command, exit: { code: number }): void {
  p.command('list')
    .description('list workloads and serializers (versions, families, classes, supported pairs)')
    .option('--config <file>', 'a jsonbench.config.{ts,mjs,js} adding serializers and workloads')
    .option('--json', 'print as JSON')
    .action(async (opts) => {
      const { listCommand } = await import('./list.js');
      exit.code = await listCommand(opts);
    });
  p.command('report')
    .description(
      'render saved results files without running anything; several files (machines, targets) merge into one report',
    )
    .argument(
      '<results...>',
      'results.json files, or run folders (a run killed mid-way is rebuilt from what it streamed)',
    )
    .addOption(
      new Option(
        '--format <name>',
        Object.entries(reportFormatInfo)
          .map(([k, v]) => `${k}: ${v.description}`)
          .join('; '),
      )
        .choices(Object.keys(reportFormatInfo))
        .default('html'),
    )
    .option(
      '--out <file>',
      'write here; "-" for stdout (default: html to report.html beside the first results file, other formats to stdout)',
    )
    .option('--accept-changed', ACCEPT_CHANGED_HELP)
    .action(async (files: string[], opts) => {
      await acceptChanged(opts);
      const { reportCommand } = await import('./report.js');
      exit.code = await reportCommand(files, opts);
    });
  p.command('merge')
    .description('join the results of every shard of a run (run --shard i/n) into one results file and its reports')
    .argument('<results...>', "the shards' results.json files or run folders, all of them, in any order")
    .requiredOption('--out <dir>', 'the folder for results.json, report.md and report.html')
    .option('--partial', 'merge though some shards are missing (refused otherwise); the results and reports say which')
    .option('--accept-changed', ACCEPT_CHANGED_HELP)
    .action(async (files: string[], opts) => {
      await acceptChanged(opts);
      exit.code = await (await import('./merge.js')).mergeCommand(files, opts);
    });
  p.command('site')
    .description(
      'build a static history site from the ledger: a page per workload × direction across runs, and the latest report',
    )
    .option('--ledger <path>', `read ${LEDGER_HELP}`)
    .option('--out <dir>', "the site's folder (deploy it as it is, e.g. to GitHub Pages)", 'jsonbench-site')
    .option('--title <text>', 'the title of every page')
    .action(async (opts) => {
      exit.code = await (await import('./site.js')).siteCommand(opts);
    });
}

/**
 * `jsonbench report --format csv | head`: the reader leaving early closes stdout's pipe, and the
 * next write fails with EPIPE (an unhandled 'error' event: a stack trace). The command goes on
 * quietly, its later writes to that stream dropped, and exits with its own code: a run still
 * writes its results and reports and keeps its --fail-on verdict, `compare --fail-on` its exit 1
 * (hx34 e01/e02: an exit 0 at the first write after the reader left, no results.json, the gate
 * lost). Other errors on stdout or stderr (a full disk behind a redirect) are reported in one
 * line, exit 1.
 */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') > 0) continue;
    stream.on('error', (e: NodeJS.ErrnoException) => {
      // the reader left: what is still written to this stream is dropped (each write's own error lands here too)
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
      if (stream !== process.stderr)
        process.stderr.write(`jsonbench: cannot write the output: ${visibleControls(e.message)}\n`);
      process.exit(1);
    });
  }
}

/**
 * A config or adapter that calls `process.exit(0)` while a command runs (at its top level, in
 * supports(), in build()) made `list` and `run` end with exit 0 and no output: a CI job reads that
 * as a pass (issue 9). While a command runs, an exit with code 0 that jsonbench did not ask for
 * becomes exit 1 with a line saying so; exits with another code keep it.
 */
const exitGuard = { running: 0, intended: false, installed: false };
/** Whether {@link main} installed its Ctrl-C fallback (once per process: tests call main many times). */
let sigintFallback = false;
function guardPrematureExit(): void {
  if (exitGuard.installed) return;
  exitGuard.installed = true;
  process.on('exit', (code) => {
    if (exitGuard.running === 0 || exitGuard.intended || code !== 0) return;
    process.stderr.write(
      // broken by hand under 80 columns: the exit handler is synchronous (no wrapper is loaded here)
      'jsonbench: error: the process was ended (process.exit(0)) before the command\n  finished: by a config, workload or serializer; nothing it printed is a result\n',
    );
    process.exitCode = 1;
  });
  // `process.reallyExit(0)`, Node's exit below process.exit, emits no 'exit' (hx19 A03: a config's timer called it
  // mid-run: exit 0, no results.json, no word). jsonbench's own end calls the native one (files/process-end.ts,
  // taken at load); process.exit reaches this one after the 'exit' listener above, with the code it set.
  const native = (process as unknown as { reallyExit: (code?: number) => never }).reallyExit;
  Object.defineProperty(process, 'reallyExit', {
    value: function reallyExit(code?: number): never {
      if (exitGuard.running > 0 && !exitGuard.intended && !code) {
        process.stderr.write(
          'jsonbench: error: the process was ended (process.reallyExit(0)) before the\n  command finished: by a config, workload or serializer; nothing it printed is a result\n',
        );
        return native.call(process, 1);
      }
      return native.call(process, code);
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

/**
 * Runs the CLI with `argv` (without node and script). Returns the exit code: 0 ok; 1 when a case
 * failed, was incorrect, timed out or crashed; 2 for a usage or config error, a bad results file or
 * ledger, or a file-system error on a path the user gave.
 */
export async function main(argv: string[]): Promise<number> {
  // bidirectional formatting characters from the data are shown as escapes on both streams (cli/streams.ts)
  maskOutput();
  quietOnClosedPipe();
  // under `ulimit -v`, undici's unused HTTP parser failing to instantiate ended every command (files/process-end.ts)
  tolerateUndiciWasm();
  guardPrematureExit();
  // Ctrl-C outside a command's own handler (before a run starts, after its tables are written,
  // while the process drains) ends with 130 as a shell expects, not a death by signal
  if (!sigintFallback) {
    sigintFallback = true;
    process.on('SIGINT', () => {
      if (process.listenerCount('SIGINT') === 1) {
        exitGuard.intended = true;
        process.exit(130);
      }
    });
  }
  exitGuard.running++;
  try {
    return await runCli(argv);
  } finally {
    exitGuard.running--;
  }
}

async function runCli(argv: string[]): Promise<number> {
  const exit = { code: 0 };
  const p = program(exit, await helpData(argv));
  try {
    await p.parseAsync(argv, { from: 'user' });
    return exit.code;
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.exitCode === 0 ? 0 : 2;
    }
    // every line fits stderr's width (issue 22); the writer is loaded on this error path only (start-up)
    const { sayOnStderr } = await import('./output.js');
    // bad input the user can fix: a usage or config error, a workload that cannot build, a results
    // file or ledger that is not what it must be
    if (e instanceof UsageError) {
      sayOnStderr(`jsonbench: error: ${e.message}`);
      sayOnStderr(`Run 'jsonbench ${argv.find((a) => !a.startsWith('-')) ?? ''} --help' for usage.`.replace('  ', ' '));
      return 2;
    }
    if (e instanceof ResultsFileError || (await isCommandInputError(e))) {
      sayOnStderr(`jsonbench: error: ${(e as Error).message}`);
      return 2;
    }
    // A file-system error is about a path the user gave (--out, --ledger, a results file): exit 2
    // with the message. Anything else is a bug in jsonbench: exit 1, stack with JSONBENCH_DEBUG=1.
    const err = e as NodeJS.ErrnoException;
    // thrown through a user file's code (a getter it put on `process`): the file is named, exit 2 (hx17)
    const { userFileOnStack } = await import('../host/user-code.js');
    const userFile = userFileOnStack(e);
    if (userFile) {
      sayOnStderr(
        `jsonbench: error: ${userFile}: its code threw inside jsonbench's own process: ${err?.message ?? String(e)}`,
      );
      return 2;
    }
    const fsError = typeof err?.code === 'string' && /^E[A-Z]+$/.test(err.code) && typeof err.syscall === 'string';
    sayOnStderr(`jsonbench: error: ${err?.message ?? String(e)}`);
    // a stack is left as it is (its lines are the runtime's)
    if (process.env.JSONBENCH_DEBUG) process.stderr.write(`${visibleControls(err?.stack ?? '')}\n`);
    else if (!fsError)
      sayOnStderr('(an internal error: rerun with JSONBENCH_DEBUG=1 for the stack, and please report it)');
    return fsError ? 2 : 1;
  }
}

/**
 * Whether `e` is a ConfigError, WorkloadError, LedgerFileError or HostPatched: classes that live in the modules
 * of the commands that throw them, imported here only on this error path (a command that threw one
 * has loaded its module, so the import costs nothing; one that cannot load makes its class no match).
 */
async function isCommandInputError(e: unknown): Promise<boolean> {
  const classes = await Promise.allSettled([
    import('../config/user-config.js').then((m) => m.ConfigError),
    import('../plan/payloads.js').then((m) => m.WorkloadError),
    import('../ledger/schema.js').then((m) => m.LedgerFileError),
    import('../config/host-guard.js').then((m) => m.HostPatched),
  ]);
  return classes.some((c) => c.status === 'fulfilled' && e instanceof c.value);
}
