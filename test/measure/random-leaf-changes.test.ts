import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareCase } from '../../src/measure/prepare-case.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { roundChanges, RANDOM_LEAF_CHANGES } from '../../src/measure/in-place.js';
import { backToBackChanges } from '../../src/measure/cache-checks.js';
import { resolvePayload } from '../../src/payload/workload.js';
import { serializers } from '../../src/serializers/index.js';
import { makeOp } from '../../src/measure/sink.js';
import type { TimedCheckFailure } from '../../src/measure/timed-check.js';
import { policies } from '../../src/config/policies.js';
import { workloads } from '../../src/workloads/index.js';
import { unitView } from '../../src/workloads/unit.js';
import type { SerializerAdapter } from '../../src/serializers/types.js';
import { roundsFailure } from './rounds-failure.js';

/**
 * The changes made in place between two timed calls at leaves drawn at random (src/measure/in-place.ts
 * roundChanges): hx8 section 7, cfg8/throttled-sparsecache.config.mjs — a cache keyed by the input object, validated
 * only at the first, middle and last leaf (±8) and the root's key count, its hit spun to 0.85× of a miss, passed
 * the cost checks and read "tsparse looks 1.26× faster" on users · 1000 · list.
 */

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/payload/', import.meta.url));
const WIN = 8;
type Leaf = [(string | number)[], unknown];
function leaves(v: unknown, out: Leaf[], path: (string | number)[] = []): Leaf[] {
  if (v === null || typeof v !== 'object') return out;
  const ks: (string | number)[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
  for (const k of ks) {
    const x = (v as Record<string | number, unknown>)[k];
    if (x !== null && typeof x === 'object') leaves(x, out, [...path, k]);
    else if (x !== null) out.push([[...path, k], x]);
  }
  return out;
}

/** hx8's sparse-probe identity cache (unthrottled: the check needs no threshold). */
function sparse(): (v: unknown) => string {
  const cache = new WeakMap<object, { t: string; n: number; p: Leaf[] }>();
  return (v) => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    const e = cache.get(v);
    if (e && e.n === Object.keys(v).length) {
      const ok = e.p.every(
        ([ks, x]) => ks.reduce<unknown>((at, k) => (at as Record<string | number, unknown>)?.[k], v) === x,
      );
      if (ok) return e.t;
    }
    const t = JSON.stringify(v);
    const all = leaves(v, []);
    const pick = new Set<number>();
    for (const c of [0, Math.floor(all.length / 2), all.length - 1])
      for (let i = c - WIN; i <= c + WIN; i++) if (i >= 0 && i < all.length) pick.add(i);
    cache.set(v, { t, n: Object.keys(v).length, p: [...pick].map((i) => all[i]) });
    return t;
  };
}

const policy = {
  ...policies.quick.measure,
  sampleTargetMs: 0.5,
  samplesPerRound: 3,
  minRounds: 3,
  maxRounds: 3,
  timeCapMs: 60_000,
};

async function timed(serialize: (v: unknown) => string): Promise<TimedCheckFailure | undefined> {
  const w = await workloads.load('users');
  const text = JSON.stringify(w.build(1000, 42) as unknown);
  const adapter = { id: 'sparse', family: 'builtin', directions: ['serialize'], prepare: () => ({ serialize }) };
  const p = await prepareCase(adapter as unknown as SerializerAdapter, w, {
    shape: 'list',
    direction: 'serialize',
    caseClass: 'parse',
  });
  assert.equal(p.check(text), null, 'passes the gate');
  const a = p.inputs(text);
  const b = p.inputs(text);
  return roundsFailure(
    { op: makeOp(p.call, a, b), opsPerSample: 4, checks: p.timedChecks('serializer', text, [a, b]) },
    policy,
  );
}

test(`the rounds change ${RANDOM_LEAF_CHANGES} leaves drawn at random first, then the first, a middle and the last`, async () => {
  const w = unitView(await workloads.load('users'), 'list');
  const wire = w.build(1000, 42) as unknown;
  const c = { view: w, wire, wireInput: true, inputOf: (x: unknown) => x };
  const paths = () => roundChanges(c).map((x) => x.path);
  const one = paths();
  assert.equal(one.length, RANDOM_LEAF_CHANGES + 3);
  assert.deepEqual(one.slice(RANDOM_LEAF_CHANGES), ['$[0].firstName', '$[500].firstName', '$[999].userName']);
  const draws = new Set(Array.from({ length: 5 }, () => paths().slice(0, RANDOM_LEAF_CHANGES).join()));
  assert.ok(draws.size > 1, 'other leaves per call');
});

test('hx8 sparse-probe cache: its output on a leaf changed at random between timed calls is stale, and the case fails', async () => {
  const e = await timed(sparse());
  assert.ok(e, 'caught');
  assert.match(
    e.failure.reason,
    /^result cached between calls \(round [123], sample 3\): the output did not follow a change made in place to its input/,
  );
});

test('JSON.stringify follows every change', async () => {
  assert.equal(await timed((v) => JSON.stringify(v)), undefined);
});

test('no change is made under a union: every changeable leaf of api-response.json still matches fast-json-stringify and typia schemas', async () => {
  // ci 2026-12-06: a random leaf hit attachments[].type, a discriminated union's tag ("image" → "jmage"); both threw
  const payload = await resolvePayload(join(FIXTURES, 'api-response.json'));
  const [w] = payload.workloads;
  const wire = JSON.parse(readFileSync(join(FIXTURES, 'api-response.json'), 'utf8')) as unknown;
  const every = backToBackChanges({ view: w, wire, wireInput: true, inputOf: (x: unknown) => x }, (xs) => [...xs]);
  assert.ok(every.length > 50, `changes at many leaves (${every.length})`);
  assert.deepEqual(
    every.filter((c) => /attachments|score/.test(c.path)).map((c) => c.path),
    [],
    'none under the discriminated union or the union of integer and string',
  );
  for (const id of ['fast-json-stringify', 'typia']) {
    const adapter = await serializers.load(id);
    const p = await prepareCase(adapter, w, { shape: 'single', direction: 'serialize', caseClass: 'serialize' });
    for (const c of every) {
      const text = JSON.stringify(c.wire);
      assert.equal(p.check(text), null, `${id} with ${c.path} changed`);
    }
  }
});
