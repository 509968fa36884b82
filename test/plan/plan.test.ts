import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planCases, sizesFor } from '../../src/plan/plan.js';
import { policies } from '../../src/config/policies.js';
import type { SerializerAdapter } from '../../src/serializers/types.js';
import type { Workload } from '../../src/workloads/types.js';

const workload: Workload = {
  id: 'tiny',
  description: 'tiny',
  sizes: [10, 100, 1000],
  defaultSizes: [10, 1000],
  shapes: ['list', 'many'],
  schema: { type: 'object', properties: { a: { type: 'number' } } },
  build: (n) => Array.from({ length: n }, (_, i) => ({ a: i })),
};
const adapter = (id: string, extra: Partial<SerializerAdapter> = {}): SerializerAdapter => ({
  id,
  family: 'builtin',
  directions: ['serialize', 'deserialize'],
  deserializeClass: 'parse',
  supports: () => true,
  prepare: () => ({ serialize: JSON.stringify, deserialize: JSON.parse }),
  ...extra,
});
const json = adapter('json');
const fast = adapter('fast', { deserializeClass: undefined });
const zod = adapter('zod', {
  family: 'validator',
  deserializeClass: 'transform',
  supports: (_w, d) => (d === 'serialize' ? 'validator: deserialize only' : true),
});
const check = adapter('check', { family: 'validator', deserializeClass: 'transform' });

test('the policy picks sizes: quick the smallest, default the defaults, long all; --size filters', () => {
  assert.deepEqual(sizesFor(workload, policies.quick), [10]);
  assert.deepEqual(sizesFor(workload, policies.default), [10, 1000]);
  assert.deepEqual(sizesFor(workload, policies.long), [10, 100, 1000]);
  assert.deepEqual(sizesFor(workload, policies.default, [100, 5]), [100]);
});

test('each group holds one class with its baseline first, and unsupported pairs are kept with their reason', () => {
  const groups = planCases(
    {
      workloads: [workload],
      serializers: [fast, zod, json, check],
      directions: ['serialize', 'deserialize'],
      policy: policies.quick,
    },
    [json, fast, zod, check],
  );
  const ser = groups.filter((g) => g[0].direction === 'serialize' && g[0].shape === 'list');
  assert.deepEqual(
    ser[0].map((c) => c.serializer),
    ['json', 'fast', 'check'],
  );
  assert.ok(ser[0].every((c) => c.baseline === 'json' && c.caseClass === 'serialize'));
  const unsupported = ser[1];
  assert.equal(unsupported[0].serializer, 'zod');
  assert.deepEqual(
    [unsupported[0].status, unsupported[0].status !== 'planned' && unsupported[0].reason],
    ['unsupported', 'validator: deserialize only'],
  );
  const de = groups.filter((g) => g[0].direction === 'deserialize' && g[0].shape === 'many');
  const transform = de.find((g) => g[0].caseClass === 'transform')!;
  assert.deepEqual(
    transform.map((c) => c.serializer),
    ['zod', 'check'],
  );
  assert.ok(transform.every((c) => c.baseline === 'zod'));
  const noDeserializer = de.find((g) => g.some((c) => c.serializer === 'fast'))!;
  const fastDe = noDeserializer.find((c) => c.serializer === 'fast')!;
  assert.equal(fastDe.status, 'unsupported');
  assert.match(fastDe.reason, /no deserializer/);
  assert.equal(groups.flat().length, 2 /* shapes */ * 2 /* directions */ * 4 /* serializers */);
});

test('the class baseline joins its group even when --serializer left it out', () => {
  const groups = planCases(
    { workloads: [workload], serializers: [fast], directions: ['serialize'], policy: policies.quick },
    [json, fast],
  );
  assert.deepEqual(
    groups[0].map((c) => c.serializer),
    ['json', 'fast'],
  );
  assert.equal(groups[0][0].id, 'tiny/10/list/serialize/json');
});

test('a supports() that throws or answers false is a fault of the adapter (failed), not an unsupported pair', () => {
  const threw = adapter('threw', {
    supports: () => {
      throw new Error('nope');
    },
  });
  const no = adapter('no', { supports: (() => false) as never });
  const groups = planCases(
    { workloads: [workload], serializers: [json, threw, no], directions: ['serialize'], policy: policies.quick },
    [json, threw, no],
  );
  const c = groups.flat().find((x) => x.serializer === 'threw')!;
  assert.deepEqual([c.status, c.status !== 'planned' && c.reason], ['failed', 'supports() threw: nope']);
  const f = groups.flat().find((x) => x.serializer === 'no')!;
  assert.equal(f.status, 'failed');
  assert.match(f.reason, /supports\(\) returned false; it must return true or a reason/);
});

test('a supports() answer whose toString throws, or a Promise, fails its case saying so (hx19 T04: the run was refused)', () => {
  const odd = adapter('odd', {
    supports: (() => ({
      toString() {
        throw new Error('boom');
      },
    })) as never,
  });
  const later = adapter('later', { supports: (async () => true) as never });
  const evil = adapter('evil', {
    supports: (() => {
      throw Object.create(null);
    }) as never,
  });
  const groups = planCases(
    {
      workloads: [workload],
      serializers: [json, odd, later, evil],
      directions: ['serialize'],
      policy: policies.quick,
    },
    [json, odd, later, evil],
  );
  const reason = (id: string) => {
    const c = groups.flat().find((x) => x.serializer === id)!;
    assert.equal(c.status, 'failed', id);
    return c.status === 'failed' ? c.reason : '';
  };
  assert.equal(
    reason('odd'),
    'supports() returned a value of type object; it must return true or a reason (a non-empty string)',
  );
  assert.match(reason('later'), /^supports\(\) returned a Promise \(supports\(\) must answer at once, not async\)/);
  assert.equal(reason('evil'), 'supports() threw: a value of no prototype (not an Error)');
});

test("a supports() that changes jsonbench's own process (replaces JSON.stringify, adds a toJSON to Object.prototype) fails its case and is put back", () => {
  const realStringify = JSON.stringify;
  const patcher = adapter('patcher', {
    supports: () => {
      JSON.stringify = (() => '{}') as typeof JSON.stringify;
      return true;
    },
  });
  const getter = adapter('getter', {
    supports: () => {
      Object.defineProperty(Object.prototype, 'toJSON', { get: () => () => 'x', configurable: true });
      return true;
    },
  });
  const groups = planCases(
    { workloads: [workload], serializers: [json, patcher, getter], directions: ['serialize'], policy: policies.quick },
    [json, patcher, getter],
  );
  assert.equal(JSON.stringify, realStringify);
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'toJSON'), false);
  const p = groups.flat().find((x) => x.serializer === 'patcher')!;
  assert.equal(p.status, 'failed');
  assert.match(
    (p as { reason?: string }).reason ?? '',
    /supports\(\) changed jsonbench's own process: JSON\.stringify \(put back/,
  );
  const g = groups.flat().find((x) => x.serializer === 'getter')!;
  assert.match((g as { reason?: string }).reason ?? '', /Object\.prototype\.toJSON \(added\)/);
  assert.equal(groups.flat().find((x) => x.serializer === 'json')!.status, 'planned');
});
