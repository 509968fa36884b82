import type { Probe } from '../types.js';
import type { SchemaNode } from '../../workloads/schema.js';
import { anyClass, arr, bool, int, num, obj, once, str } from './build.js';

/**
 * Structure probes: every permutation of absent optional (and null nullable) properties — first,
 * middle, last — where writers that join members by hand leave a stray comma; empty objects and
 * arrays; nesting 1,000 deep (must work) and 100,000 deep (a clean error is fine, a crash of the
 * process is not); and a 50 MiB document.
 */

const KEYS = ['a', 'b', 'c'] as const;
const VALUES: Record<(typeof KEYS)[number], unknown> = { a: 'x', b: 2, c: true };

/** The 8 subsets of a, b, c present, named like `a-c` (b absent) or `---` (all absent). */
function subsets(): { name: string; present: (typeof KEYS)[number][] }[] {
  return Array.from({ length: 8 }, (_, mask) => {
    const present = KEYS.filter((_, i) => mask & (1 << i));
    return { name: KEYS.map((k) => (present.includes(k) ? k : '-')).join(''), present };
  });
}

function optionalProbes(): Probe[] {
  return subsets().map(({ name, present }) => {
    const doc = Object.fromEntries(present.map((k) => [k, VALUES[k]]));
    return {
      id: `structure.optional.${name}`,
      family: 'structure',
      title: `optional a, b, c with ${name} present`,
      schema: { ...obj({ a: str(), b: num(), c: bool() }), optional: ['a', 'b', 'c'] },
      serialize: { input: () => ({ ...doc }), accept: [{ json: doc }] },
      deserialize: { text: () => JSON.stringify(doc), accept: anyClass({ value: doc }) },
    };
  });
}

function nullableProbes(): Probe[] {
  const schema = obj({
    a: { ...str(), nullable: true },
    b: { ...num(), nullable: true },
    c: { ...bool(), nullable: true },
  });
  return subsets().map(({ name, present }) => {
    const doc = Object.fromEntries(KEYS.map((k) => [k, present.includes(k) ? VALUES[k] : null]));
    return {
      id: `structure.nullable.${name}`,
      family: 'structure',
      title: `nullable a, b, c with ${name} non-null`,
      schema,
      serialize: { input: () => ({ ...doc }), accept: [{ json: doc }] },
      deserialize: { text: () => JSON.stringify(doc), accept: anyClass({ value: doc }) },
    };
  });
}

function emptyProbes(): Probe[] {
  const probe = (id: string, title: string, schema: SchemaNode, doc: unknown): Probe => ({
    id: `structure.empty.${id}`,
    family: 'structure',
    title,
    schema,
    serialize: { input: () => structuredClone(doc), accept: [{ json: doc }] },
    deserialize: { text: () => JSON.stringify(doc), accept: anyClass({ value: doc }) },
  });
  return [
    probe('root-object', 'an empty object as the document', obj({}), {}),
    probe('member-object', 'an empty object as a member', obj({ o: obj({}) }), { o: {} }),
    probe('member-array', 'an empty array as a member', obj({ xs: arr(int()) }), { xs: [] }),
    probe('array-of-empty', 'an array of empty arrays', obj({ xs: arr(arr(int())) }), { xs: [[], []] }),
  ];
}

