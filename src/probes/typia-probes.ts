import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { wireSchema, type SchemaNode, type WireOptions } from '../workloads/schema.js';
import type { SerializerAdapter } from '../serializers/types.js';
import { installedVersion } from '../serializers/version.js';
import { serializers } from '../serializers/index.js';
import { missingConstructs } from './constructs.js';
import type { Probe, ProbeDirection } from './types.js';

/**
 * typia for probes. jsonbench's typia adapter (serializers/typia.ts) only has code generated
 * ahead of time for the five built-in workloads, so every probe would be "✘ needs compile-time
 * types" — a limit of jsonbench, not of typia. Here typia's own transformer (the one
 * `typia generate` runs: `transform` from typia/lib/transform, on a TypeScript program) compiles
 * `typia.json.createStringify<T>()` / `createAssertParse<T>()` for each probe schema at run time,
 * under the same conventions as the adapter's templates (wire shape; formats as plain `string`;
 * integers `number & tags.Type<"int64">`; nullable `T | null`), cached by schema hash and typia
 * version in node_modules/.cache/ (so the generated imports of `typia/lib/...` resolve).
 * Issue 10 makes the typia adapter itself do this for any workload; then this file goes.
 * Needs the `typescript` package (a devDependency today).
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'jsonbench-typia-probes');
const require = createRequire(import.meta.url);

/** The TypeScript type text of a wire schema node. */
export function typeText(node: SchemaNode): string {
  let t: string;
  switch (node.type) {
    case 'string': t = 'string'; break;
    case 'number': t = node.integer ? 'number & tags.Type<"int64">' : 'number'; break;
    case 'boolean': t = 'boolean'; break;
    case 'enum': t = node.values.map((v) => JSON.stringify(v)).join(' | ') || 'never'; break;
    case 'array': t = `Array<${typeText(node.items)}>`; break;
    case 'object': t = `{ ${Object.entries(node.properties).map(([k, v]) => `${JSON.stringify(k)}: ${typeText(v)};`).join(' ')} }`; break;
  }
  return node.nullable ? `(${t}) | null` : t;
}

/** What one generated module is made of: a schema, its wire options, and the direction (one function per module, so one direction's codegen failure cannot take the other down). */
export interface TypiaTarget { schema: SchemaNode; wire?: WireOptions; direction: ProbeDirection }

/** Cache key of one module: typia's version, the direction and the type text. */
export function moduleHash({ schema, wire, direction }: TypiaTarget): string {
  const text = typeText(wireSchema(schema, wire?.naming));
  return createHash('sha256').update(`${installedVersion('typia')}\n${direction}\n${text}`).digest('hex').slice(0, 20);
}

function source(text: string, direction: ProbeDirection): string {
  const call = direction === 'serialize' ? 'typia.json.createStringify<T>()' : 'typia.json.createAssertParse<T>()';
  return `import typia, { type tags } from 'typia';\ntype T = ${text};\nexport const fn = ${call};\n`;
}

/**
 * Generates (once) the module of every schema not in the cache, in one TypeScript program.
 * Returns, per hash, null when generated or the error typia reported for that schema.
 */
export async function ensureTypiaModules(targets: readonly TypiaTarget[]): Promise<Map<string, string | null>> {
  const ts = (await import('typescript')).default;
  const { transform } = require('typia/lib/transform') as { transform: Transform };
  mkdirSync(CACHE, { recursive: true });
  const status = new Map<string, string | null>();
  const todo = new Map<string, string>();
  for (const target of targets) {
    const { schema, wire } = target;
    const hash = moduleHash(target);
    if (existsSync(join(CACHE, `${hash}.mjs`))) status.set(hash, null);
    else if (existsSync(join(CACHE, `${hash}.error`))) status.set(hash, readFileSync(join(CACHE, `${hash}.error`), 'utf8'));
    else if (!todo.has(hash)) todo.set(hash, source(typeText(wireSchema(schema, wire?.naming)), target.direction));
  }
  if (todo.size === 0) return status;
  // Shallow types share one program; each very deep one gets its own, since TypeScript's parser can overflow on it.
  const deep = [...todo].filter(([, text]) => nesting(text) > 100);
  const shallow = [...todo].filter(([, text]) => nesting(text) <= 100);
  if (shallow.length) generate(ts, transform, shallow, status);
  for (const one of deep) generate(ts, transform, [one], status);
  return status;
}

