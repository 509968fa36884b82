import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serializers } from '../../src/serializers/index.js';
import { workloads } from '../../src/workloads/index.js';
import type { Workload } from '../../src/workloads/types.js';
import type { Direction } from '../../src/case/coordinates.js';
import type { SerializerAdapter } from '../../src/serializers/types.js';
import {
  invalidDatePayload,
  missingNullablePayload,
  nonNumericStringPayload,
  runCase,
  wrongTypePayload,
} from './cases.js';

/**
 * Every registered adapter × every registered workload × shape × direction either passes the
 * correctness gate on a small payload or gives a reason it cannot; and every adapter whose
 * deserializer claims to validate rejects wrong input.
 */

const adapters = await serializers.loadAll();
const all = await workloads.loadAll();
const directions: Direction[] = ['serialize', 'deserialize'];

/**
 * Why a case is expected to be unsupported (the reason it must give), from what the adapter and the
 * workload declare; undefined when the case must pass the gate. A case that turns unsupported
 * without one of these reasons fails (before, any non-empty reason passed).
 */
function expectedUnsupported(adapter: SerializerAdapter, workload: Workload, direction: Direction): RegExp | undefined {
  if (workload.variantOf) return /measured with another \.NET code shape .*; JavaScript serializers: measure /;
  if (!adapter.directions.includes(direction))
    return /serializes only; it has no parser|parses only; it has no serializer|validates; it has no serializer|deserialize only \(.* does not write JSON\)/;
  if (adapter.id === 'class-transformer' && direction === 'deserialize') return /converts but does not validate/;
  // users-settings asks snake_case names and indentation, which these schema-compiled writers cannot give
  if (
    workload.id === 'users-settings' &&
    direction === 'serialize' &&
    ['fast-json-stringify', 'ajv-jtd', 'typia'].includes(adapter.id)
  )
    return /has no naming policy or indentation/;
  return undefined;
}

for (const adapter of adapters) {
  for (const workload of all) {
    for (const shape of workload.shapes) {
      for (const direction of directions) {
        const expected = expectedUnsupported(adapter, workload, direction);
        test(`${adapter.id} ${direction}s ${workload.id}/${shape} ${expected ? 'as unsupported, saying why' : 'correctly'}`, async () => {
          const outcome = await runCase(adapter, workload, shape, direction);
          if (expected) {
            assert.equal(outcome.status, 'unsupported');
            assert.match(outcome.status === 'unsupported' ? outcome.reason : '', expected);
          } else assert.deepEqual(outcome, { status: 'ok' });
        });
      }
    }
  }
}

/** Prepares the adapter's deserializer for the workload's first shape (single, else many: one record). */
async function deserializer(
  adapter: SerializerAdapter,
  workload: Workload,
): Promise<((text: string) => unknown) | null> {
  if (adapter.supports(workload, 'deserialize') !== true) return null;
  const prepared = await adapter.prepare(workload, 'deserialize');
  return prepared.deserialize!;
}

const checking = adapters.filter((a) => a.deserializeClass === 'validate' || a.deserializeClass === 'transform');
/** class-transformer converts but never validates (documented in its adapter), so it is not held to rejecting. */
const validating = checking.filter((a) => a.id !== 'class-transformer');

test('the validate and transform adapters under test are the expected ones', () => {
  assert.deepEqual(checking.map((a) => a.id).sort(), [
    'ajv-jtd',
    'arktype',
    'class-transformer',
    'typebox',
    'typia',
    'valibot',
    'zod',
  ]);
});