/** Nested arrays `[[[…[1]…]]]` with `depth` brackets, built without recursion. */
function nestedArray(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 1; i < depth; i++) v = [v];
  return [v];
}
/** Nested objects `{"a":{"a":…{"a":1}…}}`, `depth` objects. */
function nestedObject(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
function nestedArraySchema(depth: number): SchemaNode {
  let s: SchemaNode = int();
  for (let i = 0; i < depth; i++) s = arr(s);
  return s;
}
function nestedObjectSchema(depth: number): SchemaNode {
  let s: SchemaNode = int();
  for (let i = 0; i < depth; i++) s = obj({ a: s });
  return s;
}

/**
 * Check that `v` is `kind`s nested exactly `depth` deep around the number 1, walking iteratively
 * (a recursive comparison would itself overflow at 100,000).
 */
export function nestedCheck(kind: 'array' | 'object', depth: number) {
  return (v: unknown): string | null => {
    let cur: unknown = v;
    for (let i = 0; i < depth; i++) {
      if (
        kind === 'array'
          ? !(Array.isArray(cur) && cur.length === 1)
          : !(cur !== null && typeof cur === 'object' && Object.keys(cur).length === 1 && 'a' in cur)
      ) {
        return `${kind}s nested ${depth} deep (level ${i} differs)`;
      }
      cur = kind === 'array' ? (cur as unknown[])[0] : (cur as { a: unknown }).a;
    }
    return cur === 1 ? null : `the number 1 at depth ${depth}`;
  };
}

function depthProbes(): Probe[] {
  const deep = (kind: 'array' | 'object', depth: number): Probe => {
    const value = kind === 'array' ? once(() => nestedArray(depth)) : once(() => nestedObject(depth));
    const text = once(() =>
      kind === 'array' ? '['.repeat(depth) + '1' + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
    );
    const must = depth <= 1_000;
    const same = { label: 'writes it', check: nestedCheck(kind, depth) };
    const accept = must ? [same] : [same, { throws: true as const, label: 'refuses with a clean error' }];
    return {
      id: `structure.depth.${kind}.${depth}`,
      family: 'structure',
      title: `${kind}s nested ${depth.toLocaleString('en')} deep`,
      schema: must
        ? kind === 'array'
          ? nestedArraySchema(depth)
          : nestedObjectSchema(depth)
        : kind === 'array'
          ? arr(int())
          : obj({ a: int() }),
      deepSchema: must,
      shown: {
        input:
          kind === 'array'
            ? `[[[…[1]…]]] (${depth.toLocaleString('en')} arrays)`
            : `{"a":{"a":…{"a":1}…}} (${depth.toLocaleString('en')} objects)`,
        expected: accept.map((a) => a.label).join(' or '),
      },
      ...(must
        ? {}
        : { needs: ['recursive' as const], intended: kind === 'array' ? 'T = number | T[]' : 'T = { a: number | T }' }),
      serialize: { input: value, accept },
      deserialize: { text, accept: anyClass(...accept.map((a) => ('check' in a ? { ...a, label: 'reads it' } : a))) },
    };
  };
  return [deep('array', 1_000), deep('object', 1_000), deep('array', 100_000), deep('object', 100_000)];
}

/** Bytes of the large-document probe: 50 MiB. */
export const LARGE_DOCUMENT_BYTES = 50 * 1024 * 1024;

/** A deterministic document of about `bytes` bytes of compact JSON: records with an id, a name, tags and a score. */
export function largeDocument(bytes: number): { items: { id: number; name: string; tags: string[]; score: number }[] } {
  const items = [];
  let size = 11;
  for (let id = 0; size < bytes; id++) {
    const item = {
      id,
      name: `item ${id} ${'x'.repeat(id % 40)}`,
      tags: ['t' + (id % 7), 'u' + (id % 13)],
      score: ((id * 7919) % 10007) / 8,
    };
    size += JSON.stringify(item).length + 1;
    items.push(item);
  }
  return { items };
}

function largeProbes(): Probe[] {
  const value = once(() => largeDocument(LARGE_DOCUMENT_BYTES));
  const text = once(() => JSON.stringify(value()));
  return [
    {
      id: 'structure.large.50MB',
      family: 'structure',
      title: 'a 50 MiB document',
      shown: {
        input: '{"items":[{"id":0,"name":"item 0 ","tags":["t0","u0"],"score":0},…]} (50 MiB of compact JSON)',
        expected: 'the same document',
      },
      schema: obj({ items: arr(obj({ id: int(), name: str(), tags: arr(str()), score: num() })) }),
      // Getters: the 50 MiB value is built on first use, not when the catalog loads.
      serialize: {
        input: value,
        accept: [
          {
            get json() {
              return value();
            },
          },
        ],
      },
      deserialize: {
        text,
        accept: () => [
          {
            get value() {
              return value();
            },
          },
        ],
      },
    },
  ];
}

export function structureProbes(): Probe[] {
  return [...optionalProbes(), ...nullableProbes(), ...emptyProbes(), ...depthProbes(), ...largeProbes()];
}
