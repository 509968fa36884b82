import { deepFreeze } from '../case/frozen.js';
/**
 * Every report format's `--format` name, what the CLI's help says of it and the file it is written
 * to, without its renderer: the help of `jsonbench report` lists the formats from these keys
 * without loading a renderer or the results schema (start-up, issue 22). `exporters` in index.ts
 * adds each format's renderer; the compiler holds the two to the same keys.
 */
export const reportFormatInfo = deepFreeze({
  html: { description: 'one self-contained page with charts, filters and takeaways', fileName: 'report.html' },
  md: { description: 'GitHub Markdown for a CI job summary or a pull-request comment', fileName: 'report.md' },
  csv: { description: 'one row per case with every statistic and the status', fileName: 'report.csv' },
  json: { description: 'merged results without raw samples, every provenance kept', fileName: 'report.json' },
  bmf: { description: 'Bencher Metric Format (latency, allocated-bytes)', fileName: 'report.bmf.json' },
  'github-action-benchmark': {
    description: 'github-action-benchmark customSmallerIsBetter array',
    fileName: 'report.gab.json',
  },
} as const satisfies Record<string, { description: string; fileName: string }>);
