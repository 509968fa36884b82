import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './support.js';

/**
 * Files with no end, or too large (issue 25, hostile tester hx1, "hang" and "crash"): `run
 * --payload /dev/zero --print-schema` read forever with no output; `ledger import /dev/urandom`
 * grew to 14 GB in 60 s; `report /dev/zero` died of std::bad_alloc at 16.8 GB (signal 6). Only
 * regular files are read now, within a cap checked on their size before any byte is read.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-endless-'));
after(() => rmSync(dir, { recursive: true, force: true }));
/** Each command is killed well before it could read much of an endless device (the bug grew by ~250 MB/s). */
const bounded = { timeoutMs: 30_000 };

test('run --payload /dev/zero is refused at once as a device, exit 2', async () => {
  const ran = await cli(['run', '--payload', '/dev/zero', '--print-schema'], bounded);
  assert.equal(ran.signal, null, `still reading after ${Math.round(ran.ms / 1000)} s`);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /--payload: \/dev\/zero: is a device \(such as \/dev\/zero or \/dev\/urandom\), not a file/);
});

test('run --payload of a FIFO is refused at once as a pipe (never blocks opening it), exit 2', async () => {
  const fifo = join(dir, 'payload.fifo');
  execFileSync('mkfifo', [fifo]);
  const ran = await cli(['run', '--payload', fifo, '--print-schema'], bounded);
  assert.equal(ran.signal, null, `blocked for ${Math.round(ran.ms / 1000)} s`);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /payload\.fifo: is a pipe \(FIFO\), not a file: jsonbench reads regular files only \(save the stream to a file first\)/,
  );
});

test('a payload beyond --max-payload is refused naming its size, the cap and the flag, exit 2', async () => {
  const payload = join(dir, 'big.ndjson');
  writeFileSync(payload, '{"a":1}\n'.repeat(300_000));
  const ran = await cli(['run', '--payload', payload, '--max-payload', '1MiB', '--print-schema'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /big\.ndjson: is 2\.3 MiB, beyond the 1 MiB jsonbench reads \(run --max-payload sets the cap\)/,
  );
});

test('report /dev/zero and compare /dev/zero /dev/urandom are refused at once as devices, exit 2, never a crash', async () => {
  for (const args of [
    ['report', '/dev/zero', '--format', 'md'],
    ['compare', '/dev/zero', '/dev/urandom'],
  ]) {
    const ran = await cli(args, bounded);
    assert.equal(ran.signal, null, `${args[0]}: killed after ${Math.round(ran.ms / 1000)} s`);
    assert.equal(ran.code, 2, `${args[0]}: ${ran.stderr}`);
    assert.match(ran.stderr, /\/dev\/zero: is a device \(such as \/dev\/zero\), not a results file/);
  }
});

test('ledger import /dev/urandom is refused at once, naming the file once; the ledger holds no run', async () => {
  const ledger = join(dir, 'ledger.db');
  const ran = await cli(['ledger', 'import', '/dev/urandom', '--ledger', ledger], bounded);
  assert.equal(ran.signal, null, `killed after ${Math.round(ran.ms / 1000)} s`);
  assert.equal(ran.code, 1, ran.stderr);
  assert.match(ran.stderr, /^jsonbench: \/dev\/urandom: is a device \(such as \/dev\/zero\), not a results file/m);
  const runs = await cli(['ledger', 'list', '--ledger', ledger]);
  assert.doesNotMatch(runs.stdout, /^\s*1\s/m);
});

test('a results file beyond the cap is refused naming the cap and how to raise it, exit 2', async () => {
  const big = join(dir, 'results.json');
  writeFileSync(big, `{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
  const ran = await cli(['report', big, '--format', 'md'], {
    env: { JSONBENCH_MAX_RESULTS_BYTES: String(1024 * 1024) },
  });
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /results\.json: is 2\.0 MiB, beyond the 1\.0 MiB a results file may be \(set JSONBENCH_MAX_RESULTS_BYTES to read a larger one\)/,
  );
});
