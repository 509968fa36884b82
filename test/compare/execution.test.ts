import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executionWarnings } from '../../src/compare/execution.js';
import { compareResults, DEFAULT_ALPHA, DEFAULT_THRESHOLDS, METRICS } from '../../src/compare/compare.js';
import { renderCompareMarkdown } from '../../src/compare/render.js';
import type { ResultsFile } from '../../src/results/types.js';
import { results } from '../hostile/support.js';

/** compare warns when the runs were scheduled differently (`run --jobs`, issue 13 item 6). */

const withJobs = (jobs?: number, pinning: 'taskset' | 'none' = 'taskset'): ResultsFile => {
  const r = results();
  if (jobs !== undefined)
    r.execution =
      jobs === 1
        ? { jobs, pinning: 'none' }
        : { jobs, pinning, ...(pinning === 'taskset' ? { cpus: [1, 0].slice(0, jobs) } : {}) };
  else delete r.execution;
  return r;
};

test('runs made with the same --jobs (or files from before --jobs, which ran one group at a time) give no warning', () => {
  assert.deepEqual(executionWarnings(withJobs(1), withJobs(1)), []);
  assert.deepEqual(executionWarnings(withJobs(), withJobs(1)), []);
  assert.deepEqual(executionWarnings(withJobs(2), withJobs(2)), []);
});

test('--jobs 1 against --jobs 2 warns, naming both, and the Markdown puts it above the table', () => {
  const [w] = executionWarnings(withJobs(1), withJobs(2));
  assert.match(w, /base 1 group at a time, head 2 groups at once, pinned \(taskset\)/);
  assert.equal(
    executionWarnings(withJobs(2, 'taskset'), withJobs(2, 'none')).length,
    1,
    'pinned against unpinned warns too',
  );
  const c = compareResults(withJobs(), withJobs(2), {
    alpha: DEFAULT_ALPHA,
    thresholds: { ...DEFAULT_THRESHOLDS },
    metrics: METRICS,
  });
  const md = renderCompareMarkdown(c, 'base', 'head');
  assert.ok(
    md.indexOf('scheduled differently') > 0 && md.indexOf('scheduled differently') < md.indexOf('|'),
    md.slice(0, 400),
  );
});
