import type { CaseResult } from '../results/types.js';
import { ratioIntervalOf, timeIntervalOf } from '../results/ratio.js';
import { allocWindowRange } from '../results/alloc.js';
import { formatAllocation, formatRatio, formatTime, formatTimeInterval } from './units.js';

/**
 * The per-runtime columns of a run on several targets, laid out as the .NET report site's table
 * (study 002: `net9.0 | net10.0 | Δ`): per target the time per op with its interval, the ratio against
 * that target's own baseline (measured beside it), the bytes allocated per op, and, for every target
 * after the first, Δ: how much this target's mean differs from the same serializer's on the first
 * target it ran on, in percent (`−12%`: 12% less time). Δ is marked `≈` when the two means'
 * intervals overlap (the difference is not evidence of one). Pure: builders of the side-by-side tables
 * (target-columns.ts) take the head and cells from here, in every dialect.
 */

/** The head of the per-runtime columns, target by target. */
export function perRuntimeHead(targets: readonly string[]): string[] {
  return targets.flatMap((t, i) => [
    `${t} Mean [interval]`,
    ...(i === 0 ? [] : [`${t} Δ`]),
    `${t} Ratio`,
    `${t} Allocated`,
  ]);
}

/** `408 B` (exact), `~408 B` (estimate), `2.60 KiB–3.58 KiB` (its windows disagree), `n/a` (no counter), `—` (none). */
export function formatAllocated(a: CaseResult['allocated'] | undefined): string {
  if (!a) return '—';
  if (a.method === 'n/a') return 'n/a';
  return formatAllocation(a.mean, allocWindowRange(a), a.method === 'estimate');
}

/**
 * `63.2 µs [16.0–250 µs]`: the mean and its confidence interval (results/ratio.ts timeIntervalOf:
 * log scale since branch `stats5`, asymmetric; a symmetric `± error` read below its lower end, and
 * below 0 for a wide one); the mean alone when it has no interval; the case's status when it has no time.
 */
export function formatMeanError(c: CaseResult | undefined): string {
  if (!c) return '—';
  if (c.status !== 'measured' || !c.time) return c.status;
  const iv = timeIntervalOf(c.time);
  return iv ? `${formatTime(c.time.mean)} [${formatTimeInterval(iv)}]` : formatTime(c.time.mean);
}

/**
 * Δ of a case's mean against a reference case's, in percent: `+12%`, `−8.5%`, `≈ −3%` when the two
 * means' intervals overlap (results/ratio.ts timeIntervalOf, each end as recorded: a symmetric
 * mean ± error would reach below a log-scale interval's lower end), `—` when either has no time.
 * Under 10% one decimal, else whole percent.
 */
export function formatPercentDelta(c: CaseResult | undefined, ref: CaseResult | undefined): string {
  const a = c?.status === 'measured' ? c.time : undefined;
  const b = ref?.status === 'measured' ? ref.time : undefined;
  if (!a || !b || !(b.mean > 0)) return '—';
  const pct = (a.mean / b.mean - 1) * 100;
  const abs = Math.abs(pct);
  const text = `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${abs.toFixed(abs < 9.95 ? 1 : 0)}%`;
  const ia = timeIntervalOf(a);
  const ib = timeIntervalOf(b);
  const overlap = ia !== null && ib !== null && ia[0] <= ib[1] && ib[0] <= ia[1];
  return overlap ? `≈ ${text}` : text;
}

/** `baseline`, `0.45 [0.31–0.66]` (against its own target's baseline), `—` without a ratio. */
export function formatOwnRatio(c: CaseResult | undefined): string {
  if (!c || c.status !== 'measured') return '—';
  if (c.serializer === c.baseline) return 'baseline';
  return formatRatio(c.ratio, ratioIntervalOf(c));
}

/**
 * The cells of one row (a class × serializer) under {@link perRuntimeHead}: `find(t)` gives the row's case on
 * target `t`; `home` is the first target it ran on (Δ's reference; its own Δ cell is `—`).
 */
export function perRuntimeCells(
  targets: readonly string[],
  find: (target: string) => CaseResult | undefined,
  home: string | undefined,
): string[] {
  const ref = home === undefined ? undefined : find(home);
  return targets.flatMap((t, i) => {
    const c = find(t);
    const measured = c?.status === 'measured';
    return [
      formatMeanError(c),
      ...(i === 0 ? [] : [t === home ? '—' : formatPercentDelta(c, ref)]),
      formatOwnRatio(c),
      measured ? formatAllocated(c.allocated) : '—',
    ];
  });
}