for (const adapter of validating) {
  for (const workload of all) {
    test(`${adapter.id} rejects a wrong type in a ${workload.id} payload`, async (t) => {
      const deserialize = await deserializer(adapter, workload);
      if (!deserialize) return t.skip('deserialize unsupported');
      const bad = wrongTypePayload(workload)!;
      assert.throws(() => deserialize(bad.text), `accepted a wrong type at ${bad.where}`);
    });
    const missing = missingNullablePayload(workload);
    if (missing) {
      test(`${adapter.id} rejects a ${workload.id} payload whose nullable field is absent`, async (t) => {
        const deserialize = await deserializer(adapter, workload);
        if (!deserialize) return t.skip('deserialize unsupported');
        assert.throws(() => deserialize(missing.text), `accepted an absent ${missing.where}`);
      });
    }
    if (adapter.deserializeClass !== 'transform') continue;
    const nonNumeric = nonNumericStringPayload(workload);
    if (nonNumeric) {
      test(`${adapter.id} rejects a ${workload.id} numeric-string field that holds no number`, async () => {
        const deserialize = (await deserializer(adapter, workload))!;
        assert.throws(() => deserialize(nonNumeric.text), `accepted "twenty" at ${nonNumeric.where}`);
      });
    }
    const badDate = invalidDatePayload(workload);
    if (badDate) {
      test(`${adapter.id} rejects a ${workload.id} date field that holds no date`, async () => {
        const deserialize = (await deserializer(adapter, workload))!;
        assert.throws(() => deserialize(badDate.text), `accepted "not a date" at ${badDate.where}`);
      });
    }
  }
}

test('class-transformer converts without validating (a wrong type passes through), so its deserializer is unsupported in the transform class, saying so', async () => {
  const adapter = adapters.find((a) => a.id === 'class-transformer')!;
  const users = all.find((w) => w.id === 'users');
  assert.ok(users, 'the built-in users workload is loaded');
  assert.match(String(adapter.supports(users, 'deserialize')), /^class-transformer converts but does not validate/);
  assert.equal(adapter.supports(users, 'serialize'), true);
  const { deserialize } = await adapter.prepare(users, 'deserialize');
  const bad = wrongTypePayload(users)!;
  assert.equal((deserialize!(bad.text) as { id: unknown }).id, 12345);
});

test('typia generates its code at run time for a workload it has no template for, and passes the gate', async () => {
  const typia = adapters.find((a) => a.id === 'typia')!;
  const own: Workload = { ...all.find((w) => w.id === 'orders')!, id: 'my-own-workload' };
  assert.equal(typia.supports(own, 'deserialize'), true);
  const previous = process.env.JSONBENCH_CACHE;
  process.env.JSONBENCH_CACHE = mkdtempSync(join(tmpdir(), 'jsonbench-typia-'));
  try {
    for (const direction of ['serialize', 'deserialize'] as const) {
      assert.deepEqual(await runCase(typia, own, 'many', direction), { status: 'ok' });
    }
  } finally {
    if (previous === undefined) delete process.env.JSONBENCH_CACHE;
    else process.env.JSONBENCH_CACHE = previous;
  }
});

test('ajv-jtd rejects a property its schema does not declare (JTD forbids extra properties)', async () => {
  const ajv = adapters.find((a) => a.id === 'ajv-jtd')!;
  const company = all.find((w) => w.id === 'company');
  assert.ok(company, 'the built-in company workload is loaded');
  const deserialize = (await deserializer(ajv, company))!;
  assert.throws(() => deserialize('{"name":"A","employees":[],"founded":1999}'), /founded not allowed at position/);
});

test('superjson says a value it writes only with its meta envelope (a -0), instead of writing "-0" as plain JSON (hx31 b14)', async () => {
  const superjson = adapters.find((a) => a.id === 'superjson')!;
  const w = await workloads.load('weather-station');
  const prepared = await superjson.prepare(w, 'serialize');
  assert.equal(prepared.serialize!({ a: 1, list: [0, 2] }), '{"a":1,"list":[0,2]}');
  assert.throws(
    () => prepared.serialize!({ neg: -0 }),
    /^EnvelopeNeeded: superjson writes this value only with its \{ json, meta \} envelope \(meta \{"values":\{"neg":\["number"\]\},"v":1\}: a -0 is the string "-0" there\), which superjson.parse reads back; its plain JSON alone, what is measured here, is not this value's JSON$/,
  );
});
