import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { variantPathOf } from '../../src/case/coordinates.js';
import { writePayload, type PayloadFile } from '../../src/plan/payloads.js';
import { prepareCase } from '../../src/measure/prepare-case.js';
import { planCases } from '../../src/plan/plan.js';
import { expandTargets } from '../../src/plan/targets.js';
import { runGroups } from '../../src/run/runner.js';
import { launchWorker } from '../../src/runtimes/launch.js';
import { prepareConfig } from '../../src/config/compile-config.js';
import { policies, type RunPolicy } from '../../src/config/policies.js';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import type { SerializerAdapter } from '../../src/serializers/types.js';
import type { CaseResult } from '../../src/results/types.js';
import { caseReason } from '../../src/report/reason.js';

/**
 * The gate learns from the string probes (issue 11): the gate's second payload (another seed) also
 * carries hostile strings in the payload's own plain-string fields, so a timed case whose output
 * breaks on them is `incorrect` without anyone asking for probes. Checked on the shelf's broken
 * string writers (test/fixtures/probes/broken.mjs): both pass the main `users` payload (faker
 * names hold no quote, backslash or lone surrogate) and fail the variant.
 */

const configPath = fileURLToPath(new URL('../../../test/fixtures/probes/broken.mjs', import.meta.url));
const shelf = new Map(
  ((await import(configPath)) as { default: { serializers: SerializerAdapter[] } }).default.serializers.map((a) => [
    a.id,
    a,
  ]),
);
const SEED = 42;

let dir: string;
let payload: PayloadFile;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jsonbench-gate-variant-'));
  payload = await writePayload(join(dir, 'payloads'), await workloads.load('users'), 100, SEED);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the variant payload holds hostile strings in plain-string fields only; emails and ids keep their form', () => {
  const main = JSON.parse(readFileSync(payload.path, 'utf8')) as Record<string, unknown>[];
  const variant = JSON.parse(readFileSync(variantPathOf(payload.path), 'utf8')) as Record<string, unknown>[];
  assert.equal(variant.length, main.length);
  const first = variant[0];
  assert.equal(typeof first.firstName, 'string');
  assert.equal(
    (first.firstName as string).length,
    100,
    'the first plain string is the 100-character sample of every class',
  );
  for (const c of ['"', '\\', '\u0000', '\ud800', '\udc00', '\u{1F600}'])
    assert.ok((first.firstName as string).includes(c), `holds ${JSON.stringify(c)}`);
  assert.match(
    String(first.email),
    /^[^"\\\u0000-\u001f]+@[^"\\\u0000-\u001f]+$/,
    'a format: email field stays an email',
  );
  assert.equal(typeof first.id, typeof main[0].id, 'ids keep their type');
  assert.notDeepEqual(variant[50], main[50], 'another seed: records past the hostile samples differ too');
});

for (const id of ['no-escape', 'long-unescaped']) {
  test(`the shelf's ${id} passes the gate on the main payload and fails it on the variant`, async () => {
    const users = await workloads.load('users');
    const prepared = await prepareCase(shelf.get(id)!, users, {
      shape: 'list',
      direction: 'serialize',
      caseClass: 'serialize',
    });
    assert.equal(prepared.check(readFileSync(payload.path, 'utf8')), null, 'the main payload has no hostile string');
    const failure = prepared.check(readFileSync(variantPathOf(payload.path), 'utf8'));
    assert.ok(failure, 'the variant breaks it');
    assert.match(failure.reason, /^output is not (valid JSON|well-formed Unicode)/);
  });
}

test(
  'a timed run: the broken string writers are incorrect (`mismatch.on: variant`, said first in reports), the json baseline is measured',
  { timeout: 180_000 },
  async () => {
    const policy: RunPolicy = {
      ...policies.quick,
      caseTimeoutMs: 30_000,
      measure: {
        ...policies.quick.measure,
        warmupMinMs: 20,
        timeCapMs: 200,
        minRounds: 2,
        samplesPerRound: 2,
        allocWindows: 3,
      },
    };
    const prepared = await prepareConfig(configPath, dir);
    const all = await serializers.loadAll(prepared.config.serializers);
    const chosen = all.filter((s) => ['json', 'no-escape', 'long-unescaped'].includes(s.id));
    const users = await workloads.load('users');
    const groups = expandTargets(
      planCases({ workloads: [users], serializers: chosen, sizes: [100], directions: ['serialize'], policy }, all),
      [{ id: 'node', runtime: 'node', version: process.versions.node }],
      false,
    );
    const results: CaseResult[] = (
      await runGroups({
        groups,
        payloads: new Map([[payload.key, payload]]),
        policy,
        configPath: prepared.modulePath,
        partialPath: join(dir, 'results.partial.jsonl'),
        launchFor: () => launchWorker,
      })
    ).filter((r) => r.status !== 'unsupported');
    const status = Object.fromEntries(results.map((r) => [`${r.shape}/${r.serializer}`, r.status]));
    assert.deepEqual(status, {
      'list/json': 'measured',
      'many/json': 'measured',
      'list/no-escape': 'incorrect',
      'many/no-escape': 'incorrect',
      'list/long-unescaped': 'incorrect',
      'many/long-unescaped': 'incorrect',
    });
    for (const r of results.filter((c) => c.status === 'incorrect')) {
      // the variant is a field (reports say it first: report/reason.ts), not a note at the reason's end
      assert.equal(r.mismatch?.on, 'variant', `${r.id}: ${JSON.stringify(r.mismatch)}`);
      assert.match(r.reason ?? '', /^output is not (valid JSON|well-formed Unicode)/, r.reason);
      assert.doesNotMatch(r.reason ?? '', /variant/, `${r.id}: ${r.reason}`);
      assert.equal(r.mismatch?.side, 'serializer');
      assert.match(caseReason(r), /^on jsonbench's hostile-string variant, not the payload itself: output is not/);
    }
    for (const r of results.filter((c) => c.status === 'measured'))
      assert.equal(r.mismatch, undefined, `${r.id}: a measured case has no mismatch`);
  },
);
