import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSizeLimit, fileSizeLimitSentence } from '../../src/files/file-size-limit.js';
import { writeResults } from '../../src/results/io.js';
import { bin, results } from '../hostile/support.js';

/**
 * A write stopped by the process's file-size limit (hx7 U2: under `ulimit -f 20` the ledger's warning
 * blamed "the disk refused a read or write (SQLITE_IOERR_SHMSIZE) … check the disk", and the report's
 * "the file would be larger than the file system allows (EFBIG)"). Both now name the limit, read from
 * /proc/self/limits.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-fsize-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max file size             20480                20480                bytes
Max data size             unlimited            unlimited            bytes
`;

test('the limit is read from the "Max file size" line, in bytes; unlimited is no limit', () => {
  assert.equal(fileSizeLimit(LIMITS), 20480);
  assert.equal(fileSizeLimit(LIMITS.replace(/20480 {16}20480/, 'unlimited            unlimited')), undefined);
  assert.equal(fileSizeLimit('no such line'), undefined);
  assert.equal(
    fileSizeLimitSentence(20480),
    "the process's file-size limit (ulimit -f 20 in bash's 1 KiB blocks: 20 KiB) stopped the write",
  );
  assert.equal(
    fileSizeLimitSentence(5 * 1024 * 1024),
    "the process's file-size limit (ulimit -f 5120 in bash's 1 KiB blocks: 5 MiB) stopped the write",
  );
  assert.equal(fileSizeLimitSentence(undefined), undefined);
});

/** The CLI under bash's `ulimit -f <blocks>` (1 KiB each), with no ledger unless `args` name one. */
function limitedCli(blocks: number, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', `ulimit -f ${blocks} && exec "$0" "$@"`, process.execPath, bin, ...args],
      { env: { ...process.env, JSONBENCH_LEDGER: 'off', NO_COLOR: '1', COLUMNS: '1000' }, timeout: 60_000 },
      (error, _stdout, stderr) => {
        const e = error as (Error & { code?: unknown }) | null;
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, stderr });
      },
    );
  });
}

test(
  'under ulimit -f 20: the ledger and a report name the file-size limit, not the disk',
  { skip: process.platform !== 'linux' && 'reads /proc/self/limits (Linux)' },
  async () => {
    const file = join(dir, 'results.json');
    writeResults(file, results());
    const ledger = join(dir, 'ledger.sqlite');
    const imported = await limitedCli(20, ['ledger', 'import', file, '--ledger', ledger]);
    assert.notEqual(imported.code, 0, imported.stderr);
    assert.match(
      imported.stderr,
      /ledger\.sqlite: the process's file-size limit \(ulimit -f 20 in bash's 1 KiB blocks: 20 KiB\) stopped the write \(SQLite: .*SQLITE_(IOERR\w*|FULL)\)/,
    );
    assert.doesNotMatch(imported.stderr, /check the disk|disk refused/);
    const html = join(dir, 'report.html');
    const report = await limitedCli(20, ['report', file, '--format', 'html', '--out', html]);
    assert.equal(report.code, 2, report.stderr);
    assert.match(
      report.stderr,
      /cannot write .*report\.html: the process's file-size limit \(ulimit -f 20 in bash's 1 KiB blocks: 20 KiB\) stopped the write \(EFBIG\)/,
    );
  },
);
