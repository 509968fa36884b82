import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { makeFolder } from '../files/make-folder.js';
import { join } from 'node:path';
import { workerEnv } from '../case/startup.js';

export { defaultCacheDir } from '../case/cache.js';

/** Folder of one installed runtime: `<cache>/runtimes/<name>` (name: `node@22`, `bun`, `deno`, `quickjs`). */
export function runtimeDir(cacheDir: string, name: string): string {
  return join(cacheDir, 'runtimes', name);
}

/** Runs a program; resolves its stdout; rejects with an Error whose message is the last 3 lines of its stderr (or the spawn error). */
export function runProgram(
  command: string,
  args: string[],
  timeoutMs = 60_000,
  env?: NodeJS.ProcessEnv,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: env ?? workerEnv() },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(
              (stderr.trim() || err.message)
                .split('\n')
                .map((l) => l.trim())
                .filter(Boolean)
                .slice(-3)
                .join(' | '),
            ),
          );
        else resolve(stdout);
      },
    );
  });
}

/**
 * Installs npm packages (`name@range`) into `dir` with the npm client (`npm install --prefix`,
 * exact versions saved, no install scripts: every runtime binary used here ships inside a
 * registry package). @throws Error with npm's stderr tail.
 */
export async function npmInstall(dir: string, specs: string[], log: (line: string) => void): Promise<void> {
  const existed = existsSync(dir);
  makeFolder(dir);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = [
    'install',
    '--prefix',
    dir,
    '--no-audit',
    '--no-fund',
    '--ignore-scripts',
    '--save-exact',
    '--loglevel=error',
    ...specs,
  ];
  log(`npm ${args.join(' ')}`);
  try {
    await runProgram(npm, args, 600_000);
  } catch (e) {
    // a failed install leaves no empty folder behind to read as an installed runtime (hx23 F25)
    if (!existed) rmSync(dir, { recursive: true, force: true });
    // hx23 F25: `--target node@99` advised `runtimes install node@99`, which npm answered "notarget"
    const missing = /No matching version found for (\S+?)\.?(\s|$)/.exec((e as Error).message);
    if (missing)
      throw new Error(`the npm registry has no ${missing[1]}: no such version to install (nothing was installed)`, {
        cause: e,
      });
    throw e;
  }
}
