import type { ResultsFile } from '../results/types.js';
import { asRuns, buildModel, type ReportCase, type ReportModel } from './model.js';
import { ratioIntervalOf, timeIntervalOf } from '../results/ratio.js';

/** One Bencher metric: a value and optional bounds. */
export interface BmfMetric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

/** Bencher Metric Format: benchmark name → measure slug → metric. */
export type Bmf = Record<string, Record<string, BmfMetric>>;

/**
 * A case's target as benchmark names say it: its runtime and that runtime's major version (`node
 * 22`, `bun 1`), the file tag of a report over several files kept (`node 20 · #2`). The patch
 * version is left out so a runtime's patch update keeps the series (a name with `node 20.20.2`
 * began a new Bencher series on every update); the exact version is in report.md and, for
 * github-action-benchmark, in `extra`.
 */
function nameTarget(c: ReportCase): string {
  const t = c.target;
  if (!t) return c.targetKey;
  const tag = / · #\d+$/.exec(c.targetKey)?.[0] ?? '';
  return `${t.runtime} ${/^(\d+)\./.exec(t.version)?.[1] ?? t.version}${tag}`;
}

/**
 * Names the cases of a model for the exporters: the case id, and `[<runtime> <major>]` when the
 * results span several targets. Two targets whose runtime and major agree (two patch versions of
 * node 20 in two files) keep their full labels, so no two series share a name.
 */
export function benchmarkNamer(model: ReportModel): (c: ReportCase) => string {
  if (model.targets.length <= 1) return (c) => c.id;
  const short = new Map<string, Set<string>>();
  for (const c of model.cases) short.set(nameTarget(c), (short.get(nameTarget(c)) ?? new Set()).add(c.targetKey));
  return (c) => `${c.id} [${short.get(nameTarget(c))!.size > 1 ? c.targetKey : nameTarget(c)}]`;
}

/**
 * Renders Bencher Metric Format JSON (https://bencher.dev/docs/reference/bencher-metric-format):
 * per measured case, `latency` (Bencher's built-in measure, ns) with the confidence interval as
 * lower/upper values; `allocated-bytes` (bytes/op, a measure Bencher creates on first use) when the
 * allocation pass ran; `ratio` (time ÷ the class baseline's, unitless, with its interval as
 * lower/upper values) for a case compared with another serializer (not the baseline's own), the figure steady enough to gate on a shared runner; and
 * `instructions` (per op under callgrind, deterministic) when `--metric instructions` ran. Names:
 * {@link benchmarkNamer} (the runtime's major version, not its patch). Cases
 * without numbers are left out: BMF has no status, and the other formats list them. Pure; 2-space
 * indented, newline-terminated.
 */
export function renderBmf(input: ResultsFile | readonly ResultsFile[]): string {
  const model = buildModel(asRuns(input));
  const nameOf = benchmarkNamer(model);
  const out: Bmf = {};
  for (const c of model.cases) {
    if (c.status !== 'measured' || !c.time) continue;
    const t = c.time;
    // the recorded interval (log scale, asymmetric), or in older files mean ± error (results/ratio.ts)
    const tiv = timeIntervalOf(t) ?? [Math.max(0, t.mean - t.error), t.mean + t.error];
    const m: Record<string, BmfMetric> = {
      latency: { value: t.mean, lower_value: tiv[0], upper_value: tiv[1] },
    };
    if (c.allocated && c.allocated.method !== 'n/a') m['allocated-bytes'] = { value: c.allocated.mean };
    const interval = ratioIntervalOf(c);
    if (c.ratio !== null && c.ratio !== undefined && c.serializer !== c.baseline)
      m.ratio = interval ? { value: c.ratio, lower_value: interval[0], upper_value: interval[1] } : { value: c.ratio };
    if (c.instructions) m.instructions = { value: c.instructions.perOp };
    out[nameOf(c)] = m;
  }
  return JSON.stringify(out, null, 2) + '\n';
}
