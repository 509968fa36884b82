import { isOptional, propertyPath, type SchemaNode } from '../../workloads/schema.js';
import { modelOf } from '../../workloads/payload.js';
import type { Accept, Probe } from '../types.js';
import { loneSurrogateAt } from '../judge.js';
import { deepFreeze } from '../../case/frozen.js';

/**
 * Payload probes (issue 24, "costs of this payload"): built from a user's payload and its schema,
 * so each cost a recommendation names is one this payload can pay. From its samples (a document;
 * a folder's samples or an NDJSON file's records: the first and each later one that holds a path or
 * kind of value no earlier one held, {@link coveringSamples}), each pruned to the first element of
 * every array and the first entry of every map (the structure stays, the size goes), come:
 * - `sample`: each kept sample as it is: what a serializer's output or result loses against
 *   JSON.stringify / JSON.parse on the user's own values;
 * - one mutated copy per way an API's payload drifts from the samples a schema was inferred from,
 *   at the first place (breadth first, in the first kept sample that has one) the schema allows it: an extra key, a missing optional key,
 *   a missing required key, a number sent as a string, a fraction in an integer field, an enum
 *   value the samples never held, a date field holding a string that is no date, a null where the
 *   samples held none.
 * These probes show what a drifting payload does under the schema, not whether a library is
 * right: every side accepts the baseline's behaviour (the value back as JSON.parse reads it — for
 * the transform class with its date-times as Dates, workloads/payload.ts `modelOf` — or its text as
 * JSON.stringify writes it), and for every drift but a missing optional key also a refusal, labelled
 * with what the schema holds and why ("rejects a response without $.id, which all your samples
 * had: the inferred schema makes it required"). A validator that refuses is ✔ with that label, not a
 * failure: it did what its schema says (new-user tryout 2026-12-05: five validators were reported
 * as failing "payload.0.missing-required (⚠ throws)"). What stays a failure is a library that loses
 * or changes data (an extra key dropped: ✗ silent-loss), or refuses a key the schema makes optional.
 * The host builds these from {@link PayloadProbeSet}s and hands the sets to the workers as data
 * (run/probe-pass.ts), which build the same probes here: this file reads no files.
 */

/** What a payload probe is built from: one workload's schema and its sample values (JSON data). */
export interface PayloadProbeSet {
  /** the workload the probes are for (`payload:response`) */
  workload: string;
  /** the file name shown in titles (of the first sample, for a folder of samples) */
  file: string;
  schema: SchemaNode;
  /** the first sample: a document, a folder's first sample or an NDJSON file's first record */
  sample: unknown;
  /**
   * The payload's other samples, in order, each with the name its titles give it (`b.json`,
   * `log.ndjson record 7`): a folder's other files or an NDJSON file's other records. Those that
   * hold something no earlier sample held get probes of their own ({@link coveringSamples}).
   */
  more?: readonly { name: string; value: unknown }[];
  /** the schema was inferred from the samples (absent: true); false for the user's `--schema`, which the labels then name */
  inferred?: boolean;
}

/** The kinds of payload probe, in catalog order, with what a title says of each. */
export const PAYLOAD_PROBE_KINDS = deepFreeze({
  sample: 'your payload (one element per array)',
  'extra-key': 'an extra key',
  'missing-optional': 'an optional key left out',
  'missing-required': 'a key the samples always held, left out',
  'number-as-string': 'a number sent as a string',
  'fraction-in-integer': 'a fraction in an integer field',
  'unseen-enum': 'an enum value the samples never held',
  'not-a-date': 'a date field holding a string that is no date',
  'unexpected-null': 'a null where the samples held none',
} as const);
export type PayloadProbeKind = keyof typeof PAYLOAD_PROBE_KINDS;

