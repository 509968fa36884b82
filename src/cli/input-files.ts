import { statSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONFIG_NAMES } from '../config/compile-config.js';
import { UsageError } from '../config/usage-error.js';
import { visibleName } from '../report/table/escape.js';

/**
 * The files a command opens because the user named them (issue 25, hostile tester hx8, "hang"): a
 * FIFO given as `--config` or `--schema` (or a FIFO named `jsonbench.config.mjs` in the working
 * directory) blocked with no output until killed, since opening a pipe waits for a writer that never
 * comes; `--payload`, `--ledger` and results files were already refused at once (files/read-file.ts,
 * ledger/schema.ts, results/io.ts). Each path here is checked before anything opens or imports it:
 * a regular file (or a folder where one is expected) passes; a pipe, a socket or a device is refused,
 * naming the flag. A missing path passes: the command's own reader names it, as it did.
 */

/** What `stat` is, in words, when it is neither a regular file nor a folder; undefined when it is one of those. */
export function specialKind(stat: Stats): string | undefined {
  if (stat.isFile() || stat.isDirectory()) return undefined;
  if (stat.isFIFO()) return 'a pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device (such as /dev/zero)';
  return 'not a regular file';
}

/**
 * Refuses `path` (as given after `flag`, relative to `cwd`) when it exists and is not a regular file
 * (or, with `folder`, a folder); `shown` names it in the message (default: `path`). A loop of
 * symbolic links is refused too; a missing path, or a blank one, is left to the command (it says so
 * in its own words).
 * @throws UsageError naming `flag` and what the path is
 */
export function checkInputPath(
  flag: string,
  path: string | undefined,
  cwd: string,
  expect: 'file' | 'folder' = 'file',
  shown = path,
): void {
  if (path === undefined || !path.trim()) return;
  let stat: Stats;
  try {
    stat = statSync(resolve(cwd, path));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP')
      throw new UsageError(flag, `${shown}: a loop of symbolic links (each points on to the next, none to a file)`);
    return;
  }
  const kind = specialKind(stat);
  if (kind)
    throw new UsageError(
      flag,
      `${shown}: is ${kind}, not a ${expect}: jsonbench opens only regular files and folders (a pipe would wait for a writer with no end; save the stream to a file first)`,
    );
}

/**
 * Checks the paths a `run`, `probe` or `list` command line names before the command opens any of
 * them ({@link checkInputPath}): `--config` (or, without it, the config the working directory
 * holds, which is loaded by name), `--schema` and `--conformance`.
 * @throws UsageError naming the flag
 */
export function checkInputPaths(
  opts: { config?: string; schema?: string; conformance?: string },
  cwd = process.cwd(),
): void {
  if (opts.config !== undefined) checkInputPath('--config', opts.config, cwd);
  else {
    // findConfig loads the first of these that exists: a FIFO of that name would block the import as --config did
    const found = CONFIG_NAMES.find((name) => {
      try {
        statSync(join(cwd, name));
        return true;
      } catch {
        return false;
      }
    });
    if (found)
      checkInputPath(
        '--config',
        found,
        cwd,
        'file',
        `${found} (found in the working directory, loaded without --config)`,
      );
  }
  checkInputPath('--schema', opts.schema, cwd);
  checkInputPath('--conformance', opts.conformance, cwd, 'folder');
}

/**
 * One stderr line per file of a `--conformance` folder that was not made a probe, with why: not
 * UTF-8; a FIFO, a socket or a device, never opened (hx8: a `y_fifo.json` hung the command);
 * beyond the size cap (probes/catalog/conformance-folder.ts). The reports list them too. Empty
 * without a conformance folder. Pure.
 */
export function conformanceSkippedLines(results: {
  probes?: { conformance?: { skipped: readonly { file: string; reason: string }[] } };
}): string[] {
  return (results.probes?.conformance?.skipped ?? []).map(
    (s) => `jsonbench: --conformance: ${visibleName(s.file)} skipped: ${s.reason}`,
  );
}
