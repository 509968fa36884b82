// Compares schema inference libraries on real files and on jsonbench's payload fixtures (issue 10).
// Each library's JSON Schema is read with jsonbench's own fromJsonSchema (so every output is judged
// the same way) and checked for the constructs a real API response holds. Prints a Markdown table.
// The candidates are this folder's own dependencies (not the lab's): they are loaded from
// studies/schema-inference/node_modules at run time, untyped.
// Run: (cd studies/schema-inference && npm ci) && npm run build && node build/studies/schema-inference/eval.js
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { quicktypeJsonSchema, inferSchema } from '../../src/payload/infer.js';
import { toJsonSchema as ours } from '../../src/workloads/json-schema.js';
import { fromJsonSchema } from '../../src/payload/json-schema-import.js';
import type { SchemaNode } from '../../src/workloads/schema.js';
import { helpRequested } from '../lib/lib.js';

const USAGE =
  '(cd studies/schema-inference && npm ci) && node build/studies/schema-inference/eval.js: the inference candidates on the payload fixtures and /work/shared/data/corpus (a minute)';
helpRequested(USAGE);
/** This study's source folder (the script runs from build/studies/schema-inference/). */
const here = fileURLToPath(new URL('../../../studies/schema-inference/', import.meta.url));
if (!existsSync(join(here, 'node_modules')))
  throw new Error(`schema-inference: its candidates are not installed: ${USAGE}`);
const requireHere = createRequire(join(here, 'package.json'));
/* eslint-disable @typescript-eslint/no-explicit-any -- the candidates are untyped packages of this folder */
const candidate = async (name: string): Promise<any> => import(pathToFileURL(requireHere.resolve(name)).href);
const { createSchema, createCompoundSchema } = await candidate('genson-js');
const { inferSchema: jsonhero } = await candidate('@jsonhero/schema-infer');
const toJsonSchema = (await candidate('to-json-schema')).default;
const GenerateSchema = (await candidate('generate-schema')).default;
const { analyzeDocuments } = await candidate('mongodb-schema');
type Loose = any;
/* eslint-enable @typescript-eslint/no-explicit-any */
const root = join(here, '../..');
const F = join(root, 'test/fixtures/payload/');
const C = join(root, '../shared/data/corpus/');
const read = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8'));
const inputs: Record<string, unknown[]> = {
  'citm_catalog.json': [read(C + 'citm_catalog.json')],
  'canada.json': [read(C + 'canada.json')],
  'api-response.json': [read(F + 'api-response.json')],
  'log.ndjson': readFileSync(F + 'log.ndjson', 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l)),
  'samples/ (3 files)': readdirSync(F + 'samples')
    .sort()
    .map((f) => read(F + 'samples/' + f)),
};
const libs: Record<string, (docs: Loose[]) => Promise<unknown>> = {
  'quicktype-core': (docs) => quicktypeJsonSchema(docs),
  'genson-js': async (docs) => (docs.length === 1 ? createSchema(docs[0]) : createCompoundSchema(docs)),
  '@jsonhero/schema-infer': async (docs) => {
    let inf: Loose;
    for (const d of docs) inf = jsonhero(d, inf);
    return inf.toJSONSchema();
  },
  'to-json-schema': async (docs) =>
    docs.length === 1 ? toJsonSchema(docs[0]) : toJsonSchema(docs, { arrays: { mode: 'uniform' } }).items,
  'generate-schema': async (docs) => {
    const s = GenerateSchema.json('Root', docs.length === 1 ? docs[0] : docs);
    return docs.length === 1 ? s : s.items;
  },
  'mongodb-schema': async (docs) => (await analyzeDocuments(docs)).getStandardJsonSchema(),
  // the pick, wrapped: quicktype-core plus jsonbench's refine pass (samples given as text so integers beyond 2^53 are seen)
  'jsonbench inferSchema': async (docs) =>
    ours((await inferSchema(docs.map((d) => ({ value: d, text: texts.get(d) ?? JSON.stringify(d) })))).schema),
};
/** The original texts of the single-document inputs (the 64-bit ids are only in the text). */
const texts = new Map<unknown, string>();