/** The key an extra-key probe adds. */
export const EXTRA_KEY = 'jsonbench_extra_key';
/** The value an unseen-enum probe writes. */
export const UNSEEN_ENUM = 'JSONBENCH_UNSEEN_VALUE';

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The value with every array cut to its first element and every object used as a map to its first entry. */
export function pruneSample(schema: SchemaNode, value: unknown): unknown {
  const walk = (node: SchemaNode, v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const n = resolve(node, v);
    if (Array.isArray(v)) return v.slice(0, 1).map((x) => walk(n && n.type === 'array' ? n.items : UNKNOWN, x));
    const o = v as Plain;
    if (n?.type === 'record') {
      const first = Object.keys(o)[0];
      return first === undefined ? {} : { [first]: walk(n.values, o[first]) };
    }
    const out: Plain = {};
    for (const [k, x] of Object.entries(o)) out[k] = walk(childOf(n, k), x);
    return out;
  };
  return walk(schema, value);
}

const UNKNOWN: SchemaNode = { type: 'unknown' };

/** The member of a union (or the variant of a discriminated union) that describes `v`; the node itself otherwise. */
function resolve(node: SchemaNode, v: unknown): SchemaNode | null {
  if (node.type === 'union') {
    const m = node.anyOf.find((a) =>
      Array.isArray(v)
        ? a.type === 'array'
        : isPlain(v)
          ? ['object', 'record', 'discriminated'].includes(a.type)
          : true,
    );
    return m ? resolve(m, v) : null;
  }
  if (node.type === 'discriminated' && isPlain(v)) {
    const tag = v[node.discriminator];
    return typeof tag === 'string' ? (node.mapping[tag] ?? null) : null;
  }
  return node;
}

/** The schema of an object's member `k` (UNKNOWN when the schema says nothing of it). */
function childOf(n: SchemaNode | null, k: string): SchemaNode {
  if (n?.type === 'object') return n.properties[k] ?? n.additionalProperties ?? UNKNOWN;
  if (n?.type === 'record') return n.values;
  return UNKNOWN;
}

/** A place a mutation can be written: the JSON path, and a function that writes it into a copy of the sample. */
interface Site {
  path: string;
  mutate: (root: unknown) => void;
}

/** The first site (breadth first) of each payload probe kind in a pruned sample. */
export function driftSites(schema: SchemaNode, sample: unknown): Partial<Record<PayloadProbeKind, Site>> {
  const sites: Partial<Record<PayloadProbeKind, Site>> = {};
  const at = (kind: PayloadProbeKind, site: Site) => (sites[kind] ??= site);
  // steps from the root to a value, to find it again in a copy
  type Step = string | number;
  const locate = (root: unknown, steps: readonly Step[]) =>
    steps.reduce<unknown>((v, s) => (v as Record<Step, unknown>)[s], root);
  const queue: { node: SchemaNode; value: unknown; path: string; steps: Step[] }[] = [
    { node: schema, value: sample, path: '$', steps: [] },
  ];
  while (queue.length) {
    const { node: raw, value, path, steps } = queue.shift()!;
    const node = resolve(raw, value);
    if (!node || value === null) continue;
    if (Array.isArray(value) && node.type === 'array') {
      value.forEach((x, i) => queue.push({ node: node.items, value: x, path: `${path}[]`, steps: [...steps, i] }));
      continue;
    }
    if (!isPlain(value)) continue;
    if (node.type === 'record') {
      for (const [k, x] of Object.entries(value))
        queue.push({ node: node.values, value: x, path: `${path}.*`, steps: [...steps, k] });
      continue;
    }
    if (node.type !== 'object') continue;
    const object = node;
    if (!object.additionalProperties)
      at('extra-key', { path, mutate: (r) => ((locate(r, steps) as Plain)[EXTRA_KEY] = 'added') });
    for (const [k, child] of Object.entries(object.properties)) {
      if (!(k in value)) continue;
      const x = value[k];
      const p = propertyPath(path, k);
      const here = [...steps, k];
      const set = (v: unknown) => (r: unknown) => ((locate(r, steps) as Plain)[k] = v);
      const del = (r: unknown) => delete (locate(r, steps) as Plain)[k];
      at(isOptional(object, k) ? 'missing-optional' : 'missing-required', { path: p, mutate: del });
      const leaf = resolve(child, x);
      const nullable = 'nullable' in child && child.nullable;
      if (!nullable && x !== null && leaf && leaf.type !== 'unknown' && leaf.type !== 'null')
        at('unexpected-null', { path: p, mutate: set(null) });
      if (typeof x === 'number' && leaf?.type === 'number') {
        at('number-as-string', { path: p, mutate: set(String(x)) });
        if (leaf.integer && Number.isSafeInteger(x) && Math.abs(x) < 2 ** 50)
          at('fraction-in-integer', { path: p, mutate: set(x + 0.5) });
      }
      if (typeof x === 'string' && leaf?.type === 'enum') at('unseen-enum', { path: p, mutate: set(UNSEEN_ENUM) });
      if (typeof x === 'string' && leaf?.type === 'string' && /^(date-time|date|time)$/.test(leaf.format ?? ''))
        at('not-a-date', { path: p, mutate: set('not a date') });
      queue.push({ node: child, value: x, path: p, steps: here });
    }
  }
  return sites;
}

