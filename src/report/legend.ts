import type { ResultsFile } from '../results/types.js';

/**
 * What the run table's columns and marks mean, as sentences (the terminal prints them under the
 * tables, report.md above them). `first` is the first results file: its confidence level and
 * allocation accounting are the ones quoted.
 */
export function legendSentences(first: ResultsFile): string[] {
  const level = `${(first.policy.measure.confidence * 100).toFixed(1)}%`;
  return [
    `Mean and Median are per op (median across launches); Error is the half-width of the ${level} confidence interval of the mean.`,
    `Ratio is time ÷ the class baseline's, drawn from alternating rounds in the same process (< 1 is faster); [low–high] is its ${level} interval on the log scale (asymmetric, never below 0).`,
    `Allocated is bytes/op (Node: GC-corrected heap accounting; pointer compression ${first.environment.pointerCompression ? 'on' : 'off'}); ~ marks an estimate; Alloc Ratio is against the baseline's.`,
    'Notes: ✗ no numbers (incorrect, failed, timeout, crashed: never ranked), – unsupported, ⚠ noisy, ! too fast to be real, ↻ relaunched, ≠ mean and ratio disagree, ⏹ rebuilt from a killed run.',
    // files written with the CPU clock or the bytes serialize op say so (older files: neither sentence)
    ...(first.cases.some((c) => c.time?.clock === 'cpu') ? ['Times and ratios are process CPU time (user + system, every thread) where the runtime has a CPU clock (Node, Bun, Deno), wall time elsewhere; results.json keeps both.'] : []),
    ...(first.policy.measure.serializeTo === 'bytes' ? ['A serialize op is value → JSON text → UTF-8 bytes (what a server writing it to a socket pays; --serialize-to string times the string alone).'] : []),
  ];
}
