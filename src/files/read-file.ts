import { readFileSync, statSync, type Stats } from 'node:fs';

/**
 * Reading a file a user named (a payload, a results file, a run's partial files) whole, bounded
 * (issue 25, hostile tester hx1): `--payload /dev/zero` read forever with no output, `ledger import
 * /dev/urandom` grew to 14 GB in 60 s and `report /dev/zero` died of std::bad_alloc at 16.8 GB.
 * Only a regular file is read, and only up to a cap checked on its size before any byte is read:
 * a device (/dev/zero, /dev/urandom), a pipe (FIFO, `<(…)`) or a socket is refused at once, since
 * neither its size nor its end is known (and jsonbench reads a payload more than once).
 */

/** Why a file cannot be read: `problem` completes `<path>: …`. */
export class FileReadError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
  }
}

/** Bytes as a person reads a cap: `500 MiB`, `1.5 GiB`, `12 KiB`, `300 B`. */
export function formatCap(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number(v.toFixed(1))} ${units[u]}`;
}

/**
 * A size such as `500MiB`, `1GiB`, `800MB`, `2G`, `4096` (bytes): binary units for KiB/MiB/GiB
 * and K/M/G, decimal for KB/MB/GB. NaN when it is none.
 */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)\s*$/i.exec(text);
  if (!m) return NaN;
  const power = ' kmgt'.indexOf(m[2].toLowerCase() || ' ');
  const decimal = m[3].toLowerCase() === 'b' && power > 0;
  return Math.round(Number(m[1]) * (decimal ? 1000 : 1024) ** power);
}

/** What a stat that is not a regular file is, for messages, or undefined for a regular file. */
function notAFile(stat: Stats): string | undefined {
  if (stat.isFile()) return undefined;
  if (stat.isDirectory()) return 'a folder';
  if (stat.isCharacterDevice() || stat.isBlockDevice())
    return 'a device (such as /dev/zero or /dev/urandom), not a file';
  if (stat.isFIFO()) return 'a pipe (FIFO), not a file';
  if (stat.isSocket()) return 'a socket, not a file';
  return 'not a regular file';
}

/**
 * Reads `path` whole when it is a regular file of at most `maxBytes`.
 * @throws FileReadError (`problem`: no such file; a loop of symbolic links; permission denied; a folder, device, pipe or socket; larger than
 * the cap, naming both sizes and `raise` — how to raise the cap — when given; a read that fails (`cannot be read (EIO: i/o
 * error, read)`)
 */
export function readDataFile(path: string, maxBytes: number, raise?: string): Buffer {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (e) {
    // hx35 p14: a loop of symbolic links in a --payload folder was "no such file"
    const code = (e as NodeJS.ErrnoException).code;
    throw new FileReadError(
      path,
      code === 'ELOOP'
        ? 'a loop of symbolic links (each points on to the next, none to a file)'
        : code === 'EACCES'
          ? 'permission denied'
          : 'no such file',
    );
  }
  const kind = notAFile(stat);
  if (kind)
    throw new FileReadError(
      path,
      `is ${kind}: jsonbench reads regular files only${kind.startsWith('a pipe') ? ' (save the stream to a file first)' : ''}`,
    );
  if (stat.size > maxBytes)
    throw new FileReadError(
      path,
      `is ${formatCap(stat.size)}, beyond the ${formatCap(maxBytes)} jsonbench reads${raise ? ` (${raise})` : ''}`,
    );
  try {
    return readFileSync(path);
  } catch (e) {
    // hx37 f02: /proc/self/mem (a regular file to stat) was a bare "EIO: i/o error, read", no path, no flag
    const err = e as NodeJS.ErrnoException;
    throw new FileReadError(path, `cannot be read (${err.message ?? String(e)})`);
  }
}
