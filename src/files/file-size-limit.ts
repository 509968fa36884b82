import { readFileSync } from 'node:fs';

/**
 * The process's file-size limit (RLIMIT_FSIZE, a shell's `ulimit -f`), which a write past it fails
 * with EFBIG (Node ignores the SIGXFSZ the kernel sends first, so the write returns the error instead
 * of killing the process) and SQLite turns into SQLITE_IOERR_* or SQLITE_FULL. hx7 U2: under
 * `ulimit -f 20` the ledger's warning said "the disk refused a read or write … check the disk" and
 * report.html's "larger than the file system allows (EFBIG)": neither named the limit, which is the
 * process's, not the disk's.
 */

/**
 * The soft limit on the size of a file this process writes, bytes, read from `limitsText` (the text
 * of /proc/self/limits: its "Max file size" line); undefined when unlimited, or unknown (no /proc:
 * not Linux). Pure when `limitsText` is given.
 */
export function fileSizeLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined)
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  const m = /^Max file size\s+(\S+)/m.exec(text);
  if (!m || m[1] === 'unlimited') return undefined;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * `the process's file-size limit (ulimit -f 20 in bash's 1 KiB blocks: 20 KiB) stopped the write`:
 * the limit as bash's `ulimit -f` takes it (blocks of 1024 bytes; dash and POSIX-mode shells count
 * 512), and in bytes; undefined when no limit is set (`limit`: bytes, default {@link fileSizeLimit}).
 */
export function fileSizeLimitSentence(limit = fileSizeLimit()): string | undefined {
  if (limit === undefined) return undefined;
  const bytes =
    limit < 1024
      ? `${limit} B`
      : limit < 1024 * 1024
        ? `${+(limit / 1024).toFixed(1)} KiB`
        : limit < 1024 ** 3
          ? `${+(limit / 1024 ** 2).toFixed(1)} MiB`
          : `${+(limit / 1024 ** 3).toFixed(1)} GiB`;
  return `the process's file-size limit (ulimit -f ${Math.floor(limit / 1024)} in bash's 1 KiB blocks: ${bytes}) stopped the write`;
}
