import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, quickRunArgs } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * Serializers that slow the baseline beside them (hostile tester hx2, false success: a prepare()
 * replacing JSON.stringify with one under 2× slower was ranked "1.16× faster than JSON.stringify";
 * the `⊘` finding catches 2× and more). A pair launch seals the built-ins the baseline calls before
 * it loads the config (measure/builtin-seal.ts): any change fails the serializer as incorrect.
 */

const config = fileURLToPath(
  new URL('../../../test/fixtures/hostile/hostile3/baseline-tamper.config.mjs', import.meta.url),
);
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-tamper-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a serializer that changes JSON.stringify, TextEncoder.prototype.encode or Object.prototype (in prepare() or later, in its timed calls) is incorrect, naming the built-in; one that touches nothing is measured', async () => {
  const out = join(dir, 'tamper');
  const ran = await cli(
    quickRunArgs(config, 'slow-json,slow-encoder,proto-key,late-json,clean-json', 'serialize', out),
    { timeoutMs: 300_000 },
  );
  assert.equal(ran.code, 0, ran.stderr);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsFile;
  const of = (id: string) => results.cases.find((c) => c.serializer === id)!;
  const changed =
    /^it changed built-ins the baseline calls \(([^)]+)\): (.+)\. Its ratio would be against a baseline it changed/;
  for (const [id, what, when] of [
    ['slow-json', 'JSON.stringify', /^while loaded, prepared and checked$/],
    ['slow-encoder', 'TextEncoder.prototype.encode', /^while loaded, prepared and checked$/],
    ['proto-key', 'Object.prototype.hidden (added)', /^while loaded, prepared and checked$/],
    ['late-json', 'JSON.stringify', /^by (round \d+|the end of the launch)$/],
  ] as const) {
    const c = of(id);
    assert.equal(c.status, 'incorrect', `${id}: ${c.reason}`);
    const m = changed.exec(c.reason!);
    assert.ok(m, `${id}: ${c.reason}`);
    assert.match(m[1], when, id);
    assert.equal(m[2], what, id);
  }
  assert.equal(of('clean-json').status, 'measured', of('clean-json').reason);
});