/**
 * What a refusal of each drift means, as a ✔ label: the drift, what the samples held there and
 * what the schema makes of it (`path` is the JSON path of the drift). Absent for `sample` (nothing
 * drifted) and `missing-optional` (the schema makes the key optional: refusing it is wrong).
 */
function refusalLabel(kind: PayloadProbeKind, path: string, inferred: boolean): string | undefined {
  const schema = inferred ? 'the inferred schema' : 'your schema';
  // no backticks: a label stands in Markdown table cells, where they would be escaped
  const at = path;
  switch (kind) {
    case 'extra-key':
      return `rejects a response with a key at ${at} that no sample had: ${schema} lists only the keys seen`;
    case 'missing-required':
      return `rejects a response without ${at}, which all your samples had: ${schema} makes it required`;
    case 'number-as-string':
      return `rejects ${at} sent as a string: your samples held a number there, ${schema} says number`;
    case 'fraction-in-integer':
      return `rejects a fraction in ${at}: your samples held integers there, ${schema} says integer`;
    case 'unseen-enum':
      return `rejects a value of ${at} that no sample held: ${schema} makes it an enum of the values seen`;
    case 'not-a-date':
      return `rejects ${at} holding a string that is no date: ${schema} says date`;
    case 'unexpected-null':
      return `rejects null at ${at}: no sample held null there, ${schema} makes it not nullable`;
    default:
      return undefined;
  }
}

/** The most samples of one payload that get probes of their own: the first and up to 7 that add something (see {@link coveringSamples}). */
export const MAX_SAMPLE_PROBES = 8;

/** A string's kind for {@link valueKinds}: what a string writer treats differently. */
function stringKind(s: string): string {
  if (loneSurrogateAt(s) >= 0) return 'string with a lone surrogate';
  if (/[\u2028\u2029]/.test(s)) return 'string with U+2028/U+2029';
  let beyond = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return 'string with escapes';
    if (c > 0x7f) beyond = true;
  }
  return beyond ? 'string beyond ASCII' : 'string';
}

/** A number's kind for {@link valueKinds}: what a number writer or reader treats differently. */
function numberKind(n: number): string {
  if (Object.is(n, -0)) return '-0';
  if (!Number.isInteger(n)) return 'fraction';
  if (!Number.isSafeInteger(n)) return 'integer beyond 2^53';
  return Math.abs(n) < 2 ** 31 ? 'int32' : 'integer beyond 2^31';
}

/**
 * Every (JSON path, kind of value) a pruned sample holds, `$.results[].id: int32`: the path of
 * each value present (map entries as `.*`, array items as `[]`) with its JSON type and, for strings
 * and numbers, what a writer or reader treats differently (escapes, lone surrogates, characters
 * beyond ASCII; fractions, -0, integers beyond 2^31 and 2^53).
 */
export function valueKinds(schema: SchemaNode, value: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (node: SchemaNode, v: unknown, path: string): void => {
    if (v === null) return void out.add(`${path}: null`);
    if (typeof v === 'string') return void out.add(`${path}: ${stringKind(v)}`);
    if (typeof v === 'number') return void out.add(`${path}: ${numberKind(v)}`);
    if (typeof v !== 'object') return void out.add(`${path}: ${typeof v}`);
    const n = resolve(node, v);
    if (Array.isArray(v)) {
      out.add(`${path}: ${v.length ? 'array' : 'empty array'}`);
      for (const x of v) walk(n && n.type === 'array' ? n.items : UNKNOWN, x, `${path}[]`);
      return;
    }
    out.add(`${path}: object`);
    for (const [k, x] of Object.entries(v as Plain))
      walk(childOf(n, k), x, n?.type === 'record' ? `${path}.*` : propertyPath(path, k));
  };
  walk(schema, value, '$');
  return out;
}

