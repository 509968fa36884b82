import type { SerializerAdapter } from './types.js';
import { renameKeysToWire } from './support/naming.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * The built-in `JSON.stringify` / `JSON.parse`: the baseline every ratio is drawn against
 * (System.Text.Json's role in the .NET studies). `JSON` has no naming policy, so for a workload
 * whose wire names differ from its model (the snake_case settings variant) the serializer renames
 * keys in a schema-driven pass before stringifying, as a JavaScript service would; that pass is
 * part of what is timed.
 */
// taken when this module loads, before any user config or adapter module (issue 9: a config that
// replaced JSON.stringify had the json case and every ratio's baseline time its function)
const { stringify, parse } = JSON;

const adapter: SerializerAdapter = {
  id: 'json',
  family: 'builtin',
  readsSchema: false,
  directions: ['serialize', 'deserialize'],
  deserializeClass: 'parse',
  supports: () => true,
  prepare(workload, direction) {
    const indent = workload.wire?.indent;
    if (direction === 'serialize') {
      if (workload.serializeFrom === 'model' && workload.wire?.naming) {
        const toWire = renameKeysToWire(workload.schema, workload.wire.naming);
        return { serialize: (value) => stringify(toWire(value), null, indent) };
      }
      return indent
        ? { serialize: (value) => stringify(value, null, indent) }
        : { serialize: (value) => stringify(value) };
    }
    return { deserialize: (text) => parse(text) };
  },
  code: {
    serialize: 'JSON.stringify(value)',
    deserialize: 'JSON.parse(text)',
  },
};

export default deepFreeze(adapter);
