import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wireSchema } from '../workloads/schema.js';
import { installedVersion } from '../serializers/version.js';
import { missingConstructs } from './constructs.js';
import type { Probe, ProbeDirection } from './types.js';
import { TS_STACK_OVERFLOW, moduleKey, typeText, type TypiaModuleIndex, type TypiaTarget } from './typia-probes.js';

/**
 * typia for probes, host side (the worker side is typia-probes.ts): typia's own transformer (the one
 * `typia generate` runs: `transform` from typia/lib/transform, on a TypeScript program) compiles
 * `typia.json.createStringify<T>()` / `createAssertParse<T>()` for each probe schema at run time,
 * under the same conventions as the adapter's templates (wire shape; formats as plain `string`;
 * integers `number & tags.Type<"int64">`; nullable `T | null`), cached by schema hash and typia
 * version in node_modules/.cache/ (so the generated imports of `typia/lib/...` resolve).
 * Issue 10 makes the typia adapter itself do this for any workload; then this file goes.
 * Needs the `typescript` package (a dependency).
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'jsonbench-typia-probes');
const require = createRequire(import.meta.url);

/** Cache key of one module: typia's version, the direction and the type text. */
export function moduleHash(target: TypiaTarget): string {
  return createHash('sha256')
    .update(`${installedVersion('typia')}\n${moduleKey(target)}`)
    .digest('hex')
    .slice(0, 20);
}

function source(text: string, direction: ProbeDirection): string {
  const call = direction === 'serialize' ? 'typia.json.createStringify<T>()' : 'typia.json.createAssertParse<T>()';
  return `import typia, { type tags } from 'typia';\ntype T = ${text};\nexport const fn = ${call};\n`;
}

/**
 * Generates (once) the module of every schema not in the cache, in one TypeScript program.
 * Returns, per hash, null when generated or the error typia reported for that schema.
 */
export async function ensureTypiaModules(
  targets: readonly TypiaTarget[],
  onGenerate?: (modules: number) => void,
): Promise<Map<string, string | null>> {
  mkdirSync(CACHE, { recursive: true });
  const status = new Map<string, string | null>();
  const todo = new Map<string, string>();
  for (const target of targets) {
    const { schema, wire } = target;
    const hash = moduleHash(target);
    if (existsSync(join(CACHE, `${hash}.mjs`))) status.set(hash, null);
    else if (existsSync(join(CACHE, `${hash}.error`)))
      status.set(hash, readFileSync(join(CACHE, `${hash}.error`), 'utf8'));
    else if (!todo.has(hash)) todo.set(hash, source(typeText(wireSchema(schema, wire?.naming)), target.direction));
  }
  if (todo.size === 0) return status;
  // TypeScript and typia's transformer load only when a module is missing (0.5 s of a rerun's probe pass)
  onGenerate?.(todo.size);
  const ts = (await import('typescript')).default;
  const { transform } = require('typia/lib/transform') as { transform: Transform };
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

type Ts = typeof import('typescript');
type Transform = (p: unknown, o: unknown, e: { addDiagnostic: (d: unknown) => number }) => unknown;

/** Runs typia's transformer over one program of `todo` (hash → source text) and records each outcome. */
function generate(ts: Ts, transform: Transform, todo: [string, string][], status: Map<string, string | null>): void {
  const fail = (hash: string, message: string) => {
    status.set(hash, message);
    writeFileSync(join(CACHE, `${hash}.error`), message);
  };
  const files = todo.map(([hash, text]) => {
    const f = join(CACHE, `${hash}.ts`);
    writeFileSync(f, text);
    return f;
  });
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  };
  let program: import('typescript').Program;
  try {
    program = ts.createProgram(files, options);
  } catch (e) {
    for (const [hash] of todo)
      fail(hash, e instanceof RangeError ? TS_STACK_OVERFLOW : `TypeScript failed: ${(e as Error).message}`);
    return;
  }
  for (const file of files) {
    const hash = file.slice(file.lastIndexOf('/') + 1, -3);
    const diagnostics: { messageText: unknown }[] = [];
    try {
      const sf = program.getSourceFile(file)!;
      const result = ts.transform(
        sf,
        [transform(program, {}, { addDiagnostic: (d) => diagnostics.push(d as { messageText: unknown }) }) as never],
        program.getCompilerOptions(),
      );
      if (diagnostics.length) {
        fail(hash, diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText as never, ' ')).join('; '));
        continue;
      }
      const printed = ts.createPrinter().printFile(result.transformed[0]);
      const js = ts.transpileModule(printed, {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      }).outputText;
      writeFileSync(join(CACHE, `${hash}.mjs`), js);
      status.set(hash, null);
    } catch (e) {
      fail(hash, e instanceof RangeError ? TS_STACK_OVERFLOW : `typia transform threw: ${(e as Error).message}`);
    }
  }
}

/**
 * Generates (or finds in the cache) the module of every probe schema typia can be asked (no
 * construct missing), and writes the index a worker reads (`typiaModules` of a probe job): module
 * key → the module's file, or the error typia reported for that schema. Returns the index's path.
 */
export async function prepareTypiaProbes(
  probes: readonly Probe[],
  onGenerate?: (modules: number) => void,
): Promise<string> {
  const askable = probes.filter((p) => missingConstructs(p).length === 0);
  const targets = askable.flatMap((p) =>
    (['serialize', 'deserialize'] as const)
      .filter((d) => p[d])
      .map((direction) => ({ schema: p.schema, wire: p.wire, direction })),
  );
  const status = await ensureTypiaModules(targets, onGenerate);
  const index: TypiaModuleIndex = {};
  for (const t of targets) {
    const hash = moduleHash(t);
    const problem = status.get(hash);
    index[moduleKey(t)] = problem ? { error: problem } : { module: join(CACHE, `${hash}.mjs`) };
  }
  const path = join(
    CACHE,
    `index-${createHash('sha256').update(JSON.stringify(index)).digest('hex').slice(0, 16)}.json`,
  );
  writeFileSync(path, JSON.stringify(index));
  return path;
}
