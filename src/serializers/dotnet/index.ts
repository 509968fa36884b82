import { createRegistry } from '../../registry/registry.js';
import type { DotnetSerializer } from '../types.js';

/**
 * The .NET serializers, one file each; their code is in the C# worker (workers/dotnet/src/
 * Serializers.cs) under the same ids. Adding one is adding its class there, its file here and one
 * line below. The first entry, `stj`, is the baseline of every .NET group. (The worker also has
 * `wrong-dotnet`, a deliberately wrong serializer for the gate's tests: not listed here.)
 */
export const dotnetSerializers = createRegistry<DotnetSerializer>('.NET serializer', {
  stj: () => import('./stj.js'),
  'stj-sourcegen': () => import('./stj-sourcegen.js'),
  newtonsoft: () => import('./newtonsoft.js'),
});
