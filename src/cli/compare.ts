import {
  compareResults,
  DEFAULT_ALPHA,
  DEFAULT_THRESHOLDS,
  gateReasons,
  METRICS,
  type FailOn,
  type Metric,
} from '../compare/compare.js';
import { sayOnStderr, stdoutWidth } from './output.js';
import { notComparableWarning, renderCompareMarkdown, renderCompareTerminal } from '../compare/render.js';
import { loadRunRef } from './ledger-source.js';
import type { ResultsFile } from '../results/types.js';
import { checkChoices, checkNotEmpty, splitList, UsageError } from '../config/usage-error.js';
import { sameRun } from '../results/same-run.js';

/** Options of `jsonbench compare`, as commander parses them. */
export interface CompareCliOptions {
  ledger?: string | boolean;
  threshold?: string;
  alpha?: string;
  metric?: string[];
  failOn?: string[];
  format: string;
  /** names of the runs in the heading (default: the paths or ledger refs given) */
  baseLabel?: string;
  headLabel?: string;
}

function positive(flag: string, value: string, max = Infinity): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n >= max)
    throw new UsageError(flag, `"${value}" is not a number in (0, ${max})`);
  return n;
}

/**
 * `jsonbench compare <base> <head>`: prints the comparison (terminal, `md` or `json`). Returns 0,
 * or 1 when `--fail-on` finds a slower (or broken) case. @throws UsageError on a bad flag or ref, or
 * when base and head are one run ({@link sameRun}).
 */
/** The largest `--threshold` (percent): a gate allowing a case ten times as slow still means something; past it, nothing. */
const MAX_THRESHOLD_PERCENT = 900;

export async function compareCommand(baseRef: string, headRef: string, opts: CompareCliOptions): Promise<number> {
  checkChoices('--format', [opts.format], ['terminal', 'md', 'json']);
  const metrics = splitList(opts.metric) as Metric[];
  checkChoices('--metric', metrics, METRICS);
  const failOn = splitList(opts.failOn) as FailOn[];
  checkNotEmpty('--fail-on', opts.failOn, failOn, ['slower', 'broken']);
  checkChoices('--fail-on', failOn, ['slower', 'broken']);
  const threshold =
    opts.threshold === undefined ? undefined : positive('--threshold', opts.threshold.replace(/%$/, ''));
  // hx18 A44: `--threshold 1e9` made a --fail-on slower gate that can never fail
  if (threshold !== undefined && threshold > MAX_THRESHOLD_PERCENT)
    throw new UsageError(
      '--threshold',
      `${opts.threshold} is over ${MAX_THRESHOLD_PERCENT}%: a case would have to run more than ${MAX_THRESHOLD_PERCENT / 100 + 1}× as long to count as slower, so --fail-on slower could never fail`,
    );
  const alpha = opts.alpha === undefined ? DEFAULT_ALPHA : positive('--alpha', opts.alpha, 1);
  const base = loadRunRef(baseRef, '<base>', opts.ledger);
  const head = loadRunRef(headRef, '<head>', opts.ledger);
  // hx5: `compare X X` (or a folder with itself) said "same" for every case, exit 0: a CI gate wired to one run passed silently
  if (sameRun(base.results, head.results))
    throw new UsageError(
      '<head>',
      `${headRef} is the same run as ${baseRef} (started ${head.results.startedAt}): a run compared with itself is "same" in every case, so a gate on it always passes; give the run to compare against`,
    );
  const thresholds = { ...DEFAULT_THRESHOLDS };
  if (threshold !== undefined) for (const m of METRICS) thresholds[m] = threshold;
  const comparison = compareResults(base.results, head.results, {
    alpha,
    thresholds,
    metrics: metrics.length ? metrics : METRICS,
  });
  const reasons = gateReasons(comparison, failOn);
  const [baseLabel, headLabel] = [opts.baseLabel ?? base.label, opts.headLabel ?? head.label];
  // the metrics the rows show, and the policies: what the heading's line says of how the runs were measured
  const shown = [...new Set(comparison.cases.flatMap((k) => k.metrics.map((m) => m.metric)))];
  const policies = [...new Set([base.results.policy.name, head.results.policy.name])];
  if (opts.format === 'json')
    process.stdout.write(JSON.stringify({ base: baseLabel, head: headLabel, ...comparison }, null, 2) + '\n');
  else if (opts.format === 'md')
    process.stdout.write(
      renderCompareMarkdown(comparison, baseLabel, headLabel, {
        ...(failOn.length
          ? {
              gate: { failOn, reasons },
              subtitle: `${(shown.length ? shown : comparison.options.metrics).join(', ')}, policy ${policies.join(' / ')}`,
            }
          : {}),
      }),
    );
  else
    process.stdout.write(
      renderCompareTerminal(
        comparison,
        baseLabel,
        headLabel,
        !process.env.NO_COLOR && Boolean(process.stdout.isTTY),
        stdoutWidth(),
      ),
    );
  // the terminal format says it above its table (once); json and md are read by tools, so stderr says it to the person
  const warning = notComparableWarning(comparison);
  if (warning && opts.format !== 'terminal') sayOnStderr(`jsonbench compare: ${warning}`);
  const failures = reasons.map((r) => r.text);
  if (failures.length) {
    sayOnStderr(`jsonbench compare: failing (--fail-on ${failOn.join(',')}):`);
    for (const f of failures) sayOnStderr(`  ${f}`);
    return 1;
  }
  return 0;
}
