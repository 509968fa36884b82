import type { Workload } from '../../src/workloads/types.js';

/**
 * A workload whose schema exercises what the built-in ones do not, for the DTO generator and the
 * .NET gate: a key that is a C# keyword (`class`), a nested object whose property is named like
 * its own class (`unit.unit`), two nested objects of one name at two depths (`nested.nested`),
 * a key starting with a digit (`2fa`), digits and acronyms under the naming policy (`address2`,
 * `httpURL`), a nullable date, a nullable array of nullable strings, an array of nullable enums
 * with a value that is no C# identifier (`in-progress`), a nullable boolean and a nullable object.
 * Deterministic from the seed; `many` and `list` of `size` records; wire = model except dates.
 */
const schema: Workload['schema'] = {
  type: 'object',
  properties: {
    class: { type: 'string' },
    unit: { type: 'object', properties: { unit: { type: 'number', integer: true } } },
    nested: { type: 'object', properties: { nested: { type: 'object', properties: { x: { type: 'number' } } } } },
    '2fa': { type: 'boolean' },
    address2: { type: 'string' },
    httpURL: { type: 'string' },
    when: { type: 'string', format: 'date-time', asDate: true, nullable: true },
    tags: { type: 'array', items: { type: 'string', nullable: true }, nullable: true },
    levels: { type: 'array', items: { type: 'enum', values: ['low', 'in-progress', 'HIGH'], nullable: true } },
    ok: { type: 'boolean', nullable: true },
    extra: { type: 'object', nullable: true, properties: { note: { type: 'string', nullable: true } } },
  },
};

function record(i: number, seed: number): Record<string, unknown> {
  const k = i + seed;
  return {
    class: `c${k}`,
    unit: { unit: k * 7 },
    nested: { nested: { x: k / 8 } },
    '2fa': k % 2 === 0,
    address2: `Flat ${k}, “Zürich” \\ 'quoted'`,
    httpURL: `https://example.test/${k}?a=1&b=<2>`,
    when:
      k % 3 === 0 ? null : new Date(Date.UTC(2025, k % 12, 1 + (k % 27), k % 24, 7, 9, (k * 37) % 1000)).toISOString(),
    tags: k % 4 === 0 ? null : ['a', null, `t${k}`],
    levels: [['low', 'in-progress', 'HIGH'][k % 3], null],
    ok: k % 5 === 0 ? null : k % 5 === 1,
    extra: k % 2 === 0 ? null : { note: k % 3 === 0 ? null : `n${k}` },
  };
}

const workload: Workload = {
  id: 'dto-edge',
  description: 'Edge cases of the .NET DTO generator (test fixture)',
  sizes: [3],
  defaultSizes: [3],
  shapes: ['list', 'many'],
  schema,
  build(size, seed) {
    return Array.from({ length: size }, (_, i) => record(i, seed));
  },
  toModel(unit) {
    const r = unit as Record<string, unknown>;
    return { ...r, when: typeof r.when === 'string' ? new Date(r.when) : r.when };
  },
};

export default workload;
