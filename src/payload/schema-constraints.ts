/**
 * A user's JSON Schema that no value can meet, or that is not a schema at all where it constrains a
 * value (issue 25, hostile tester hx8: `"minimum": 5, "maximum": 1` and `"pattern": "(unclosed["` were
 * each said as "not converted: minimum at $.a" and the run went on, measuring serializers against a
 * schema that refuses every payload or that a validator library cannot compile). jsonbench's own
 * schema keeps neither bounds nor patterns, so these are checked on the JSON Schema as given: a
 * contradiction is refused naming its JSON Pointer in the schema (RFC 6901).
 */

import { echo } from './echo.js';

/** Keywords whose values are data (or names), not subschemas: never walked for constraints. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'required', 'dependentRequired']);

/** Keywords whose value maps names to subschemas: the names are data, each value a subschema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** `/a/b` of RFC 6901 for the segments: `~` written `~0`, `/` written `~1`; `` (the whole document) for none. */
export function jsonPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Whether `source` compiles as an ECMA-262 regular expression (with or without the `u` flag: JSON Schema's dialect). */
function compiles(source: string): string | null {
  try {
    new RegExp(source, 'u');
    return null;
  } catch {
    try {
      new RegExp(source);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  }
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Pairs of a lower and an upper bound that cannot both hold: `[lower, upper, what]`. A lower bound
 * above its upper bound admits no value (`minimum` 5, `maximum` 1); equal exclusive bounds neither.
 */
function boundsProblem(s: Record<string, unknown>): string | null {
  for (const [lo, hi, what] of [
    ['minLength', 'maxLength', 'string'],
    ['minItems', 'maxItems', 'array'],
    ['minProperties', 'maxProperties', 'object'],
    ['minContains', 'maxContains', 'array'],
  ] as const)
    if (num(s[lo]) && num(s[hi]) && s[lo] > s[hi]) return `${lo} ${s[lo]} is above ${hi} ${s[hi]}: no ${what} fits`;
  // numbers: the tightest lower and upper bounds, each inclusive or exclusive (draft 6+ numeric exclusive bounds)
  const lows = [
    ...(num(s.minimum) ? [{ key: 'minimum', v: s.minimum, open: false }] : []),
    ...(num(s.exclusiveMinimum) ? [{ key: 'exclusiveMinimum', v: s.exclusiveMinimum, open: true }] : []),
  ];
  const highs = [
    ...(num(s.maximum) ? [{ key: 'maximum', v: s.maximum, open: false }] : []),
    ...(num(s.exclusiveMaximum) ? [{ key: 'exclusiveMaximum', v: s.exclusiveMaximum, open: true }] : []),
  ];
  for (const l of lows)
    for (const h of highs)
      if (l.v > h.v || (l.v === h.v && (l.open || h.open)))
        return `${l.key} ${l.v} is ${l.v === h.v ? 'equal to' : 'above'} ${h.key} ${h.v}: no number fits`;
  return null;
}

/** `{}`: a plain object with no keys. */
const isEmptyObject = (v: unknown): boolean => !!v && typeof v === 'object' && Object.keys(v).length === 0;

/** How deep a schema may nest, in subschemas (a level of `properties` is two pointer tokens: `properties`, the name). */
export const MAX_SCHEMA_DEPTH = 400;

/**
 * The first constraint of `schema` (a JSON Schema, walked through every subschema) that no value
 * can meet or that is not valid: a lower bound above its upper bound (minimum/maximum and their
 * exclusive forms, minLength/maxLength, minItems/maxItems, minProperties/maxProperties), a
 * `pattern` or a `patternProperties` name that is not a regular expression. Returns
 * `the schema at <pointer>: <what>` or null. Pure.
 */
export function impossibleConstraint(schema: unknown): string | null {
  // hx9 (unclear): {"not":{}} matches no value, yet validators were ranked against it; only at the root: under a
  // property, `not: {}` or `false` is how a schema forbids that property
  const root = schema as Record<string, unknown> | null;
  if (
    schema === false ||
    (root && typeof root === 'object' && (root.not === true || (isEmptyObject(root.not) && !Array.isArray(root.not))))
  )
    return `the schema at / (its root): ${schema === false ? 'false' : `"not": ${JSON.stringify(root!.not)}`} matches no value: nothing can fit it; fix or remove it`;
  const seen = new Set<unknown>();
  const walk = (node: unknown, at: (string | number)[]): string | null => {
    if (!node || typeof node !== 'object' || seen.has(node)) return null;
    seen.add(node);
    // hx9 (crash): a schema 3,000 levels deep overflowed the stack here ("an internal error"); every reader of a
    // schema after this one recurses too
    if (at.length > 2 * MAX_SCHEMA_DEPTH)
      return `the schema at ${echo(jsonPointer(at.slice(0, 12)), 160)}…: it nests deeper than ${MAX_SCHEMA_DEPTH} levels, more than jsonbench reads; flatten it or give the payload alone (its schema is then inferred)`;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) {
        const found = walk(item, [...at, i]);
        if (found) return found;
      }
      return null;
    }
    const s = node as Record<string, unknown>;
    const where = (extra: (string | number)[] = []) =>
      `the schema at ${echo(jsonPointer([...at, ...extra]), 160) || '/ (its root)'}`;
    const bounds = boundsProblem(s);
    if (bounds) return `${where()}: ${bounds}; fix or remove the bounds`;
    if (typeof s.pattern === 'string') {
      const bad = compiles(s.pattern);
      if (bad)
        return `${where(['pattern'])}: ${echo(JSON.stringify(s.pattern))} is not a regular expression (${bad}); a validator cannot compile the schema: fix or remove it`;
    }
    for (const [key, value] of Object.entries(s)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (SCHEMA_MAPS.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
        for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
          if (key === 'patternProperties') {
            const bad = compiles(name);
            if (bad)
              return `${where([key, name])}: the property name pattern ${echo(JSON.stringify(name))} is not a regular expression (${bad}); fix or remove it`;
          }
          const found = walk(sub, [...at, key, name]);
          if (found) return found;
        }
        continue;
      }
      const found = walk(value, [...at, key]);
      if (found) return found;
    }
    return null;
  };
  return walk(schema, []);
}
