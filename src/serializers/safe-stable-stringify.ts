import stringify from 'safe-stable-stringify';
import type { SerializerAdapter } from './types.js';
import { renameKeysToWire } from './support/naming.js';
import { serializerMustRename } from './support/model.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * safe-stable-stringify (family `builtin`: a drop-in `JSON.stringify` replacement, not a
 * schema or reflection library): `stringify(value, null, indent)` writes keys in sorted order
 * (deterministic output) and survives circular references and BigInt. Key order differs from
 * JSON.stringify's, which the gate allows (it compares values). Serialize only. Like the `json`
 * baseline it has no naming policy: for users-settings the keys are renamed by the same
 * schema-driven pass (timed) and indentation is its own `space` argument.
 */
const adapter: SerializerAdapter = {
  id: 'safe-stable-stringify',
  family: 'builtin',
  readsSchema: false,
  directions: ['serialize'],
  missingDirection: 'safe-stable-stringify serializes only; it has no parser',
  packageName: 'safe-stable-stringify',
  supports: () => true,
  prepare(workload, direction) {
    const indent = workload.wire?.indent;
    if (serializerMustRename(workload)) {
      const toWire = renameKeysToWire(workload.schema, workload.wire!.naming);
      return { serialize: (value) => stringify(toWire(value), null, indent)! };
    }
    return { serialize: (value) => stringify(value, null, indent)! };
  },
  code: { serialize: 'stringify(value, null, indent)' },
};

export default deepFreeze(adapter);
