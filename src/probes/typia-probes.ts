import { wireSchema, type SchemaNode, type WireOptions } from '../workloads/schema.js';
import { toTypeScript } from '../serializers/typia/typescript.js';
import type { SerializerAdapter } from '../serializers/types.js';
import type { ProbeDirection } from './types.js';

/**
 * typia for probes, worker side. jsonbench's typia adapter (serializers/typia.ts) only has code
 * generated ahead of time for the built-in workloads, so every probe would be "✘ needs compile-time
 * types" — a limit of jsonbench, not of typia. The host generates a module per probe schema with
 * typia's own transformer (typia-generate.ts) and hands the worker an index of them; here the typia
 * adapter is wrapped to load the module of each probe's schema. Issue 10 makes the typia adapter
 * itself generate at run time for any workload; then these two files go.
 * Only the installed typia is generated with: a version-matrix row `typia@X` keeps the adapter's
 * ahead-of-time code (✘ for every probe) rather than run typia 12's code under typia X's name.
 */

/** The TypeScript type text of a wire schema node, under the adapter templates' conventions (formats as plain `string`; integers `number & tags.Type<"int64">`; nullable `T | null`). */
export function typeText(node: SchemaNode): string {
  return toTypeScript(node);
}

/** What one generated module is made of: a schema, its wire options, and the direction (one function per module, so one direction's codegen failure cannot take the other down). */
export interface TypiaTarget {
  schema: SchemaNode;
  wire?: WireOptions;
  direction: ProbeDirection;
}

/** The index key of a module: direction and type text. */
export function moduleKey({ schema, wire, direction }: TypiaTarget): string {
  return `${direction}\n${typeText(wireSchema(schema, wire?.naming))}`;
}

/** Module key → the generated module's absolute path, or the error typia (or TypeScript) reported for that schema. */
export type TypiaModuleIndex = Record<
  string,
  { module: string; error?: undefined } | { error: string; module?: undefined }
>;

/** Message stored for a type TypeScript's own parser or checker overflowed on. */
export const TS_STACK_OVERFLOW = 'Maximum call stack size exceeded in TypeScript while reading the type';

/**
 * The typia adapter, able to run probes: same id, class and package, prepared from the module
 * generated for the probe's schema. `index` is what the host wrote (typia-generate.ts);
 * `importFile` imports an absolute path (the worker's runtime must import files).
 */
export function typiaProbeAdapter(
  base: SerializerAdapter,
  index: TypiaModuleIndex,
  importFile: (path: string) => Promise<unknown>,
): SerializerAdapter {
  return {
    ...base,
    supports(workload, direction) {
      if (
        direction === 'serialize' &&
        workload.wire &&
        (workload.wire.indent || (workload.serializeFrom === 'model' && workload.wire.naming))
      ) {
        return 'typia has no naming policy or indentation';
      }
      return true;
    },
    async prepare(workload, direction) {
      const entry = index[moduleKey({ schema: workload.schema, wire: workload.wire, direction })];
      if (!entry)
        throw new Error('typia probe module not generated for this schema (the host generates them before the launch)');
      if (entry.error === TS_STACK_OVERFLOW)
        throw new RangeError(`${entry.error} (typia reads schemas as TypeScript types)`);
      if (entry.error !== undefined) throw new Error(`typia could not generate code for this schema: ${entry.error}`);
      const { fn } = (await importFile(entry.module)) as { fn: (x: never) => unknown };
      return direction === 'serialize'
        ? { serialize: (v) => fn(v as never) as string }
        : { deserialize: (t) => fn(t as never) };
    },
  };
}
