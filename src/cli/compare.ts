import {
  compareResults,
  DEFAULT_ALPHA,
  DEFAULT_THRESHOLDS,
  gateFailures,
  METRICS,
  type FailOn,
  type Metric,
} from '../compare/compare.js';
import { sayOnStderr, stdoutWidth } from './output.js';
import { notComparableWarning, renderCompareMarkdown, renderCompareTerminal } from '../compare/render.js';
import { loadRunRef } from './ledger-source.js';
import { checkChoices, checkNotEmpty, splitList, UsageError } from '../config/usage-error.js';

/** Options of `jsonbench compare`, as commander parses them. */
export interface CompareCliOptions {
  ledger?: string | boolean;
  threshold?: string;
  alpha?: string;
  metric?: string[];
  failOn?: string[];
  format: string;
}

function positive(flag: string, value: string, max = Infinity): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n >= max)
    throw new UsageError(flag, `"${value}" is not a number in (0, ${max})`);
  return n;
}

/**
 * `jsonbench compare <base> <head>`: prints the comparison (terminal, `md` or `json`). Returns 0,
 * or 1 when `--fail-on` finds a slower (or broken) case. @throws UsageError on a bad flag or ref.
 */
export async function compareCommand(baseRef: string, headRef: string, opts: CompareCliOptions): Promise<number> {
  checkChoices('--format', [opts.format], ['terminal', 'md', 'json']);
  const metrics = splitList(opts.metric) as Metric[];
  checkChoices('--metric', metrics, METRICS);
  const failOn = splitList(opts.failOn) as FailOn[];
  checkNotEmpty('--fail-on', opts.failOn, failOn, ['slower', 'broken']);
  checkChoices('--fail-on', failOn, ['slower', 'broken']);
  const threshold =
    opts.threshold === undefined ? undefined : positive('--threshold', opts.threshold.replace(/%$/, ''));
  const alpha = opts.alpha === undefined ? DEFAULT_ALPHA : positive('--alpha', opts.alpha, 1);
  const base = loadRunRef(baseRef, '<base>', opts.ledger);
  const head = loadRunRef(headRef, '<head>', opts.ledger);
  const thresholds = { ...DEFAULT_THRESHOLDS };
  if (threshold !== undefined) for (const m of METRICS) thresholds[m] = threshold;
  const comparison = compareResults(base.results, head.results, {
    alpha,
    thresholds,
    metrics: metrics.length ? metrics : METRICS,
  });
  if (opts.format === 'json')
    process.stdout.write(JSON.stringify({ base: base.label, head: head.label, ...comparison }, null, 2) + '\n');
  else if (opts.format === 'md') process.stdout.write(renderCompareMarkdown(comparison, base.label, head.label));
  else
    process.stdout.write(
      renderCompareTerminal(
        comparison,
        base.label,
        head.label,
        !process.env.NO_COLOR && Boolean(process.stdout.isTTY),
        stdoutWidth(),
      ),
    );
  // the terminal format says it above its table (once); json and md are read by tools, so stderr says it to the person
  const warning = notComparableWarning(comparison);
  if (warning && opts.format !== 'terminal') sayOnStderr(`jsonbench compare: ${warning}`);
  const failures = gateFailures(comparison, failOn);
  if (failures.length) {
    sayOnStderr(`jsonbench compare: failing (--fail-on ${failOn.join(',')}):`);
    for (const f of failures) sayOnStderr(`  ${f}`);
    return 1;
  }
  return 0;
}
