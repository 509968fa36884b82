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
