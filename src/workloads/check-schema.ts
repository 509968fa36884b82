import { STRING_FORMATS, type SchemaNode } from './schema.js';

/**
 * Checks that a value is a {@link SchemaNode} (./schema.ts), the schema language every workload is
 * described in, before any adapter translates it (issue 25: a config's workload with the schema
 * `{ kind: 'object', fields: … }` passed the config's checks, then each library failed on it with
 * its own internal message, "schema is invalid: data must be object,boolean", "Cannot read
 * properties of undefined (reading 'parse')", and the run exited 0). The first problem is named by
 * its path below the schema (`schema.properties.a.type`).
 */

/**
 * The most values an enum may have (hx3, issue 25): schema compilers take time superlinear in it —
 * typia's supports() of a 200,000-value enum blocked jsonbench for 300 s (until its watchdog), and
 * json-schema-faker and the rest took 250 s on it; 20,000 values took 31 s in all (load 17 on 2
 * cores). A larger enum is refused with this number, before any serializer sees it.
 */
export const MAX_ENUM_VALUES = 20_000;

/** Why an enum of `n` values is refused ({@link MAX_ENUM_VALUES}). */
export function tooManyEnumValues(n: number): string {
  return `has ${n.toLocaleString('en-US')} values; jsonbench takes at most ${MAX_ENUM_VALUES.toLocaleString('en-US')} (schema compilers such as typia take minutes on more): use a string type instead`;
}

/** The node types of the schema language, in the order messages list them. */
const TYPES = [
  'string',
  'number',
  'boolean',
  'enum',
  'null',
  'unknown',
  'array',
  'object',
  'record',
  'union',
  'discriminated',
] as const;

/** The first problem of a schema: the path of the bad node (or key) and what is wrong there. */
export interface SchemaProblem {
  path: string;
  problem: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const keyPath = (path: string, key: string) =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/**
 * The first problem of `node` as a workload schema, or undefined when it is one. `path` names the
 * node in messages (`schema`). Never throws on a value it was given (a getter that throws is a problem).
 */
export function schemaProblem(node: unknown, path = 'schema'): SchemaProblem | undefined {
  try {
    return check(node, path, new Set());
  } catch (e) {
    return { path, problem: `reading it threw: ${e instanceof Error ? e.message : 'a value that is not an Error'}` };
  }
}

function check(node: unknown, path: string, above: Set<unknown>): SchemaProblem | undefined {
  if (!isObject(node))
    return {
      path,
      problem: `must be a schema node, an object { type: ${TYPES.join(' | ')}, … }; it is ${Array.isArray(node) ? 'an array' : node === null ? 'null' : `a ${typeof node}`}`,
    };
  if (above.has(node)) return { path, problem: 'holds itself (a schema node cannot contain itself: no cycles)' };
  const type = node.type;
  if (!(TYPES as readonly unknown[]).includes(type)) {
    const keys = Object.keys(node).slice(0, 6).join(', ');
    const why =
      type === undefined
        ? `has no "type"${keys ? ` (its keys: ${keys})` : ''}`
        : Array.isArray(type)
          ? `has "type" ${JSON.stringify(type)}: one type per node (null as \`nullable: true\`, several as { type: 'union', anyOf: […] })`
          : `has an unknown "type" ${JSON.stringify(type)}`;
    return {
      path: type === undefined ? path : `${path}.type`,
      problem: `${why}; a schema node's type is one of ${TYPES.join(', ')} (src/workloads/schema.ts; docs/extending.md)`,
    };
  }
  for (const flag of ['nullable', 'integer', 'fromString', 'asDate', 'empty'])
    if (node[flag] !== undefined && typeof node[flag] !== 'boolean')
      return { path: `${path}.${flag}`, problem: 'must be true or false' };
  const inner = new Set(above).add(node);
  const sub = (value: unknown, at: string) => check(value, at, inner);
  switch (type as SchemaNode['type']) {
    case 'string':
      if (node.format !== undefined && !(STRING_FORMATS as readonly unknown[]).includes(node.format))
        return { path: `${path}.format`, problem: `must be one of ${STRING_FORMATS.join(', ')}` };
      return undefined;
    case 'number':
      if (node.width !== undefined && ![32, 53, 64].includes(node.width as number))
        return { path: `${path}.width`, problem: 'must be 32, 53 or 64' };
      return undefined;
    case 'enum': {
      const values = node.values;
      if (!Array.isArray(values) || !values.length || !values.every((v) => typeof v === 'string'))
        return { path: `${path}.values`, problem: 'must be a non-empty array of strings' };
      if (values.length > MAX_ENUM_VALUES) return { path: `${path}.values`, problem: tooManyEnumValues(values.length) };
      return undefined;
    }
    case 'array':
      return sub(node.items, `${path}.items`);
    case 'record':
      return sub(node.values, `${path}.values`);
    case 'union': {
      const anyOf = node.anyOf;
      if (!Array.isArray(anyOf) || !anyOf.length)
        return { path: `${path}.anyOf`, problem: 'must be a non-empty array of schema nodes' };
      for (let i = 0; i < anyOf.length; i++) {
        const p = sub(anyOf[i], `${path}.anyOf[${i}]`);
        if (p) return p;
      }
      return undefined;
    }
    case 'discriminated': {
      if (typeof node.discriminator !== 'string' || !node.discriminator)
        return { path: `${path}.discriminator`, problem: 'must be the name of the tag property (a string)' };
      if (!isObject(node.mapping) || !Object.keys(node.mapping).length)
        return { path: `${path}.mapping`, problem: 'must be an object: tag value → object schema node' };
      for (const [tag, n] of Object.entries(node.mapping)) {
        const at = keyPath(`${path}.mapping`, tag);
        if (!isObject(n) || n.type !== 'object')
          return { path: at, problem: "must be an object schema node ({ type: 'object', properties: … })" };
        const p = sub(n, at);
        if (p) return p;
      }
      return undefined;
    }
    case 'object':
      return checkObject(node, path, sub);
    default:
      return undefined;
  }
}

function checkObject(
  node: Record<string, unknown>,
  path: string,
  sub: (value: unknown, at: string) => SchemaProblem | undefined,
): SchemaProblem | undefined {
  if (!isObject(node.properties))
    return { path: `${path}.properties`, problem: 'must be an object: property name → schema node' };
  if (node.required !== undefined)
    return {
      path: `${path}.required`,
      problem:
        "is JSON Schema's; a workload schema requires every property and lists those that may be absent in `optional: [names]`",
    };
  for (const [k, v] of Object.entries(node.properties)) {
    const p = sub(v, keyPath(`${path}.properties`, k));
    if (p) return p;
  }
  const optional = node.optional;
  if (optional !== undefined) {
    if (!Array.isArray(optional) || !optional.every((k) => typeof k === 'string'))
      return { path: `${path}.optional`, problem: 'must be an array of property names' };
    const unknownKey = optional.find((k) => !Object.prototype.hasOwnProperty.call(node.properties, k));
    if (unknownKey !== undefined)
      return { path: `${path}.optional`, problem: `names "${unknownKey}", which is not one of the properties` };
  }
  if (node.additionalProperties !== undefined) return sub(node.additionalProperties, `${path}.additionalProperties`);
  return undefined;
}
