import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptsInvalid, invalidTexts, MAX_INVALID_BYTES, MAX_INVALID_TEXTS } from '../../src/measure/rejects.js';
import { unitView } from '../../src/workloads/unit.js';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { prepareCase } from '../../src/measure/prepare-case.js';
import type { Workload } from '../../src/workloads/types.js';

/**
 * The texts a validate or transform deserializer must reject (src/measure/rejects.ts): a wrong type at every
 * required plain property path and a missing key for every required key, arrays' items drawn at random (hx8
 * section 6: cfg8/fewcheck checked only what the gate's first two texts probed and was tabled as a validator).
 */

const users = unitView(await workloads.load('users'), 'list');
const usersText = JSON.stringify(users.build(1000, 42) as unknown);
const FIELDS = ['id', 'firstName', 'lastName', 'fullName', 'userName', 'email'];

/** hx8's cfg8/fewcheck: the keys of the first unit's first object and the type at the end of its first-key path, as first seen. */
function fewcheck(): (t: string) => unknown {
  let model: { keys: string[]; p: (string | number)[]; t: string } | null = null;
  const first = (v: unknown) => (Array.isArray(v) ? (v[0] as unknown) : v);
  const typeOf = (x: unknown) => (x === null ? 'null' : typeof x);
  return (t) => {
    const v = JSON.parse(t) as unknown;
    if (!model) {
      const p: (string | number)[] = [];
      let at = v;
      while (at !== null && typeof at === 'object') {
        const k = Array.isArray(at) ? 0 : Object.keys(at)[0];
        if (k === undefined) break;
        p.push(k);
        at = (at as Record<string | number, unknown>)[k];
      }
      const f = first(v);
      model = { keys: f && typeof f === 'object' ? Object.keys(f) : [], p, t: typeOf(at) };
      return v;
    }
    const f = first(v) as Record<string, unknown>;
    if (f === null || typeof f !== 'object') throw new Error('not an object');
    for (const k of model.keys) if (!(k in f)) throw new Error('missing ' + k);
    let at = v;
    for (const k of model.p) at = (at as Record<string | number, unknown>)[k];
    if (typeOf(at) !== model.t) throw new Error('bad type');
    return v;
  };
}

/** A validator of every item that checks the keys and types of `fields` only (`firstOnly`: of the first item only). */
function partial(fields: readonly string[], firstOnly = false): (t: string) => unknown {
  return (t) => {
    const v = JSON.parse(t) as Record<string, unknown>[];
    for (const u of firstOnly ? v.slice(0, 1) : v)
      for (const k of fields) {
        if (!(k in u)) throw new Error('missing ' + k);
        if (typeof u[k] !== 'string') throw new Error('bad type ' + k);
      }
    return v;
  };
}

test('users · list: a wrong type and a missing key for each of the 6 fields, each at an item drawn at random', () => {
  const texts = invalidTexts(users, usersText);
  assert.equal(texts.length, 12);
  const fields = (re: RegExp) =>
    texts
      .map((t) => re.exec(t.what)?.[1])
      .filter(Boolean)
      .sort();
  assert.deepEqual(fields(/^a wrong type at \$\[\d+\]\.(\w+) /), [...FIELDS].sort());
  assert.deepEqual(fields(/^no \$\[\d+\]\.(\w+), a required key$/), [...FIELDS].sort());
  // items drawn at random: 12 texts all at item 0 has probability 1e-36
  assert.ok(
    texts.some((t) => !t.path.startsWith('$[0].')),
    texts.map((t) => t.path).join(' '),
  );
  for (const t of texts) {
    const m = /^\$\[(\d+)\]\.(\w+)$/.exec(t.path)!;
    const item = (JSON.parse(t.text) as Record<string, unknown>[])[+m[1]];
    if (t.what.startsWith('no ')) assert.equal(Object.hasOwn(item, m[2]), false, t.what);
    else assert.equal(typeof item[m[2]], 'number', t.what);
    // every other item is as it was
    assert.equal((JSON.parse(t.text) as unknown[]).length, 1000);
  }
});

