import { after } from 'node:test';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaseResult, ResultsFile } from '../../src/results/types.js';

/**
 * Helpers of the hostile-input suite (test/hostile/): results files derived from the report
 * fixtures with hostile values put in, and the CLI run as a child process.
 */

export const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../../../test/report/fixtures/${name}`, import.meta.url));

/** A fresh copy of a report fixture (single.json: 16 cases of weather-station, one target). */
export function results(name: 'single.json' | 'two-targets.json' | 'scaling.json' = 'single.json'): ResultsFile {
  return JSON.parse(readFileSync(fixture(name), 'utf8')) as ResultsFile;
}

/** The first measured non-baseline case of a results file. */
export function measuredCase(r: ResultsFile): CaseResult {
  return r.cases.find((c) => c.status === 'measured' && c.serializer !== c.baseline)!;
}

/** Makes a case `failed` with this reason (numbers dropped, as the runner does). */
export function failWith(c: CaseResult, reason: string): void {
  c.status = 'failed';
  c.reason = reason;
  delete c.time;
  delete c.ratio;
  delete c.ratioError;
  delete c.allocated;
  delete c.allocRatio;
}

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * A scratch folder for one test file (`jsonbench-<name>-` under the system's temporary folder,
 * removed after the file's tests) and `config(name, text)`, which writes a config file there and
 * returns its path: the set-up of the suites that write hostile configs.
 */
export function scratchConfigs(name: string): { dir: string; config: (file: string, text: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), `jsonbench-${name}-`));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    config: (file, text) => {
      const p = join(dir, file);
      writeFileSync(p, text);
      return p;
    },
  };
}

/**
 * The set-up of the hx8 CLI suites (test/cli/hostile-*.test.ts): scratchConfigs(name)'s folder `dir` (removed
 * after the file's tests) and `file(name, text)`, which writes a file there and returns its path; `a1`, the
 * payload `{"a":1}` written there as a1.json; and `bounded`, cli()'s options bounding each command to 30 s, far
 * below the 30–120 s a blocked one ran until hx8's timeout.
 */
export function hx8Scratch(name: string): {
  dir: string;
  file: (file: string, text: string) => string;
  a1: string;
  bounded: { timeoutMs: number };
} {
  const { dir, config: file } = scratchConfigs(name);
  return { dir, file, a1: file('a1.json', '{"a":1}'), bounded: { timeoutMs: 30_000 } };
}

/**
 * The arguments of a quick `jsonbench run` of `serializers` from `config` on weather-station in one
 * direction, without probes or ledger, into `out`: the shape most hostile tests run. `matrix` names
 * another workload, and one size and shape (absent: the workload's own sizes and shapes).
 */
export function quickRunArgs(
  config: string,
  serializers: string,
  direction: 'serialize' | 'deserialize',
  out: string,
  matrix: { workload?: string; size?: number; shape?: 'single' | 'list' | 'many' } = {},
): string[] {
  return [
    'run',
    '--config',
    config,
    '--serializer',
    serializers,
    '--workload',
    matrix.workload ?? 'weather-station',
    ...(matrix.size !== undefined ? ['--size', String(matrix.size)] : []),
    ...(matrix.shape ? ['--shape', matrix.shape] : []),
    ...quickTail(direction, out),
  ];
}

/** The arguments every quick hostile run ends with: one direction, quick policy, no probes, no ledger, into `out`. */
function quickTail(direction: 'serialize' | 'deserialize', out: string): string[] {
  return ['--direction', direction, '--policy', 'quick', '--no-probes', '--no-ledger', '--out', out];
}

/**
 * The arguments of a quick run of `serializers` in one `direction` on the user's payload file `payload` into `out`
 * (no probes, no ledger), with a config when given.
 */
export function quickPayloadRunArgs(
  payload: string,
  serializers: string,
  direction: 'serialize' | 'deserialize',
  out: string,
  config?: string,
): string[] {
  return [
    'run',
    ...(config ? ['--config', config] : []),
    '--payload',
    payload,
    '--serializer',
    serializers,
    ...quickTail(direction, out),
  ];
}

/** Runs the CLI; never rejects. Its messages are matched whole: COLUMNS wide enough never to wrap them (the widths: test/cli/width.test.ts). */
export function cli(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Ran> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: opts.cwd,
        env: { ...process.env, JSONBENCH_LEDGER: 'off', NO_COLOR: '1', COLUMNS: '1000', ...opts.env },
        maxBuffer: 256 * 1024 * 1024,
        timeout: opts.timeoutMs ?? 120_000,
      },
      (error, stdout, stderr) => {
        const e = error as (Error & { code?: unknown; signal?: NodeJS.Signals }) | null;
        resolve({
          code: e ? (typeof e.code === 'number' ? e.code : null) : 0,
          signal: e?.signal ?? null,
          stdout,
          stderr,
          ms: performance.now() - t0,
        });
      },
    );
  });
}

/** Runs the CLI with stdout read only until `bytes` arrived, then closed (as `| head -c N` does). */
export function cliIntoClosedPipe(args: string[], bytes: number): Promise<Ran> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, JSONBENCH_LEDGER: 'off', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.length >= bytes) child.stdout.destroy();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: performance.now() - t0 }));
  });
}
