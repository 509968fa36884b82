import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, cli, type Ran } from './support.js';

/**
 * A full disk (issue 25, hostile tester hx1, "unclear"): writing results.json on a full tmpfs
 * said only `jsonbench: error: ENOSPC: no space left on device, write` (no path, no word that
 * `jsonbench report <folder>` gets the run back) and left `results.json.tmp-NNNN` behind. /dev/full
 * stands in for the full disk here: every write to it fails with ENOSPC.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-full-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const skip = existsSync('/dev/full') ? false : 'no /dev/full on this system';
const run = (out: string) => [
  'run',
  '--policy',
  'quick',
  '--workload',
  'weather-station',
  '--serializer',
  'json,fast-json-stringify',
  '--direction',
  'serialize',
  '--no-probes',
  '--out',
  out,
];

test(
  'results.json on a full disk: the error names it, says how to get the run back, no temp file is left; `jsonbench report <folder>` does get it back',
  { skip },
  async () => {
    const out = join(dir, 'results');
    mkdirSync(out);
    // the CLI's own pid names its temp file: results.json.tmp-<pid>, made /dev/full before the run gets there
    const ran = await new Promise<Ran>((resolve) => {
      const t0 = performance.now();
      const child = spawn(process.execPath, [bin, ...run(out)], {
        env: { ...process.env, JSONBENCH_LEDGER: 'off', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      symlinkSync('/dev/full', join(out, `results.json.tmp-${child.pid}`));
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: performance.now() - t0 }));
    });
    assert.equal(ran.code, 2, ran.stderr);
    assert.ok(
      ran.stderr.includes(
        `jsonbench: error: cannot write ${out}/results.json: no space left on the device (ENOSPC); the cases measured so far are kept in ${out} (results.partial.jsonl, launches.partial.jsonl): free some space, then \`jsonbench report ${out}\` rebuilds the run's report from them`,
      ),
      ran.stderr,
    );
    assert.deepEqual(
      readdirSync(out).filter((f) => f.includes('.tmp-')),
      [],
      'the temp file is removed',
    );
    const back = await cli(['report', out, '--format', 'md']);
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stderr, /is a run that did not finish: 2 case\(s\) finished/);
    assert.match(back.stdout, /fast-json-stringify/);
  },
);

test(
  'a full disk while cases are appended: the error names results.partial.jsonl and the way back',
  { skip },
  async () => {
    const out = join(dir, 'partial');
    mkdirSync(out);
    symlinkSync('/dev/full', join(out, 'results.partial.jsonl'));
    const ran = await cli(run(out), { timeoutMs: 300_000 });
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(
      ran.stderr,
      /^jsonbench: error: cannot write \S+\/results\.partial\.jsonl: no space left on the device \(ENOSPC\); the cases measured so far are kept in \S+ \(results\.partial\.jsonl, launches\.partial\.jsonl\): free some space, then `jsonbench report \S+` rebuilds the run's report from them$/m,
    );
    assert.doesNotMatch(ran.stderr, /internal error/);
  },
);
