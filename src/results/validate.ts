/**
 * Checks a results file against its schema (results/types.ts) with TypeBox's compiled checker,
 * after upgrading an older layout (results/upgrade.ts). Every command that reads results files
 * goes through {@link checkResults}, so a hand-edited or truncated file is refused with the path
 * of its first problem instead of crashing a renderer or printing `∞` or `NaN`.
 */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { ValueError } from '@sinclair/typebox/errors';
import { ResultsFileSchema, type ResultsFile } from './types.js';
import { upgradeResults } from './upgrade.js';
import { ResultsFileError } from './errors.js';



const checker = TypeCompiler.Compile(ResultsFileSchema);


/** A short rendering of the offending value for the message. */
function shown(value: unknown): string {
  let text: string;
  try { text = JSON.stringify(value) ?? String(value); } catch { text = String(value); }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** The discriminants of the file's tagged unions (a case's `status`, an allocation's `method`). */
const DISCRIMINANTS = ['status', 'method'];

/**
 * The most telling error under `e`: for a union (a case's outcome, an allocation figure), the first
 * error of the variant whose discriminant the value does have (so a `measured` case without `time`
 * says "/cases/3/time: Expected required property", not "Expected union value").
 */
function deepest(e: ValueError): ValueError {
  const variants = (e.errors ?? []).map((it) => [...it]);
  const chosen = variants.find((errs) => errs.length && !errs.some((x) => DISCRIMINANTS.some((d) => x.path === `${e.path}/${d}`)));
  return chosen ? deepest(chosen[0]) : e;
}

/**
 * Returns `value` as a results file of the current layout (older layouts are upgraded first).
 * @param where how to name the source in errors (a file path, `ledger run 3`)
 * @throws ResultsFileError naming `where`, the JSON pointer of the first problem and what is wrong there
 */
export function checkResults(value: unknown, where: string): ResultsFile {
  const upgraded = upgradeResults(value, where);
  if (checker.Check(upgraded)) return upgraded;
  const top = checker.Errors(upgraded).First();
  const first = top ? deepest(top) : undefined;
  throw new ResultsFileError(where, first?.path ?? '', `${first?.message ?? 'does not match the results schema'} (found ${shown(first?.value)})`);
}
