import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cli, hx8Scratch } from '../hostile/support.js';

/**
 * hx8 section 10, the flags ("unclear"): two `--payload` flags kept the last without a word;
 * `--case-timeout 1ms` timed every case out and blamed a kill from outside; `--resolve 0%` was told
 * it is not "from 0% to 50%".
 */

const { dir, file, a1, bounded } = hx8Scratch('hostile-flags');

test('a single-valued flag given twice is refused naming both values, exit 2; a list flag still collects (hx8 FL-2payload: the first dropped)', async () => {
  const other = file('other.json', '{"b":2}');
  let ran = await cli(['run', '--payload', a1, '--payload', other, '--print-schema'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /jsonbench: error: --payload: given twice \("\S*a1\.json", then "\S*other\.json"\): it takes one value, and one of them would be dropped without a word; give it once \(several samples of one endpoint: a folder of \.json files; several payloads: one run each\)/,
  );
  ran = await cli(['report', 'x.json', '--format', 'md', '--format', 'csv'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /--format: given twice \("md", then "csv"\)/);
  // a choice option still checks its choices, once
  ran = await cli(['report', 'x.json', '--format', 'pdf'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /argument 'pdf' is invalid/);
  // list options collect: two --serializer flags are both taken (an unknown id names itself)
  ran = await cli(
    ['run', '--payload', a1, '--serializer', 'json', '--serializer', 'nosuch', '--print-schema'],
    bounded,
  );
  assert.doesNotMatch(ran.stderr, /given twice/);
});

/** `jsonbench run` of a1.json by json under the quick policy, no probes, with `flags`, into `<dir>/<out>` (bounded). */
const quickJsonRun = (flags: string[], out: string) =>
  cli(
    [
      'run',
      '--payload',
      a1,
      '--serializer',
      'json',
      '--policy',
      'quick',
      '--no-probes',
      ...flags,
      '--out',
      join(dir, out),
    ],
    bounded,
  );

test('--case-timeout too short for a warmup is refused naming the flag, the value and the floor, exit 2 (hx8 FL-ct1ms)', async () => {
  const ran = await quickJsonRun(['--case-timeout', '1ms'], 'ct-out');
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /jsonbench: error: --case-timeout: "1ms" is too short for policy quick: a launch starts its worker \(about 1 s on a loaded machine\) and warms up each case and its baseline \(up to 400 ms each\) before its first sample, so every case would be killed as "timeout" before it measured anything; give 2s or more \(the policy's own: 60s\)/,
  );
  assert.doesNotMatch(ran.stderr, /killed from outside/);
});

test('--resolve 0% says the bound is exclusive and what to give, exit 2 (hx8 FL-resolve)', async () => {
  const ran = await quickJsonRun(['--resolve', '0%'], 'resolve-out');
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /--resolve: "0%" is no difference: the band must be wider than 0% \(its lower bound is exclusive; .*\); give a small positive one such as 0\.5% or 1%, or off/,
  );
  assert.doesNotMatch(ran.stderr, /from 0% to 50%/);
});
