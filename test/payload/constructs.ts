import type { ObjectSchema, SchemaNode } from '../../src/workloads/schema.js';

/**
 * One small document per construct of the schema language, with its schema: the translator
 * tests run every built-in adapter on each (tests/serializers/translators.test.ts).
 */
export interface ConstructCase {
  name: string;
  schema: SchemaNode;
  text: string;
}

const obj = (properties: Record<string, SchemaNode>, extra: Partial<ObjectSchema> = {}): ObjectSchema => ({
  type: 'object',
  properties,
  ...extra,
});

export const CONSTRUCTS: ConstructCase[] = [
  {
    name: 'optional property',
    schema: obj({
      list: {
        type: 'array',
        items: obj({ a: { type: 'string' }, b: { type: 'number', integer: true } }, { optional: ['b'] }),
      },
    }),
    text: '{"list":[{"a":"x"},{"a":"y","b":1}]}',
  },
  { name: 'null', schema: obj({ a: { type: 'null' } }), text: '{"a":null}' },
  { name: 'unknown', schema: obj({ a: { type: 'unknown' } }), text: '{"a":[1,"x",{"b":null}]}' },
  {
    name: 'record',
    schema: obj({ m: { type: 'record', values: obj({ n: { type: 'number', integer: true } }) } }),
    text: '{"m":{"138586341":{"n":1},"138586345":{"n":2}}}',
  },
  {
    name: 'union',
    schema: obj({
      s: { type: 'array', items: { type: 'union', anyOf: [{ type: 'number', integer: true }, { type: 'string' }] } },
    }),
    text: '{"s":[12,"12.5k"]}',
  },
  {
    name: 'discriminated union',
    schema: obj({
      d: {
        type: 'array',
        items: {
          type: 'discriminated',
          discriminator: 'type',
          mapping: {
            image: obj({ url: { type: 'string' }, width: { type: 'number', integer: true } }),
            video: obj({ url: { type: 'string' }, durationMs: { type: 'number', integer: true } }),
          },
        },
      },
    }),
    text: '{"d":[{"type":"image","url":"a.png","width":640},{"type":"video","url":"b.mp4","durationMs":3000}]}',
  },
  {
    name: 'integer beyond 32 bits',
    schema: obj({ start: { type: 'number', integer: true, width: 53 } }),
    text: '{"start":1378922400000}',
  },
  {
    name: 'integer beyond 2^53',
    schema: obj({ id: { type: 'number', integer: true, width: 64 } }),
    text: '{"id":113456789012345678}',
  },
  {
    name: 'string format',
    schema: obj({
      d: { type: 'string', format: 'date' },
      t: { type: 'string', format: 'time' },
      dt: { type: 'string', format: 'date-time' },
      u: { type: 'string', format: 'uuid' },
      e: { type: 'string', format: 'email' },
    }),
    text: '{"d":"2025-03-01","t":"08:30:00Z","dt":"2025-03-01T12:00:00.000Z","u":"48fa8de1-f33f-4060-a1ae-cb1973e1c20b","e":"ada@example.org"}',
  },
  { name: 'enum', schema: obj({ e: { type: 'enum', values: ['public', 'private'] } }), text: '{"e":"private"}' },
  {
    name: 'always-empty array',
    schema: obj({ a: { type: 'array', items: { type: 'unknown' }, empty: true } }),
    text: '{"a":[]}',
  },
  {
    name: 'additional properties',
    schema: obj({ known: { type: 'number', integer: true } }, { additionalProperties: { type: 'string' } }),
    text: '{"known":1,"extra1":"x","extra2":"y"}',
  },
  {
    name: 'nullable',
    schema: obj({
      o: { type: 'object', properties: { a: { type: 'string' } }, nullable: true },
      s: { type: 'string', nullable: true },
      l: { type: 'array', items: { type: 'string' }, nullable: true },
    }),
    text: '{"o":null,"s":null,"l":["x"]}',
  },
];
