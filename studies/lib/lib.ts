// Shared helpers of the study scripts (issue 13's engine study and those after it): statistics on
// plain number arrays, the load average, one launch of the prototype sampler (pair-child.ts) and
// the payload files, made with the lab's own writePayload (seed 42).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { workloads } from '../../src/workloads/index.js';
import { writePayload } from '../../src/plan/payloads.js';
import type { ChildOutput, ChildSpec, Clock, Round } from './pair-child.js';

export type { ChildOutput, ChildSpec, Clock, Round };
export const childPath = fileURLToPath(new URL('./pair-child.js', import.meta.url));

/**
 * `--help` (or `-h`) anywhere in the arguments: prints `usage` and exits 0 (what the studies test
 * runs: every script loads its imports and answers). Call it before any work.
 */
export function helpRequested(usage: string): void {
  if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(`${usage.trim()}\n`);
    process.exit(0);
  }
}
/** `parseArgs` over process.argv after `helpRequested(usage)`. */
export function studyArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  usage: string,
  options: O,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ options: O; allowPositionals: boolean; args: string[] }>> {
  helpRequested(usage);
  return parseArgs({ options, allowPositionals, args: process.argv.slice(2) });
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN;
};
export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
export const sd = (xs: readonly number[]): number => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
};
export const cv = (xs: readonly number[]): number => sd(xs) / Math.abs(mean(xs));
export const mad = (xs: readonly number[]): number => {
  const m = median(xs);
  return median(xs.map((x) => Math.abs(x - m)));
};
export const pct = (x: number, d = 2): string => (Number.isFinite(x) ? `${(100 * x).toFixed(d)}%` : '—');
/** The three load averages of /proc/loadavg, space-separated. */
export const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
/** Per-round ratio by a clock: median(serializer samples) / median(baseline samples). */
export const roundRatios = (rounds: readonly Round[], clock: Clock): number[] =>
  rounds.map((r) => median(r.s[clock]) / median(r.b[clock]));

/** One launch of pair-child.ts with `spec`: its JSON line, parsed. Throws with the child's stderr when it fails. */
export function runChild(spec: ChildSpec, flags = ['--expose-gc'], node = process.execPath): ChildOutput {
  const r = spawnSync(node, [...flags, childPath, JSON.stringify(spec)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`child failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? 'null') as ChildOutput;
}
/** Starts n busy loops (the load generator); returns a stop function that kills exactly them. */
export function busyLoops(n: number): () => void {
  const kids: ReturnType<typeof spawn>[] = [];
  for (let i = 0; i < n; i++) kids.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  return () => {
    for (const k of kids) k.kill('SIGKILL');
  };
}
/** Payload file of a workload/size (made with the repo's writePayload, seed 42). */
export async function payload(workload: string, size: number, dir = '/tmp/engine-payloads'): Promise<string> {
  const path = `${dir}/${workload}-${size}.json`;
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true });
  return (await writePayload(dir, await workloads.load(workload), size, 42)).path;
}

/** One line of q2-collect's or q2-flags's JSON lines: a launch of a pair with its labels. */
export interface LaunchRecord extends ChildOutput {
  condition: string;
  /** `workload/direction/serializer~baseline` */
  pair: string;
  launch: number;
  loadBefore: string;
  loadAfter?: string;
  launchMs: number;
  /** q2-flags: the configuration (flags) of the launch */
  config?: string;
}
/** The JSON lines of the given files, parsed. */
export const readLaunches = (files: readonly string[]): LaunchRecord[] =>
  files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LaunchRecord),
  );
/** A pair of the studies' tables before its payload file is known. */
export type PairCase = Omit<ChildSpec, 'kind' | 'payloadPath'> & {
  workload: string;
  size: number;
  payloadPath?: string;
};
/** The value of a required option, or an error naming it. */
export function required(value: string | undefined, option: string): string {
  if (value === undefined) throw new Error(`${option} is required (--help)`);
  return value;
}

/** mulberry32, the seeded uniform draws of the studies: src/stats/mulberry32.ts (benches and tests import it there). */
export { mulberry32 } from '../../src/stats/mulberry32.js';
