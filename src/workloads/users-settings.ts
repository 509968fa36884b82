import type { Workload } from './types.js';
import { wireName, type SchemaNode, type WireOptions } from './schema.js';
import { generateUsers, userSchema } from './users.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * `users-settings`: the same fake users as `users` (from {@link generateUsers}), written the way
 * the .NET study's "settings" variant writes them: `JsonSerializerOptions` with
 * `WriteIndented = true` (2 spaces) and a snake_case naming policy. The serializer is handed the
 * camelCase model records (`serializeFrom: 'model'`) and must rename the keys and indent the text
 * itself, so the cost of the options is measured, not just the cost of the bytes.
 *
 * Units: `size` is the number of user records (100, 1,000 or 10,000). Shapes: `list` and `many`.
 * build() returns the WIRE value (keys id, first_name, last_name, full_name, user_name, email);
 * the schema keeps the model (camelCase) names, and toModel() maps the wire names back along it.
 */

const wire: WireOptions = { naming: 'snake_case', indent: 2 };

/**
 * Copies `value` with its object keys renamed along `node`: model names → wire names when
 * `toWire`, wire names → model names otherwise. Non-object values are returned as they are.
 */
export function renameKeys(node: SchemaNode, value: unknown, naming: WireOptions['naming'], toWire: boolean): unknown {
  if (value === null || value === undefined) return value;
  if (node.type === 'array') return (value as unknown[]).map((v) => renameKeys(node.items, v, naming, toWire));
  if (node.type !== 'object') return value;
  const from = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node.properties)) {
    const onWire = wireName(key, naming);
    out[toWire ? onWire : key] = renameKeys(child, from[toWire ? key : onWire], naming, toWire);
  }
  return out;
}

/**
 * The workload's text rule: the payload must be exactly what `JSON.stringify(value, null, 2)`
 * writes for the value it holds (2-space indentation, one property per line, `": "` after keys).
 * Key order is taken from the text itself, so only layout is checked; note that a serializer
 * which escapes characters JSON.stringify leaves as they are (e.g. `\/`, `\u00e9`) or appends a
 * trailing newline is rejected too. Returns a reason, or null when the text passes.
 */
export function checkIndented2(text: string): string | null {
  let expected: string;
  try {
    expected = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return 'output is not valid JSON';
  }
  if (expected === text) return null;
  const got = text.split('\n');
  const want = expected.split('\n');
  let line = 0;
  while (line < want.length && got[line] === want[line]) line++;
  return `output is not indented with 2 spaces (first difference on line ${line + 1})`;
}

/** The `users-settings` workload: `size` users, indented with 2 spaces, snake_case keys. */
const workload: Workload = {
  id: 'users-settings',
  description:
    'The users workload written indented (2 spaces) with snake_case names, as the .NET study\'s "settings" variant',
  sizes: [100, 1000, 10000],
  defaultSizes: [100],
  shapes: ['list', 'many'],
  schema: userSchema,
  wire,
  serializeFrom: 'model',
  build(size, seed) {
    return generateUsers(size, seed).map((u) => renameKeys(userSchema, u, wire.naming, true));
  },
  toModel(wireRecord) {
    return renameKeys(userSchema, wireRecord, wire.naming, false);
  },
  checkText: checkIndented2,
};

export default deepFreeze(workload);
