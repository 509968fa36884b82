import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROTOCOL_VERSION } from '../../src/worker/protocol.js';
import { workloads } from '../../src/workloads/index.js';
import { renderPayload } from '../../src/plan/payloads.js';
import {
  canonicalEscapes,
  checkDigests,
  checkGate,
  expectedInputBytes,
  reviveDates,
} from '../../src/runtimes/dotnet/gate.js';
import type { GateMessage } from '../../src/runtimes/dotnet/protocol.js';

const users = await workloads.load('users');
const settings = await workloads.load('users-settings');
const orders = await workloads.load('orders');
const weather = await workloads.load('weather-station');

function gate(
  direction: 'serialize' | 'deserialize',
  outputs: string[],
  payload: 'main' | 'variant' = 'main',
): GateMessage {
  return {
    protocol: PROTOCOL_VERSION,
    type: 'gate',
    side: 'serializer',
    payload,
    direction,
    units: outputs.length,
    inputBytes: 0,
    digest: 'd',
    outputs,
  };
}
const reversedKeys = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).reverse());

test('serialize output equal by value passes, whatever its key order and escapes', () => {
  const text = renderPayload(users, 10, 42);
  const records = JSON.parse(text) as Record<string, unknown>[];
  const out = JSON.stringify(records.map(reversedKeys)).replace(/@/g, '\\u0040');
  assert.equal(checkGate(users, 'list', gate('serialize', [out]), text), null);
});

test('a serializer that drops a property fails at its path, with the record named for many', () => {
  const text = renderPayload(users, 3, 42);
  const records = JSON.parse(text) as Record<string, unknown>[];
  const dropped = records.map(({ email: _, ...rest }) => JSON.stringify(rest));
  const f = checkGate(users, 'many', gate('serialize', dropped), text);
  assert.deepEqual(f, {
    path: '$.email',
    expected: JSON.stringify(records[0].email),
    actual: 'undefined (absent)',
    reason: 'output differs at $.email (record 0)',
  });
  const list = checkGate(
    users,
    'list',
    gate('serialize', [JSON.stringify(records.map(({ email: _, ...r }) => r))], 'variant'),
    text,
  );
  // the variant is not in the reason: the launch sends it as the failure's `on` (gated-launch.ts), reports say it first
  assert.equal(list?.reason, 'output differs at $[0].email');
});

test('date-time fields compare as instants: .NET\'s "…:56.78Z" equals "…:56.780Z", a millisecond off does not', () => {
  const text = renderPayload(orders, 100, 42);
  const records = JSON.parse(text) as { createdAt: string }[];
  const trimmed = records.map((r) => ({ ...r, createdAt: r.createdAt.replace(/\.?0+Z$/, 'Z') }));
  assert.ok(
    trimmed.some((r, i) => r.createdAt !== records[i].createdAt),
    'the fixture has a date whose milliseconds end in 0',
  );
  assert.equal(checkGate(orders, 'list', gate('serialize', [JSON.stringify(trimmed)]), text), null);
  const off = records.map((r, i) =>
    i === 2 ? { ...r, createdAt: new Date(new Date(r.createdAt).getTime() + 1).toISOString() } : r,
  );
  const f = checkGate(orders, 'list', gate('serialize', [JSON.stringify(off)]), text);
  assert.equal(f?.path, '$[2].createdAt');
});

