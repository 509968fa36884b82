import type { BooleanSchema, NumberSchema, ObjectSchema, SchemaNode, StringSchema } from '../../workloads/schema.js';
import type { GuaranteeClass } from '../../case/coordinates.js';
import type { Accept } from '../types.js';
import { defineOwn } from '../../case/own-key.js';

/** Small builders the catalog files share, so each probe reads as its data. */

export const str = (extra: Partial<StringSchema> = {}): StringSchema => ({ type: 'string', ...extra });
export const num = (extra: Partial<NumberSchema> = {}): NumberSchema => ({ type: 'number', ...extra });
export const int = (): NumberSchema => ({ type: 'number', integer: true });
export const bool = (): BooleanSchema => ({ type: 'boolean' });
export const arr = (items: SchemaNode, nullable?: boolean): SchemaNode => ({
  type: 'array',
  items,
  ...(nullable ? { nullable } : {}),
});

/**
 * An object node. Keys are defined as own data properties one by one, so a key named
 * `__proto__` is a property, not a prototype change (an object literal would set the prototype).
 */
export function obj(properties: Record<string, SchemaNode> | [string, SchemaNode][]): ObjectSchema {
  const props: Record<string, SchemaNode> = {};
  for (const [k, v] of Array.isArray(properties) ? properties : Object.entries(properties)) {
    defineOwn(props, k, v);
  }
  return { type: 'object', properties: props };
}

/** A plain object with these own keys, `__proto__` included as a key (as JSON.parse makes it). */
export function own(entries: [string, unknown][]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) defineOwn(o, k, v);
  return o;
}

/** Deserialize accepts that are the same for every guarantee class. */
export const anyClass =
  (...accept: Accept[]) =>
  (_cls: GuaranteeClass): readonly Accept[] =>
    accept;

/** Deserialize accepts for a value that only a transform-class deserializer turns into its model. */
export function wireOrModel(wire: unknown, model: unknown, ...more: Accept[]) {
  return (cls: GuaranteeClass): readonly Accept[] => [{ value: cls === 'transform' ? model : wire }, ...more];
}

/** Memoizes a builder (for inputs too large to build once per serializer: the 50 MiB document). */
export function once<T>(build: () => T): () => T {
  let cached: { v: T } | undefined;
  return () => (cached ??= { v: build() }).v;
}
