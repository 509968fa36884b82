import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { prepareCase } from '../../src/measure/prepare-case.js';
import { INPUT_CACHE_RATIO, TEXT_CACHE_RATIO } from '../../src/measure/cache-checks.js';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { renderPayload } from '../../src/plan/payloads.js';
import type { SerializerAdapter } from '../../src/serializers/types.js';
import type { Direction, Shape } from '../../src/case/coordinates.js';

/**
 * The cache cost checks (src/measure/cache-checks.ts inputCacheCost, textCacheCost) on hx7's caches that every
 * check of behaviour lets through (fixtures in test/fixtures/hostile/hostile8/), and on the honest baselines:
 *
 * - leafcache: a serializer cache keyed by the input object that walks the input comparing every key and leaf with
 *   `===` before answering ("4.71× faster" than JSON.stringify on users · 1000 · list): a new input object with
 *   every value changed costs it a JSON.stringify and a walk, the repeated one a walk.
 * - throttled copy cache: a parser caching by the whole text whose hit spins to 0.55× of a parse ("1.86× faster"
 *   on users · 100 · list): under the old 2.5× threshold.
 */

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../../test/fixtures/hostile/hostile8/${name}`, import.meta.url));

async function configAdapter(file: string): Promise<SerializerAdapter> {
  const config = (await import(fixture(file))) as { default: { serializers: SerializerAdapter[] } };
  return config.default.serializers[0];
}

/** Prepares `adapter` on `workload` · `size` · `shape`, gates it, runs it `warm` times on its timed input (as the rounds do), then the cache checks. */
async function cacheChecks(
  adapter: SerializerAdapter,
  workload: string,
  size: number,
  shape: Shape,
  direction: Direction,
  warm = 200,
) {
  const w = await workloads.load(workload);
  const text = renderPayload(w, size, 42);
  const side = await prepareCase(adapter, w, {
    shape,
    direction,
    caseClass: direction === 'serialize' ? 'serialize' : 'parse',
    serializeTo: 'bytes',
  });
  assert.equal(side.check(text), null, 'the gate passes');
  const copy = side.inputs(text);
  for (let i = 0; i < warm; i++) for (const unit of copy) side.call(unit);
  return side.cacheChecks(text, copy);
}

test('a serializer cache keyed by the input object and validated by a === walk (hx7 leafcache) is caught by its cost', async () => {
  const f = await cacheChecks(await configAdapter('leafcache.config.mjs'), 'users', 1000, 'list', 'serialize');
  assert.ok(f, 'a failure');
  assert.match(
    f.reason,
    /^an input object it had never seen \(every value changed, same schema\) cost \d+\.\d× the input it was timed on per call \(twice in a row\): results cached by the input/,
  );
  assert.match(f.expected, new RegExp(`at most ${INPUT_CACHE_RATIO}×`));
});

test('the same cache on users · 100 · many (one record per call) is caught too', async () => {
  // One record per call: the cache's walk is closer to the work than on a list, and the check's statistic reads
  // 2.1–3.4× against Node 20's 1.7 (30 fresh processes, load 6–7, 2026-12-06); one CI run under load saw no failure
  // once (2026-12-06 16:04–16:20, load 1.4–4.7, beside another run). So up to 3 measurements, each prepared and
  // warmed afresh, and one catch required: a check that no longer sees this cache fails all three.
  const adapter = await configAdapter('leafcache.config.mjs');
  let f: Awaited<ReturnType<typeof cacheChecks>> = null;
  const misses: string[] = [];
  for (let attempt = 0; attempt < 3 && !f; attempt++) {
    f = await cacheChecks(adapter, 'users', 100, 'many', 'serialize', 50);
    if (!f) misses.push(`load ${loadavg()[0].toFixed(1)}`);
  }
  assert.match(
    f?.reason ?? `none in ${misses.length} measurements (${misses.join(', ')})`,
    /^an input object it had never seen/,
  );
});

test('a whole-text copy cache throttled to 0.5× of its least miss (hx7 tcopy) is caught by the text cost', async () => {
  const f = await cacheChecks(
    await configAdapter('throttled-copycache.config.mjs'),
    'users',
    100,
    'list',
    'deserialize',
  );
  assert.ok(f, 'a failure');
  assert.match(f.reason, /^a text it had never seen cost \d+\.\d× the repeated timed text per call/);
  assert.match(f.expected, new RegExp(`at most ${TEXT_CACHE_RATIO}×`));
});

test('JSON.stringify and JSON.parse pass both cost checks (users · 1000 · list, weather-station)', async () => {
  const json = await serializers.load('json');
  for (const [workload, size, shape] of [
    ['users', 1000, 'list'],
    ['weather-station', 1, 'single'],
  ] as const)
    for (const direction of ['serialize', 'deserialize'] as const)
      assert.equal(await cacheChecks(json, workload, size, shape, direction), null, `${workload} ${direction}`);
});

test('a serializer cache keyed on fields the changes leave alone (the length and the first uuid) is wrong on a new input', async () => {
  const cache = new Map<string, string>();
  const idKeyed: SerializerAdapter = {
    id: 'id-keyed',
    family: 'builtin',
    directions: ['serialize'],
    supports: () => true,
    prepare: () => ({
      serialize: (v: unknown) => {
        const list = v as { id: string }[];
        const key = `${list.length}:${list[0].id}`;
        let text = cache.get(key);
        if (text === undefined) cache.set(key, (text = JSON.stringify(v)));
        return text;
      },
    }),
  };
  const f = await cacheChecks(idKeyed, 'users', 100, 'list', 'serialize', 10);
  assert.match(
    f?.reason ?? 'none',
    /^for a new input object with every value its schema lets change changed, .*: what a result cached by a part of the input's contents gives$/,
  );
});