/** Deepest bracket nesting of a type text. */
function nesting(text: string): number {
  let depth = 0;
  let max = 0;
  for (const c of text) {
    if (c === '<' || c === '{') max = Math.max(max, ++depth);
    else if (c === '>' || c === '}') depth--;
  }
  return max;
}

/** Message stored for a type TypeScript's own parser or checker overflowed on. */
export const TS_STACK_OVERFLOW = 'Maximum call stack size exceeded in TypeScript while reading the type';

type Ts = typeof import('typescript');
type Transform = (p: unknown, o: unknown, e: { addDiagnostic: (d: unknown) => number }) => unknown;

/** Runs typia's transformer over one program of `todo` (hash → source text) and records each outcome. */
function generate(ts: Ts, transform: Transform, todo: [string, string][], status: Map<string, string | null>): void {
  const fail = (hash: string, message: string) => { status.set(hash, message); writeFileSync(join(CACHE, `${hash}.error`), message); };
  const files = todo.map(([hash, text]) => { const f = join(CACHE, `${hash}.ts`); writeFileSync(f, text); return f; });
  const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, skipLibCheck: true, noEmit: true };
  let program: import('typescript').Program;
  try { program = ts.createProgram(files, options); } catch (e) {
    for (const [hash] of todo) fail(hash, e instanceof RangeError ? TS_STACK_OVERFLOW : `TypeScript failed: ${(e as Error).message}`);
    return;
  }
  for (const file of files) {
    const hash = file.slice(file.lastIndexOf('/') + 1, -3);
    const diagnostics: { messageText: unknown }[] = [];
    try {
      const sf = program.getSourceFile(file)!;
      const result = ts.transform(sf, [transform(program, {}, { addDiagnostic: (d) => diagnostics.push(d as { messageText: unknown }) }) as never], program.getCompilerOptions());
      if (diagnostics.length) { fail(hash, diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText as never, ' ')).join('; ')); continue; }
      const printed = ts.createPrinter().printFile(result.transformed[0]);
      const js = ts.transpileModule(printed, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
      writeFileSync(join(CACHE, `${hash}.mjs`), js);
      status.set(hash, null);
    } catch (e) {
      fail(hash, e instanceof RangeError ? TS_STACK_OVERFLOW : `typia transform threw: ${(e as Error).message}`);
    }
  }
}

/**
 * The typia adapter, able to run probes: same id, class and package, prepared from the module
 * generated for the probe's schema. `generated` is what {@link ensureTypiaModules} returned.
 */
export function typiaProbeAdapter(base: SerializerAdapter, generated: ReadonlyMap<string, string | null>): SerializerAdapter {
  return {
    ...base,
    supports(workload, direction) {
      if (direction === 'serialize' && workload.wire && (workload.wire.indent || (workload.serializeFrom === 'model' && workload.wire.naming))) {
        return 'typia has no naming policy or indentation';
      }
      return true;
    },
    async prepare(workload, direction) {
      const hash = moduleHash({ schema: workload.schema, wire: workload.wire, direction });
      const problem = generated.get(hash);
      if (problem === TS_STACK_OVERFLOW) throw new RangeError(`${problem} (typia reads schemas as TypeScript types)`);
      if (problem) throw new Error(`typia could not generate code for this schema: ${problem}`);
      if (problem === undefined) throw new Error('typia probe module not generated (call ensureTypiaModules first)');
      const { fn } = (await import(pathToFileURL(join(CACHE, `${hash}.mjs`)).href)) as { fn: (x: never) => unknown };
      return direction === 'serialize' ? { serialize: (v) => fn(v as never) as string } : { deserialize: (t) => fn(t as never) };
    },
  };
}

/**
 * The adapter the probe runner uses for `id`: a user's from `user`, else the registered one,
 * except typia, which gets its probe modules generated (or read from the cache) for every probe
 * it can be asked.
 */
export async function probeAdapter(id: string, probes: readonly Probe[], user: readonly SerializerAdapter[] = []): Promise<SerializerAdapter> {
  const base = await serializers.load(id, user);
  if (user.some((u) => u.id === id)) return base;
  if (id !== 'typia') return base;
  const askable = probes.filter((p) => missingConstructs(p).length === 0);
  const targets = askable.flatMap((p) => (['serialize', 'deserialize'] as const).filter((d) => p[d]).map((direction) => ({ schema: p.schema, wire: p.wire, direction })));
  return typiaProbeAdapter(base, await ensureTypiaModules(targets));
}
