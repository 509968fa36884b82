import type { Workload } from './types.js';
import users from './users.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * `users-record`: the `users` payload (the same fake users, byte for byte) measured with study 001's
 * .NET code shape: `public record User(Guid Id, string FirstName, …)`, a positional record both
 * libraries bind through its constructor on deserialize, its id a `Guid` (issue 26). On the wire
 * nothing changes, so it is a .NET-only variant ({@link Workload.variantOf}): measured only when
 * `--workload` names it. With this shape, Newtonsoft.Json deserializing 10,000 users allocates
 * about 2.5× what it does into settable classes with string ids (docs/dotnet.md has the figures).
 */
const workload: Workload = {
  ...users,
  id: 'users-record',
  description:
    "The users payload on .NET as study 001's code: a positional record with a Guid id, bound through its constructor",
  dotnet: { dto: 'record' },
  variantOf: 'users',
};

export default deepFreeze(workload);
