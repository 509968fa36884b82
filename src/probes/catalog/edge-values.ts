import type { Accept, Probe } from '../types.js';
import { anyClass, arr, int, num, obj, str, wireOrModel } from './build.js';

/**
 * Edge-value probes: values JSON cannot hold or holds only approximately. The rule for every one:
 * a serializer writes the value faithfully, or refuses it with an error; a substitute written
 * without an error (null for NaN, `{}` for a Map, 0 for -0, a dropped member) is silent loss,
 * whoever does it — JSON.stringify included. Where faithful output is impossible, the `json`
 * accept holds the unreachable faithful value so the verdict names what was lost and where.
 */

const refuses = (why: string): Accept => ({ throws: true, label: `refuses (${why})` });

function dateProbes(): Probe[] {
  const at = str({ format: 'date-time', asDate: true });
  const valid = (id: string, title: string, iso: string, extra: Accept[] = []): Probe => ({
    id: `edge.date.${id}`,
    family: 'edge',
    title,
    schema: obj({ at }),
    serializeFrom: 'model',
    serialize: { input: () => ({ at: new Date(iso) }), accept: [{ json: { at: iso } }, ...extra] },
    deserialize: {
      text: () => JSON.stringify({ at: iso }),
      accept: wireOrModel({ at: iso }, { at: new Date(iso) }, ...extra),
    },
  });
  return [
    valid('valid', 'a Date', '2024-02-29T12:34:56.789Z'),
    valid('year-0', 'a Date in year 0 (ISO 8601 "0000")', '0000-01-01T00:00:00.000Z'),
    valid(
      'year-10000',
      'a Date in year 10000 (ECMA-262 expanded year "+010000"; outside RFC 3339)',
      '+010000-01-01T00:00:00.000Z',
      [refuses('outside RFC 3339 years 0000–9999')],
    ),
    {
      id: 'edge.date.invalid',
      family: 'edge',
      title: 'an Invalid Date',
      schema: obj({ at }),
      serializeFrom: 'model',
      serialize: {
        input: () => ({ at: new Date(Number.NaN) }),
        accept: [{ json: { at: new Date(Number.NaN) } }, refuses('Invalid Date')],
      },
    },
  ];
}

function integerProbes(): Probe[] {
  const exact = (id: string, title: string, digits: string, extra: Accept[] = []): Probe => {
    const big = BigInt(digits);
    const n = Number(digits);
    const isExactDouble = BigInt(n) === big;
    return {
      // Expressible today: "what does a deserializer do with this integer when the schema says integer?"
      // (an int64 schema would ask the further question: can it read it exactly).
      id: `edge.int.${id}`,
      family: 'edge',
      title,
      schema: obj({ n: int() }),
      deserialize: {
        text: () => `{"n":${digits}}`,
        accept: anyClass(
          { value: { n: big }, label: 'exact as BigInt' },
          ...(isExactDouble ? [{ value: { n }, label: 'exact as a double' }] : []),
          refuses('not read as a double'),
          ...extra,
        ),
      },
    };
  };
  const bigSerialize = (id: string, title: string, digits: string): Probe => ({
    id: `edge.bigint.${id}`,
    family: 'edge',
    title,
    schema: obj({ n: int() }),
    needs: ['int64'],
    intended: '{ n: int64 } holding a BigInt',
    serialize: {
      input: () => ({ n: BigInt(digits) }),
      accept: [
        { text: `{"n":${digits}}`, label: 'exact digits' },
        { text: `{"n":"${digits}"}`, label: 'exact, as a string' },
      ],
    },
  });
  const safeMax = String(Number.MAX_SAFE_INTEGER);
  return [
    {
      id: 'edge.int.2^53-1',
      family: 'edge',
      title: 'the largest safe integer 2^53−1',
      schema: obj({ n: int() }),
      serialize: { input: () => ({ n: Number.MAX_SAFE_INTEGER }), accept: [{ json: { n: Number.MAX_SAFE_INTEGER } }] },
      deserialize: { text: () => `{"n":${safeMax}}`, accept: anyClass({ value: { n: Number.MAX_SAFE_INTEGER } }) },
    },
    {
      // RFC 8927 §3.3.7 (JTD) and JSON Schema's "integer" both accept any number with a zero fractional part.
      id: 'edge.int.spelled-1.0',
      family: 'edge',
      title: 'an integer spelled 1.0 on the wire',
      schema: obj({ n: int() }),
      deserialize: { text: () => '{"n":1.0}', accept: anyClass({ value: { n: 1 } }) },
    },
    exact('2^53+1', '2^53+1 on the wire (the first integer a double cannot hold)', '9007199254740993'),
    exact('2^63-1', '2^63−1 (int64 max) on the wire', '9223372036854775807'),
    exact('2^63', '2^63 on the wire (beyond int64, exact as a double)', '9223372036854775808'),
    exact('-2^63', '−2^63 (int64 min) on the wire', '-9223372036854775808'),
    bigSerialize('2^53+1', 'BigInt 2^53+1', '9007199254740993'),
    bigSerialize('2^63-1', 'BigInt 2^63−1', '9223372036854775807'),
  ];
}

