import type { ResultsFile } from './types.js';

/**
 * Whether two loaded runs are one run: the same start and finish, and the same cases with the same
 * statuses and means (one file given twice, a folder and its results.json, a copy of a file, a file
 * and its ledger copy). `compare` refuses such a pair (a gate on it always passes); `report` shows a
 * run once (hx5, hx6). Pure.
 */
export function sameRun(a: ResultsFile, b: ResultsFile): boolean {
  if (a.startedAt !== b.startedAt || a.finishedAt !== b.finishedAt || a.cases.length !== b.cases.length) return false;
  const key = (r: ResultsFile) => JSON.stringify(r.cases.map((c) => [c.id, c.status, c.time?.mean ?? null]));
  return key(a) === key(b);
}
