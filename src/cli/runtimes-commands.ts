import type { Command } from 'commander';
import type { RuntimesOptions } from './runtimes.js';

/**
 * Registers `jsonbench runtimes list|install` on the program; each action stores its exit code in
 * `exit` and imports its command's module when it runs. `installable` (the runtimes registry's
 * INSTALLABLE_TARGETS, which main.ts loads only when `runtimes` is addressed) completes the help.
 */
export function addRuntimesCommands(p: Command, exit: { code: number }, installable?: readonly string[]): void {
  const r = p
    .command('runtimes')
    .description('targets to measure on: list them (installed or not, exact versions) and install them into the cache');
  r.command('list')
    .description('show each known target, installed or not, with its exact version')
    .option(
      '--cache-dir <dir>',
      'cache folder of installed runtimes (default: $JSONBENCH_CACHE, $XDG_CACHE_HOME/jsonbench or ~/.cache/jsonbench)',
    )
    .option('--chromium-path <path>', 'Chromium executable (default /usr/bin/chromium)')
    .option('--json', 'print as JSON')
    .action(async (opts: RuntimesOptions) => {
      const { runtimesListCommand } = await import('./runtimes.js');
      exit.code = await runtimesListCommand(opts);
    });
  r.command('install')
    .description(
      `install targets into the cache (from the npm registry; dotnet@<major>: a self-contained publish of the .NET worker from NuGet)${installable ? `: ${installable.join(', ')}` : ''}`,
    )
    .argument('<targets...>', 'targets to install (space- or comma-separated)')
    .option('--cache-dir <dir>', 'cache folder of installed runtimes')
    .action(async (ids: string[], opts: RuntimesOptions) => {
      const { installRuntimes } = await import('./runtimes.js');
      exit.code = await installRuntimes(ids, opts, (l) => process.stdout.write(`${l}\n`));
    });
}
