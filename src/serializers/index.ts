import { createRegistry } from '../registry/registry.js';
import type { SerializerAdapter } from './types.js';

/**
 * The built-in serializer adapters, one file each. Adding a library is adding its file and one
 * line here. The first entry, `json`, is the baseline of every group.
 */
export const serializers = createRegistry<SerializerAdapter>('serializer', {
  json: () => import('./json.js'),
  'fast-json-stringify': () => import('./fast-json-stringify.js'),
  'ajv-jtd': () => import('./ajv-jtd.js'),
  typia: () => import('./typia.js'),
  typebox: () => import('./typebox.js'),
  zod: () => import('./zod.js'),
  valibot: () => import('./valibot.js'),
  arktype: () => import('./arktype.js'),
  'class-transformer': () => import('./class-transformer.js'),
  superjson: () => import('./superjson.js'),
  'safe-stable-stringify': () => import('./safe-stable-stringify.js'),
  'secure-json-parse': () => import('./secure-json-parse.js'),
});
