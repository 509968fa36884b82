import type { Workload } from '../../src/workloads/types.js';
import { payloadWorkload } from '../../src/workloads/payload.js';

/**
 * A workload with every schema construct issue 10 added, for the .NET DTO generator and the gate
 * on dotnet and Mono: optional properties (absent in some records: a string, an integer, an enum,
 * an object), an always-null value, `unknown` values of every JSON kind, records (objects used as
 * maps, of numbers and of objects), a nullable union of string and number, a discriminated union
 * of objects whose tag is not always the first key, additional properties on an object, integers
 * wider than 32 bits (up to 2^53 − 1: the payload is written by JSON.stringify, so values beyond
 * 2^53 are tested with a payload file, see the run test), and `date`/`time`/`date-time`/`uuid`
 * strings. Deterministic from the seed; `many` and `list` of `size` records; wire = model.
 */
const schema: Workload['schema'] = {
  type: 'object',
  properties: {
    id: { type: 'number', integer: true, width: 53 },
    nick: { type: 'string' },
    rank: { type: 'number', integer: true },
    level: { type: 'enum', values: ['low', 'high'] },
    home: { type: 'object', properties: { city: { type: 'string' } } },
    gone: { type: 'null' },
    anything: { type: 'unknown' },
    scores: { type: 'record', values: { type: 'number' } },
    friends: { type: 'record', values: { type: 'object', properties: { since: { type: 'string', format: 'date' } } } },
    code: { type: 'union', anyOf: [{ type: 'string' }, { type: 'number' }], nullable: true },
    shape: {
      type: 'discriminated',
      discriminator: 'kind',
      mapping: {
        circle: { type: 'object', properties: { radius: { type: 'number' } } },
        rect: {
          type: 'object',
          properties: { w: { type: 'number' }, h: { type: 'number' }, label: { type: 'string' } },
          optional: ['label'],
        },
      },
    },
    meta: {
      type: 'object',
      properties: { v: { type: 'number', integer: true } },
      additionalProperties: { type: 'unknown' },
    },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'time' },
    stamp: { type: 'string', format: 'date-time' },
    uid: { type: 'string', format: 'uuid' },
  },
  optional: ['nick', 'rank', 'level', 'home'],
};

const ANYTHING: readonly unknown[] = [
  { a: 1, b: [true, null, 'x'], c: { d: -2.5 } },
  [1, 'two', 3.25, false],
  42,
  'text',
  true,
  null,
  1e21,
  -0.000123,
];

function record(i: number, seed: number): Record<string, unknown> {
  const k = i + seed;
  const r: Record<string, unknown> = { id: 2 ** 40 + k * 1_000_003 };
  if (k % 2 === 0) r.nick = `n${k} “ü” \\ 'q'`;
  if (k % 3 !== 0) r.rank = k * 7;
  if (k % 4 !== 1) r.level = k % 2 === 0 ? 'low' : 'high';
  if (k % 5 !== 2) r.home = { city: `C${k}` };
  r.gone = null;
  r.anything = ANYTHING[k % ANYTHING.length];
  r.scores = k % 3 === 0 ? {} : { math: k / 4, 'art & craft': -k, [`x${k}`]: 0.1 };
  r.friends = { [`f${k}`]: { since: `2024-0${1 + (k % 9)}-1${k % 10}` }, ключ: { since: '2020-02-29' } };
  r.code = k % 3 === 0 ? null : k % 3 === 1 ? `c${k}` : k * 11;
  // the tag first, last, or in the middle: STJ must read it wherever it stands
  r.shape =
    k % 3 === 0
      ? { kind: 'circle', radius: k / 2 }
      : k % 3 === 1
        ? { w: k, h: k + 1, kind: 'rect' }
        : { w: k, kind: 'rect', h: 2, label: `L${k}` };
  r.meta = k % 2 === 0 ? { v: k, extra: `e${k}`, deep: { list: [k, null] } } : { x: false, v: k };
  r.day = `2025-1${k % 3}-0${1 + (k % 9)}`;
  r.at = `1${k % 10}:0${k % 10}:30+02:00`;
  r.stamp = new Date(Date.UTC(2025, k % 12, 1 + (k % 27), k % 24, 7, 9, (k * 37) % 1000)).toISOString();
  r.uid = `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;
  return r;
}

const workload: Workload = {
  id: 'dto-constructs',
  description: 'The schema constructs of issue 10 on the .NET DTO generator (test fixture)',
  sizes: [6],
  defaultSizes: [6],
  shapes: ['list', 'many'],
  schema,
  build(size, seed) {
    return Array.from({ length: size }, (_, i) => record(i, seed));
  },
};

export default workload;

/**
 * Date-like strings where the schema says `unknown`: Newtonsoft.Json (DateParseHandling.DateTime,
 * its default) reads them into an untyped member as DateTime values, so a deserialized model no
 * longer holds the strings (".000Z" dropped, "+02:00" moved to the machine's zone); System.Text.Json
 * keeps them. The gate must fail Newtonsoft here and pass STJ.
 */
export const datesInUnknown: Workload = {
  id: 'dto-dates-in-unknown',
  description: 'Date-like strings in unknown values (test fixture)',
  sizes: [2],
  defaultSizes: [2],
  shapes: ['list', 'many'],
  schema: { type: 'object', properties: { n: { type: 'number', integer: true }, at: { type: 'unknown' } } },
  build(size, seed) {
    return Array.from({ length: size }, (_, i) => ({
      n: i + seed,
      at: i % 2 === 0 ? '2025-03-04T05:06:07.000Z' : { when: '2025-03-04T05:06:07+02:00' },
    }));
  },
};

/**
 * A user's NDJSON payload (src/payload: the file's own bytes, one record per line) as the .NET
 * worker must read it: `many` one unit per non-blank line, `list` the lines joined into an array.
 * The text (below) has CRLF line ends, a blank line, an integer beyond 2^53 and a discriminated union.
 */
export const ndjsonRecords: Workload = payloadWorkload({
  id: 'payload:dto-ndjson',
  description: 'NDJSON records (test fixture)',
  sizes: [3],
  shapes: ['list', 'many'],
  payloadText: 'ndjson',
  schema: {
    type: 'object',
    properties: {
      id: { type: 'number', integer: true, width: 64 },
      ev: {
        type: 'discriminated',
        discriminator: 'type',
        mapping: {
          click: { type: 'object', properties: { x: { type: 'number', integer: true } } },
          key: { type: 'object', properties: { code: { type: 'string' } } },
        },
      },
    },
  },
});

/** The main and variant texts of {@link ndjsonRecords}. */
export const NDJSON_TEXTS = {
  main: '{"id":9007199254740993,"ev":{"type":"click","x":3}}\r\n\r\n{"id":12,"ev":{"code":"Enter","type":"key"}}\r\n{"id":-9223372036854775808,"ev":{"type":"click","x":0}}\r\n',
  variant:
    '{"id":1,"ev":{"type":"key","code":"\\ud800 lone"}}\n{"id":2,"ev":{"type":"click","x":-1}}\n{"id":3,"ev":{"type":"key","code":"q"}}\n',
};
