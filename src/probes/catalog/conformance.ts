import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
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
 * Deserializers take a string, so each file is decoded as UTF-8 with a fatal decoder that keeps a
 * byte-order mark; a file that is not UTF-8 cannot be handed to any of them and is listed as
 * skipped with that reason (the decoder rejected it first).
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
export function inferSchema(value: unknown, exactInt64 = false, floatSpelled = false): { schema: SchemaNode; needs: Construct[] } {
  const needs = new Set<Construct>();
  const walk = (v: unknown): SchemaNode => {
    if (v === null) { needs.add('any'); return str(); }
    if (typeof v === 'bigint') { needs.add('int64'); return int(); }
    if (typeof v === 'boolean') return bool();
    if (typeof v === 'number') return Number.isSafeInteger(v) && !Object.is(v, -0) && !floatSpelled ? int() : num();
    if (typeof v === 'string') return str();
    if (Array.isArray(v)) {
      if (v.length === 0) { needs.add('any'); return arr(str()); }
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

/** Every file under `dir` (recursively), sorted by path. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A short id part from the folder of a file relative to the root (`json-test-suite`), or the root's name. */
function suiteOf(root: string, file: string): string {
  const rel = relative(root, file).split(/[\\/]/);
  return (rel.length > 1 ? rel[0] : basename(root)).replace(/[^\w-]/g, '');
}

/**
 * Probes from every conformance file under `dir`, and the files that could not become one.
 * @throws Error naming `dir` when it does not exist or holds no conformance file.
 */
export function conformanceProbes(dir: string): { probes: Probe[]; skipped: { file: string; reason: string }[] } {
  const probes: Probe[] = [];
  const skipped: { file: string; reason: string }[] = [];
  let files: string[];
  try { files = filesUnder(dir); } catch (e) { throw new Error(`conformance folder ${dir}: ${(e as Error).message}`); }
  for (const file of files) {
    const name = basename(file);
    const kind = conformanceKind(name);
    if (!kind) continue;
    let text: string;
    try { text = decoder.decode(readFileSync(file)); } catch {
      skipped.push({ file: relative(dir, file), reason: 'not valid UTF-8: a string-input deserializer cannot be handed it (the decoder rejects it first)' });
      continue;
    }
    const id = `conformance.${suiteOf(dir, file)}.${name.replace(/\.json$/, '')}`;
    probes.push(kind === 'roundtrip' ? roundtripProbe(id, name, text) : parseProbe(id, name, kind, text));
  }
  if (probes.length === 0 && skipped.length === 0) throw new Error(`conformance folder ${dir}: no y_/n_/i_, pass/fail or roundtrip *.json files in it`);
  return { probes, skipped };
}

function parseProbe(id: string, name: string, kind: Exclude<ConformanceKind, 'roundtrip'>, text: string): Probe {
  const rejects: Accept = { throws: true, label: 'rejects' };
  const acceptsAny: Accept = { label: 'accepts', check: () => null };
  const accepts = (): Accept => {
    try { return { value: JSON.parse(text), label: 'accepts' }; } catch { return acceptsAny; }
  };
  const accept = kind === 'accept' ? () => [accepts()] : kind === 'reject' ? () => [rejects] : () => [acceptsAny, rejects];
  return {
    id, family: 'conformance', title: `${name}: must be ${kind === 'accept' ? 'accepted' : kind === 'reject' ? 'rejected' : 'accepted or rejected'}`,
    schema: obj({}), needs: ['any'], intended: 'any JSON value',
    deserialize: { text: () => text, accept: (_cls) => accept() },
  };
}

function roundtripProbe(id: string, name: string, text: string): Probe {
  const { value, exactInt64 } = exactValue(text);
  // A number spelled with a fraction or an exponent ("0.0", "5e-324") is typed as a float, as its writer meant.
  const { schema, needs } = inferSchema(value, exactInt64, /\d[.eE]/.test(text));
  const written = text.trim();
  return {
    id, family: 'conformance', title: `${name}: ${written} read exactly and written back`, schema,
    ...(needs.length ? { needs } : {}),
    serialize: {
      // The serializer is given what the reference reader (JSON.parse) reads: a loss on reading shows on the deserialize side.
      input: () => JSON.parse(text),
      accept: [{ text: written, label: 'same text' }, { json: JSON.parse(text), label: 'same value, other spelling' }],
    },
    deserialize: { text: () => text, accept: anyClass({ value, label: exactInt64 ? 'exact (BigInt)' : 'exact' }) },
  };
}