test("users-settings: System.Text.Json's escaped apostrophes pass the indentation rule; 4-space indentation does not", () => {
  const text = renderPayload(settings, 100, 42);
  assert.ok(text.includes("'"), 'the fixture has a name with an apostrophe');
  const stjStyle = text.replace(/'/g, '\\u0027');
  assert.equal(checkGate(settings, 'list', gate('serialize', [stjStyle]), text), null);
  const f = checkGate(settings, 'list', gate('serialize', [JSON.stringify(JSON.parse(text), null, 4)]), text);
  assert.match(f?.reason ?? '', /^output is not indented with 2 spaces \(first difference on line 2\)/);
});

test('canonicalEscapes rewrites string literals only', () => {
  assert.equal(
    canonicalEscapes('{\n  "a": "O\\u0027Kon \\u00e9 \\/",\n  "b\\u0022": 1\n}'),
    '{\n  "a": "O\'Kon é /",\n  "b\\"": 1\n}',
  );
});

test('deserialize: the written-back model must equal the workload model (numbers converted from strings, dates as instants)', () => {
  const text = renderPayload(weather, 1, 42);
  const model = weather.toModel!(JSON.parse(text));
  assert.equal(checkGate(weather, 'single', gate('deserialize', [JSON.stringify(model)]), text), null);
  const unconverted = checkGate(weather, 'single', gate('deserialize', [text]), text);
  assert.equal(unconverted?.path, '$.sensors[0].data[0].temp');
  assert.equal(unconverted?.reason, 'result differs at $.sensors[0].data[0].temp');

  const otext = renderPayload(orders, 3, 42);
  const canonical = (JSON.parse(otext) as { createdAt: string }[]).map((r) =>
    JSON.stringify({ ...r, createdAt: r.createdAt.replace('Z', '+00:00') }),
  );
  assert.equal(
    checkGate(orders, 'many', gate('deserialize', canonical), otext),
    null,
    'an instant written with +00:00 is the same instant',
  );
  const nulled = canonical.map((c, i) => (i === 1 ? JSON.stringify({ ...JSON.parse(c), notes: 'x', total: 0 }) : c));
  assert.equal(
    checkGate(orders, 'many', gate('deserialize', nulled), otext)?.reason,
    'result differs at $.total (record 1)',
  );
});

test('a worker that sends the wrong number of outputs, or none, is caught', () => {
  const text = renderPayload(users, 3, 42);
  assert.match(checkGate(users, 'many', gate('serialize', ['{}']), text)?.reason ?? '', /sent 1 outputs for 3 units/);
  assert.throws(
    () => checkGate(users, 'many', { ...gate('serialize', []), outputs: undefined }, text),
    /has no outputs: run the worker in verify mode/,
  );
  assert.match(checkGate(users, 'list', gate('serialize', ['[{']), text)?.reason ?? '', /^output is not valid JSON/);
});

test('a timed launch must reproduce the verified digests', () => {
  const v = [
    { ...gate('serialize', []), digest: 'a' },
    { ...gate('serialize', [], 'variant'), digest: 'b' },
  ];
  assert.equal(checkDigests(v, [{ ...v[0] }, { ...v[1] }]), null);
  assert.equal(
    checkDigests(v, [{ ...v[0], digest: 'c' }]),
    'serializer wrote other output (main payload) in the timed launch than in the verified one',
  );
  assert.equal(checkDigests(v, [{ ...v[0], side: 'baseline' }]), 'no verified output for baseline (main)');
});

test('reviveDates follows wire names under a naming policy and leaves non-dates alone', () => {
  const node = {
    type: 'object',
    properties: { createdAt: { type: 'string', asDate: true }, name: { type: 'string' } },
  } as const;
  const r = reviveDates(
    node,
    { created_at: '2025-01-01T00:00:00Z', name: '2025-01-01T00:00:00Z' },
    'snake_case',
  ) as Record<string, unknown>;
  assert.ok(r.created_at instanceof Date);
  assert.equal(r.name, '2025-01-01T00:00:00Z');
  assert.equal(
    (reviveDates(node, { createdAt: 'not a date' }, undefined) as Record<string, unknown>).createdAt,
    'not a date',
    'an invalid date stays text, so the mismatch shows it',
  );
});

test("expectedInputBytes counts renderUnit's text of each record (what the worker must cut from the payload)", () => {
  const text = renderPayload(settings, 4, 42);
  const records = JSON.parse(text) as unknown[];
  assert.equal(
    expectedInputBytes(settings, 'many', text),
    records.reduce((n: number, r) => n + Buffer.byteLength(JSON.stringify(r, null, 2)), 0),
  );
  assert.equal(expectedInputBytes(settings, 'list', text), Buffer.byteLength(text));
});

test("a user's NDJSON payload: expected units and input bytes as JavaScript workers read it (readUnits), the variant made well-formed line by line", async () => {
  const { ndjsonRecords, NDJSON_TEXTS } = await import('./constructs-workload.js');
  const { wellFormedVariantText } = await import('../../src/runtimes/dotnet/well-formed.js');
  const lines = NDJSON_TEXTS.main.split('\r\n').filter((l) => l !== '');
  assert.equal(
    expectedInputBytes(ndjsonRecords, 'many', NDJSON_TEXTS.main),
    lines.reduce((n, l) => n + Buffer.byteLength(l), 0),
  );
  assert.equal(expectedInputBytes(ndjsonRecords, 'list', NDJSON_TEXTS.main), Buffer.byteLength(`[${lines.join(',')}]`));
  const out = lines.map((l) => JSON.stringify(JSON.parse(l)));
  assert.equal(checkGate(ndjsonRecords, 'many', gate('serialize', out), NDJSON_TEXTS.main), null);
  const f = checkGate(ndjsonRecords, 'list', gate('serialize', [`[${out.slice(0, 2).join(',')}]`]), NDJSON_TEXTS.main);
  assert.equal(f?.reason, 'output differs at $.length');
  assert.equal(
    wellFormedVariantText(NDJSON_TEXTS.variant, undefined, true),
    NDJSON_TEXTS.variant.replace('\\ud800', '\ufffd'),
  );
});
