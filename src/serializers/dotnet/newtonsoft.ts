import type { DotnetSerializer } from '../types.js';
import { dotnetSupport } from './support.js';
import { deepFreeze } from '../../case/frozen.js';

/**
 * Newtonsoft.Json (`JsonConvert` with one JsonSerializerSettings): the reflection library of the
 * .NET studies. Settings variant: Formatting.Indented + SnakeCaseNamingStrategy; numbers as
 * strings: its default conversion. Package 13.0.4 (the NuGet copy here has no 13.0.5-beta1).
 */
const newtonsoft: DotnetSerializer = {
  id: 'newtonsoft',
  platform: 'dotnet',
  assembly: 'Newtonsoft.Json',
  family: 'reflection',
  directions: ['serialize', 'deserialize'],
  deserializeClass: 'transform',
  supports: (workload) => dotnetSupport(workload),
  code: {
    serialize: 'JsonConvert.SerializeObject(value, settings)',
    deserialize: 'JsonConvert.DeserializeObject<T>(text, settings)',
  },
};

export default deepFreeze(newtonsoft);
