import type { DotnetSerializer } from '../types.js';
import { dotnetSupport } from './support.js';
import { deepFreeze } from '../../case/frozen.js';

/**
 * System.Text.Json with a source-generated `JsonSerializerContext` (the generator writes one per
 * workload, with the workload's options in `[JsonSourceGenerationOptions]`): the schema-compiled
 * counterpart of `stj`, as fast-json-stringify is of `JSON.stringify`.
 */
const stjSourcegen: DotnetSerializer = {
  id: 'stj-sourcegen',
  platform: 'dotnet',
  assembly: 'System.Text.Json',
  family: 'schema-compiled',
  directions: ['serialize', 'deserialize'],
  deserializeClass: 'transform',
  supports: (workload) => dotnetSupport(workload),
  code: {
    serialize: 'JsonSerializer.Serialize(value, Context.Default.T)',
    deserialize: 'JsonSerializer.Deserialize(text, Context.Default.T)',
  },
};

export default deepFreeze(stjSourcegen);
