import { echo } from './echo.js';
import { defineOwn } from '../case/own-key.js';
import { isLosslessNumber, isSafeNumber, parse as parseLossless, type LosslessNumber } from 'lossless-json';
import {
  isOptional,
  propertyPath,
  type ArraySchema,
  type EnumSchema,
  type NullSchema,
  type NumberSchema,
  type ObjectSchema,
  type SchemaNode,
  type StringSchema,
  type UnionSchema,
} from '../workloads/schema.js';
import { beyondDouble, MAY_LEAVE_DOUBLE, numberPosition } from './double-range.js';
import type { Platform } from '../case/coordinates.js';
import { deferredOf, unionOf } from './json-schema-import.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * The second pass of inference: walks the samples along the schema quicktype inferred and adds
 * what it does not find. Pure apart from parsing the sample texts.
 * - integer `width`: 32, 53, or 64 when the *text* holds an integer beyond 2^53 (found with
 *   lossless-json, which keeps each number's digits; JSON.parse would already have rounded it);
 * - `email` on strings that all look like addresses ({@link EMAIL}, the WHATWG HTML form rule);
 * - `asDate` on `date-time` strings that are all RFC 3339 with an offset ({@link RFC3339_DATE_TIME}):
 *   the transform class returns them as Dates (workloads/payload.ts `modelOf`);
 * - `discriminated` unions: an object whose string property (`type`, `kind`…) splits the values
 *   into groups with different keys, which quicktype merges into one class with optional keys
 *   (accepted when the split tells apart more optional keys than it leaves optional, and only on
 *   enough evidence for a closed set of types: every tag a name ({@link looksLikeTag}), seen at
 *   least twice, and every tag's objects a key set of their own — nu6's `level` info/warn/error,
 *   where info and warn share one, stays a string field);
 * - an enum (asked for with `--enums`) only of names: free text ("cache miss") stays a string;
 * - `empty` on arrays that were empty in every sample;
 * - a number a double cannot hold (`1e400`, `0.1e-400`; double-range.ts): quicktype sees what
 *   JSON.parse made of it (null for Infinity, the integer 0), so its field is made a number again.
 * - a self-similar type (quicktype's `$ref` to a definition from inside itself: a status that holds
 *   its retweeted status) read as a placeholder (json-schema-import.ts `DEFERRED_REF`) is unfolded
 *   once per level the samples fill, and a member no sample holds at a level is left out there:
 *   the schema states the nesting to the depth seen, which every translator can write.
 * It reports findings a person should see: integers JSON.parse rounds, always-null fields,
 * always-empty arrays, discriminated unions found.
 */

/** Something inference found that the report should say, with the JSON path and how many values. */
export interface InferenceFinding {
  kind:
    | 'integer beyond 2^53'
    | 'number beyond a double'
    | 'always null'
    | 'always empty'
    | 'discriminated union'
    | 'enum'
    | 'self-similar'
    | 'date-time precision'
    | 'date-time as string'
    | 'decimal beyond a double';
  path: string;
  count: number;
  /** one sentence for a person; it may say what every JavaScript serializer does with the value (then {@link fact} is set) */
  text: string;
  /** the same sentence without what JavaScript serializers do: what a run measuring no JavaScript serializer says (absent: `text` names no platform) */
  fact?: string;
}

/**
 * A finding as a run that measures `platforms` says it: a sentence about what every JavaScript
 * serializer does with a value only when the run measures JavaScript serializers (a .NET-only run on
 * a payload with integers beyond 2^53 must not speak of JSON.parse; attack session, 2026-12).
 */
export function findingFor(f: InferenceFinding, platforms: ReadonlySet<Platform>): InferenceFinding {
  const { fact, ...rest } = f;
  return platforms.has('javascript') || fact === undefined ? rest : { ...rest, text: fact };
}

/** One sample: its parsed value and, when read from text, the text (for integers JSON.parse rounds). */
export interface Sample {
  value: unknown;
  text?: string;
  /** file name (and line for NDJSON), for findings */
  source?: string;
}

export interface InferredSchema {
  schema: SchemaNode;
  /** facts found on the way, one sentence each (integers beyond 2^53, always-null fields…) */
  findings: InferenceFinding[];
}

/** The WHATWG HTML `input type=email` rule (https://html.spec.whatwg.org/multipage/input.html#valid-e-mail-address). */
export const EMAIL = deepFreeze(
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/,
);

/** An RFC 3339 date-time (§5.6: `T`, seconds, an optional fraction, `Z` or a ±hh:mm offset): what inference reads as a Date. */
const RFC3339_DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** Days in each month of a common year; February has 29 in a leap year. */
const MONTH_DAYS = deepFreeze([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);

/**
 * Whether `v` is an RFC 3339 date-time ({@link RFC3339_DATE_TIME}) on the calendar: no 30 February,
 * no 31 April (hx30 schema-dates3: V8's Date.parse reads "2024-02-30T00:00:00Z" as 1 March, so a
 * `--schema` date-time field holding it was read as a Date, and the libraries that refuse it failed).
 */
export function isCalendarDateTime(v: unknown): v is string {
  if (typeof v !== 'string' || !RFC3339_DATE_TIME.test(v)) return false;
  const year = Number(v.slice(0, 4));
  const month = Number(v.slice(5, 7));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
  return Number(v.slice(8, 10)) <= days && !Number.isNaN(Date.parse(v));
}

/** Whether a Date loses part of a date-time text: a non-zero digit beyond milliseconds, or an offset other than Z. */
function dateLoses(v: string): boolean {
  const m = /(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(v);
  return /[1-9]/.test(m?.[1]?.slice(3) ?? '') || !/^(Z|[+-]00:00)$/.test(m?.[2] ?? 'Z');
}

/**
 * The finding for date-time values read as Dates (`asDate`) that a Date does not hold whole: digits
 * beyond milliseconds, an offset (a Date is an instant in UTC). The transform class reads them so, and
 * the gate compares instants, so it is said once here (hx30 pay-dates2: "2024-06-01T00:00:00.000001Z"
 * read as ….000Z, "….123456789+05:30" as "…T04:30:00.123Z", without a word). Undefined when none loses.
 */
function dateLossFinding(path: string, strings: readonly string[]): InferenceFinding | undefined {
  const lossy = strings.filter(dateLoses);
  if (!lossy.length) return undefined;
  const n = lossy.length;
  const found = `${n} date-time${n === 1 ? '' : 's'} at ${path} with ${n === 1 ? 'a part' : 'parts'} a Date does not keep (digits beyond milliseconds, an offset other than Z)`;
  return {
    kind: 'date-time precision',
    path,
    count: n,
    text: `${found}: the transform class reads them as Dates, so ${echo(lossy[0])} reads as ${new Date(lossy[0]).toISOString()}`,
    fact: `${found}; the first: ${echo(lossy[0])}`,
  };
}

/** An integer literal of 16 or more digits (2^53 has 16): the only place a rounded integer can hide; a cheap filter before the lossless parse. */
const LONG_INTEGER = /(?<![\w.+-])-?\d{16,}(?![\d.eE])/;
/**
 * A whole number written as a float (`100.0`, `1E+2`): JSON.parse reads it as an integer, but the
 * text's writer meant a floating-point field, and a typed reader (the .NET DTOs: `long`) refuses
 * `100.5` or even `100.0` where it expects an integer (hostile tester, session 5: `{"amount": 100.0}`
 * failed every .NET serialize case). A cheap filter before the lossless parse.
 */
const FLOAT_SPELLED_WHOLE = /(?<![\w.])-?\d+\.0+(?!\d)|\d[eE][+-]?\d/;
/**
 * A number literal of 17 or more digits with a fraction or an exponent (a double holds 15–17 significant digits): the
 * only place a decimal JSON.parse rounds can hide; a cheap filter before the lossless parse.
 */
const LONG_DECIMAL = /(?<![\w.])-?(?=\d*\.?\d*[.eE])(?:\d\.?){17,}/;

/** A decimal literal as digits and a power of ten (`12.50` → `125`, -1), leading and trailing zeros dropped: equal literals read equal. */
function decimalOf(literal: string): { digits: string; exp: number; negative: boolean } {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!m) return { digits: literal, exp: 0, negative: false };
  const all = (m[2] ?? '') + (m[3] ?? '');
  let exp = Number(m[4] ?? 0) - (m[3] ?? '').length;
  let digits = all.replace(/^0+/, '');
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  exp += trailing;
  return { digits: digits || '0', exp: digits ? exp : 0, negative: m[1] === '-' && digits !== '' };
}

/**
 * Whether JSON.parse changes the value of a decimal literal: it is neither its double's shortest form nor the double
 * written to 17 significant digits (`%.17g`, as canada.json's -65.613616999999977 is, which holds the double exactly);
 * false for a literal it keeps.
 */
function decimalRounded(literal: string): boolean {
  const read = Number(literal);
  if (!Number.isFinite(read)) return false;
  const a = decimalOf(literal);
  const same = (b: ReturnType<typeof decimalOf>) =>
    a.digits === b.digits && a.exp === b.exp && a.negative === b.negative;
  return !same(decimalOf(String(read))) && !same(decimalOf(read.toPrecision(17)));
}

/** A lossless number written with a fraction or an exponent. */
const spelledAsFloat = (v: unknown) => isLosslessNumber(v) && /[.eE]/.test(v.value);

const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);

type Plain = Record<string, unknown>;
const isObject = (v: unknown): v is Plain =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !isLosslessNumber(v);
const isNumber = (v: unknown): v is number | LosslessNumber => typeof v === 'number' || isLosslessNumber(v);

/** The samples' values, parsed losslessly where the text may hold an integer beyond 2^53 or a number beyond a double. */
function losslessValues(samples: readonly Sample[]): unknown[] {
  return samples.map((s) =>
    s.text !== undefined &&
    (LONG_INTEGER.test(s.text) ||
      MAY_LEAVE_DOUBLE.test(s.text) ||
      FLOAT_SPELLED_WHOLE.test(s.text) ||
      LONG_DECIMAL.test(s.text))
      ? parseLossless(s.text)
      : s.value,
  );
}

/** The lossless numbers among `values` that a double cannot hold. */
const outsideDouble = (values: readonly unknown[]): LosslessNumber[] =>
  values.filter((v): v is LosslessNumber => isLosslessNumber(v) && beyondDouble(v.value) !== null);

/** Refines `schema` with what the samples show (see the module comment). */
export function refineSchema(schema: SchemaNode, samples: readonly Sample[]): InferredSchema {
  const refiner = new Refiner(samples);
  const refined = known(refiner.refine(schema, losslessValues(samples), '$'));
  refiner.noteUnfolded();
  return { schema: refined, findings: refiner.findings };
}

/**
 * One pass of {@link refineSchema}: walks a schema node and the values found at its path, returns
 * the refined node and collects the findings on the way. Each `refine…` method takes the node, the
 * values at `path` (`present`: without null and undefined) and the self-similar `depth`.
 */
class Refiner {
  readonly findings: InferenceFinding[] = [];
  /** The deepest level each self-similar `$ref` was unfolded to, for its finding. */
  private readonly unfolded = new Map<string, { depth: number; path: string }>();

  constructor(private readonly samples: readonly Sample[]) {}

  private note(f: InferenceFinding): void {
    this.findings.push(f);
  }

  /** One finding per way out of a double's range, naming the first literal and where it stands. */
  private noteOutside(outside: LosslessNumber[], path: string): void {
    for (const [kind, reads, verb] of [
      ['overflow', 'Infinity', 'overflow'],
      ['underflow', '0', 'underflow'],
    ] as const) {
      const these = outside.filter((v) => beyondDouble(v.value) === kind);
      if (!these.length) continue;
      const raw = these[0].value;
      const at = numberPosition(this.samples, raw);
      const first = echo(raw);
      const readsAs = kind === 'overflow' && first.startsWith('-') ? `-${reads}` : reads;
      const written = kind === 'overflow' ? 'null' : '0';
      const found = `${these.length} number${these.length === 1 ? '' : 's'} at ${path} ${verb}${these.length === 1 ? 's' : ''} a double`;
      this.note({
        kind: 'number beyond a double',
        path,
        count: these.length,
        text: `${found}: JSON.parse reads ${first}${at ? ` (${at})` : ''} as ${readsAs}, which every JavaScript serializer here writes as ${written}`,
        fact: `${found}: ${first}${at ? ` (${at})` : ''}`,
      });
    }
  }

  /**
   * One finding for the decimals at `path` with more digits than a double holds, which JSON.parse rounds (hx35 p3:
   * 12345678901234.567891 read as 12345678901234.568, "use typia … passed the correctness gate", no word), as integers
   * beyond 2^53 are said.
   */
  private noteRoundedDecimals(present: unknown[], outside: LosslessNumber[], path: string): void {
    const rounded = present.filter(
      (v): v is LosslessNumber =>
        isLosslessNumber(v) && /[.eE]/.test(v.value) && !outside.includes(v) && decimalRounded(v.value),
    );
    if (!rounded.length) return;
    const n = rounded.length;
    const first = echo(rounded[0].value);
    const found = `${n} decimal${n === 1 ? '' : 's'} at ${path} with more digits than a double holds`;
    this.note({
      kind: 'decimal beyond a double',
      path,
      count: n,
      text: `${found}: JSON.parse rounds them (${first} reads as ${echo(String(Number(rounded[0].value)))}), so every JavaScript serializer here reads and writes the rounded value`,
      fact: `${found} (the first: ${first})`,
    });
  }

  /** One finding per self-similar `$ref` unfolded, with the depth the samples fill; called once, after the walk. */
  noteUnfolded(): void {
    for (const [ref, { depth, path }] of this.unfolded)
      this.note({
        kind: 'self-similar',
        path,
        count: depth,
        text: `${path} holds an object of its own type (${ref.replace(/^#\/(definitions|\$defs)\//, '')}), ${depth} level${depth === 1 ? '' : 's'} deep in the samples: its schema states that nesting to the depth seen, and a deeper one would not fit it`,
      });
  }

  /** The node refined by `values` (the values at `path`, JSON or lossless numbers); {@link ABSENT} for a self-similar member no value holds. */
  refine(node: SchemaNode, values: unknown[], path: string, depth = 0): SchemaNode {
    const present = values.filter((v) => v !== null && v !== undefined);
    const deferred = deferredOf(node);
    if (deferred) {
      // a self-similar member: unfold it one level where the samples hold it, else leave it out
      if (!present.length) return values.length ? { type: 'null' } : ABSENT;
      const seen = this.unfolded.get(deferred.ref);
      if (!seen || seen.depth < depth + 1)
        this.unfolded.set(deferred.ref, { depth: depth + 1, path: seen?.path ?? path });
      const inner = deferred.expand();
      const full = 'nullable' in node && node.nullable ? unionOf([inner, { type: 'null' }]) : inner;
      return this.refine(full, values, path, depth + 1);
    }
    switch (node.type) {
      case 'null':
        return this.refineNull(node, values, present, path);
      case 'number':
        return this.refineNumber(node, present, path);
      case 'enum':
        return this.refineEnum(node, present, path);
      case 'string': {
        const refined = refineString(node, present);
        const loss =
          refined.type === 'string' && refined.asDate ? dateLossFinding(path, present as string[]) : undefined;
        if (loss) this.note(loss);
        return refined;
      }
      case 'array':
        return this.refineArray(node, present, path, depth);
      case 'record':
        return {
          ...node,
          values: known(
            this.refine(
              node.values,
              present.filter(isObject).flatMap((o) => Object.values(o)),
              `${path}.*`,
              depth,
            ),
          ),
        };
      case 'object': {
        const objects = present.filter(isObject);
        const split = this.splitByTag(node, objects, path, depth);
        if (split) return split;
        return this.refineObject(node, objects, path, depth);
      }
      case 'discriminated': {
        const mapping: Record<string, ObjectSchema> = {};
        for (const [tag, variant] of Object.entries(node.mapping)) {
          const group = present.filter((v): v is Plain => isObject(v) && v[node.discriminator] === tag);
          mapping[tag] = this.refineObject(variant, group, `${path}<${node.discriminator}=${tag}>`, depth);
        }
        return { ...node, mapping };
      }
      case 'union':
        return this.refineUnion(node, present, path, depth);
      default:
        return node;
    }
  }

  private refineNull(node: NullSchema, values: unknown[], present: unknown[], path: string): SchemaNode {
    // JSON.parse read these as Infinity, which quicktype was given as null: the field holds numbers
    const outside = outsideDouble(present);
    if (outside.length) {
      this.noteOutside(outside, path);
      return { type: 'number', ...(outside.length < values.length ? { nullable: true } : {}) };
    }
    if (values.length)
      this.note({
        kind: 'always null',
        path,
        count: values.length,
        text: `${path} was null in ${values.length === 1 ? 'the one value seen' : `all ${values.length} values`}: its type is unknown, it is kept as null`,
      });
    return node;
  }

  private refineNumber(node: NumberSchema, present: unknown[], path: string): SchemaNode {
    const outside = outsideDouble(present);
    this.noteOutside(outside, path);
    this.noteRoundedDecimals(present, outside, path);
    if (!node.integer) return node;
    // 0.1e-400 is no integer, though JSON.parse made it the integer 0 quicktype saw
    if (outside.some((v) => beyondDouble(v.value) === 'underflow')) {
      const { width: _, ...number } = node;
      return { ...number, integer: false };
    }
    // 100.0 is a float in the text: the field is a number, not an integer (a typed reader takes it as written)
    if (present.some((v) => spelledAsFloat(v) && !outside.includes(v as LosslessNumber))) {
      const { width: _, ...number } = node;
      return { ...number, integer: false };
    }
    let width: 32 | 53 | 64 = 32;
    let rounded = 0;
    let example = '';
    let firstBig = '';
    for (const v of present) {
      if (!isNumber(v) || outside.includes(v as LosslessNumber)) continue;
      if (isLosslessNumber(v) && !isSafeNumber(v.value)) {
        width = 64;
        // beyond 2^53 but exactly a double (144179670739456000 prints back as itself): nothing is lost
        if (String(JSON.parse(v.value)) === v.value) continue;
        rounded++;
        example ||= `${echo(v.value)} reads as ${echo(String(JSON.parse(v.value)))}`;
        firstBig ||= echo(v.value);
        continue;
      }
      const n = Number(v);
      if (width === 32 && (n > INT32_MAX || n < INT32_MIN)) width = 53;
    }
    if (rounded)
      this.note({
        kind: 'integer beyond 2^53',
        path,
        count: rounded,
        text: `${rounded} integer${rounded === 1 ? '' : 's'} beyond 2^53 at ${path}: JSON.parse rounds them (${example}), so every JavaScript serializer here reads and writes the rounded value`,
        fact: `${rounded} integer${rounded === 1 ? '' : 's'} beyond 2^53 at ${path} (the first: ${firstBig})`,
      });
    return { ...node, width };
  }

  private refineEnum(node: EnumSchema, present: unknown[], path: string): SchemaNode {
    // free text is never a closed set, however few values the samples hold ("cache miss", "retrying")
    if (!node.values.every(looksLikeTag)) return { type: 'string', ...(node.nullable ? { nullable: true } : {}) };
    // an enum exists only when asked (--enums, infer.ts InferOptions): a validator compiled from it refuses any
    // value the samples did not hold, so each one is said, short, with how to undo it
    const shown = node.values.slice(0, 4).map((v) => echo(JSON.stringify(v)));
    this.note({
      kind: 'enum',
      path,
      count: present.length,
      text: `${path} is an enum of the ${node.values.length} value${node.values.length === 1 ? '' : 's'} seen (${shown.join(', ')}${node.values.length > 4 ? ', …' : ''}) in ${present.length}: a validator refuses any other (without --enums it is a string)`,
    });
    return node;
  }

  private refineArray(node: ArraySchema, present: unknown[], path: string, depth: number): SchemaNode {
    const arrays = present.filter(Array.isArray);
    if (arrays.length && arrays.every((a) => a.length === 0)) {
      this.note({
        kind: 'always empty',
        path,
        count: arrays.length,
        text: `${path} was empty in ${arrays.length === 1 ? 'the one array seen' : `all ${arrays.length} arrays`}: its item type is unknown`,
      });
      return { ...node, items: { type: 'unknown' }, empty: true };
    }
    return { ...node, items: known(this.refine(node.items, arrays.flat(), `${path}[]`, depth)) };
  }

  private refineUnion(node: UnionSchema, present: unknown[], path: string, depth: number): SchemaNode {
    const anyOf = node.anyOf
      .map((m) =>
        this.refine(
          m,
          present.filter((v) => matches(m, v)),
          path,
          depth,
        ),
      )
      .filter((m) => m !== ABSENT);
    if (anyOf.length === node.anyOf.length) return { ...node, anyOf };
    return unionOf(node.nullable ? [...anyOf, { type: 'null' }] : anyOf.length ? anyOf : [{ type: 'unknown' }]);
  }

  private refineObject(node: ObjectSchema, objects: Plain[], path: string, depth: number): ObjectSchema {
    const properties: Record<string, SchemaNode> = {};
    const left: string[] = [];
    for (const [key, child] of Object.entries(node.properties)) {
      const refined = this.refine(
        child,
        objects.filter((o) => Object.hasOwn(o, key)).map((o) => o[key]),
        propertyPath(path, key),
        depth,
      );
      if (refined === ABSENT) left.push(key);
      else defineOwn(properties, key, refined);
    }
    if (left.length) {
      // a self-similar member no sample holds at this level: the object states it as absent here
      const optional = (node.optional ?? []).filter((k) => !left.includes(k));
      const { optional: _, ...rest } = node;
      node = { ...rest, ...(optional.length ? { optional } : {}) };
    }
    const extra = node.additionalProperties;
    const additionalProperties =
      extra &&
      this.refine(
        extra,
        objects.flatMap((o) =>
          Object.keys(o)
            .filter((k) => !(k in node.properties))
            .map((k) => o[k]),
        ),
        `${path}.*`,
        depth,
      );
    return {
      ...node,
      properties,
      ...(additionalProperties ? { additionalProperties: known(additionalProperties) } : {}),
    };
  }

  /** The object as a discriminated union when one string property's values split the objects into groups with different keys. */
  private splitByTag(node: ObjectSchema, objects: Plain[], path: string, depth: number): SchemaNode | null {
    if (objects.length < 2 || !node.optional?.length) return null;
    for (const [key, p] of Object.entries(node.properties)) {
      if ((p.type !== 'enum' && !(p.type === 'string' && !p.format)) || p.nullable || isOptional(node, key)) continue;
      const groups = new Map<string, Plain[]>();
      for (const o of objects) {
        const tag = o[key];
        if (typeof tag !== 'string') {
          groups.clear();
          break;
        }
        groups.set(tag, [...(groups.get(tag) ?? []), o]);
      }
      if (groups.size < 2 || groups.size > 16 || groups.size === objects.length) continue;
      // enough evidence for a closed set of types (nu6: `level` info/warn/error became a union that refused
      // "debug"): tags that look like names, not free text; each seen at least twice; and every tag's
      // objects a shape of their own — a field whose values share one shape (info and warn) is a value, not a tag
      if (![...groups.keys()].every(looksLikeTag) || [...groups.values()].some((g) => g.length < 2)) continue;
      const shapes = [...groups.values()].map((g) => [...new Set(g.flatMap((o) => Object.keys(o)))].sort().join(','));
      if (new Set(shapes).size < shapes.length) continue;
      // the split must explain the optional keys: more of them told apart by the tag (present in
      // every object of one group, absent from every object of another) than left optional inside a group
      let told = 0;
      let mixed = 0;
      for (const opt of node.optional) {
        const presence = [...groups.values()].map((g) =>
          g.every((o) => Object.hasOwn(o, opt)) ? 1 : g.every((o) => !Object.hasOwn(o, opt)) ? 0 : -1,
        );
        if (presence.includes(-1)) mixed++;
        else if (presence.includes(1) && presence.includes(0)) told++;
      }
      if (told <= mixed) continue;
      const mapping: Record<string, ObjectSchema> = {};
      for (const [tag, group] of groups) {
        const keys = Object.keys(node.properties).filter((k) => k !== key && group.some((o) => Object.hasOwn(o, k)));
        const optional = keys.filter((k) => !group.every((o) => Object.hasOwn(o, k)));
        const variant: ObjectSchema = {
          type: 'object',
          properties: Object.fromEntries(keys.map((k) => [k, node.properties[k]])),
          ...(optional.length ? { optional } : {}),
          ...(node.additionalProperties ? { additionalProperties: node.additionalProperties } : {}),
        };
        mapping[tag] = this.refineObject(variant, group, `${path}<${key}=${tag}>`, depth);
      }
      this.note({
        kind: 'discriminated union',
        path,
        count: objects.length,
        text: `${path} is a union of ${groups.size} object types told apart by "${key}" (${[...groups.keys()].join(', ')})`,
      });
      return { type: 'discriminated', discriminator: key, mapping, ...(node.nullable ? { nullable: true } : {}) };
    }
    return null;
  }
}

/**
 * A string that reads as a name (`image`, `order.created`, `E_DB_TIMEOUT`), not free text: 1–40
 * characters, no whitespace. Only such values make an inferred enum or a discriminated union's tag.
 */
export function looksLikeTag(v: string): boolean {
  return v.length >= 1 && v.length <= 40 && !/\s/.test(v);
}

/** A string node with `format: 'email'` or `asDate` when every value present says so (see the module comment). */
function refineString(node: StringSchema, present: unknown[]): SchemaNode {
  if (!node.format && present.length && present.every((v) => typeof v === 'string' && EMAIL.test(v)))
    return { ...node, format: 'email' };
  // the transform class reads a date-time as a Date (issue 24, new-user tryout: arktype "transformed"
  // createdAt by returning JSON.parse's string): only where every value is RFC 3339 with an offset,
  // the form every transform adapter (zod's z.iso.datetime, valibot's isoTimestamp, arktype's
  // string.date.iso.parse, class-transformer's Date) reads as one instant
  if (node.format === 'date-time' && present.length && present.every(isCalendarDateTime))
    return { ...node, asDate: true };
  return node;
}

/** A self-similar member that no sample holds at its level (refineSchema leaves it out of its object). */
const ABSENT: SchemaNode = { type: 'unknown' };
/** A node where {@link ABSENT} cannot stand (array items, map values, the root): any value. */
const known = (n: SchemaNode): SchemaNode => (n === ABSENT ? { type: 'unknown' } : n);

/** Whether a (non-null) value has the JSON type of a union member. */
function matches(member: SchemaNode, v: unknown): boolean {
  switch (member.type) {
    case 'string':
    case 'enum':
      return typeof v === 'string';
    case 'number':
      return isNumber(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
    case 'record':
    case 'discriminated':
      return isObject(v);
    default:
      return true;
  }
}

/**
 * A user's schema (`--schema`) with `asDate` set as inference sets it: on each `date-time` string
 * whose values in the samples are all RFC 3339 with an offset ({@link RFC3339_DATE_TIME}), the
 * transform class reads them as Dates. JSON Schema has no word for "read as a Date", so without
 * this the schema `--print-schema` wrote lost its Date hints when passed back (issue 24, new-user
 * tryout: the same run gave other cases and costs). A string no sample holds stays a string. Pure.
 * Said as findings: date-times read as Dates that a Date does not hold whole ({@link dateLossFinding}),
 * and a date-time field left a string because a value is not on the calendar or not RFC 3339.
 * @param values the samples' values (documents, records or samples), JSON data
 * @returns the schema, with new nodes only where `asDate` was added, and the findings
 */
export function markDateTimes(
  schema: SchemaNode,
  values: readonly unknown[],
): { schema: SchemaNode; findings: InferenceFinding[] } {
  const findings: InferenceFinding[] = [];
  const walk = (node: SchemaNode, vs: readonly unknown[], path: string): SchemaNode => {
    const present = vs.filter((v) => v !== null && v !== undefined);
    const objects = present.filter(isObject);
    switch (node.type) {
      case 'string': {
        const strings = present.filter((v): v is string => typeof v === 'string');
        if (node.format !== 'date-time' || !strings.length) return node;
        const odd = strings.filter((v) => !isCalendarDateTime(v));
        if (odd.length && !node.asDate) {
          findings.push({
            kind: 'date-time as string',
            path,
            count: odd.length,
            text: `${path} is a date-time in the schema, but ${odd.length} of its ${strings.length} values ${odd.length === 1 ? 'is' : 'are'} no RFC 3339 date-time on the calendar (the first: ${echo(odd[0])}): the field is read as a string, not a Date`,
          });
          return node;
        }
        const loss = dateLossFinding(path, strings);
        if (loss) findings.push(loss);
        return node.asDate ? node : { ...node, asDate: true };
      }
      case 'array':
        return { ...node, items: walk(node.items, present.filter(Array.isArray).flat(), `${path}[]`) };
      case 'object': {
        const properties: Record<string, SchemaNode> = {};
        for (const [k, child] of Object.entries(node.properties))
          Object.defineProperty(properties, k, {
            value: walk(
              child,
              objects.filter((o) => Object.hasOwn(o, k)).map((o) => o[k]),
              propertyPath(path, k),
            ),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        const extra = node.additionalProperties;
        return {
          ...node,
          properties,
          ...(extra
            ? {
                additionalProperties: walk(
                  extra,
                  objects.flatMap((o) =>
                    Object.keys(o)
                      .filter((k) => !Object.hasOwn(node.properties, k))
                      .map((k) => o[k]),
                  ),
                  `${path}.*`,
                ),
              }
            : {}),
        };
      }
      case 'record':
        return {
          ...node,
          values: walk(
            node.values,
            objects.flatMap((o) => Object.values(o)),
            `${path}.*`,
          ),
        };
      case 'union':
        return {
          ...node,
          anyOf: node.anyOf.map((m) =>
            walk(
              m,
              present.filter((v) => matches(m, v)),
              path,
            ),
          ),
        };
      case 'discriminated': {
        const mapping: Record<string, ObjectSchema> = {};
        for (const [tag, obj] of Object.entries(node.mapping))
          mapping[tag] = walk(
            obj,
            objects.filter((o) => o[node.discriminator] === tag),
            `${path}<${node.discriminator}=${tag}>`,
          ) as ObjectSchema;
        return { ...node, mapping };
      }
      default:
        return node;
    }
  };
  return { schema: walk(schema, values, '$'), findings };
}