/**
 * The samples a payload's probes are built from: each pruned ({@link pruneSample}), the first
 * always, then in order every later one that holds a (path, kind of value) no earlier kept sample
 * held ({@link valueKinds}: a key only sample 3 has, a lone surrogate or an integer beyond 2^53 only
 * it holds), at most {@link MAX_SAMPLE_PROBES} in all. Together they hold every (path, kind) the
 * samples hold, up to that cap. Pure.
 * @returns the kept samples: their name, their position in `samples` (0-based) and pruned value
 */
export function coveringSamples(
  schema: SchemaNode,
  samples: readonly { name: string; value: unknown }[],
): { name: string; at: number; value: unknown }[] {
  const seen = new Set<string>();
  const kept: { name: string; at: number; value: unknown }[] = [];
  for (const [at, s] of samples.entries()) {
    if (kept.length >= MAX_SAMPLE_PROBES) break;
    const value = pruneSample(schema, s.value);
    const kinds = valueKinds(schema, value);
    const adds = [...kinds].some((k) => !seen.has(k));
    if (at > 0 && !adds) continue;
    for (const k of kinds) seen.add(k);
    kept.push({ name: s.name, at, value });
  }
  return kept;
}

/**
 * The payload probes of one set (see the module comment); ids `payload.<index>.<kind>`, and
 * `payload.<index>.sample.<n>` for the n-th sample (1-based) kept by {@link coveringSamples}
 * after the first. Each drift is written at the first site of the first kept sample that has one.
 */
export function payloadProbesOf(set: PayloadProbeSet, index: number): Probe[] {
  const inferred = set.inferred !== false;
  const kept = coveringSamples(set.schema, [{ name: set.file, value: set.sample }, ...(set.more ?? [])]);
  const sites = kept.map((k) => driftSites(set.schema, k.value));
  const probes: Probe[] = [];
  const jobs: { id: string; kind: PayloadProbeKind; from: (typeof kept)[number]; site: Site }[] = [];
  for (const kind of Object.keys(PAYLOAD_PROBE_KINDS) as PayloadProbeKind[]) {
    if (kind === 'sample') {
      for (const k of kept)
        jobs.push({
          id: `payload.${index}.sample${k.at ? `.${k.at + 1}` : ''}`,
          kind,
          from: k,
          site: { path: '$', mutate: () => undefined },
        });
      continue;
    }
    const i = sites.findIndex((s) => s[kind]);
    if (i >= 0) jobs.push({ id: `payload.${index}.${kind}`, kind, from: kept[i], site: sites[i][kind]! });
  }
  for (const { id, kind, from, site } of jobs) {
    const copy = JSON.parse(JSON.stringify(from.value)) as unknown;
    site.mutate(copy);
    const copyText = JSON.stringify(copy);
    const label = refusalLabel(kind, site.path, inferred);
    const refusal: Accept[] = label ? [{ throws: true, label }] : [];
    probes.push({
      id,
      family: 'payload',
      workload: set.workload,
      title: `${from.name}: ${PAYLOAD_PROBE_KINDS[kind]}${kind === 'sample' ? '' : ` at ${site.path}`}`,
      schema: set.schema,
      serialize: {
        input: () => JSON.parse(copyText),
        accept: [{ json: JSON.parse(copyText), label: 'as JSON.stringify writes it' }, ...refusal],
      },
      deserialize: {
        text: () => copyText,
        accept: (cls) => [
          cls === 'transform'
            ? { value: modelOf(set.schema, JSON.parse(copyText)), label: 'as JSON.parse reads it, date-times as Dates' }
            : { value: JSON.parse(copyText), label: 'as JSON.parse reads it' },
          // a parser has no schema: refusing valid JSON is no behaviour of its schema
          ...(cls === 'parse' ? [] : refusal),
        ],
      },
    });
  }
  return probes;
}

/** The payload probes of every set. */
export const payloadProbes = (sets: readonly PayloadProbeSet[]): Probe[] => sets.flatMap(payloadProbesOf);
