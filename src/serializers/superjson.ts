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
 * A value superjson writes only with `meta` (-0 is written as the string "-0" and restored from
 * `meta`) has no plain JSON of superjson's: serialize throws {@link EnvelopeNeeded} saying so, and the
 * case fails with that reason (hx31 b14: "output differs at $.neg (expected -0, got "-0")" read as a
 * wrong answer of superjson's, though `superjson.parse` restores -0).
 * superjson has no naming policy; for users-settings the keys are renamed by the same
 * schema-driven pass the `json` baseline uses (timed), and indentation is JSON.stringify's.
 */
/** superjson wrote `meta` for a value: its plain JSON alone is not the value's JSON (thrown by serialize). */
class EnvelopeNeeded extends Error {
  constructor(meta: unknown) {
    const text = JSON.stringify(meta) ?? '';
    super(
      `superjson writes this value only with its { json, meta } envelope (meta ${text.length > 160 ? `${text.slice(0, 160)}…` : text}${text.includes('["number"]') ? ': a -0 is the string "-0" there' : ''}), which superjson.parse reads back; its plain JSON alone, what is measured here, is not this value's JSON`,
    );
    this.name = 'EnvelopeNeeded';
  }
}

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
    const toWire = serializerMustRename(workload) ? renameKeysToWire(workload.schema, workload.wire!.naming) : null;
    return {
      serialize: (value) => {
        const out = superjson.serialize(toWire ? toWire(value) : value);
        if (out.meta !== undefined) throw new EnvelopeNeeded(out.meta);
        return JSON.stringify(out.json, null, indent);
      },
    };
  },
  code: {
    serialize: 'JSON.stringify(superjson.serialize(value).json) // throws when superjson writes meta',
    deserialize: 'superjson.deserialize({ json: JSON.parse(text) })',
  },
};

export default deepFreeze(adapter);
