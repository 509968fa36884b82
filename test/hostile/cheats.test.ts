import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, type Ran } from './support.js';
import type { CaseResult, ResultsFile } from '../../src/results/types.js';

/**
 * Caches keyed on the input (hostile tester hx1 1.1, fixture cheats.config.mjs): each is caught by
 * behaviour after the timed rounds (measure/cache-checks.ts), or, when nothing can be changed in
 * what it returns, by the physical bound (analysers/too-fast.ts: bytes per ns), and is then never
 * recommended nor ranked first. The built-ins beside them are measured with no such finding.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const configPath = join(root, 'test/fixtures/hostile/hx1/cheats.config.mjs');
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-cheats-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const quick = ['--policy', 'quick', '--no-probes', '--no-ledger'];

let ws: { ran: Ran; results: ResultsFile };
before(async () => {
  const out = join(dir, 'ws');
  const ran = await cli(
    [
      'run',
      '--config',
      configPath,
      '--serializer',
      'json,fast-json-stringify,cheat-cheap-key,cheat-weakmap-keycount,cheat-text-cache,cheat-shallow-copy,cheat-length-clone',
      '--workload',
      'weather-station',
      ...quick,
      '--out',
      out,
    ],
    { timeoutMs: 300_000 },
  );
  ws = { ran, results: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile };
});
const caseOf = (r: ResultsFile, id: string, direction: string): CaseResult =>
  r.cases.find((c) => c.serializer === id && c.direction === direction)!;

test('serializers caching by a cheap key of their input (key count, first values), alone or per input object, are incorrect: the output did not follow a leaf changed in place', () => {
  assert.equal(ws.ran.code, 0, ws.ran.stderr);
  for (const id of ['cheat-cheap-key', 'cheat-weakmap-keycount']) {
    const c = caseOf(ws.results, id, 'serialize');
    assert.equal(c.status, 'incorrect', `${id}: ${c.reason}`);
    assert.match(
      c.reason!,
      // caught between two timed calls (hostile5: timed-check.ts roundChange), else by the change after the rounds
      /^(?:result cached between calls \(round \d+, sample \d+\): the output did not follow a change made in place to its input \(\$\.\S+\) between two timed calls|the output did not follow a change made in place to the input it was timed on \(\$\.\S+ set to .+ after the timed rounds\)): output differs at \$\.\S+ — what a result cached by the input object, or by part of its contents, gives$/,
    );
    assert.equal(c.mismatch?.when, 'timing');
  }
});

test('parsers caching by the text are incorrect: the same object twice, a shared nested object, or a length-and-prefix key that answers another text of that length', () => {
  const reason = (id: string) => {
    const c = caseOf(ws.results, id, 'deserialize');
    assert.equal(c.status, 'incorrect', `${id}: ${c.reason}`);
    return c.reason!;
  };
  // caught first at a round's end, back to back with the timed calls (measure/timed-check.ts roundEnd; hx3's gap
  // cache), before the cache checks after the rounds
  assert.match(
    reason('cheat-text-cache'),
    /^result shared between calls \(round \d+, sample \d+\): two (timed calls in a row|calls in a row on the same text) returned the same object \(a cache of results\)$/,
  );
  // a shallow copy shares its nested objects: found by identity since hx29 (cache-checks.ts sharedObjectAt), before
  // a change to one result is looked for in the next
  assert.match(
    reason('cheat-shallow-copy'),
    /^(?:two calls on the same text, after the timed rounds, returned the same object at \$\.\S+: one call's result is changed by a change to another's \(a cache of values\)|a change made to one call's result \(\$\.\S+ and others\) showed in the next call's result on the same text: the results share objects, as a cache's do)/,
  );
  assert.match(
    reason('cheat-length-clone'),
    /^for a text of the timed text's length with one value's digits or letters changed in place, result differs at \$\.\S+: what a result cached by the text's length, or by a part of it, gives$/,
  );
});

test('the built-ins beside them are measured with no too-fast finding (no false positive)', () => {
  for (const [id, direction] of [
    ['json', 'serialize'],
    ['fast-json-stringify', 'serialize'],
    ['json', 'deserialize'],
  ]) {
    const c = caseOf(ws.results, id, direction);
    assert.equal(c.status, 'measured', `${id} ${direction}: ${c.reason}`);
    assert.equal(c.findings.filter((f) => f.code === 'too-fast').length, 0, `${id} ${direction}`);
  }
  assert.doesNotMatch(ws.ran.stdout, /cheat-[\w-]+ (is|are) fastest|use cheat-/);
});

test('a text cache handing out read-only views (a Proxy: nothing can be changed in them) is incorrect at the gate (hostile3: a result must be materialised; it was measured and flagged too fast), and never recommended', async () => {
  const out = join(dir, 'proxy');
  const ran = await cli(
    [
      'run',
      '--config',
      configPath,
      '--serializer',
      'turbo-proxy,secure-json-parse',
      '--direction',
      'deserialize',
      '--payload',
      join(root, 'examples/response.json'),
      ...quick,
      '--out',
      out,
    ],
    { timeoutMs: 300_000 },
  );
  assert.equal(ran.code, 0, ran.stderr);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const c = caseOf(results, 'turbo-proxy', 'deserialize');
  assert.equal(c.status, 'incorrect', c.reason);
  assert.match(
    c.reason ?? '',
    /^the result is a Proxy \(structuredClone refuses it\): a lazy value computes when read/,
  );
  // its row says incorrect, with no number (the terminal's takeaway no longer repeats the rows: out22)
  assert.match(ran.stdout, /^ +turbo-proxy +— +— +— +✗ incorrect/m);
  // JSON.parse against secure-json-parse is a timing call (a noisy machine makes it too uncertain): either, never the cheat
  assert.match(ran.stdout, /keep the built-in JSON\.parse|too uncertain to call/);
  assert.doesNotMatch(ran.stdout, /use turbo-proxy|turbo-proxy is fastest/);
});
