import { bundleBeside, BundleError } from '../files/bundle.js';
import { rmSync } from 'node:fs';
import { FileReadError, readDataFile } from '../files/read-file.js';
import { impossibleConstraint } from './schema-constraints.js';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod';
import { toJsonSchema as valibotToJsonSchema } from '@valibot/to-json-schema';
import type { JsonSchema } from '../workloads/json-schema.js';
import { fromJsonSchema, JsonSchemaError, schemaPathToJsonPath } from './json-schema-import.js';
import { parseJsonText, PayloadError } from './read.js';
import { propertyPath, type SchemaNode } from '../workloads/schema.js';
import { callUserCodeAsync, registerUserFile } from '../host/user-code.js';
import { describeThrown } from '../host/describe-thrown.js';
import { settleWithin } from '../host/settle.js';

/**
 * The user's own schema (`--schema FILE`, issue 10): a JSON Schema file (`.json`, as
 * `--print-schema` writes it), or a module exporting a zod, valibot or TypeBox schema, converted
 * through the library's own JSON Schema support — zod 4's `z.toJSONSchema` (the wire side,
 * `io: "input"`), `@valibot/to-json-schema`, and TypeBox, whose types are JSON Schema already —
 * then read by {@link fromJsonSchema}. What did not convert is listed: the library's own
 * reports (zod's unrepresentable types with their path, valibot's warnings) and the keywords
 * jsonbench's schema does not hold.
 */

export type SchemaLibrary = 'json-schema' | 'zod' | 'valibot' | 'typebox' | 'standard-schema';

export interface UserSchema {
  schema: SchemaNode;
  library: SchemaLibrary;
  /** the JSON Schema the library wrote (or the file held) */
  jsonSchema: JsonSchema;
  /** what did not convert, one line each ("date at $.createdAt: Date cannot be represented in JSON Schema") */
  unconverted: string[];
  /**
   * The schema library's own verdict on a value (Standard Schema's `~standard.validate`, which zod and valibot
   * implement) on the checks JSON Schema cannot hold (a `.refine()`): null when they accept the value, or the library
   * answers asynchronously (not waited for); else the first such issue, `never valid at $.id`. Absent for JSON Schema
   * and TypeBox.
   */
  validate?: (value: unknown) => string | null;
}

/** A Standard Schema issue path (keys, or `{ key }` segments) as a JSON path: `$.items[2].id`. */
function issuePath(path: readonly unknown[] | undefined): string {
  let at = '$';
  for (const seg of path ?? []) {
    const key = seg !== null && typeof seg === 'object' && 'key' in seg ? (seg as { key: unknown }).key : seg;
    at = typeof key === 'number' ? `${at}[${key}]` : propertyPath(at, String(key));
  }
  return at;
}

/** {@link UserSchema.validate} of a schema value with Standard Schema's `~standard.validate`, or undefined. */
function standardValidate(value: unknown): UserSchema['validate'] {
  const std = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  if (!std || typeof std.validate !== 'function') return undefined;
  const validate = std.validate as (v: unknown) => unknown;
  return (v) => {
    const result = validate.call(std, v) as
      { issues?: { message?: unknown; path?: unknown[] }[] } | PromiseLike<unknown>;
    if (result === null || typeof result !== 'object' || typeof (result as PromiseLike<unknown>).then === 'function')
      return null;
    // a custom check's issue only (zod `code: "custom"`, valibot `type: "check"`): the library's other issues are types
    // JSON Schema holds (checked already) or ones it cannot and the run says so (a z.date() field: "not converted")
    const issues = (result as { issues?: { message?: unknown; path?: unknown[]; code?: unknown; type?: unknown }[] })
      .issues;
    const issue = issues?.find(
      (i) => i.code === 'custom' || i.type === 'check' || i.type === 'custom' || i.type === 'raw_check',
    );
    return issue ? `${String(issue.message ?? 'refused')} at ${issuePath(issue.path)}` : null;
  };
}

/**
 * The parts of a zod schema that are functions, which no JSON Schema holds: custom checks (`.refine()`,
 * `.superRefine()`, `.check()` with a function) and transforms, one line each with its path (hx34 sc07: a
 * `.refine(() => false)` and a `.transform()` were dropped without a word). Walks zod 4's `_zod.def` tree.
 */
