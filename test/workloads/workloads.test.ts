import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workloads } from '../../src/workloads/index.js';
import { acceptsNull, wireSchema, type SchemaNode } from '../../src/workloads/schema.js';
import { renderUnit, unitsOf, unitView } from '../../src/workloads/unit.js';
import { caseIo, checkCase } from '../../src/measure/gate.js';
import type { Workload } from '../../src/workloads/types.js';

const all = await workloads.loadAll();
const byId = (id: string): Workload => all.find((w) => w.id === id)!;
const smallest = (w: Workload) => Math.min(...w.sizes);
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Test-only checker: every way `value` breaks `node`, as "path: problem" lines. */
function schemaErrors(node: SchemaNode, value: unknown, path = '$'): string[] {
  if (value === null) return acceptsNull(node) ? [] : [`${path}: null but not nullable`];
  switch (node.type) {
    case 'string': {
      if (typeof value !== 'string') return [`${path}: not a string`];
      if (node.format === 'uuid' && !UUID_V4.test(value)) return [`${path}: not a UUID v4`];
      if (node.format === 'email' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) return [`${path}: not an email`];
      if (node.format === 'date-time' && new Date(value).toISOString() !== value)
        return [`${path}: not an ISO 8601 date-time`];
      return [];
    }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return [`${path}: not a finite number`];
      return node.integer && !Number.isInteger(value) ? [`${path}: not an integer`] : [];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${path}: not a boolean`];
    case 'enum':
      return node.values.includes(value as string) ? [] : [`${path}: ${String(value)} not in enum`];
    case 'array':
      if (!Array.isArray(value)) return [`${path}: not an array`];
      return value.flatMap((v, i) => schemaErrors(node.items, v, `${path}[${i}]`));
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`];
      const obj = value as Record<string, unknown>;
      const extra = Object.keys(obj)
        .filter((k) => !(k in node.properties))
        .map((k) => `${path}.${k}: not in schema`);
      const missing = Object.keys(node.properties)
        .filter((k) => !(k in obj))
        .map((k) => `${path}.${k}: missing`);
      const inner = Object.entries(node.properties)
        .filter(([k]) => k in obj)
        .flatMap(([k, n]) => schemaErrors(n, obj[k], `${path}.${k}`));
      return [...extra, ...missing, ...inner];
    }
    default:
      return [`${path}: the built-in workloads use no ${node.type} node`];
  }
}

test('the test schema checker reports missing, extra, mistyped and badly formatted fields', () => {
  const schema = wireSchema(byId('users-settings').schema, 'snake_case');
  const [good] = byId('users-settings').build(100, 1) as Record<string, unknown>[];
  assert.deepEqual(schemaErrors(schema, good), []);
  const { email: _email, ...noEmail } = good;
  assert.deepEqual(schemaErrors(schema, { ...noEmail, firstName: 'x', id: 'nope', last_name: 3 }), [
    '$.firstName: not in schema',
    '$.email: missing',
    '$.id: not a UUID v4',
    '$.last_name: not a string',
  ]);
});

test('the registry lists the five built-in workloads in order, then the .NET code-shape variants (run only when named), each with default sizes among its sizes', () => {
  assert.deepEqual(workloads.ids, [
    'weather-station',
    'users',
    'users-settings',
    'orders',
    'company',
    'users-record',
    'users-settings-record',
  ]);
  assert.deepEqual(
    all.filter((w) => w.variantOf).map((w) => [w.id, w.variantOf]),
    [
      ['users-record', 'users'],
      ['users-settings-record', 'users-settings'],
    ],
  );
  for (const w of all) for (const s of w.defaultSizes) assert.ok(w.sizes.includes(s), `${w.id}: default size ${s}`);
});

for (const w of all) {
  const size = smallest(w);

  test(`${w.id}: the same seed gives identical JSON text and a different seed different text`, () => {
    const a = JSON.stringify(w.build(size, 7));
    assert.equal(JSON.stringify(w.build(size, 7)), a);
    assert.notEqual(JSON.stringify(w.build(size, 8)), a);
  });

  test(`${w.id}: the built value is JSON-safe (JSON text round-trips to an equal value)`, () => {
    const v = w.build(size, 1);
    assert.deepEqual(JSON.parse(JSON.stringify(v)), v);
  });

  test(`${w.id}: every unit validates against the wire form of its schema`, () => {
    const schema = wireSchema(w.schema, w.wire?.naming);
    const units = unitsOf(w.build(size, 3), w.shapes.includes('single') ? 'single' : 'many');
    for (const u of units) assert.deepEqual(schemaErrors(schema, u), []);
  });

  for (const shape of w.shapes) {
    const view = unitView(w, shape);
    const units = () => unitsOf(w.build(size, 5), shape);

    if (w.wire?.naming) {
      test(`${w.id} ${shape}: the gate rejects an identity serializer, which leaves model names unrenamed`, () => {
        const failure = checkCase(
          { serialize: (v) => JSON.stringify(v, null, w.wire?.indent) },
          view,
          'serialize',
          caseIo(view, 'serialize', 'serialize', units()),
        );
        assert.ok(failure);
        assert.match(failure.path, /first_name$/);
        assert.equal(failure.actual, 'undefined (absent)');
      });
    } else {
      test(`${w.id} ${shape}: the gate accepts JSON.stringify as a serializer`, () => {
        const io = caseIo(view, 'serialize', 'serialize', units());
        assert.equal(
          checkCase({ serialize: (v) => JSON.stringify(v, null, w.wire?.indent) }, view, 'serialize', io),
          null,
        );
      });
    }

    test(`${w.id} ${shape}: the gate accepts JSON.parse as a parse-class deserializer and JSON.parse + toModel as transform`, () => {
      assert.equal(
        checkCase(
          { deserialize: (t) => JSON.parse(t) },
          view,
          'deserialize',
          caseIo(view, 'deserialize', 'parse', units()),
        ),
        null,
      );
      const toModel = view.toModel ?? ((u: unknown) => u);
      const io = caseIo(view, 'deserialize', 'transform', units());
      assert.equal(checkCase({ deserialize: (t) => toModel(JSON.parse(t)) }, view, 'deserialize', io), null);
    });
  }
}

