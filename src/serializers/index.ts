import { createRegistry } from '../registry/registry.js';
import type { SerializerAdapter } from './types.js';

/**
 * The built-in serializer adapters, one file each. Adding a library is adding its file and one
 * line here. The first entry, `json`, is the baseline of every group.
 */
export const serializers = createRegistry<SerializerAdapter>('serializer', {
  json: () => import('./json.js'),
});
