import sjson from 'secure-json-parse';
import type { SerializerAdapter } from './types.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * secure-json-parse (family `builtin`: a drop-in `JSON.parse` replacement): parses with the
 * built-in parser, then regex-scans the text for `"__proto__":` and `"constructor":` keys and,
 * only when one is found, walks the result and throws on prototype poisoning (its default
 * `protoAction` and `constructorAction` are `'error'`). So its cost over JSON.parse is the scan.
 * Class `parse`: no types are checked. Deserialize only.
 */
const adapter: SerializerAdapter = {
  id: 'secure-json-parse',
  family: 'builtin',
  readsSchema: false,
  directions: ['deserialize'],
  missingDirection: 'secure-json-parse parses only; it has no serializer',
  deserializeClass: 'parse',
  packageName: 'secure-json-parse',
  supports: () => true,
  prepare(_workload, direction) {
    return { deserialize: (text) => sjson.parse(text) };
  },
  code: { deserialize: 'sjson.parse(text)' },
};

export default deepFreeze(adapter);