function zodFunctions(schema: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const isZod = (v: unknown): v is { _zod: { def: Record<string, unknown> } } =>
    v !== null &&
    typeof v === 'object' &&
    '_zod' in v &&
    typeof (v as { _zod?: { def?: unknown } })._zod?.def === 'object';
  const walk = (node: unknown, path: string): void => {
    if (!isZod(node) || seen.has(node)) return;
    seen.add(node);
    const def = node._zod.def;
    const checks = Array.isArray(def.checks) ? (def.checks as { _zod?: { def?: { check?: unknown } } }[]) : [];
    if (checks.some((c) => c._zod?.def?.check === 'custom'))
      out.push(
        `refine at ${path}: a custom check (a function) has no JSON Schema; the serializers are given the schema without it`,
      );
    if (def.type === 'transform')
      out.push(
        `transform at ${path}: a transform (a function) has no JSON Schema; the serializers read and write the input, untransformed`,
      );
    if (def.type === 'object' && def.shape && typeof def.shape === 'object')
      for (const [k, child] of Object.entries(def.shape as Record<string, unknown>)) walk(child, propertyPath(path, k));
    if (def.type === 'array') walk(def.element, `${path}[]`);
    if (def.type === 'record') walk(def.valueType, `${path}.*`);
    for (const key of ['innerType', 'in', 'out', 'left', 'right', 'catchall'] as const) walk(def[key], path);
    for (const key of ['options', 'items'] as const)
      if (Array.isArray(def[key]))
        for (const child of def[key] as unknown[]) walk(child, key === 'items' ? `${path}[]` : path);
  };
  walk(schema, '$');
  return out;
}

const TYPEBOX_KIND = Symbol.for('TypeBox.Kind');

/** Which library a schema value comes from, or null when it is none of them. */
export function schemaLibraryOf(value: unknown): SchemaLibrary | null {
  if (!value || (typeof value !== 'object' && typeof value !== 'function')) return null;
  const v = value as Record<string | symbol, unknown>;
  if (TYPEBOX_KIND in v) return 'typebox';
  const vendor = v['~standard'] as { vendor?: string; jsonSchema?: unknown } | undefined;
  if (vendor?.vendor === 'zod' && '_zod' in v) return 'zod';
  if (vendor?.vendor === 'valibot') return 'valibot';
  if (vendor?.jsonSchema) return 'standard-schema';
  return null;
}

/** The JSON Schema of a library schema value and what its library could not convert. @throws Error when the value is no known schema */
export function libraryJsonSchema(
  value: unknown,
  library: SchemaLibrary,
): { jsonSchema: JsonSchema; unconverted: string[] } {
  const unconverted: string[] = [];
  switch (library) {
    case 'zod': {
      const jsonSchema = z.toJSONSchema(value as z.ZodType, {
        io: 'input',
        unrepresentable: (ctx) => {
          unconverted.push(`${ctx.zodSchema._zod.def.type} at ${schemaPathToJsonPath(ctx.path)}: ${ctx.message}`);
          return 'any';
        },
      }) as JsonSchema;
      unconverted.push(...zodFunctions(value));
      return { jsonSchema, unconverted };
    }
    case 'valibot': {
      // @valibot/to-json-schema reports what it cannot convert only through console.warn (errorMode "warn")
      const warn = console.warn;
      console.warn = (...args: unknown[]) => {
        unconverted.push(args.map(String).join(' '));
      };
      try {
        return { jsonSchema: valibotToJsonSchema(value as never, { errorMode: 'warn' }) as JsonSchema, unconverted };
      } finally {
        console.warn = warn;
      }
    }
    case 'typebox':
      // TypeBox types are JSON Schema objects; its own markers are symbols, which JSON drops
      return { jsonSchema: JSON.parse(JSON.stringify(value)) as JsonSchema, unconverted };
    case 'standard-schema': {
      const std = (value as { '~standard': { jsonSchema: { input: (o: { target: string }) => JsonSchema } } })[
        '~standard'
      ];
      return { jsonSchema: std.jsonSchema.input({ target: 'draft-2020-12' }), unconverted };
    }
    case 'json-schema':
      return { jsonSchema: value as JsonSchema, unconverted };
  }
}

/** A schema value (library schema or JSON Schema object) as a {@link UserSchema}. @throws PayloadError naming `source` */
export function userSchemaOf(
  value: unknown,
  source: string,
  library: SchemaLibrary = schemaLibraryOf(value) ?? 'json-schema',
): UserSchema {
  let converted;
  try {
    converted = libraryJsonSchema(value, library);
  } catch (e) {
    throw new PayloadError(
      `${source}: the ${library} schema could not be converted to JSON Schema: ${describeThrown(e)}`,
    );
  }
  // a schema no value can meet (minimum above maximum) or that cannot be compiled (a bad pattern) is refused, not skipped (hx8)
  const impossible = impossibleConstraint(converted.jsonSchema);
  if (impossible) throw new PayloadError(`${source}: ${impossible}`);
  try {
    const { schema, unconverted } = fromJsonSchema(converted.jsonSchema);
    const validate =
      library === 'zod' || library === 'valibot' || library === 'standard-schema' ? standardValidate(value) : undefined;
    return {
      schema,
      library,
      jsonSchema: converted.jsonSchema,
      unconverted: [...converted.unconverted, ...unconverted],
      ...(validate ? { validate } : {}),
    };
  } catch (e) {
    if (e instanceof JsonSchemaError) throw new PayloadError(`${source}: ${e.message}`);
    throw e;
  }
}

