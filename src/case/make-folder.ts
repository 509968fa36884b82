import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The fs functions makeFolder uses, taken when this module loads, before any user code (as results/io.ts
 * `pristine`): results/integrity.ts makes the integrity key's folder with them, so fs patched later in the host
 * (and pushed to the named exports by syncBuiltinESMExports) cannot change where or how that folder is made.
 */
const pristine = { mkdirSync, statSync } as const;

/**
 * Makes a folder and its missing parents, one `mkdir` each, so a path the kernel refuses fails
 * with that error. (`mkdirSync(path, { recursive: true })` on Node 20 loops forever under
 * `/proc`, where `mkdir` of a missing child answers ENOENT although its parent exists.) Each folder
 * it makes gets `mode` (default 0o777, mkdir's own, less the umask; the integrity key's folder: 0o700);
 * folders that exist are left as they are. Here, on the ground floor, so that results/ can use it
 * (files/make-folder.ts re-exports it for the rest).
 * @throws the file-system error of the first folder that cannot be made (ENOENT, EACCES,
 * ENOTDIR, EEXIST for a file in the way).
 */
export function makeFolder(path: string, mode = 0o777): void {
  const missing: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    let isDir: boolean | undefined;
    try {
      isDir = pristine.statSync(p).isDirectory();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (isDir === false)
      throw Object.assign(new Error(`EEXIST: ${p} exists and is not a folder, mkdir '${path}'`), {
        code: 'EEXIST',
        syscall: 'mkdir',
        path: p,
      });
    if (isDir) break;
    missing.push(p);
    if (dirname(p) === p) break;
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      pristine.mkdirSync(missing[i], { mode });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !pristine.statSync(missing[i]).isDirectory()) throw e;
    }
  }
}
