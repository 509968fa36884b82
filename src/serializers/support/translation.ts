import type { Construct, SchemaNode } from '../../workloads/schema.js';
import { deepFreeze } from '../../case/frozen.js';

/**
 * What translating a {@link SchemaNode} into one library's schema can say besides the schema:
 *
 * - a construct the library cannot express at all is an {@link UnsupportedConstruct}, thrown
 *   with the library, the construct and the JSON path ("ajv JTD has no union of string and
 *   number at $.statuses[].score"); `supports()` returns its message, so the case is
 *   `unsupported` with that reason, never run on an approximation;
 * - a construct the library expresses *more loosely* without changing what it reads or writes
 *   (ajv JTD checks an integer wider than 32 bits as float64; class-transformer leaves the
 *   values of a map as plain objects) is kept as a {@link Translated.notes} line, for the
 *   report to show beside the case.
 *
 * Paths: `$` is the unit, `.key` a property, `[]` any array element, `.*` any record value,
 * `<tag=value>` one variant of a discriminated union.
 */

export class UnsupportedConstruct extends Error {
  readonly code = 'E_UNSUPPORTED_CONSTRUCT';
  constructor(
    readonly library: string,
    readonly construct: Construct,
    readonly path: string,
    what?: string,
  ) {
    super(`${library} has no ${what ?? construct} at ${path}`);
  }
}

/** A library schema and the notes on what it checks more loosely than the SchemaNode says. */
export interface Translated<T> {
  schema: T;
  /** one sentence each, naming the library, the construct and the path */
  notes: string[];
}

/** `true` when `translate` succeeds, the {@link UnsupportedConstruct} message when it throws one; other errors propagate. */
export function supportOf(translate: () => unknown): true | string {
  try {
    translate();
    return true;
  } catch (e) {
    if (e instanceof UnsupportedConstruct) return e.message;
    throw e;
  }
}

/** Path helpers for translators walking a schema. */
export const paths = deepFreeze({
  prop: (path: string, key: string) =>
    /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`,
  item: (path: string) => `${path}[]`,
  value: (path: string) => `${path}.*`,
  variant: (path: string, tag: string, value: string) => `${path}<${tag}=${value}>`,
});

/**
 * Paths of objects whose extra keys have a type (not unknown) beside declared keys: where a
 * TypeScript-style index signature (typia, arktype) must also admit the declared keys' types.
 */
export function typedExtraKeys(node: SchemaNode, path = '$'): string[] {
  switch (node.type) {
    case 'object': {
      const own =
        node.additionalProperties && node.additionalProperties.type !== 'unknown' && Object.keys(node.properties).length
          ? [paths.value(path)]
          : [];
      return [...own, ...Object.entries(node.properties).flatMap(([k, n]) => typedExtraKeys(n, paths.prop(path, k)))];
    }
    case 'array':
      return typedExtraKeys(node.items, paths.item(path));
    case 'record':
      return typedExtraKeys(node.values, paths.value(path));
    case 'union':
      return node.anyOf.flatMap((n) => typedExtraKeys(n, path));
    case 'discriminated':
      return Object.entries(node.mapping).flatMap(([t, o]) =>
        typedExtraKeys(o, paths.variant(path, node.discriminator, t)),
      );
    default:
      return [];
  }
}

/** A short name of a member's JSON type for reasons ("string", "integer", "object"…). */
export function typeName(node: { type: string; integer?: boolean }): string {
  if (node.type === 'number') return node.integer ? 'integer' : 'number';
  if (node.type === 'enum') return 'string';
  if (node.type === 'discriminated' || node.type === 'record') return 'object';
  return node.type;
}

/** "string and number", "object, object and array": the member types of a union for a reason. */
export function unionName(members: readonly { type: string; integer?: boolean }[]): string {
  const names = members.map(typeName);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
