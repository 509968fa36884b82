import { positionIn } from './position.js';
import { duplicateKeys } from '../case/duplicate-keys.js';

export { duplicateKeys } from '../case/duplicate-keys.js';

/**
 * The warning for each duplicate key of one unit of a payload: `file:line:column` (`source` is
 * `file`, or `file:line` for an NDJSON record, whose text is that one line).
 */
export function duplicateKeyWarnings(text: string, source: string): string[] {
  return duplicateKeys(text).map(({ key, offset }) => {
    const at = positionIn(text, offset, source);
    return `${at}: duplicate key ${JSON.stringify(key)} in one object: JSON.parse keeps its last value, so every serializer is measured on that one alone (RFC 8259 §4: names should be unique)`;
  });
}
