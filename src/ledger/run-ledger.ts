/**
 * The ledger as `jsonbench run` uses it: where it lives, and a recorder that writes each case as
 * it finishes. The ledger never stops a measurement: if it cannot be opened or written, the run
 * goes on with one warning and the results file is still written.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { CaseResult } from '../results/types.js';
import { openLedger, type Db } from './schema.js';
import { beginRun, finishRun, recordCase, recordInstructions, type RunHeader } from './record.js';
import type { HistoryPoint } from '../results/history.js';
import { caseHistory } from './queries.js';
import { adapterIdOf } from '../versions/spec.js';
import { thisRecorder } from './recorder.js';
import { DEFAULT_LEDGER_PATH } from './default-path.js';

/** The ledger's default place under the working directory (in default-path.ts, which the CLI's help reads alone). */
export { DEFAULT_LEDGER_PATH };

/**
 * Where the ledger is: `false` (from `--no-ledger`) → null (none); a path (from `--ledger`) →
 * that path under `cwd`; else `$JSONBENCH_LEDGER`, else `.jsonbench/ledger.db` under `cwd`.
 */
export function resolveLedgerPath(
  cwd: string,
  option: string | boolean | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (option === false) return null;
  if (typeof option === 'string') return resolve(cwd, option);
  if (env.JSONBENCH_LEDGER === '0' || env.JSONBENCH_LEDGER === 'off') return null;
  return resolve(cwd, env.JSONBENCH_LEDGER || DEFAULT_LEDGER_PATH);
}

/** The commit checked out in `cwd` and whether the tree has uncommitted changes; null outside git. */
export function gitState(cwd: string): { commit: string; dirty: boolean } | null {
  try {
    const opts = {
      cwd,
      encoding: 'utf8' as const,
      stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    };
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], opts).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], opts).trim().length > 0;
    return /^[0-9a-f]{40}$/.test(commit) ? { commit, dirty } : null;
  } catch {
    return null;
  }
}

/** Records one run as it goes: a case per `record`, the end with `finish`. */
export interface RunRecorder {
  readonly path: string;
  readonly runId: number;
  /** Records a finished case in its own transaction (never throws: a failure warns once and stops recording). */
  record(c: CaseResult): void;
  /** Adds the instruction count of an already recorded case (never throws). */
  addInstructions(c: CaseResult): void;
  /** The ledger's points of these cases (every run, every version), for the cases with at least two (never throws: [] on error). */
  historyOf(cases: readonly CaseResult[]): HistoryPoint[];
  /** Marks the run finished, with the SHA-256 of the results file written for it, and closes the ledger (never throws). */
  finish(header: RunHeader, resultsSha256?: string): void;
}

/**
 * Opens the ledger at `path` and starts a run row. Returns null (after one warning through
 * `warn`) when the ledger cannot be opened, so the caller just measures without it.
 */
export function startRunRecorder(
  path: string,
  header: RunHeader,
  outDir: string,
  cwd: string,
  warn: (m: string) => void,
): RunRecorder | null {
  let db: Db;
  let runId: number;
  try {
    db = openLedger(path);
    runId = beginRun(db, header, { source: 'run', sourcePath: outDir, git: gitState(cwd), recorder: thisRecorder() });
  } catch (e) {
    warn(`ledger ${path}: not recording this run: ${(e as Error).message}`);
    return null;
  }
  let broken = false;
  const guard = (what: string, fn: () => void) => {
    if (broken) return;
    try {
      fn();
    } catch (e) {
      broken = true;
      warn(
        `ledger ${path}: ${what} failed, not recording the rest of this run: ${(e as Error).message} (\`jsonbench ledger list\` shows the run as cut short, not killed, once its results.json is written)`,
      );
    }
  };
  return {
    path,
    runId,
    record: (c) => guard(`recording ${c.id}`, () => recordCase(db, runId, header, c)),
    addInstructions: (c) => guard(`recording the instructions of ${c.id}`, () => recordInstructions(db, runId, c)),
    historyOf: (cases) => {
      try {
        const keys = new Map(
          cases.map((c) => [`${c.workload}/${c.size}/${c.shape}/${c.direction}/${adapterIdOf(c.serializer)}`, c]),
        );
        return [...keys.values()]
          .map((c) =>
            caseHistory(db, {
              workload: c.workload,
              size: c.size,
              shape: c.shape,
              direction: c.direction,
              serializer: adapterIdOf(c.serializer),
            }),
          )
          .filter((ps) => ps.filter((p) => p.status === 'measured').length >= 2)
          .flat();
      } catch (e) {
        warn(`ledger ${path}: reading history failed: ${(e as Error).message}`);
        return [];
      }
    },
    finish: (h, sha) => {
      guard('finishing the run', () => finishRun(db, runId, h, sha));
      try {
        db.close();
      } catch {
        /* already closed */
      }
    },
  };
}
