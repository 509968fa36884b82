import typia from 'typia';

/**
 * typia template for the `users` workload (shapes `list` and `many`): one fake user record, and
 * the array of records a `list` op handles. `npm run build` runs `typia generate`, which writes
 * the compiled functions to ../generated/.
 */

/** One user record as it stands on the wire (camelCase, all strings). */
export interface User {
  id: string;
  firstName: string;
  lastName: string;
  fullName: string;
  userName: string;
  email: string;
}

/** Record → JSON text (`many`). */
export const stringify = typia.json.createStringify<User>();
/** Records → JSON text (`list`). */
export const stringifyList = typia.json.createStringify<User[]>();
/** JSON text → record, type-checked; throws TypeGuardError (`many`). */
export const assertParse = typia.json.createAssertParse<User>();
/** JSON text → records, type-checked; throws TypeGuardError (`list`). */
export const assertParseList = typia.json.createAssertParse<User[]>();
