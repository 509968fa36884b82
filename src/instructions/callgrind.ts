/**
 * Instructions per op, counted by Valgrind's callgrind: a near-deterministic metric for CI gates (the
 * same code on the same binary gives the same count to about 0.01% most of the time; fresh clones' full test runs
 * at load 6–8 read the same case up to 2–4% apart now and then: V8's background compilation and GC are timed by the
 * wall clock).
 * Each case runs under callgrind at N₁ and at N₂ iterations (each count in two processes that
 * must agree, see {@link AGREEMENT}), in a fresh Node started with {@link COUNT_FLAGS}: start-up,
 * module loading, prepare and warmup are the same at both and cancel, so
 * instructions/op = (I(N₂) − I(N₁)) / (N₂ − N₁).
 * It counts instructions, not time: it ignores cache misses, branch mispredictions and memory
 * stalls, so it gates regressions and never ranks serializers.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaseClass, Direction, Shape } from '../case/coordinates.js';
import type { PayloadWorkloadSpec } from '../workloads/payload.js';
import type { InstructionStats } from '../case/measurements.js';
import { workerEnv } from '../case/startup.js';
import { deepFreeze } from '../case/frozen.js';

/** What the counting process needs to know about its case. */
export interface CountJob {
  workload: string;
  size: number;
  shape: Shape;
  direction: Direction;
  caseClass: CaseClass;
  /** adapter id (a version-matrix label comes from `configPath`) */
  serializer: string;
  payloadPath: string;
  configPath?: string;
  /** a user's payload: its workload as data (see WorkerJob.workloadSpec) */
  workloadSpec?: PayloadWorkloadSpec;
}

/**
 * Node flags of the counted process: deterministic V8 (single-threaded, synchronous compilation,
 * a GC schedule that does not depend on time, no incremental marking, fixed hash and random
 * seeds). Without --predictable-gc-schedule, JSON.stringify's count varied by 4.6% between two
 * runs; with these flags most counts of a case agree within 0.01%.
 */
export const COUNT_FLAGS = deepFreeze([
  '--predictable',
  '--predictable-gc-schedule',
  '--no-incremental-marking',
  '--hash-seed=1',
  '--random-seed=1',
]);

/**
 * Two processes' totals at the same N that differ by less than this fraction are taken as agreeing.
 * Even with the flags above, about one count in six or seven of JSON.stringify (weather-station,
 * 40 712 iterations) came out 15.7 M instructions (1%) lower than the others, for a reason not
 * found (seen only with several counts running at once); so each N is counted until two agree.
 * Two processes can agree on that rarer state too: a case's instructions/op then come out 2–3%
 * off (a full test run in a fresh clone, 2026-12-06: 20,343 against 19,870 for the same case): a
 * rare false change for compare's 0.5% instruction threshold (not fixed; docs/limits.md).
 */
export const AGREEMENT = 0.0005;

/** The most processes counted at one N while looking for two that agree ({@link AGREEMENT}). */
const MAX_COUNTS = 5;

/** How to get valgrind, printed when it is missing. */
export const VALGRIND_MISSING =
  'valgrind was not found on PATH; --metric instructions needs it. Install it: `sudo apt-get install -y valgrind` (Debian/Ubuntu), `sudo dnf install valgrind` (Fedora), or from https://valgrind.org (Linux only; not on macOS/arm64 or Windows)';

/** `valgrind --version` (e.g. `valgrind-3.19.0`), or null when valgrind cannot be run. */
export function valgrindVersion(): string | null {
  try {
    return execFileSync('valgrind', ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    }).trim();
  } catch {
    return null;
  }
}

/** Reads the total instruction count from a callgrind output file (its `summary:` or `totals:` line). @throws Error when absent. */
export function parseCallgrindTotal(text: string): number {
  const m = /^summary:\s+(\d+)/m.exec(text) ?? /^totals:\s+(\d+)/m.exec(text);
  if (!m) throw new Error('callgrind output has no summary/totals line');
  return Number(m[1]);
}