function numberProbes(): Probe[] {
  const unrepresentable = (id: string, title: string, value: number): Probe => ({
    id: `edge.number.${id}`,
    family: 'edge',
    title,
    schema: obj({ n: num() }),
    serialize: { input: () => ({ n: value }), accept: [{ json: { n: value } }, refuses(`${value} has no JSON form`)] },
  });
  return [
    {
      id: 'edge.number.-0',
      family: 'edge',
      title: 'negative zero',
      schema: obj({ n: num() }),
      serialize: { input: () => ({ n: -0 }), accept: [{ json: { n: -0 } }] },
      deserialize: { text: () => '{"n":-0}', accept: anyClass({ value: { n: -0 } }) },
    },
    unrepresentable('NaN', 'NaN', Number.NaN),
    unrepresentable('+Infinity', '+Infinity', Number.POSITIVE_INFINITY),
    unrepresentable('-Infinity', '−Infinity', Number.NEGATIVE_INFINITY),
  ];
}

function absentProbes(): Probe[] {
  // Built without a literal hole so linters keep it: [1, <hole>, 3].
  const holey = () => {
    const a: number[] = [1];
    a[2] = 3;
    return a;
  };
  return [
    {
      id: 'edge.undefined.member',
      family: 'edge',
      title: 'an optional member holding undefined',
      schema: { ...obj({ a: str(), b: num() }), optional: ['b'] },
      serialize: { input: () => ({ a: 'x', b: undefined }), accept: [{ json: { a: 'x' }, label: 'omits it' }] },
    },
    {
      id: 'edge.array.hole',
      family: 'edge',
      title: 'an array hole [1, , 3]',
      schema: obj({ xs: arr(num()) }),
      serialize: {
        input: () => ({ xs: holey() }),
        accept: [{ json: { xs: [1, undefined, 3] } }, refuses('a hole has no JSON form')],
      },
    },
    {
      id: 'edge.array.undefined',
      family: 'edge',
      title: 'undefined as an array element',
      schema: obj({ xs: arr(num()) }),
      serialize: {
        input: () => ({ xs: [1, undefined, 3] }),
        accept: [{ json: { xs: [1, undefined, 3] } }, refuses('undefined has no JSON form')],
      },
    },
  ];
}

class Point {
  #secret = 'not written';
  constructor(
    public x: number,
    public y: number,
  ) {}
  get norm(): number {
    return Math.hypot(this.x, this.y);
  }
  scale(k: number): Point {
    return new Point(this.x * k, this.y * k);
  }
  reveal(): string {
    return this.#secret;
  }
}

class Money {
  constructor(private readonly cents: number) {}
  toJSON(): { amount: number } {
    return { amount: this.cents / 100 };
  }
}

function objectProbes(): Probe[] {
  const sym = Symbol('s');
  // the probe's value is this function's source text: one line, as before formatting (a library's
  // fast path copies it only when it holds no control character such as a newline)
  // prettier-ignore
  const fn = function named(): void { /* a function as a value */ };
  return [
    {
      id: 'edge.map',
      family: 'edge',
      title: 'a Map as a record',
      schema: obj({ m: obj({ a: num(), b: num() }) }),
      needs: ['record'],
      intended: '{ m: record<string, number> } holding a Map',
      serialize: {
        input: () => ({
          m: new Map([
            ['a', 1],
            ['b', 2],
          ]),
        }),
        accept: [{ json: { m: { a: 1, b: 2 } }, label: 'as an object' }, refuses('a Map is not JSON')],
      },
    },
    {
      id: 'edge.set',
      family: 'edge',
      title: 'a Set as an array',
      schema: obj({ s: arr(num()) }),
      serialize: {
        input: () => ({ s: new Set([1, 2, 3]) }),
        accept: [{ json: { s: [1, 2, 3] }, label: 'as an array' }, refuses('a Set is not JSON')],
      },
    },
    {
      id: 'edge.class.instance',
      family: 'edge',
      title: 'a class instance (own fields, a getter, a method, a #private field)',
      schema: obj({ x: num(), y: num() }),
      serialize: { input: () => new Point(3, 4), accept: [{ json: { x: 3, y: 4 } }] },
    },
    {
      id: 'edge.class.toJSON',
      family: 'edge',
      title: 'a class instance with toJSON()',
      schema: obj({ amount: num() }),
      serialize: { input: () => new Money(1234), accept: [{ json: { amount: 12.34 }, label: 'calls toJSON' }] },
    },
    {
      id: 'edge.cycle',
      family: 'edge',
      title: 'a cycle (a node whose child is itself)',
      schema: obj({ name: str(), child: { ...obj({ name: str() }), nullable: true } }),
      needs: ['recursive'],
      intended: 'Node = { name: string; child: Node | null }',
      serialize: {
        input: () => {
          const a: Record<string, unknown> = { name: 'a' };
          a.child = a;
          return a;
        },
        accept: [refuses('a cycle has no JSON form')],
      },
    },
    {
      id: 'edge.symbol',
      family: 'edge',
      title: 'a Symbol as a value',
      schema: obj({ a: str(), b: str() }),
      serialize: {
        input: () => ({ a: 'x', b: sym }),
        accept: [{ json: { a: 'x', b: sym } }, refuses('a Symbol is not JSON')],
      },
    },
    {
      id: 'edge.function',
      family: 'edge',
      title: 'a function as a value',
      schema: obj({ a: str(), b: str() }),
      serialize: {
        input: () => ({ a: 'x', b: fn }),
        accept: [{ json: { a: 'x', b: fn } }, refuses('a function is not JSON')],
      },
    },
  ];
}

export function edgeValueProbes(): Probe[] {
  return [...dateProbes(), ...integerProbes(), ...numberProbes(), ...absentProbes(), ...objectProbes()];
}
