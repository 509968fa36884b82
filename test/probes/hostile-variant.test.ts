import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostileVariant, variantSamples } from '../../src/probes/hostile-variant.js';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { unitView, unitsOf } from '../../src/workloads/unit.js';
import { caseIo, checkCase } from '../../src/measure/gate.js';
import { HOSTILE_CLASSES } from '../../src/probes/hostile-strings.js';
import type { SchemaNode } from '../../src/workloads/schema.js';

/** The hostile variant: only plain strings change, deterministically, and the built-in baseline still passes the gate on it. */

const schema: SchemaNode = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    at: { type: 'string', format: 'date-time', asDate: true },
    price: { type: 'number', fromString: true },
    status: { type: 'enum', values: ['a', 'b'] },
    note: { type: 'string', nullable: true },
    tags: { type: 'array', items: { type: 'string' } },
  },
};
const wire = {
  id: '0b6f…',
  name: 'Ada',
  at: '2024-01-01T00:00:00Z',
  price: '9.50',
  status: 'a',
  note: null,
  tags: ['x', 'y'],
  extra: 'kept',
};

test('only plain string fields receive hostile strings; formats, dates, numeric strings, enums, nulls and undeclared keys stay', () => {
  const { value, placed } = hostileVariant(schema, undefined, wire);
  const v = value as typeof wire;
  assert.deepEqual(
    placed.map((p) => p.path),
    ['$.name', '$.tags[0]', '$.tags[1]'],
  );
  for (const k of ['id', 'at', 'price', 'status', 'note', 'extra'] as const) assert.equal(v[k], wire[k], k);
  assert.notEqual(v.name, 'Ada');
  assert.equal(wire.name, 'Ada', 'the input is not changed');
});

test('the first sample holds every hostile class, so a payload with one string field still meets them all', () => {
  const first = variantSamples()[0];
  assert.equal(first.name, 'all-classes.L100');
  assert.equal(first.value.length, 100);
  for (const c of ['"', '\\', '\u0000', '\u001f', '\u2028', '\ud800', '\udc00', '\u{1F600}'])
    assert.ok(first.value.includes(c), JSON.stringify(c));
  assert.equal(variantSamples().length, 2 + 4 * HOSTILE_CLASSES.length);
});

test('the variant is deterministic and survives JSON (lone surrogates are escaped in the payload text)', () => {
  const a = hostileVariant(schema, undefined, wire).value;
  assert.deepEqual(hostileVariant(schema, undefined, wire).value, a);
  assert.deepEqual(JSON.parse(JSON.stringify(a)), a);
});

test('on every built-in workload the json baseline passes the gate with the hostile variant, and every workload receives hostile strings', async () => {
  const json = await serializers.load('json');
  for (const workload of await workloads.loadAll()) {
    const size = Math.min(...workload.sizes);
    const { value, placed } = hostileVariant(
      workload.schema,
      workload.wire?.naming,
      JSON.parse(JSON.stringify(workload.build(size, 43))),
    );
    assert.ok(placed.length >= 1, `${workload.id}: no plain string field`);
    const parsed = JSON.parse(JSON.stringify(value, null, workload.wire?.indent));
    for (const shape of workload.shapes) {
      const view = unitView(workload, shape);
      for (const direction of ['serialize', 'deserialize'] as const) {
        const prepared = await json.prepare(view, direction);
        const failure = checkCase(
          prepared,
          view,
          direction,
          caseIo(view, direction, direction === 'serialize' ? 'serialize' : 'parse', unitsOf(parsed, shape)),
        );
        assert.equal(failure, null, `${workload.id}/${shape} ${direction}: ${failure?.reason}`);
      }
    }
  }
});