/**
 * Bundles a TypeScript schema module to ESM next to it (so its packages resolve from the user's
 * folder, as src/config/compile-config.ts does for a `.ts` config); returns the module's path.
 * @throws PayloadError with esbuild's file:line:column for a syntax error
 */
async function bundleTs(file: string): Promise<string> {
  try {
    return await bundleBeside(file, 'schema');
  } catch (e) {
    if (!(e instanceof BundleError)) throw e;
    throw new PayloadError(`${e.at}: ${e.text}`);
  }
}

/**
 * How long a `--schema` module's import may take (ms): the bound a config's import has
 * (config/user-config.ts CONFIG_LOAD_TIMEOUT_MS, 30 s) and the same 5 s for the watchdog's margin.
 */
const SCHEMA_MODULE_LOAD_TIMEOUT_MS = 35_000;

/** The largest `--schema` file read: a schema is a few KiB; 64 MiB bounds a file that is not one. */
const SCHEMA_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Loads `--schema FILE`: `.json` is JSON Schema; `.js`/`.mjs`/`.cjs` is imported (`.ts`/`.mts`
 * bundled with esbuild first, as a `.ts` config is) and its `default` export, else its `schema`
 * export, else its first schema-valued export is used.
 * @throws PayloadError naming the file (bad JSON with line:column, no schema export, unconvertible schema)
 */
export async function loadUserSchema(file: string): Promise<UserSchema> {
  const ext = extname(file).toLowerCase();
  // only a regular file is opened: a FIFO blocked the read (or the import) with no output, until killed (hx8)
  let bytes: Buffer;
  try {
    bytes = readDataFile(file, SCHEMA_MAX_BYTES);
  } catch (e) {
    if (e instanceof FileReadError) throw new PayloadError(e.message);
    throw new PayloadError(`${file}: cannot be read: ${describeThrown(e)}`);
  }
  if (ext === '.json') return userSchemaOf(parseJsonText(bytes.toString('utf8'), file), file, 'json-schema');
  if (!['.js', '.mjs', '.cjs', '.ts', '.mts'].includes(ext))
    throw new PayloadError(
      `${file}: a schema is a .json JSON Schema or a .js/.mjs/.ts module exporting a zod, valibot or TypeBox schema`,
    );
  let mod: Record<string, unknown>;
  const modulePath = ext === '.ts' || ext === '.mts' ? await bundleTs(file) : resolve(file);
  try {
    // its top level runs in jsonbench's own process: bounded by the watchdog as a config's is, and
    // what it leaves running attributed to it (host/user-code.ts; issue 25: `for(;;);` hung the run silently)
    registerUserFile(modulePath, file);
    mod = await callUserCodeAsync(
      { file, hook: "the --schema module's top level" },
      SCHEMA_MODULE_LOAD_TIMEOUT_MS,
      // an await that never settles is said as such (hx29 S-hang: Node ran out of work and the exit read "process.exit(0)")
      () =>
        settleWithin(
          import(pathToFileURL(modulePath).href) as Promise<Record<string, unknown>>,
          SCHEMA_MODULE_LOAD_TIMEOUT_MS,
          'its top level',
        ),
    );
  } catch (e) {
    throw new PayloadError(`${file}: could not be imported: ${e instanceof Error ? e.message : describeThrown(e)}`);
  } finally {
    if (modulePath !== resolve(file)) rmSync(modulePath, { force: true });
  }
  const candidates = schemaExports(mod, file);
  if (!candidates.length)
    throw new PayloadError(
      `${file}: exports no zod, valibot or TypeBox schema (looked at default, schema and every export)`,
    );
  try {
    return userSchemaOf(candidates[0], file);
  } catch (e) {
    if (e instanceof PayloadError) throw e;
    // a Proxy or a getter of the schema value threw while it was read: the module's doing, named as such
    throw new PayloadError(`${file}: reading its schema export threw (a getter or a Proxy?): ${describeThrown(e)}`);
  }
}

/**
 * The first schema-valued export of a `--schema` module (in a list; [] for none), looked for in
 * `default`, `schema`, then every export. An export whose reading throws (a Proxy whose traps throw, a getter) is
 * refused naming it (hx8: it ended as "an internal error" from {@link schemaLibraryOf}).
 * @throws PayloadError naming `file` and the export
 */
function schemaExports(mod: Record<string, unknown>, file: string): unknown[] {
  let names: string[];
  try {
    names = ['default', 'schema', ...Object.keys(mod)];
  } catch (e) {
    throw new PayloadError(`${file}: its exports cannot be listed: ${describeThrown(e)}`);
  }
  for (const name of names) {
    try {
      const value = mod[name];
      // the first one is used: the exports after it are never read
      if (schemaLibraryOf(value)) return [value];
    } catch (e) {
      throw new PayloadError(
        `${file}: reading its export "${name}" threw (a getter or a Proxy whose traps throw?): ${describeThrown(e)}; export a plain zod, valibot or TypeBox schema`,
      );
    }
  }
  return [];
}