test('hx8 fewcheck, and validators that check 3 fields, all but one, or the first item only, are refused', () => {
  const cases: [string, (t: string) => unknown][] = [
    ['fewcheck', fewcheck()],
    ['3 fields', partial(FIELDS.slice(0, 3))],
    ...FIELDS.map((f): [string, (t: string) => unknown] => [`all but ${f}`, partial(FIELDS.filter((x) => x !== f))]),
    ['first item only', partial(FIELDS, true)],
  ];
  for (const [name, validate] of cases) {
    validate(usersText); // the gate's valid text comes first (fewcheck learns from it)
    const f = acceptsInvalid(validate, invalidTexts(users, usersText));
    assert.ok(f, `${name} refused`);
    assert.match(f.reason, /^does not validate: accepted a payload with (a wrong type at|no) \$\[\d+\]\.\w+/, name);
  }
  const strict = partial(FIELDS);
  strict(usersText);
  assert.equal(acceptsInvalid(strict, invalidTexts(users, usersText)), null, 'a validator of every field passes');
});

test(`a schema with more paths than ${MAX_INVALID_TEXTS} gets that many texts, drawn at random per call`, () => {
  const properties = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, { type: 'number' }]));
  const wide = { id: 'wide', schema: { type: 'object', properties } } as unknown as Workload;
  const text = JSON.stringify(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, i])));
  const a = invalidTexts(wide, text);
  assert.equal(a.length, MAX_INVALID_TEXTS);
  const draws = new Set(
    [a, ...Array.from({ length: 4 }, () => invalidTexts(wide, text))].map((x) => x.map((t) => t.what).join()),
  );
  assert.ok(draws.size > 1, 'another draw per call');
});

test(`a unit of megabytes gets fewer texts: about ${MAX_INVALID_BYTES} bytes of them, at least 2`, () => {
  const properties = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, { type: 'string' }]));
  const wide = { id: 'wide', schema: { type: 'object', properties } } as unknown as Workload;
  const pad = 'x'.repeat(20_000);
  const text = JSON.stringify(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, pad])));
  assert.equal(invalidTexts(wide, text).length, Math.floor(MAX_INVALID_BYTES / text.length));
  const two = {
    id: 'two',
    schema: { type: 'object', properties: { f0: { type: 'string' }, f1: { type: 'string' } } },
  } as unknown as Workload;
  const huge = JSON.stringify({ f0: 'x'.repeat(MAX_INVALID_BYTES), f1: 'y' });
  assert.equal(invalidTexts(two, huge).length, 2, 'of 4, at least 2');
});

test('plain array items get a wrong type too, at a random index', () => {
  const w = {
    id: 'tags',
    schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
  } as unknown as Workload;
  const texts = invalidTexts(w, JSON.stringify({ tags: ['a', 'b', 'c', 'd'] }));
  assert.deepEqual(
    texts.map((t) => t.what.replace(/\[\d\]/, '[i]')),
    ['no $.tags, a required key', 'a wrong type at $.tags[i] (12345 where the schema says a string)'],
  );
});

for (const id of ['typebox', 'ajv-jtd', 'typia', 'zod', 'valibot', 'arktype']) {
  test(`the built-in ${id} passes the gate, every text refused, on users · 1000 · list and many`, async () => {
    const adapter = await serializers.load(id, []);
    const caseClass = adapter.deserializeClass!;
    assert.ok(caseClass === 'validate' || caseClass === 'transform', caseClass);
    for (const shape of ['list', 'many'] as const) {
      const p = await prepareCase(adapter, await workloads.load('users'), {
        shape,
        direction: 'deserialize',
        caseClass,
      });
      assert.equal(p.check(usersText), null, shape);
    }
  });
}
