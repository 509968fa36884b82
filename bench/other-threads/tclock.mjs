// `node bench/other-threads/tclock.mjs` (or the same file under bun / deno run -A): the measuring thread's CPU clock
// (build/src/measure/clock.ts threadCpuNowNs) on this runtime: available?, a plain read's lag in a busy loop, the cost
// of a fresh read, how closely it follows the process clock over the thread's own work, and its smallest step.
import { cpuNowNs, helperThreadsCpuNs, threadCpuNowNs } from '../../build/src/measure/clock.js';

const p = globalThis.process;
const rt =
  typeof globalThis.Bun !== 'undefined'
    ? `bun ${globalThis.Bun.version}`
    : typeof globalThis.Deno !== 'undefined'
      ? `deno ${globalThis.Deno.version.deno}`
      : `node ${p.version}`;
if (!threadCpuNowNs || !cpuNowNs) {
  console.log(`${rt}: no thread CPU clock here`);
} else {
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const busy = (ms) => {
    const t = performance.now();
    while (performance.now() - t < ms);
  };
  const fs = p.getBuiltinModule('node:fs');
  const fd = fs.openSync('/proc/thread-self/schedstat', 'r');
  const buf = new Uint8Array(96);
  const plain = () => Number(new TextDecoder().decode(buf.subarray(0, fs.readSync(fd, buf, 0, 96, 0))).split(' ')[0]);
  busy(50);
  const steps = [];
  let last = plain();
  const t0 = performance.now();
  while (performance.now() - t0 < 100) {
    const v = plain();
    if (v !== last) steps.push((v - last) / 1e6);
    last = v;
  }
  console.log(
    `${rt}: a plain read in a busy loop moves ${steps.length} times in 100 ms, median step ${med(steps)?.toFixed(3)} ms`,
  );
  const c0 = cpuNowNs();
  const w0 = performance.now();
  for (let i = 0; i < 300; i++) threadCpuNowNs();
  const c1 = cpuNowNs();
  const w1 = performance.now();
  console.log(
    `fresh read: ${((c1 - c0) / 300 / 1e3).toFixed(1)} µs CPU, ${(((w1 - w0) / 300) * 1e3).toFixed(0)} µs wall`,
  );
  const h0 = cpuNowNs();
  for (let i = 0; i < 300; i++) helperThreadsCpuNs?.();
  console.log(
    `helper threads read: ${((cpuNowNs() - h0) / 300 / 1e3).toFixed(1)} µs CPU (${helperThreadsCpuNs ? 'available' : 'unavailable'})`,
  );
  for (const ms of [0.2, 1, 5]) {
    const r = [];
    for (let k = 0; k < 20; k++) {
      const a = threadCpuNowNs();
      const b = cpuNowNs();
      busy(ms);
      const c = cpuNowNs();
      r.push((threadCpuNowNs() - a) / (c - b));
    }
    console.log(
      `${ms} ms of own work: thread ÷ process median ${med(r).toFixed(3)}, ${Math.min(...r).toFixed(3)}–${Math.max(...r).toFixed(3)}`,
    );
  }
  let best = Infinity;
  for (let k = 0; k < 100; k++) {
    const a = threadCpuNowNs();
    const b = threadCpuNowNs();
    if (b > a) best = Math.min(best, b - a);
  }
  console.log(`smallest step between two fresh reads: ${(best / 1e3).toFixed(2)} µs`);
}
