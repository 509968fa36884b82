import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Makes a folder and its missing parents, one `mkdir` each, so a path the kernel refuses fails
 * with that error. (`mkdirSync(path, { recursive: true })` on Node 20 loops forever under
 * `/proc`, where `mkdir` of a missing child answers ENOENT although its parent exists.)
 * @throws the file-system error of the first folder that cannot be made (ENOENT, EACCES,
 * ENOTDIR, EEXIST for a file in the way).
 */
export function makeFolder(path: string): void {
  const missing: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    let isDir: boolean | undefined;
    try {
      isDir = statSync(p).isDirectory();
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
      mkdirSync(missing[i]);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(missing[i]).isDirectory()) throw e;
    }
  }
}
