import type { ResultsFile } from '../results/types.js';
import { asRuns, buildModel, type ReportCase } from './model.js';
import { ratioIntervalOf } from '../results/ratio.js';

/** One Bencher metric: a value and optional bounds. */
export interface BmfMetric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

/** Bencher Metric Format: benchmark name → measure slug → metric. */
export type Bmf = Record<string, Record<string, BmfMetric>>;

/** The benchmark name of a case: its id, and its target when the results span several. */
export function benchmarkName(c: ReportCase, multiTarget: boolean): string {
  return multiTarget ? `${c.id} [${c.targetKey}]` : c.id;
}

/**
 * Renders Bencher Metric Format JSON (https://bencher.dev/docs/reference/bencher-metric-format):
 * per measured case, `latency` (Bencher's built-in measure, ns) with the confidence interval as
 * lower/upper values; `allocated-bytes` (bytes/op, a measure Bencher creates on first use) when the
 * allocation pass ran; `ratio` (time ÷ the class baseline's, unitless, with its interval as
 * lower/upper values) for a case compared with another serializer (not the baseline's own), the figure steady enough to gate on a shared runner; and
 * `instructions` (per op under callgrind, deterministic) when `--metric instructions` ran. Cases
 * without numbers are left out: BMF has no status, and the other formats list them. Pure; 2-space
 * indented, newline-terminated.
 */
export function renderBmf(input: ResultsFile | readonly ResultsFile[]): string {
  const model = buildModel(asRuns(input));
  const multi = model.targets.length > 1;
  const out: Bmf = {};
  for (const c of model.cases) {
    if (c.status !== 'measured' || !c.time) continue;
    const t = c.time;
    const m: Record<string, BmfMetric> = {
      latency: { value: t.mean, lower_value: Math.max(0, t.mean - t.error), upper_value: t.mean + t.error },
    };
    if (c.allocated && c.allocated.method !== 'n/a') m['allocated-bytes'] = { value: c.allocated.mean };
    const interval = ratioIntervalOf(c);
    if (c.ratio !== null && c.ratio !== undefined && c.serializer !== c.baseline)
      m.ratio = interval ? { value: c.ratio, lower_value: interval[0], upper_value: interval[1] } : { value: c.ratio };
    if (c.instructions) m.instructions = { value: c.instructions.perOp };
    out[benchmarkName(c, multi)] = m;
  }
  return JSON.stringify(out, null, 2) + '\n';
}
