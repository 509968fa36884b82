import typia from 'typia';

/**
 * typia template for the `users-settings` workload (shapes `list` and `many`): the snake_case
 * wire record. Only parsers: the serializer is handed the camelCase model and must rename keys
 * and indent, which typia's stringify cannot (no naming policy, no indentation), so the adapter
 * reports serialize as unsupported. `npm run build` writes the compiled functions to ../generated/.
 */

/** One user record as it stands on the wire (snake_case keys). */
export interface UserSettingsWire {
  id: string;
  first_name: string;
  last_name: string;
  full_name: string;
  user_name: string;
  email: string;
}

/** JSON text → record, type-checked; throws TypeGuardError (`many`). */
export const assertParse = typia.json.createAssertParse<UserSettingsWire>();
/** JSON text → records, type-checked; throws TypeGuardError (`list`). */
export const assertParseList = typia.json.createAssertParse<UserSettingsWire[]>();
