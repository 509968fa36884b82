// Shared helpers for the engine study scripts.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
export const childPath = fileURLToPath(new URL('./pair-child.mjs', import.meta.url));
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN;
};
export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
export const sd = (xs) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
};
export const cv = (xs) => sd(xs) / Math.abs(mean(xs));
export const mad = (xs) => {
  const m = median(xs);
  return median(xs.map((x) => Math.abs(x - m)));
};
export const pct = (x, d = 2) => (Number.isFinite(x) ? `${(100 * x).toFixed(d)}%` : '—');
export const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
/** Per-round ratio by a clock: median(serializer samples) / median(baseline samples). */
export const roundRatios = (rounds, clock) => rounds.map((r) => median(r.s[clock]) / median(r.b[clock]));
export function runChild(spec, flags = ['--expose-gc'], node = process.execPath) {
  const r = spawnSync(node, [...flags, childPath, JSON.stringify(spec)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`child failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}
/** Starts n busy loops (the load generator); returns a stop function that kills exactly them. */
export function busyLoops(n) {
  const kids = [];
  for (let i = 0; i < n; i++) kids.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  return () => {
    for (const k of kids) k.kill('SIGKILL');
  };
}
/** Payload file of a workload/size (made with the repo's writePayload, seed 42). */
export async function payload(workload, size, dir = '/tmp/engine-payloads') {
  const path = `${dir}/${workload}-${size}.json`;
  if (existsSync(path)) return path;
  const { workloads } = await import(new URL('../../build/src/workloads/index.js', import.meta.url));
  const { writePayload } = await import(new URL('../../build/src/plan/payloads.js', import.meta.url));
  mkdirSync(dir, { recursive: true });
  return writePayload(dir, await workloads.load(workload), size, 42).path;
}