test('users: a list of 100 has 100 records with unique UUID v4 ids and emails containing @', () => {
  const users = byId('users').build(100, 42) as Record<string, string>[];
  assert.equal(users.length, 100);
  assert.equal(new Set(users.map((u) => u.id)).size, 100);
  for (const u of users) {
    assert.match(u.id, UUID_V4);
    assert.ok(u.email.includes('@'), u.email);
    assert.equal(u.fullName, `${u.firstName} ${u.lastName}`);
  }
});

test('users-settings: build() has snake_case keys, the same users as users, and toModel gives camelCase back', () => {
  const w = byId('users-settings');
  const wire = w.build(100, 42) as Record<string, string>[];
  const users = byId('users').build(100, 42) as Record<string, string>[];
  assert.deepEqual(Object.keys(wire[0]), ['id', 'first_name', 'last_name', 'full_name', 'user_name', 'email']);
  assert.equal(wire[0].first_name, users[0].firstName);
  assert.deepEqual(
    wire.map((r) => w.toModel!(r)),
    users,
  );
});

test('users-settings: checkText accepts 2-space indented text and rejects compact or 4-space text', () => {
  const w = byId('users-settings');
  const [record] = w.build(100, 1) as unknown[];
  for (const x of [record, [record, record]]) {
    assert.equal(w.checkText!(JSON.stringify(x, null, 2)), null);
    assert.match(w.checkText!(JSON.stringify(x))!, /not indented with 2 spaces/);
    assert.match(w.checkText!(JSON.stringify(x, null, 4))!, /not indented with 2 spaces/);
  }
});

test('users-settings many: the gate accepts a serializer that renames to snake_case and indents by 2', () => {
  const w = byId('users-settings');
  const units = unitsOf(w.build(100, 9), 'many');
  const rename = (m: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()), v]));
  const prepared = { serialize: (v: unknown) => JSON.stringify(rename(v as Record<string, unknown>), null, 2) };
  assert.equal(checkCase(prepared, w, 'serialize', caseIo(w, 'serialize', 'serialize', units)), null);
});

test('orders: every total equals the sum of quantity × unitPrice to the cent, prices have at most 2 decimals', () => {
  const orders = byId('orders').build(1000, 4) as { total: number; lines: { quantity: number; unitPrice: number }[] }[];
  for (const o of orders) {
    assert.ok(o.lines.length >= 1 && o.lines.length <= 5);
    const sum = o.lines.reduce((s, l) => s + l.quantity * l.unitPrice, 0);
    assert.ok(Math.abs(o.total - sum) < 0.005, `${o.total} vs ${sum}`);
    for (const n of [o.total, ...o.lines.map((l) => l.unitPrice)]) assert.match(String(n), /^\d+(\.\d{1,2})?$/);
  }
});

test('orders: toModel turns createdAt into a Date equal to the ISO string and keeps the rest', () => {
  const w = byId('orders');
  const [order] = w.build(100, 4) as Record<string, unknown>[];
  const model = w.toModel!(order) as Record<string, unknown>;
  assert.ok(model.createdAt instanceof Date);
  assert.equal((model.createdAt as Date).toISOString(), order.createdAt);
  assert.ok((order.createdAt as string).startsWith('2025-'));
  assert.deepEqual({ ...model, createdAt: order.createdAt }, order);
});

test('orders: between 50% and 90% of notes are null in 1000 orders', () => {
  const orders = byId('orders').build(1000, 4) as { notes: string | null }[];
  const nulls = orders.filter((o) => o.notes === null).length;
  assert.ok(nulls >= 500 && nulls <= 900, `${nulls} null notes`);
});

test('company: size 1000 has 1000 employees aged 18–70, each with 3 distinct hobbies', () => {
  const doc = byId('company').build(1000, 2) as { name: string; employees: { age: number; hobbies: string[] }[] };
  assert.ok(doc.name.length > 0);
  assert.equal(doc.employees.length, 1000);
  for (const e of doc.employees) {
    assert.equal(new Set(e.hobbies).size, 3);
    assert.ok(Number.isInteger(e.age) && e.age >= 18 && e.age <= 70);
  }
});

test('weather-station: the payload is 350–460 bytes; toModel makes temp a number and keeps uv_index null', () => {
  const w = byId('weather-station');
  const doc = w.build(1, 1);
  const bytes = Buffer.byteLength(renderUnit(w, doc));
  assert.ok(bytes >= 350 && bytes <= 460, `${bytes} bytes`);
  const rec = (w.toModel!(doc) as { sensors: { data: Record<string, unknown>[] }[] }).sensors[0].data[0];
  assert.equal(typeof rec.temp, 'number');
  assert.equal(rec.temp, Number((doc as { sensors: { data: { temp: string }[] }[] }).sensors[0].data[0].temp));
  assert.equal(rec.uv_index, null);
});
