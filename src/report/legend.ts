import type { ResultsFile } from '../results/types.js';

/**
 * What the run table's columns and marks mean, as sentences (the terminal prints them under the
 * tables, report.md above them). `first` is the first results file: its confidence level and
 * allocation accounting are the ones quoted.
 */
export function legendSentences(first: ResultsFile): string[] {
  const level = `${(first.policy.measure.confidence * 100).toFixed(1)}%`;
  const platforms = new Set([
    ...first.targets.map((t) => t.platform ?? 'javascript'),
    ...first.cases.map((c) => c.platform ?? 'javascript'),
  ]);
  const how = [
    ...(platforms.has('javascript')
      ? [
          `Node: GC-corrected heap accounting; pointer compression ${first.environment.pointerCompression ? 'on' : 'off'}`,
        ]
      : []),
    ...(platforms.has('dotnet') ? ['.NET and Mono: GC.GetAllocatedBytesForCurrentThread, exact'] : []),
  ].join('; ');
  // the C# worker times the studies' calls, which return a string (JsonSerializer.Serialize, JsonConvert.SerializeObject) whatever --serialize-to says
  const dotnetStrings = platforms.has('dotnet')
    ? '; on .NET and Mono a serialize op returns the string, as the studies timed it (JsonSerializer.Serialize, JsonConvert.SerializeObject), whatever --serialize-to says'
    : '';
  return [
    `Mean is per op, the geometric mean of the launch means; Median the median of a launch's samples (with several launches, the median of those medians); Error is how far the mean's ${level} confidence interval reaches above and below it (+above/−below; ± where the two read alike).`,
    "That interval is built from the launch means on the log scale, so asymmetric and never below 0 (t with launches − 1 degrees of freedom, sharing the launch-to-launch variance of the group's other cases: docs/intervals.md; one launch: from its rounds, which cannot show how far another process lands).",
    `Ratio is time ÷ the class baseline's, drawn from alternating rounds in the same process (< 1 is faster), the geometric mean of the launch ratios; [low–high] is its ${level} interval on the log scale from the launch ratios (asymmetric, never below 0); when the launches fell into two distinct states it also counts how uncertain each state's share is, with more it is widened to cover every launch.`,
    `Allocated is bytes/op (${how}) in binary units (1 KiB = 1024 B, 1 MiB = 1024 KiB); ~ marks an estimate; low–high is the range of its windows, which disagree by more than 1% (no single figure holds); Alloc Ratio is against the baseline's (low–high: the range those windows support).`,
    ...(platforms.has('dotnet')
      ? [
          '.NET cases pass the same gate as JavaScript ones, checked on the host from the outputs the worker sends, with two rules so that "equal by value" means the same across languages: date-time fields compare as instants, and string escapes are normalised as JSON.stringify writes them before the text checks; later launches must reproduce the verified output\'s SHA-256.',
        ]
      : []),
    'Notes: ✗ no numbers (incorrect, failed, timeout, crashed: never ranked), – unsupported, ⚠ noisy, ! too fast to be real, ↻ relaunched, ≠ mean and ratio disagree (beyond their errors).',
    'More notes: ⇉ launches fell into distinct states beyond their group’s launch-to-launch spread (the interval counts them all), ⊘ its paired baseline ran over 2× slower beside it than in its own case, or was charged CPU other threads burnt while it ran (its ratio is unearned: not ranked).',
    'Also: ⇅ the machine changed speed between launches and the ratio moved with it (a sentence under the table says by how much), ⏹ rebuilt from a run that stopped (killed, or its disk full), ≈ checks weaker than the schema, "looser checks" (a library\'s translation of the schema lets through values the schema refuses; each listed under the table).',
    // files written with the CPU clock or the bytes serialize op say so (older files: neither sentence)
    ...(first.cases.some((c) => c.time?.clock === 'cpu')
      ? [
          "Times and ratios are process CPU time (user + system, every thread) where the runtime has a CPU clock (Node, Bun, Deno; .NET and Mono through clock_gettime on Linux), wall time elsewhere (browsers, QuickJS); results.json keeps both and names each case's clock.",
        ]
      : []),
    ...(first.policy.measure.serializeTo === 'bytes'
      ? [
          `A serialize op is value → JSON text → UTF-8 bytes (what a server writing it to a socket pays; --serialize-to string times the string alone)${dotnetStrings}.`,
        ]
      : []),
    ...(first.policy.measure.serializeTo === 'string'
      ? [
          'A serialize op is value → JSON text, the string alone (--serialize-to string): the UTF-8 encoding a server pays to write it is not timed, and a serializer returning a rope (concatenated string) is not flattened; the default op (bytes) includes both.',
        ]
      : []),
  ];
}
