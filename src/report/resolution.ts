import { ratioCall } from '../results/decision.js';
import type { CaseResult, Resolution } from '../results/types.js';

/**
 * Plain words for the paired cases adaptive launches left unresolved (docs/adaptive-launches.md):
 * their ratio's interval still reached both inside and outside the ±resolve band around 1 when a
 * budget or the launch cap stopped them, so whether they differ by the difference that matters is
 * unsettled at this precision. The terminal says so in words with the interval at two
 * decimals; report.md gives the exact interval, band, launches and time. Pure.
 */

/** A measured case whose launches ended unresolved, with its resolution. */
export interface UnresolvedCase {
  id: string;
  serializer: string;
  resolution: Resolution;
}

/**
 * The measured cases whose `resolution.state` is `unresolved`, in order, less those the table
 * calls faster (results/decision.ts `ratioCall`) or slower (its interval lies above 1): the
 * footer and the table make one call (nu6: fast-json-stringify 1.01–1.32 was "slower" in the table
 * and "too close to call" in the footer, by the ±2% band the launches aimed at).
 */
export function unresolvedCases(cases: readonly CaseResult[]): UnresolvedCase[] {
  return cases.flatMap((c) => {
    if (c.status !== 'measured' || c.resolution?.state !== 'unresolved') return [];
    // the table's calls (report/takeaway.ts): faster by ratioCall, slower when the interval lies above 1
    const iv = c.ratioInterval ?? null;
    if ((iv && iv[0] > 1) || ratioCall(c.ratio, iv) === 'faster') return [];
    return [{ id: c.id, serializer: c.serializer, resolution: c.resolution }];
  });
}

/** `±2%`, `±0.5%` from a fraction (0.02). */
function bandOf(resolve: number): string {
  return `±${Number((resolve * 100).toPrecision(3))}%`;
}

/**
 * What stopped the launches, as a clause: `the case budget left no room for another launch after 20.0 s`, `the launch cap
 * (10 launches) was reached after 61.2 s`; `count`: a budget's clause also says how many launches
 * ran (`… after 20.0 s, 5 launches`).
 */
function stopClause(r: Resolution, count = false): string {
  const after = `after ${(r.spentMs / 1000).toFixed(1)} s`;
  const launches = r.launches === 1 ? '1 launch' : `${r.launches} launches`;
  if (r.stoppedBy === 'launch cap') return `the launch cap (${launches}) was reached ${after}`;
  const tail = count ? `, ${launches}` : '';
  // "left no room for another launch": a budget stops the next launch when it would not fit, so the
  // case may have spent less than the budget (new-user tryout: "ran out after 13.2 s" of a 20 s budget)
  return r.stoppedBy
    ? `the ${r.stoppedBy} left no room for another launch ${after}${tail}`
    : `the launches stopped ${after}${tail}`;
}

/**
 * The terminal's heading for `open`, the unresolved cases of a run whose band is `resolve`: `3 ratios
 * unsettled at ±2% (each interval reaches both inside and outside ±2% of the baseline: a difference that matters is neither shown
 * nor ruled out); a longer --max-time gives them more launches, report.md has the exact intervals:`.
 * The advice follows what stopped them: a budget (`--max-time`), the launch cap (`--policy long`,
 * whose cap is `longCap` launches: a longer --max-time gives a capped case nothing), or both.
 */
export function unresolvedHeading(
  open: readonly Pick<UnresolvedCase, 'resolution'>[],
  resolve: number,
  longCap: number,
): string {
  const n = open.length;
  const them = n === 1 ? 'it' : 'them';
  const capped = open.filter((o) => o.resolution.stoppedBy === 'launch cap').length;
  const advice =
    capped === 0
      ? `a longer --max-time gives ${them} more launches`
      : capped === n
        ? `--policy long gives ${them} more launches (up to ${longCap}; the launch cap stopped ${them}, not time)`
        : `a longer --max-time (for those a budget stopped) or --policy long (up to ${longCap} launches, for those the launch cap stopped) gives ${them} more launches`;
  // "unsettled", not "too close to call": an interval of 0.40–31.60 is not close to anything (nu9)
  return `${n === 1 ? '1 ratio' : `${n} ratios`} unsettled at ${bandOf(resolve)} (${n === 1 ? 'its interval reaches' : 'each interval reaches'} both inside and outside ${bandOf(resolve)} of the baseline: a difference that matters is neither shown nor ruled out); ${advice}, report.md has the exact ${n === 1 ? 'interval' : 'intervals'}:`;
}

/** One terminal line: `0.97–1.04 when the case budget left no room for another launch after 20.0 s` (no interval: `no interval yet when …`). */
export function unresolvedPlain(r: Resolution): string {
  const iv = r.interval ? `${r.interval[0].toFixed(2)}–${r.interval[1].toFixed(2)}` : 'no interval yet';
  return `${iv} when ${stopClause(r)}`;
}

/** One report.md item: `interval [0.970–1.040] reaches both inside and outside ±2%; the case budget left no room for another launch after 20.0 s, 5 launches`. */
export function unresolvedExact(r: Resolution): string {
  const iv = r.interval
    ? `interval [${r.interval[0].toFixed(3)}–${r.interval[1].toFixed(3)}] reaches both inside and outside ${bandOf(r.resolve)}`
    : `no interval against ${bandOf(r.resolve)}`;
  return `${iv}; ${stopClause(r, true)}`;
}

/**
 * The measured cases whose launches stopped short of the precision a band of 1% or finer asks for
 * (`resolution.shortOfPrecision`: the standard error of the ratio's log still over the band when a budget or the
 * launch cap stopped them), in order. Their call (differs, or within the band) stands on their interval; the
 * precision `--policy long` aims at (a ratio that moves by at most about the band from run to run) was not reached.
 */
export function shortOfPrecisionCases(cases: readonly CaseResult[]): UnresolvedCase[] {
  return cases.flatMap((c) =>
    c.status === 'measured' && c.resolution?.shortOfPrecision
      ? [{ id: c.id, serializer: c.serializer, resolution: c.resolution }]
      : [],
  );
}

/** The terminal's heading for cases short of precision: `2 ratios short of the ±1% precision (their call stands; a rerun may move them by more than ±1%):`. */
export function shortOfPrecisionHeading(n: number, resolve: number): string {
  return `${n === 1 ? '1 ratio' : `${n} ratios`} short of the ${bandOf(resolve)} precision (${n === 1 ? 'its call stands' : 'their calls stand'}; a rerun may move ${n === 1 ? 'it' : 'them'} by more than ${bandOf(resolve)}):`;
}

/** One line of a case short of precision: `SE 1.42% when the launch cap (8 launches) was reached after 61.2 s` (`count`: with the launches). */
export function shortOfPrecisionText(r: Resolution, count = false): string {
  return `SE ${r.se === undefined ? 'unknown' : `${(r.se * 100).toFixed(2)}%`} when ${stopClause(r, count)}`;
}
