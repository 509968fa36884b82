/**
 * The lab's clock: `performance.now()` (a monotonic high-resolution clock in Node, Bun, Deno and
 * browsers) converted to nanoseconds. Samples last ~10 ms, so its resolution (µs or better on
 * Node; coarser in browsers) is far below a sample's length.
 */
export function nowNs(): number {
  return performance.now() * 1e6;
}

/** Smallest positive step of the clock seen in `tries` successive reads (ns): the timer resolution recorded with results. */
export function timerResolutionNs(tries = 1000): number {
  let best = Infinity;
  for (let i = 0; i < tries; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return best * 1e6;
}

/** Which clock a case's times and ratio come from: the process CPU clock where the runtime has one, else wall time. */
export type ClockKind = 'cpu' | 'wall';

/**
 * The process CPU clock in ns (user + system time of every thread of the process, from
 * `process.cpuUsage()`: getrusage(RUSAGE_SELF) on Linux), or undefined where the runtime has none
 * (browsers, QuickJS). Node, Bun and Deno (its `process` global) have it.
 *
 * Why: preemption by other processes adds wall time, not CPU time. On this 2-core machine at load
 * ~10, the per-process median ratio of two known functions (JSON.stringify twice ÷ once, 6–10
 * processes) had a CV of 27–133% by wall clock and 1.4–4.9% by process CPU time (issue 13's
 * study, benchmarks/engine/q1-twice.mjs). Resolution: 1 µs steps (median 2 µs between distinct
 * reads), always fresh (a read after 200 µs of work advanced ~200 µs every time; a call costs
 * ~1–9 µs, more under load), so a sample of ≥ 2 ms reads within 0.1%. It counts V8's helper
 * threads (concurrent marking, parallel scavenge, concurrent compilation) too: +1–6% over the main
 * thread for most serializers, +37% for class-transformer (orders/1000, Node 20), which is work the
 * process really does for that serializer (benchmarks/engine/q1-threads.mjs).
 */
export const cpuNowNs: (() => number) | undefined = (() => {
  const p = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process;
  if (typeof p?.cpuUsage !== 'function') return undefined;
  try {
    p.cpuUsage();
  } catch {
    return undefined;
  }
  const read = p.cpuUsage.bind(p);
  return () => {
    const u = read();
    return (u.user + u.system) * 1000;
  };
})();
