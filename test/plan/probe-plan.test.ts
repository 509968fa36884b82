import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdsNonJsonValue, notInJsonText, relevantProbes } from '../../src/plan/probe-plan.js';
import { loadCatalog } from '../../src/probes/index.js';
import { inferSchema } from '../../src/payload/infer.js';
import { samplesOf } from '../../src/payload/read.js';
import { payloadWorkloads } from '../../src/payload/workload.js';
import { documentSource } from '../payload/support.js';

test("a payload's relevant probes leave out those about values JSON text cannot contain (BigInt, undefined, holes) but keep NaN/±Infinity and an Invalid Date for its numbers and dates", async () => {
  // integers, numbers, arrays, objects, a date-time string: every topic the edge probes ask about
  const source = documentSource(
    JSON.stringify({
      id: 12,
      price: 9.5,
      tags: ['a', 'b'],
      items: [{ n: 1 }],
      at: '2024-02-29T12:34:56.789Z',
      note: null,
    }),
    'x.json',
  );
  const { schema } = await inferSchema(samplesOf(source));
  const [workload] = payloadWorkloads(source, schema);
  const { probes } = relevantProbes(loadCatalog({}), [workload]);
  const ids = probes.map((p) => p.id);
  for (const id of ['edge.bigint.2^53+1', 'edge.undefined.member', 'edge.array.hole', 'edge.array.undefined']) {
    assert.equal(ids.includes(id), false, `${id} is about a value JSON text cannot hold`);
  }
  // what JSON text can hold on the same topics stays: 2^53+1 on the wire, -0, the largest safe integer
  for (const id of ['edge.number.-0', 'edge.int.2^53-1', 'safety.parse.undeclared.__proto__.plain'])
    assert.ok(ids.includes(id), `${id} is relevant`);
  // issue 24: what this payload cannot reach is left out — integers beyond 2^53 (its ids are small), a declared __proto__ (none declared)
  for (const id of ['edge.int.2^53+1', 'edge.int.2^63-1', 'safety.declared.__proto__'])
    assert.equal(ids.includes(id), false, `${id} is not reachable by this payload`);
  const wide = documentSource('{"id":9007199254740993}', 'wide.json');
  const [wideWorkload] = payloadWorkloads(wide, (await inferSchema(samplesOf(wide))).schema);
  const wideIds = relevantProbes(loadCatalog({}), [wideWorkload]).probes.map((p) => p.id);
  for (const id of ['edge.int.2^53+1', 'edge.int.2^63-1']) assert.ok(wideIds.includes(id), `${id} with an int64 field`);
  // issue 24: a service makes NaN, Infinity and Invalid Dates before writing; a payload with numbers and dates can pay them
  for (const id of ['edge.number.NaN', 'edge.number.+Infinity', 'edge.number.-Infinity', 'edge.date.invalid'])
    assert.ok(ids.includes(id), `${id} is relevant to a payload with numbers and a date-time`);
  // a payload of arrays and numbers alone has no object a prototype key could land in
  const arrays = documentSource('[[1, 2.5], [3, 4]]', 'arrays.json');
  const [onlyArrays] = payloadWorkloads(arrays, (await inferSchema(samplesOf(arrays))).schema);
  const chosen = relevantProbes(loadCatalog({}), [onlyArrays]).probes.map((p) => p.id);
  assert.equal(chosen.filter((id) => id.startsWith('safety.')).length, 0, chosen.join(', '));
  assert.ok(chosen.includes('edge.number.NaN'));
});

test('NaN/±Infinity and an Invalid Date are relevant exactly for the value kinds the schema holds: numbers, dates (issue 24)', async () => {
  const edgeIds = async (text: string) => {
    const source = documentSource(text, 'x.json');
    const [w] = payloadWorkloads(source, (await inferSchema(samplesOf(source))).schema);
    return relevantProbes(loadCatalog({}), [w])
      .probes.map((p) => p.id)
      .filter((id) => /^edge\.(number\.(NaN|\+Infinity|-Infinity)|date\.invalid)$/.test(id))
      .sort();
  };
  const numbers = ['edge.number.+Infinity', 'edge.number.-Infinity', 'edge.number.NaN'];
  assert.deepEqual(await edgeIds('{"price":9.5,"name":"pen"}'), numbers);
  assert.deepEqual(await edgeIds('{"at":"2024-02-29T12:34:56.789Z","name":"pen"}'), ['edge.date.invalid']);
  assert.deepEqual(
    await edgeIds('{"at":"2024-02-29T12:34:56.789Z","n":1.5}'),
    [...numbers, 'edge.date.invalid'].sort(),
  );
  assert.deepEqual(await edgeIds('{"name":"pen","ok":true,"tags":["a"]}'), []);
});

test('holdsNonJsonValue finds what JSON text cannot hold, however deep; notInJsonText asks it of serialize-only probes', () => {
  const holey: number[] = [1];
  holey[2] = 3;
  for (const v of [
    { a: [{ b: 1n }] },
    { n: Number.NaN },
    [1, undefined],
    holey,
    { d: new Date(Number.NaN) },
    { f: () => 1 },
  ])
    assert.equal(holdsNonJsonValue(v), true, String(v));
  for (const v of [{ a: [{ b: 1 }], s: 'x', z: null, neg: -0 }, new Date(0), []])
    assert.equal(holdsNonJsonValue(v), false, JSON.stringify(v));
  const catalog = loadCatalog({});
  const off = catalog.filter(notInJsonText).map((p) => p.id);
  assert.ok(off.includes('edge.bigint.2^63-1') && off.includes('edge.number.-Infinity'));
  assert.equal(off.includes('edge.number.-0'), false);
});
