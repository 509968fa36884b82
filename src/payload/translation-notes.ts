import { toJtd } from '../serializers/ajv-jtd.js';
import { toDtoClass } from '../serializers/class-transformer.js';
import { paths } from '../serializers/support/translation.js';
import { wireSchema, type SchemaNode } from '../workloads/schema.js';
import type { Workload } from '../workloads/types.js';

/**
 * What each schema-driven adapter checks more loosely than the schema says, for the report to
 * show beside its cases (the adapters' translators throw for what they cannot say at all; see
 * src/serializers/support/translation.ts). Adapters not listed express every construct exactly.
 * Pure; the workload is the unit view the adapters are prepared with.
 */
export function translationNotes(adapterId: string, workload: Workload): string[] {
  const wire = wireSchema(workload.schema, workload.wire?.naming);
  switch (adapterId) {
    case 'ajv-jtd':
      return toJtd(wire).notes;
    case 'class-transformer':
      try { return toDtoClass(workload.schema, workload.wire?.naming).notes; } catch { return []; }
    case 'typia':
    case 'arktype':
      return typedExtraKeys(wire).map((p) => `${adapterId === 'typia' ? 'typia (a TypeScript index signature)' : 'arktype (an index signature)'} also admits the declared keys' types for the other keys at ${p}`);
    default:
      return [];
  }
}

/** Paths of objects whose extra keys have a type (not unknown) beside declared keys. */
function typedExtraKeys(node: SchemaNode, path = '$'): string[] {
  switch (node.type) {
    case 'object': {
      const own = node.additionalProperties && node.additionalProperties.type !== 'unknown' && Object.keys(node.properties).length ? [paths.value(path)] : [];
      return [...own, ...Object.entries(node.properties).flatMap(([k, n]) => typedExtraKeys(n, paths.prop(path, k)))];
    }
    case 'array': return typedExtraKeys(node.items, paths.item(path));
    case 'record': return typedExtraKeys(node.values, paths.value(path));
    case 'union': return node.anyOf.flatMap((n) => typedExtraKeys(n, path));
    case 'discriminated': return Object.entries(node.mapping).flatMap(([t, o]) => typedExtraKeys(o, paths.variant(path, node.discriminator, t)));
    default: return [];
  }
}
