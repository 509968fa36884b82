import superjson from 'superjson';
import type { SerializerAdapter } from './types.js';
import { renameKeysToWire } from './support/naming.js';
import { serializerMustRename } from './support/model.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * superjson (family `reflection`): serializes JavaScript values JSON cannot hold (Date, Map, Set,
 * BigInt, undefined…) by walking the value and writing `{ json, meta }`, where `meta` records the
 * types to restore. `superjson.stringify(v)` writes that envelope, which is not the plain JSON of
 * `v`, so it could never pass the gate. What is measured instead is superjson's own pipeline on
 * plain JSON, exactly as `stringify`/`parse` run it minus the envelope:
 * - serialize = `JSON.stringify(superjson.serialize(value).json)` — the walk that builds the
 *   JSON-safe copy, then the built-in stringify (`stringify` is `JSON.stringify(serialize(v))`).
 *   For the JSON-safe workload values `meta` is empty, so nothing is dropped.
 * - deserialize = `superjson.deserialize({ json: JSON.parse(text) })` — what `superjson.parse`
 *   does for an envelope without `meta`: parse, then superjson's copying walk. Class `parse`:
 *   no types are checked.
 * superjson has no naming policy; for users-settings the keys are renamed by the same
 * schema-driven pass the `json` baseline uses (timed), and indentation is JSON.stringify's.
 */
const adapter: SerializerAdapter = {
  id: 'superjson',
  family: 'reflection',
  readsSchema: false,
  directions: ['serialize', 'deserialize'],
  deserializeClass: 'parse',
  packageName: 'superjson',
  supports: () => true,
  prepare(workload, direction) {
    if (direction === 'deserialize')
      return { deserialize: (text) => superjson.deserialize({ json: JSON.parse(text) }) };
    const indent = workload.wire?.indent;
    if (serializerMustRename(workload)) {
      const toWire = renameKeysToWire(workload.schema, workload.wire!.naming);
      return { serialize: (value) => JSON.stringify(superjson.serialize(toWire(value)).json, null, indent) };
    }
    return { serialize: (value) => JSON.stringify(superjson.serialize(value).json, null, indent) };
  },
  code: {
    serialize: 'JSON.stringify(superjson.serialize(value).json)',
    deserialize: 'superjson.deserialize({ json: JSON.parse(text) })',
  },
};

export default deepFreeze(adapter);
