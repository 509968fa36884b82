import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { policies, policyChanges, policyCopy, withAdaptive, type RunPolicy } from '../../src/config/policies.js';

/**
 * hx8 (issue 25, security): a config rewrote jsonbench's policy table (`policies.default` with quick's
 * launch plan, every confidence 0.5) and the report still said "policy default". The table is frozen
 * when its module loads; a run takes a copy of its policy; a policy that differs from the named one
 * at plan time is refused.
 */

test('a policy is taken as a copy: never the table itself, and the copy can be edited (the ledger tests delete from it)', () => {
  const copy = policyCopy('default')!;
  assert.notEqual(copy, policies.default);
  assert.notEqual(copy.measure, policies.default.measure);
  assert.deepEqual(copy, policies.default);
  assert.equal(Object.isFrozen(copy.measure), false);
  delete (copy.measure as { serializeTo?: string }).serializeTo;
  assert.equal(policies.default.measure.serializeTo, 'bytes');
  assert.equal(policyCopy('nope'), undefined);
  assert.equal(policyCopy('toString'), undefined);
});

test('policyChanges names what differs from the named policy, and leaves out what flags set', () => {
  const own = policyCopy('default')!;
  assert.deepEqual(policyChanges(own), []);
  // --resolve, --max-time, --case-timeout, --profile, --serialize-to: the flags' own fields
  const flagged: RunPolicy = {
    ...withAdaptive(own, { resolve: 0.01, maxCaseMs: 1000, maxRunMs: 2000 }),
    caseTimeoutMs: 5000,
    profile: 'steady',
    measure: { ...own.measure, serializeTo: 'string' },
  };
  assert.deepEqual(policyChanges(flagged), []);
  // hx8 SP8: default given quick's launch plan; PM8: the confidence lowered
  const quickPlan: RunPolicy = { ...own, launches: 1, sizes: 'smallest', maxRelaunches: 0 };
  assert.deepEqual(policyChanges(quickPlan), [
    'launches 1 (its own: 2)',
    'sizes "smallest" (its own: "default")',
    'maxRelaunches 0 (its own: 1)',
  ]);
  assert.deepEqual(policyChanges({ ...own, measure: { ...own.measure, confidence: 0.5 } }), [
    'measure.confidence 0.5 (its own: 0.999)',
  ]);
  assert.deepEqual(policyChanges({ ...own, name: 'fast' as RunPolicy['name'] }), ['name "fast" (no such policy)']);
});

test("a config that rewrites jsonbench's policy table at its top level fails to load, exit 2 (hx8 SP8)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-policy-'));
  try {
    const policiesUrl = new URL('../../src/config/policies.js', import.meta.url).href;
    const runUrl = new URL('../../src/cli/run.js', import.meta.url).href;
    writeFileSync(
      join(dir, 'rewrite.config.mjs'),
      `import { policies } from ${JSON.stringify(policiesUrl)};\nimport { NO_NUMBER_STATUSES } from ${JSON.stringify(runUrl)};\npolicies.default.launches = 1;\nNO_NUMBER_STATUSES.length = 0;\nexport default { serializers: [] };\n`,
    );
    writeFileSync(join(dir, 'tiny.json'), '{"a":1}');
    const mainUrl = new URL('../../src/cli/main.js', import.meta.url).href;
    const args = ['run', '--config', 'rewrite.config.mjs', '--payload', 'tiny.json', '--policy', 'quick'];
    args.push('--serializer', 'json', '--no-probes', '--no-ledger', '--out', join(dir, 'out'));
    const script = `import(${JSON.stringify(mainUrl)}).then((m) => m.main(${JSON.stringify(args)})).then((c) => { process.exitCode = c; });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', COLUMNS: '1000' },
      timeout: 120_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /rewrite\.config\.mjs/);
    assert.match(r.stderr, /Cannot assign to read only property 'launches'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