function closure(name: string): { packages: number; mb: number } {
  const lock = (
    JSON.parse(readFileSync(join(here, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dependencies?: Record<string, string> }>;
    }
  ).packages;
  const du = (p: string): number =>
    readdirSync(p, { withFileTypes: true }).reduce(
      (s, e) =>
        s + (e.isDirectory() ? (e.name === 'node_modules' ? 0 : du(join(p, e.name))) : statSync(join(p, e.name)).size),
      0,
    );
  const seen = new Set<string>();
  const stack = ['node_modules/' + name];
  while (stack.length) {
    const k = stack.pop() as string;
    if (seen.has(k) || !lock[k]) continue;
    seen.add(k);
    for (const d of Object.keys(lock[k].dependencies ?? {})) {
      let base = k;
      let found = 'node_modules/' + d;
      for (;;) {
        if (lock[`${base}/node_modules/${d}`]) {
          found = `${base}/node_modules/${d}`;
          break;
        }
        const i = base.lastIndexOf('/node_modules/');
        if (i < 0) break;
        base = base.slice(0, i);
      }
      stack.push(found);
    }
  }
  let bytes = 0;
  for (const k of seen) bytes += du(join(here, k));
  return { packages: seen.size, mb: bytes / 1048576 };
}

const get = (node: Loose, ...keys: string[]): Loose =>
  keys.reduce(
    (n: Loose, k) =>
      n === undefined
        ? undefined
        : k === '[]'
          ? n.items
          : k === '*'
            ? (n.values ?? n.additionalProperties)
            : n.properties?.[k],
    node,
  );
/** Feature checks on the SchemaNode read from each library's output. */
const checks: Record<string, (api: Loose, log: Loose, samples: Loose) => boolean | string> = {
  optional: (api, _log, samples) =>
    get(api, 'statuses', '[]')?.optional?.join() === 'spoilerText,language' &&
    get(samples, 'statuses', '[]')?.optional?.includes('language'),
  nullable: (_api, log) => get(log, 'user')?.nullable === true || get(log, 'user')?.anyOf !== undefined,
  'always null': (api) => get(api, 'statuses', '[]', 'inReplyToId')?.type === 'null',
  'always empty': (api) => {
    const a = get(api, 'statuses', '[]', 'mediaAttachments');
    return a?.type === 'array' && (a.empty === true || a.items?.type === 'unknown');
  },
  formats: (api) =>
    [
      ['statuses', '[]', 'createdAt'],
      ['statuses', '[]', 'reminderTime'],
      ['statuses', '[]', 'account', 'birthday'],
      ['statuses', '[]', 'account', 'id'],
      ['statuses', '[]', 'account', 'email'],
    ].filter((p) => get(api, ...p)?.format).length + '/5',
  enum: (api) => get(api, 'statuses', '[]', 'visibility')?.type === 'enum',
  record: (api) => get(api, 'accountsById')?.type === 'record',
  'string|number': (api) => get(api, 'statuses', '[]', 'score')?.type === 'union',
  'tagged union': (api) => get(api, 'statuses', '[]', 'attachments', '[]')?.type === 'discriminated',
  'int > 2^53': (api) => get(api, 'statuses', '[]', 'id')?.width === 64,
};

for (const [name, file] of [['api-response.json', F + 'api-response.json']] as const)
  texts.set(inputs[name][0], readFileSync(file, 'utf8'));
for (const [i, f] of readdirSync(F + 'samples')
  .sort()
  .entries())
  texts.set(inputs['samples/ (3 files)'][i], readFileSync(F + 'samples/' + f, 'utf8'));
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const rows: {
  lib: string;
  ms: Record<string, number | string>;
  feats: Record<string, unknown>;
  size: { packages: number; mb: number; note?: string };
}[] = [];
for (const [lib, fn] of Object.entries(libs)) {
  const ms: Record<string, number | string> = {};
  const out: Record<string, unknown> = {};
  for (const [name, docs] of Object.entries(inputs)) {
    const times: number[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const input = lib === 'jsonbench inferSchema' ? docs : structuredClone(docs);
        const t = performance.now();
        out[name] = await fn(input);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      ms[name] = times[2];
    } catch (e) {
      ms[name] = `✗ ${String((e as Error).message).slice(0, 40)}`;
    }
  }
  const node = (name: string): SchemaNode | undefined => {
    try {
      return fromJsonSchema(out[name] as Parameters<typeof fromJsonSchema>[0]).schema;
    } catch {
      return undefined;
    }
  };
  const api = node('api-response.json');
  const log = node('log.ndjson');
  const samples = node('samples/ (3 files)');
  const feats = Object.fromEntries(
    Object.entries(checks).map(([k, c]) => {
      let v: boolean | string | undefined;
      try {
        v = c(api, log, samples);
      } catch {
        v = false;
      }
      return [k, v === true ? '✓' : v === false || v === undefined ? '✗' : v];
    }),
  );
  const size =
    lib === 'jsonbench inferSchema' ? { ...closure('quicktype-core'), note: ' + lossless-json' } : closure(lib);
  rows.push({ lib, ms, feats, size });
}
const names = Object.keys(inputs);
const fmt = (v: number | string) => (typeof v === 'number' ? (v < 10 ? v.toFixed(1) : Math.round(v)) : v);
console.log(`load average ${load} (2 cores); median of 5 runs, ms\n`);
console.log(
  `| library | ${names.map((n) => `${n} ms`).join(' | ')} | install (packages, MiB) | ${Object.keys(checks).join(' | ')} |`,
);
console.log(`|${'---|'.repeat(names.length + 2 + Object.keys(checks).length)}`);
for (const r of rows)
  console.log(
    `| ${r.lib} | ${names.map((n) => fmt(r.ms[n])).join(' | ')} | ${r.size.packages}, ${r.size.mb.toFixed(1)}${r.size.note ?? ''} | ${Object.values(r.feats).join(' | ')} |`,
  );
