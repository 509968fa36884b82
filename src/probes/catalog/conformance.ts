import type { SchemaNode } from '../../workloads/schema.js';
import type { Accept, Construct, Probe } from '../types.js';
import { anyClass, arr, bool, int, num, obj, str } from './build.js';

/**
 * Conformance probes, read from any folder of files named as the public suites name them:
 * - nst/JSONTestSuite `test_parsing/`: `y_*` must be accepted, `n_*` rejected, `i_*` either;
 * - the json.org checker (nativejson-benchmark `data/jsonchecker/`): `pass*` accepted, `fail*`
 *   rejected, `*_EXCLUDE` (disputed: a top-level scalar, a depth limit of 20) either;
 * - nativejson-benchmark `data/roundtrip/`: `roundtrip*` — deserialize must read the exact value
 *   and serialize must write the same text (or the same value spelled otherwise).
 * The host reads the folder (conformance-folder.ts: files decoded as UTF-8, a file that is not UTF-8
 * skipped with that reason) and hands the texts to the worker, which builds the probes here: this
 * file reads no files, so it runs on every target.
 */

export type ConformanceKind = 'accept' | 'reject' | 'either' | 'roundtrip';

/** What a file's name says it tests, or null for a file that is not a conformance case. */
export function conformanceKind(name: string): ConformanceKind | null {
  if (!name.endsWith('.json')) return null;
  if (/^y_/.test(name) || /^pass\d*\.json$/.test(name)) return 'accept';
  if (/^i_/.test(name) || /^fail\d*_EXCLUDE\.json$/.test(name)) return 'either';
  if (/^n_/.test(name) || /^fail\d*\.json$/.test(name)) return 'reject';
  if (/^roundtrip/.test(name)) return 'roundtrip';
  return null;
}

/** The schema of a (small, JSON-made) value, and what today's language lacks to state it. */
export function inferSchema(
  value: unknown,
  exactInt64 = false,
  floatSpelled = false,
): { schema: SchemaNode; needs: Construct[] } {
  const needs = new Set<Construct>();
  const walk = (v: unknown): SchemaNode => {
    if (v === null) {
      needs.add('any');
      return str();
    }
    if (typeof v === 'bigint') {
      needs.add('int64');
      return int();
    }
    if (typeof v === 'boolean') return bool();
    if (typeof v === 'number') return Number.isSafeInteger(v) && !Object.is(v, -0) && !floatSpelled ? int() : num();
    if (typeof v === 'string') return str();
    if (Array.isArray(v)) {
      if (v.length === 0) {
        needs.add('any');
        return arr(str());
      }
      const items = v.map(walk);
      if (new Set(items.map((s) => JSON.stringify(s))).size > 1) needs.add('union');
      return arr(items[0]);
    }
    return obj(Object.entries(v as object).map(([k, c]) => [k, walk(c)] as [string, SchemaNode]));
  };
  const schema = walk(value);
  if (exactInt64) needs.add('int64');
  return { schema, needs: [...needs] };
}

/**
 * The exact value of a roundtrip file: `JSON.parse`, except that an integer literal a double
 * cannot hold (beyond ±2^53, not a power of two) becomes a BigInt. The roundtrip files are
 * one-element arrays or small objects; an integer literal is found by its digits alone.
 */
export function exactValue(text: string): { value: unknown; exactInt64: boolean } {
  const value = JSON.parse(text);
  const literal = /^\[\s*(-?\d+)\s*\]$/.exec(text.trim())?.[1];
  if (literal && BigInt(Number(literal)) !== BigInt(literal)) return { value: [BigInt(literal)], exactInt64: true };
  return { value, exactInt64: false };
}

/** One conformance file as the host read it: its path under the folder (`json-test-suite/y_x.json`) and its text. */
export interface ConformanceFile {
  path: string;
  text: string;
}

/** The conformance files of a folder, as the host hands them to workers; `root` names the folder (its base name). */
export interface ConformanceSet {
  root: string;
  files: ConformanceFile[];
}

/** A short id part from the file's first folder under the root (`json-test-suite`), or the root's name. */
function suiteOf(root: string, path: string): string {
  const parts = path.split('/');
  return (parts.length > 1 ? parts[0] : root).replace(/[^\w-]/g, '');
}

/** The base name of a path written with `/`. */
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Probes from every conformance file of the set (files whose names are no conformance case are ignored). */
export function conformanceProbes(set: ConformanceSet): Probe[] {
  const probes: Probe[] = [];
  for (const { path, text } of set.files) {
    const name = baseName(path);
    const kind = conformanceKind(name);
    if (!kind) continue;
    const id = `conformance.${suiteOf(set.root, path)}.${name.replace(/\.json$/, '')}`;
    probes.push(kind === 'roundtrip' ? roundtripProbe(id, name, text) : parseProbe(id, name, kind, text));
  }
  return probes;
}

function parseProbe(id: string, name: string, kind: Exclude<ConformanceKind, 'roundtrip'>, text: string): Probe {
  const rejects: Accept = { throws: true, label: 'rejects' };
  const acceptsAny: Accept = { label: 'accepts', check: () => null };
  const accepts = (): Accept => {
    try {
      return { value: JSON.parse(text), label: 'accepts' };
    } catch {
      return acceptsAny;
    }
  };
  const accept =
    kind === 'accept' ? () => [accepts()] : kind === 'reject' ? () => [rejects] : () => [acceptsAny, rejects];
  return {
    id,
    family: 'conformance',
    title: `${name}: must be ${kind === 'accept' ? 'accepted' : kind === 'reject' ? 'rejected' : 'accepted or rejected'}`,
    schema: obj({}),
    needs: ['any'],
    intended: 'any JSON value',
    deserialize: { text: () => text, accept: (_cls) => accept() },
  };
}

function roundtripProbe(id: string, name: string, text: string): Probe {
  const { value, exactInt64 } = exactValue(text);
  // A number spelled with a fraction or an exponent ("0.0", "5e-324") is typed as a float, as its writer meant.
  const { schema, needs } = inferSchema(value, exactInt64, /\d[.eE]/.test(text));
  const written = text.trim();
  return {
    id,
    family: 'conformance',
    title: `${name}: ${written} read exactly and written back`,
    schema,
    ...(needs.length ? { needs } : {}),
    serialize: {
      // The serializer is given what the reference reader (JSON.parse) reads: a loss on reading shows on the deserialize side.
      input: () => JSON.parse(text),
      accept: [
        { text: written, label: 'same text' },
        { json: JSON.parse(text), label: 'same value, other spelling' },
      ],
    },
    deserialize: { text: () => text, accept: anyClass({ value, label: exactInt64 ? 'exact (BigInt)' : 'exact' }) },
  };
}
