import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workloads } from '../../workloads/index.js';
import { wireSchema } from '../../workloads/schema.js';
import { renderTypiaTemplate, type TypiaExport } from './typescript.js';

/**
 * Build step (scripts/build.mjs runs it before `typia generate`): writes one typia template per
 * built-in workload into src/serializers/typia/templates/, from the workload's own schema, with
 * the generator the run uses for a user's payload (typescript.ts). So the built-in templates and
 * the run-time ones cannot drift apart, and no template is written by hand.
 */

/** Workloads whose serializer the adapter reports unsupported (typia.ts `noSerializer`): their templates export parsers only. */
const PARSERS_ONLY = new Set(['users-settings']);

/** The exports of a built-in workload's template: the unit's, plus the `…List` pair when it has a `list` shape. */
export function templateExports(id: string, shapes: readonly string[]): TypiaExport[] {
  const list = shapes.includes('list');
  const serialize: TypiaExport[] = PARSERS_ONLY.has(id) ? [] : list ? ['stringify', 'stringifyList'] : ['stringify'];
  return [...serialize, ...(list ? (['assertParse', 'assertParseList'] as const) : (['assertParse'] as const))];
}

/** Writes every built-in workload's template into `dir` (emptied first). Returns the files written. */
export async function writeTemplates(dir: string): Promise<string[]> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const w of await workloads.loadAll()) {
    // a .NET-only variant (users-record): no JavaScript serializer measures it
    if (w.variantOf) continue;
    const doc = `typia template for the \`${w.id}\` workload (shapes ${w.shapes.join(', ')}), written by the build from\nthe workload's schema (src/serializers/typia/write-templates.ts); \`typia generate\` expands it into ../generated/.`;
    const file = join(dir, `${w.id}.ts`);
    writeFileSync(
      file,
      renderTypiaTemplate(wireSchema(w.schema, w.wire?.naming), templateExports(w.id, w.shapes), doc),
    );
    files.push(file);
  }
  return files;
}
