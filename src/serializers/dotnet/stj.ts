import type { DotnetSerializer } from '../types.js';
import { dotnetSupport } from './support.js';
import { deepFreeze } from '../../case/frozen.js';

/**
 * System.Text.Json with reflection metadata (`JsonSerializer.Serialize/Deserialize<T>` with one
 * JsonSerializerOptions): the baseline of every .NET case, as in the report site's tables and the
 * .NET studies. On .NET 10 it is the shared framework's own copy; on Mono the NuGet package's
 * net462 assembly (workers/dotnet/README.md). Settings variant: WriteIndented + SnakeCaseLower;
 * numbers as strings: JsonNumberHandling.AllowReadingFromString.
 */
const stj: DotnetSerializer = {
  id: 'stj',
  platform: 'dotnet',
  assembly: 'System.Text.Json',
  family: 'builtin',
  directions: ['serialize', 'deserialize'],
  deserializeClass: 'transform',
  supports: (workload) => dotnetSupport(workload),
  code: {
    serialize: 'JsonSerializer.Serialize(value, options)',
    deserialize: 'JsonSerializer.Deserialize<T>(text, options)',
  },
};

export default deepFreeze(stj);
