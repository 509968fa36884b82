import { fakerEn } from './faker.js';
import type { Workload } from './types.js';
import type { ObjectSchema } from './schema.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * `users`: a list of fake user records, shaped after the .NET serializer study that serializes
 * and deserializes 10,000 fake users made with Bogus (a `User` with Id, FirstName, LastName,
 * FullName, UserName and Email). Here the records come from @faker-js/faker, Bogus' JavaScript
 * counterpart, under the given seed.
 *
 * Units: `size` is the number of user records (100, 1,000 or 10,000). Shapes: `list` (one array
 * of `size` records per op) and `many` (each record on its own, the loop is the op). The wire
 * value uses the model's camelCase names and is written compact; the `users-settings` workload
 * reuses {@link generateUsers} for its indented snake_case variant.
 */

/** One fake user as the model (and, for `users`, the wire) holds it; every field is a string. */
export interface User {
  /** random UUID v4 */
  id: string;
  firstName: string;
  lastName: string;
  /** `${firstName} ${lastName}` */
  fullName: string;
  /** made by faker's internet helper from the first and last name */
  userName: string;
  /** made by faker's internet helper from the first and last name; contains '@' */
  email: string;
}

/** Schema of one user record (model names; the `users` wire uses the same names). */
export const userSchema: ObjectSchema = deepFreeze({
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    fullName: { type: 'string' },
    userName: { type: 'string' },
    email: { type: 'string', format: 'email' },
  },
});

/**
 * The `count` fake users for `seed`, in schema key order. Deterministic: the same (count, seed)
 * gives the same records, and the first n records do not depend on count.
 */
export function generateUsers(count: number, seed: number): User[] {
  const f = fakerEn();
  f.seed(seed);
  const users: User[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const id = f.string.uuid();
    const firstName = f.person.firstName();
    const lastName = f.person.lastName();
    users[i] = {
      id,
      firstName,
      lastName,
      fullName: `${firstName} ${lastName}`,
      userName: f.internet.username({ firstName, lastName }),
      email: f.internet.email({ firstName, lastName }),
    };
  }
  return users;
}

/** The `users` workload: `size` users, compact, camelCase; build() returns the array of records. */
const workload: Workload = {
  id: 'users',
  description:
    'Fake users {id, firstName, lastName, fullName, userName, email}, as in the .NET study of 10,000 Bogus users',
  sizes: [100, 1000, 10000],
  defaultSizes: [100],
  shapes: ['list', 'many'],
  schema: userSchema,
  build(size, seed) {
    return generateUsers(size, seed);
  },
};

export default deepFreeze(workload);
