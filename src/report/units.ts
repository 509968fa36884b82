// These functions are also shipped verbatim into the HTML report's script (see html/client-bundle.ts):
// keep them self-contained function declarations that call only each other.

/**
 * Formats a time in ns with a unit chosen by magnitude (ns, µs, ms, s) and 3 significant digits;
 * the unit is chosen on the rounded value, so 999.7 ns reads `1.00 µs`, never `1000 ns`.
 */
export function formatTime(ns: number): string {
  if (!Number.isFinite(ns)) return '∞';
  const abs = Math.abs(Number(ns.toPrecision(3)));
  if (abs < 1e3) return `${sig(ns)} ns`;
  if (abs < 1e6) return `${sig(ns / 1e3)} µs`;
  if (abs < 1e9) return `${sig(ns / 1e6)} ms`;
  return `${sig(ns / 1e9)} s`;
}

/** A count with its noun, singular for exactly 1: `1 case`, `2 cases`, `0 cases` (`many`: the plural, default `one` + s). */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Formats bytes with a binary unit chosen by magnitude: B, KiB, MiB, GiB (1 KiB = 1024 B, IEC
 * 80000-13). Every byte figure jsonbench prints uses these units; a decimal kB or MB is never
 * printed (the label once said "MB" of 2^20 bytes while other places divided by 10^6).
 */
export function formatBytes(bytes: number): string {
  // each unit chosen on the value as printed: 1023.6 B reads 1.00 KiB, never 1024 B
  const abs = Math.abs(bytes);
  if (Math.round(abs) < 1024) return `${Math.round(bytes)} B`;
  if (Math.abs(Number(sig(bytes / 1024))) < 1024) return `${sig(bytes / 1024)} KiB`;
  if (Math.abs(Number(sig(bytes / 1024 ** 2))) < 1024) return `${sig(bytes / 1024 ** 2)} MiB`;
  return `${sig(bytes / 1024 ** 3)} GiB`;
}

/**
 * An allocation figure as every report writes it: `2.25 KiB`, `~2.25 KiB` (an estimate), or, when
 * its windows disagree (results/alloc.ts `allocWindowRange`), their range `2.60 KiB–3.58 KiB`:
 * never one number its windows do not support.
 */
export function formatAllocation(bytes: number, range?: readonly [number, number] | null, estimate?: boolean): string {
  return `${estimate ? '~' : ''}${range ? `${formatBytes(range[0])}–${formatBytes(range[1])}` : formatBytes(bytes)}`;
}

/** An allocation ratio: `0.90`, or the range its windows support (`0.73–1.02`) when they disagree; `—` when unknown. */
export function formatAllocRatio(ratio: number | null | undefined, range?: readonly [number, number] | null): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '—';
  return range ? `${ratioNumber(range[0], 2)}–${ratioNumber(range[1], 2)}` : ratioNumber(ratio, 2);
}

/**
 * A ratio, and its confidence interval when known: `0.45 [0.31–0.66]` (the interval is on the log
 * scale, so asymmetric and above 0; see results/ratio.ts). Two decimals, three when the interval is
 * narrower than 0.02; see {@link ratioNumber} for large and tiny values.
 */
export function formatRatio(ratio: number | null | undefined, interval?: readonly [number, number] | null): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '—';
  if (!interval || !(interval[1] > interval[0]) || !Number.isFinite(interval[1])) return ratioNumber(ratio, 2);
  const d = interval[1] - interval[0] < 0.02 ? 3 : 2;
  return `${ratioNumber(ratio, d)} [${ratioNumber(interval[0], d)}–${ratioNumber(interval[1], d)}]`;
}

/** A ratio with `d` decimals; no decimals from 100, one from 10; one significant digit under 0.01 (0.0003, never a false 0.00); from 10^6 (and under 10^-6) in exponent form with 2 significant digits (toFixed(0) of 2.5e154 printed all 155 digits). */
export function ratioNumber(x: number, d: number): string {
  const abs = Math.abs(x);
  if (abs >= 1e6 || (abs > 0 && abs < 1e-6)) return x.toPrecision(2);
  if (abs >= 100) return x.toFixed(0);
  if (abs >= 10) return x.toFixed(1);
  if (abs > 0 && abs < 0.01) return x.toPrecision(1);
  return x.toFixed(d);
}

/** 3 significant digits without exponent notation; the number of decimals follows the rounded value (99.999 is `100`, never `100.0`). */
export function sig(x: number): string {
  const abs = Math.abs(Number(x.toPrecision(3)));
  return abs >= 100 ? x.toFixed(0) : abs >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/**
 * A time interval [low, high] (ns/op) as every report writes it: `16.0–250 µs` when both ends read
 * in one unit, else each with its own (`950 ns–1.20 µs`); ends that read alike at 3 significant
 * digits with as many more as tell them apart (`9.999–10.00 µs`); `—` when unknown. Time intervals are on
 * the log scale since branch `stats5` (results/ratio.ts timeIntervalOf): asymmetric about the mean,
 * never below 0.
 */
export function formatTimeInterval(interval: readonly [number, number] | null | undefined): string {
  if (!interval) return '—';
  const lo = formatTime(interval[0]);
  const hi = formatTime(interval[1]);
  const unit = (s: string) => s.slice(s.lastIndexOf(' ') + 1);
  if (lo === hi && interval[1] > interval[0] && Number.isFinite(interval[1])) {
    // ends that read alike at 3 significant digits (an interval under ~0.5% wide) get the digits that tell them apart
    const scale: Record<string, number> = { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 };
    const u = unit(hi);
    for (let digits = 4; digits <= 8; digits++) {
      const a = (interval[0] / scale[u]).toPrecision(digits);
      const b = (interval[1] / scale[u]).toPrecision(digits);
      if (a !== b) return `${a}–${b} ${u}`;
    }
  }
  return unit(lo) === unit(hi) ? `${lo.slice(0, lo.lastIndexOf(' '))}–${hi}` : `${lo}–${hi}`;
}

/**
 * How far a time interval reaches from its mean (ns/op), above and below: `+187/−47.2 µs` (one
 * unit when both read in it, else each its own: `+1.20 ms/−950 ns`), `±184 ns` when both sides
 * read alike (a narrow interval, or a file written before branch `stats5`, whose error was a
 * symmetric half-width); `—` when unknown. The honest reading of an Error column: a symmetric
 * `± error` of a log-scale interval overstates its lower side (it reached below 0 for a case
 * whose launches read 82 and 49 µs).
 */
export function formatTimeError(mean: number, interval: readonly [number, number] | null | undefined): string {
  if (!interval || !Number.isFinite(mean)) return '—';
  const up = formatTime(Math.max(0, interval[1] - mean));
  const down = formatTime(Math.max(0, mean - interval[0]));
  if (up === down) return `±${up}`;
  const unit = (s: string) => s.slice(s.lastIndexOf(' ') + 1);
  return unit(up) === unit(down) ? `+${up.slice(0, up.lastIndexOf(' '))}/−${down}` : `+${up}/−${down}`;
}
