import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, results } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * Errors that said too little (issue 25, hostile tester hx1, "unclear"): a serializer freezing its
 * input broke jsonbench's own changed-in-place check ("failed: measure: TypeError: Cannot delete
 * property"); a payload holding 1e400 had every serializer, the baseline too, called incorrect
 * for writing null; a pretty-printed NDJSON file said "1:2: not valid JSON…" without a word about
 * lines. Each now says what happened and what to do.
 */

const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/hostile/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-hostile-unclear-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const quick = ['--policy', 'quick', '--no-probes'];

test('a serializer that freezes or seals its input is incorrect, saying so, not failed by the changed-in-place check', async () => {
  const out = join(dir, 'freezers');
  const ran = await cli(
    [
      'run',
      ...quick,
      '--config',
      fixture('freezers.config.mjs'),
      '--serializer',
      'freezes,seals-later',
      '--workload',
      'weather-station',
      '--direction',
      'serialize',
      '--size',
      '1',
      '--shape',
      'single',
      '--out',
      out,
    ],
    { timeoutMs: 300_000 },
  );
  assert.equal(ran.signal, null, ran.stderr);
  const r = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const of = (s: string) => r.cases.find((c) => c.serializer === s)!;
  assert.equal(of('json').status, 'measured');
  assert.equal(of('freezes').status, 'incorrect', of('freezes').reason);
  assert.match(of('freezes').reason ?? '', /^input changed during the correctness gate: it was frozen at \$: /);
  assert.equal(of('seals-later').status, 'incorrect', of('seals-later').reason);
  assert.match(of('seals-later').reason ?? '', /it was sealed at \$\[0\]: the serializer seals its input/);
  assert.doesNotMatch(ran.stdout + ran.stderr, /Cannot delete property/);
});

test('a payload holding 1e400 is refused for serializing, exit 2, naming the literal and where it stands', async () => {
  const payload = join(dir, 'huge.json');
  writeFileSync(payload, '{"ok": 1,\n "huge": 1e400}\n');
  const ran = await cli(['run', ...quick, '--payload', payload, '--serializer', 'json', '--out', join(dir, 'huge')]);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /--payload: .*huge\.json:2:10: 1e400 is beyond what a double holds: JSON\.parse reads it as Infinity.*--direction deserialize/,
  );
  const neg = join(dir, 'neg.ndjson');
  writeFileSync(neg, '{"a":1}\n{"a":-2e999}\n');
  const ranNeg = await cli(['run', ...quick, '--payload', neg, '--direction', 'serialize', '--out', join(dir, 'neg')]);
  assert.equal(ranNeg.code, 2, ranNeg.stderr);
  assert.match(
    ranNeg.stderr,
    /neg\.ndjson:2:6: -2e999 is beyond what a double holds: JSON\.parse reads it as -Infinity/,
  );
});

test('an NDJSON file that is not one record per line says so, with the way out', async () => {
  const pretty = join(dir, 'pretty.ndjson');
  writeFileSync(pretty, '{\n  "a": 1\n}\n{\n  "a": 2\n}\n');
  const ran = await cli(['run', ...quick, '--payload', pretty, '--print-schema']);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /pretty\.ndjson:1:2: not valid JSON: .*; NDJSON needs one record per line, and this line is not a whole JSON value .*jq -c/,
  );
  const document = join(dir, 'document.ndjson');
  writeFileSync(document, '[\n  {"a": 1},\n  {"a": 2}\n]\n');
  const ranDoc = await cli(['run', ...quick, '--payload', document, '--print-schema']);
  assert.equal(ranDoc.code, 2, ranDoc.stderr);
  assert.match(ranDoc.stderr, /this file is one JSON document written across lines: pass it as a \.json file/);
});

test('a map of more keys than json-schema-faker makes says so, not "properties were not found while additionalProperties is false"', async () => {
  const payload = join(dir, 'map.json');
  writeFileSync(payload, JSON.stringify(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i]))));
  const ran = await cli(
    [
      'run',
      ...quick,
      '--payload',
      payload,
      '--serializer',
      'json',
      '--direction',
      'serialize',
      '--out',
      join(dir, 'map'),
    ],
    { timeoutMs: 300_000 },
  );
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(
    ran.stderr,
    /the gate's second payload of payload:map could not be generated from its schema \(an object with free keys at \/ has more keys than json-schema-faker makes for one object \(at most about 1,000\)\)/,
  );
  assert.doesNotMatch(ran.stderr, /were not found while additionalProperties is false/);
});

test('hx5: compare of a run with itself (one file twice, a folder and its results.json) is refused with exit 2, naming both', async () => {
  const dir2 = mkdtempSync(join(tmpdir(), 'jsonbench-self-'));
  try {
    const file = join(dir2, 'results.json');
    writeFileSync(file, JSON.stringify(results()));
    for (const args of [
      ['compare', file, file],
      ['compare', dir2, file],
      ['compare', dir2, dir2, '--format', 'md'],
    ]) {
      const ran = await cli(args);
      assert.equal(ran.code, 2, `${args.join(' ')}: ${ran.stderr}`);
      assert.match(ran.stderr, /is the same run as .*a run compared with itself is "same" in every case/);
      assert.equal(ran.stdout, '');
    }
    const other = results();
    other.startedAt = '2026-01-01T00:00:00.000Z';
    const otherFile = join(dir2, 'other.json');
    writeFileSync(otherFile, JSON.stringify(other));
    assert.equal((await cli(['compare', otherFile, file])).code, 0, 'two runs are compared');
    // hx18 A44: a threshold no case can pass made a --fail-on slower gate that never fails
    const loose = await cli(['compare', otherFile, file, '--threshold', '1e9', '--fail-on', 'slower']);
    assert.equal(loose.code, 2, loose.stderr);
    assert.match(
      loose.stderr,
      /--threshold: 1e9 is over 900%: a case would have to run more than 10× as long to count as slower/,
    );
    assert.equal((await cli(['compare', otherFile, file, '--threshold', '900%'])).code, 0, 'up to 900% is taken');
  } finally {
    rmSync(dir2, { recursive: true, force: true });
  }
});

test('hx5: a symbolic link loop given as --payload is said to be one, not "no such file"', async () => {
  const dir2 = mkdtempSync(join(tmpdir(), 'jsonbench-loop-'));
  try {
    symlinkSync(join(dir2, 'b.json'), join(dir2, 'a.json'));
    symlinkSync(join(dir2, 'a.json'), join(dir2, 'b.json'));
    const ran = await cli(['run', '--payload', join(dir2, 'a.json'), '--policy', 'quick', '--no-ledger']);
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(ran.stderr, /a\.json: a loop of symbolic links/);
  } finally {
    rmSync(dir2, { recursive: true, force: true });
  }
});

test('--target node@0 is refused as no target (hx25 r_node0: it installed a 0.x binary that cannot run the worker)', async () => {
  const r = await cli(['run', '--workload', 'weather-station', '--policy', 'quick', '--target', 'node@0']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--target: unknown target "node@0" \(known: .*node@<major> \(18 or later\)/);
});