const entry = fileURLToPath(new URL('./count-entry.js', import.meta.url));

/** Runs the case `iterations` times under callgrind and returns the total instructions. @throws Error with the tail of stderr on failure. */
export function countOnce(jobPath: string, iterations: number, dir: string, timeoutMs: number): Promise<number> {
  const out = join(dir, `callgrind.${iterations}.out`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        `--callgrind-out-file=${out}`,
        '--dump-instr=no',
        process.execPath,
        ...COUNT_FLAGS,
        entry,
        jobPath,
        String(iterations),
      ],
      // the environment jsonbench started with, not one a config's top level changed (case/startup.ts)
      { stdio: ['ignore', 'ignore', 'pipe'], env: workerEnv() },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(
          new Error(
            `callgrind run of ${iterations} iterations ${signal ? `killed by ${signal}` : `exited ${code}`}: ${stderr
              .split('\n')
              .filter((l) => l && !l.startsWith('=='))
              .slice(-2)
              .join(' | ')}`,
          ),
        );
      try {
        resolve(parseCallgrindTotal(readFileSync(out, 'utf8')));
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}

/**
 * The total at one N: processes are counted until two agree (within {@link AGREEMENT}), up to
 * {@link MAX_COUNTS}; the total is the mean of the first agreeing pair, or, when none agree, the
 * median of all. A third count alone was not enough: in one run beside another test suite two of
 * three counts at one N came out off (20,521 vs 19,904 instructions/op, 3%). Returns the total and
 * every process's total.
 */
async function stableTotal(
  jobPath: string,
  iterations: number,
  dir: string,
  timeoutMs: number,
): Promise<{ total: number; runs: number[] }> {
  const runs: number[] = [];
  while (runs.length < MAX_COUNTS) {
    const next = await countOnce(jobPath, iterations, dir, timeoutMs);
    const match = runs.find((r) => Math.abs(r - next) <= AGREEMENT * Math.max(r, next));
    runs.push(next);
    if (match !== undefined) return { total: (match + next) / 2, runs };
  }
  const sorted = [...runs].sort((a, b) => a - b);
  return { total: sorted[Math.floor(sorted.length / 2)], runs };
}

/**
 * n for a payload of `payloadBytes` (N₁ = 2n, N₂ = 4n): about 4 MB of payload per n, between 100
 * and 20 000. It depends only on the payload, never on a timing, so a case is always counted at
 * the same iteration counts (the count per op shifts with them: JIT tiers and GC are amortised
 * differently). N₁ must be past V8's tier-up: on the 393-byte weather-station payload,
 * fast-json-stringify counted 20 396 instructions/op at N₁/N₂ = 2 000/4 000 and 6 436 at
 * 10 000/20 000 (this rule gives n = 10 178).
 */
export function iterationsFor(payloadBytes: number): number {
  return Math.max(100, Math.min(20_000, Math.round(4e6 / Math.max(payloadBytes, 1))));
}

/**
 * Counts a case's instructions per op (two callgrind runs). @throws Error when a run fails.
 * @param payloadBytes size of the case's payload, which sets the iteration counts
 */
export async function countInstructions(
  job: CountJob,
  payloadBytes: number,
  tool: string,
  timeoutMs = 600_000,
): Promise<InstructionStats> {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-callgrind-'));
  try {
    const jobPath = join(dir, 'job.json');
    writeFileSync(jobPath, JSON.stringify(job));
    const n = iterationsFor(payloadBytes);
    const iterations: [number, number] = [2 * n, 4 * n];
    const first = await stableTotal(jobPath, iterations[0], dir, timeoutMs);
    const second = await stableTotal(jobPath, iterations[1], dir, timeoutMs);
    return {
      perOp: (second.total - first.total) / (iterations[1] - iterations[0]),
      iterations,
      totals: [first.total, second.total],
      repeats: [first.runs, second.runs],
      method: 'callgrind',
      tool,
      flags: COUNT_FLAGS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
