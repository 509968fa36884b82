import type { SerializerAdapter } from './types.js';
import { renameKeysToWire } from './support/naming.js';

/**
 * The built-in `JSON.stringify` / `JSON.parse`: the baseline every ratio is drawn against
 * (System.Text.Json's role in the .NET studies). `JSON` has no naming policy, so for a workload
 * whose wire names differ from its model (the snake_case settings variant) the serializer renames
 * keys in a schema-driven pass before stringifying, as a JavaScript service would; that pass is
 * part of what is timed.
 */
const adapter: SerializerAdapter = {
  id: 'json',
  family: 'builtin',
  directions: ['serialize', 'deserialize'],
  deserializeClass: 'parse',
  supports: () => true,
  prepare(workload, direction) {
    const indent = workload.wire?.indent;
    if (direction === 'serialize') {
      if (workload.serializeFrom === 'model' && workload.wire?.naming) {
        const toWire = renameKeysToWire(workload.schema, workload.wire.naming);
        return { serialize: (value) => JSON.stringify(toWire(value), null, indent) };
      }
      return indent ? { serialize: (value) => JSON.stringify(value, null, indent) } : { serialize: (value) => JSON.stringify(value) };
    }
    return { deserialize: (text) => JSON.parse(text) };
  },
  code: {
    serialize: 'JSON.stringify(value)',
    deserialize: 'JSON.parse(text)',
  },
};

export default adapter;
