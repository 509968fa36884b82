import type { Workload } from './types.js';
import usersSettings from './users-settings.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * `users-settings-record`: the `users-settings` payload (indented, snake_case) measured with study
 * 001's .NET code for its settings benchmark: the positional record of `users-record`, and the
 * options built inside each call (`JsonSerializer.Serialize(users, new JsonSerializerOptions {
 * WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower })`, Newtonsoft's
 * `new JsonSerializerSettings { Formatting = Indented, ContractResolver = new DefaultContractResolver
 * { NamingStrategy = new SnakeCaseNamingStrategy() } }`), so a fresh contract resolver per call is
 * part of what is timed. Shape `list` only, as the study measured it. A .NET-only variant ({@link Workload.variantOf}): measured when named.
 */
const workload: Workload = {
  ...usersSettings,
  id: 'users-settings-record',
  description:
    "The users-settings payload on .NET as study 001's code: a positional record with a Guid id, options built in each call",
  // the study's settings benchmark serialized the list; `many` would build a contract resolver per record
  shapes: ['list'],
  dotnet: { dto: 'record', settings: 'per-call' },
  variantOf: 'users-settings',
};

export default deepFreeze(workload);
