import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serializers } from '../../src/serializers/index.js';
import { inferSchema } from '../../src/payload/infer.js';
import { samplesOf } from '../../src/payload/read.js';
import { payloadWorkloads } from '../../src/payload/workload.js';
import { prepareCase } from '../../src/measure/prepare-case.js';
import type { ObjectSchema, SchemaNode } from '../../src/workloads/schema.js';
import { isCalendarDateTime, markDateTimes } from '../../src/payload/refine.js';
import { documentSource, runPayloadCase } from './support.js';

/**
 * "transform" on a user's payload converts its date-times (issue 24, new-user tryout: arktype
 * "transformed" by returning JSON.parse's strings, under a label that says "validate and
 * transform"): inference marks RFC 3339 date-times with an offset `asDate`, the workload's model
 * has Dates there, and every transform library passes the gate by returning Dates.
 */

const text = JSON.stringify({
  id: 7,
  createdAt: '2026-11-30T14:22:05.120Z',
  expiresAt: null,
  events: [{ at: '2026-12-01T09:30:00+01:00', kind: 'login' }],
  local: '2026-12-01T09:30:00',
  day: '2026-12-02',
});
const source = documentSource(text, 'order.json');
const { schema } = await inferSchema(samplesOf(source));
const root = schema as ObjectSchema;

test('date-times with an offset are read as Dates; one without an offset and a date stay strings', () => {
  assert.equal((root.properties.createdAt as { asDate?: boolean }).asDate, true);
  assert.equal(
    ((root.properties.events as { items: ObjectSchema }).items.properties.at as { asDate?: boolean }).asDate,
    true,
  );
  assert.equal((root.properties.local as { asDate?: boolean }).asDate, undefined);
  assert.equal((root.properties.day as { asDate?: boolean }).asDate, undefined);
});

test("the workload's model has Dates at the date-times, and zod, valibot, arktype and class-transformer return them", async () => {
  const [workload] = payloadWorkloads(source, schema);
  const model = workload.toModel!(JSON.parse(text)) as {
    createdAt: unknown;
    events: { at: unknown }[];
    local: unknown;
  };
  assert.ok(model.createdAt instanceof Date && model.createdAt.toISOString() === '2026-11-30T14:22:05.120Z');
  assert.ok(model.events[0].at instanceof Date && model.events[0].at.toISOString() === '2026-12-01T08:30:00.000Z');
  assert.equal(model.local, '2026-12-01T09:30:00');
  for (const id of ['zod', 'valibot', 'arktype', 'class-transformer']) {
    const adapter = await serializers.load(id);
    const gated = await runPayloadCase(adapter, source, schema, 'single', 'deserialize');
    // class-transformer converts without validating: the transform class does not measure its deserializer
    // (serializers/class-transformer.ts, hx1 1.2); its conversion still returns Dates (below)
    if (id === 'class-transformer')
      assert.match(
        JSON.stringify(gated),
        /^\{"status":"unsupported","reason":"class-transformer converts but does not validate/,
      );
    else assert.deepEqual(gated, { status: 'ok' }, id);
    const side = await prepareCase(adapter, workload, {
      shape: 'single',
      direction: 'deserialize',
      caseClass: 'transform',
    });
    const out = side.call(side.inputs(text)[0]) as { createdAt: unknown };
    assert.ok(out.createdAt instanceof Date, `${id} returns createdAt as a Date`);
  }
});

test('a date-time a Date does not hold whole is said once, with what it reads as (hx30 pay-dates2)', async () => {
  const lossy = documentSource(
    JSON.stringify([
      { id: 1, at: '2024-01-01T10:00:00.123456789+05:30' },
      { id: 2, at: '2024-06-01T00:00:00.000001Z' },
      { id: 3, at: '2024-06-01T00:00:00.120000Z' },
    ]),
    'lossy.json',
  );
  const { findings } = await inferSchema(samplesOf(lossy));
  const found = findings.filter((f) => f.kind === 'date-time precision');
  assert.equal(found.length, 1);
  assert.equal(found[0].path, '$[].at');
  // zeros beyond the milliseconds lose nothing: 2 of the 3
  assert.equal(found[0].count, 2);
  assert.match(found[0].text, /2024-01-01T10:00:00\.123456789\+05:30 reads as 2024-01-01T04:30:00\.123Z$/);
  // whole milliseconds in UTC: nothing said
  const whole = await inferSchema(
    samplesOf(documentSource('{"at":"2024-06-01T00:00:00.120Z","b":"2024-06-01T00:00:00+00:00"}')),
  );
  assert.deepEqual(
    whole.findings.filter((f) => f.kind === 'date-time precision'),
    [],
  );
});

test('a --schema date-time whose value is not on the calendar stays a string, said (hx30 schema-dates3: 30 February read as 1 March)', () => {
  assert.equal(isCalendarDateTime('2024-02-29T00:00:00Z'), true);
  for (const v of ['2024-02-30T00:00:00Z', '2023-02-29T12:00:00Z', '2024-04-31T00:00:00Z', '1900-02-29T00:00:00Z'])
    assert.equal(isCalendarDateTime(v), false, v);
  assert.equal(isCalendarDateTime('2000-02-29T00:00:00Z'), true);
  const user: SchemaNode = {
    type: 'array',
    items: {
      type: 'object',
      properties: { due: { type: 'string', format: 'date-time' }, at: { type: 'string', format: 'date-time' } },
    },
  };
  const values = [
    [
      { due: '2024-02-30T00:00:00Z', at: '2024-02-29T00:00:00Z' },
      { due: '2024-03-01T00:00:00Z', at: '2024-03-01T00:00:00.5Z' },
    ],
  ];
  const { schema: marked, findings } = markDateTimes(user, values);
  const props = ((marked as { items: ObjectSchema }).items as ObjectSchema).properties;
  assert.equal((props.due as { asDate?: boolean }).asDate, undefined);
  assert.equal((props.at as { asDate?: boolean }).asDate, true);
  assert.deepEqual(
    findings.map((f) => [f.kind, f.path, f.count]),
    [['date-time as string', '$[].due', 1]],
  );
  assert.match(findings[0].text, /the first: 2024-02-30T00:00:00Z\): the field is read as a string, not a Date$/);
});
