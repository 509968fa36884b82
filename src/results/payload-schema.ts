/**
 * Which schema a user's payload was measured with, as compare and history tell runs apart: the
 * schema-driven serializers (fast-json-stringify, typia, the validators) are built from it, so the
 * same bytes with another schema time other code (nu7: an inferred 5-type union against a one-type
 * `--schema` read as "fast-json-stringify time −76% faster").
 */

/** A payload record's `schema` (results/types.ts PayloadRecord), the fields that name it. */
export interface SchemaIdentity {
  /** `inferred`, or the library of the user's `--schema` (`json-schema`, `zod`, `valibot`, `typebox`) */
  source: string;
  /** the user's schema file's name */
  file?: string;
  /** hex sha256 of the schema node the serializers were given (files since 2026-12-06) */
  sha256?: string;
}

/** A schema as a reader names it: `inferred`, or `json-schema orders.schema.json`. */
export function schemaName(s: SchemaIdentity): string {
  return s.source === 'inferred' ? 'inferred' : `${s.source}${s.file ? ` ${s.file}` : ''}`;
}

/**
 * Whether two runs gave the serializers the same schema: by the schema's sha256 when both record it,
 * else by where it came from (`inferred`, or the library and file of `--schema`).
 */
export function sameSchema(a: SchemaIdentity, b: SchemaIdentity): boolean {
  if (a.sha256 !== undefined && b.sha256 !== undefined) return a.sha256 === b.sha256;
  return schemaName(a) === schemaName(b);
}

/**
 * How the schema changed from `a` to `b`, for a sentence: `inferred → json-schema orders.schema.json`,
 * or, for one file edited between the runs, `json-schema orders.schema.json (sha256 0a1b2c3d4e5f… → …)`.
 */
export function schemaChange(a: SchemaIdentity, b: SchemaIdentity): string {
  const [na, nb] = [schemaName(a), schemaName(b)];
  return na === nb ? `${na} (sha256 ${a.sha256?.slice(0, 12)}… → ${b.sha256?.slice(0, 12)}…)` : `${na} → ${nb}`;
}

/**
 * What did not convert of a user's `--schema`, as one line with what it means (nu16: seven bare "not converted:
 * pattern at $.data[].customer.email" lines, no reason, no consequence): `not converted (2; every serializer here is
 * built from the schema without them, so what they check or convert is not in the times): pattern at $.a; date at
 * $.b: Date cannot be represented in JSON Schema`. Null when all converted. Pure.
 */
export function unconvertedLine(unconverted: readonly string[]): string | null {
  if (!unconverted.length) return null;
  const them = unconverted.length === 1 ? 'it' : 'them';
  return `not converted (${unconverted.length}; every serializer here is built from the schema without ${them}, so what ${unconverted.length === 1 ? 'it checks or converts is' : 'they check or convert is'} not in the times): ${unconverted.join('; ')}`;
}
