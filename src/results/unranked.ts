import type { FindingCode } from './types.js';

/**
 * The findings that make a measured case unrankable, by code: `baseline-slowed` (its ratio is unearned: its baseline
 * ran slowed beside it), `too-fast` (its time is not the work's: a cache, or work optimised away), `waits` (it
 * blocks: wall time over CPU time) and `clocks-disagree` (its ratio by CPU time and by wall time disagree). The
 * analysers that make them are in analysers/; the takeaway lists such a case under "Not ranked", the recommendation
 * never picks it, `history` marks its point ⊘ and `compare` gives its ratio and time no verdict.
 */
export const UNRANKING_CODES: readonly FindingCode[] = Object.freeze([
  'baseline-slowed',
  'too-fast',
  'waits',
  'clocks-disagree',
]);

/** The first finding of `findings` that makes its case unrankable ({@link UNRANKING_CODES}), or undefined. Pure. */
export function unrankingFinding<F extends { code: string }>(findings: readonly F[]): F | undefined {
  return findings.find((f) => (UNRANKING_CODES as readonly string[]).includes(f.code));
}
