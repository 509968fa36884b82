import { wireName, type SchemaNode, type WireOptions } from '../../workloads/schema.js';

/**
 * Compiles a function that copies a model value into its wire form, renaming object keys by the
 * naming policy along the schema (for serializers without a naming policy of their own).
 * Values not described by the schema are copied as they are.
 */
export function renameKeysToWire(schema: SchemaNode, naming: WireOptions['naming']): (value: unknown) => unknown {
  switch (schema.type) {
    case 'object': {
      const entries = Object.entries(schema.properties).map(
        ([key, node]) => [key, wireName(key, naming), renameKeysToWire(node, naming)] as const,
      );
      return (value) => {
        if (value === null || typeof value !== 'object') return value;
        const src = value as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const [key, wire, convert] of entries) if (key in src) out[wire] = convert(src[key]);
        return out;
      };
    }
    case 'array': {
      const convert = renameKeysToWire(schema.items, naming);
      return (value) => (Array.isArray(value) ? value.map(convert) : value);
    }
    default:
      return (value) => value;
  }
}
