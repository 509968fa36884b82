import type { Command } from 'commander';
import { DEFAULT_LEDGER_PATH } from '../ledger/default-path.js';

const collect = (value: string, prev: string[] = []) => [...prev, value];
/** Help text of every `--ledger <path>` option. */
export const LEDGER_HELP = `the SQLite ledger (default: ${DEFAULT_LEDGER_PATH} under the working directory, or $JSONBENCH_LEDGER)`;

/** Help of `--accept-changed` (report, compare, merge, ledger import). */
export const ACCEPT_CHANGED_HELP =
  'read a results file that no longer matches the sha256 its run recorded beside it (results.json.sha256), with a warning; refused otherwise';

/** `--accept-changed`: switches the results readers to warn, not refuse, on a file changed after its run (results/integrity.ts). */
export async function acceptChanged(opts: { acceptChanged?: boolean }): Promise<void> {
  if (opts.acceptChanged) (await import('../results/integrity.js')).acceptChangedResults();
}

/**
 * Registers `compare`, `history` and `ledger import|export|list`; each action stores its exit code
 * in `exit`. Each action imports its command's module when it runs, so `--help` and the other
 * commands never load the ledger (SQLite) or the results schema.
 */
export function addLedgerCommands(p: Command, exit: { code: number }): void {
  p.command('compare')
    .description(
      'compare two runs case by case: the paired ratio, time and allocation, each change with its CI and a verdict (faster/slower/same) when the CI clears no change by a minimum effect size',
    )
    .argument('<base>', 'a results.json (or its folder), or a ledger run: an id, latest, latest~N')
    .argument('<head>', 'same as <base>')
    .option(
      '--threshold <percent>',
      'minimum change that counts (default: 5 for the ratio and time, 10 for allocation, 0.5 for instructions)',
    )
    .option('--alpha <p>', 'significance level of the rank test', '0.05')
    .option(
      '--metric <list>',
      'ratio, time, alloc, instructions (comma-separated; default: all the runs have)',
      collect,
    )
    .option(
      '--fail-on <list>',
      'exit 1 when a case is slower (any compared metric) or broken (measured in base, not in head): slower, broken',
      collect,
    )
    .option('--format <f>', 'terminal, md (a pull-request comment), json', 'terminal')
    .option('--base-label <text>', "the base run's name in the heading (default: <base> as given), e.g. main@5c9c1e5")
    .option('--head-label <text>', "the head run's name in the heading (default: <head> as given)")
    .option('--ledger <path>', LEDGER_HELP)
    .option('--accept-changed', ACCEPT_CHANGED_HELP)
    .action(async (base: string, head: string, opts) => {
      await acceptChanged(opts);
      const { compareCommand } = await import('./compare.js');
      exit.code = await compareCommand(base, head, opts);
    });
  p.command('history')
    .description('the same case across serializer versions, runtime versions and runs, from the ledger')
    .option('--workload <id>', 'only this workload')
    .option('--size <n>', 'only this size')
    .option('--shape <s>', 'only this shape: single, list, many')
    .option('--direction <d>', 'only this direction: serialize, deserialize')
    .option('--serializer <id>', 'only this adapter (every version) or row label (fast-json-stringify@5.16.1)')
    .option('--target <t>', 'only this runtime (node, bun, deno…)')
    .option('--last <n>', 'only the last N points of each case')
    .option('--format <f>', 'terminal, md, json, html (a page with a chart per case)', 'terminal')
    .option('--out <file>', 'for --format html: the page to write (default history.html)')
    .option('--ledger <path>', LEDGER_HELP)
    .action(async (opts) => {
      const { historyCommand } = await import('./history.js');
      exit.code = await historyCommand(opts);
    });
  const ledger = p
    .command('ledger')
    .description('the SQLite history of runs: import results made elsewhere, export a run, list runs');
  ledger
    .command('import')
    .description('record results files made elsewhere (another machine, a CI matrix job)')
    .argument('<files...>', 'results.json files')
    .option('--ledger <path>', LEDGER_HELP)
    .option('--accept-changed', ACCEPT_CHANGED_HELP)
    .action(async (files: string[], opts) => {
      await acceptChanged(opts);
      const { ledgerImportCommand } = await import('./ledger.js');
      exit.code = await ledgerImportCommand(files, opts);
    });
  ledger
    .command('export')
    .description('write a recorded run back out as a results file')
    .argument('[run]', 'a run id, latest, latest~N', 'latest')
    .option('--out <file>', 'write here instead of stdout')
    .option('--ledger <path>', LEDGER_HELP)
    .action(async (run: string, opts) => {
      const { ledgerExportCommand } = await import('./ledger.js');
      exit.code = await ledgerExportCommand(run, opts);
    });
  ledger
    .command('list')
    .description('the recorded runs, oldest first')
    .option('--json', 'print as JSON')
    .option('--ledger <path>', LEDGER_HELP)
    .action(async (opts) => {
      const { ledgerListCommand } = await import('./ledger.js');
      exit.code = await ledgerListCommand(opts);
    });
}
