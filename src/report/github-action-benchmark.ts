import type { ResultsFile } from '../results/types.js';
import { asRuns, buildModel } from './model.js';
import { benchmarkNamer } from './bmf.js';
import { formatRatio } from './units.js';
import { ratioIntervalOf, timeIntervalOf } from '../results/ratio.js';

/** One entry of github-action-benchmark's `customSmallerIsBetter` input. */
export interface GabEntry {
  name: string;
  unit: string;
  value: number;
  range?: string;
  extra?: string;
}

/**
 * Renders the JSON array github-action-benchmark reads with `tool: 'customSmallerIsBetter'`
 * (https://github.com/benchmark-action/github-action-benchmark#examples, "customSmallerIsBetter"):
 * per measured case one `ns/op` entry (range the mean's interval `low–high`, ns/op, as recorded:
 * asymmetric since branch `stats5`, so never `± error`); one `bytes/op` entry when the allocation
 * pass ran; one `× baseline` entry for a case compared with another serializer (not the baseline's own) (the ratio against the class baseline, range
 * its interval `low–high`), the figure steady enough to alert on from a shared runner; and one
 * `instructions/op` entry when `--metric instructions` ran. Names as Bencher's (bmf.ts
 * benchmarkNamer: the runtime's major version); `extra` carries the serializer version, the target
 * with its exact version, and the baseline. Cases without numbers are left out (the format has no status). Pure.
 */
export function renderGithubActionBenchmark(input: ResultsFile | readonly ResultsFile[]): string {
  const model = buildModel(asRuns(input));
  const nameOf = benchmarkNamer(model);
  const out: GabEntry[] = [];
  for (const c of model.cases) {
    if (c.status !== 'measured' || !c.time) continue;
    const name = nameOf(c);
    const extra = `${c.serializer} ${c.serializerVersion} · ${c.targetKey} · ratio ${formatRatio(c.ratio, ratioIntervalOf(c))} vs ${c.baseline ?? 'none'}`;
    const tiv = timeIntervalOf(c.time);
    out.push({
      name: `${name} time`,
      unit: 'ns/op',
      value: Number(c.time.mean.toFixed(3)),
      ...(tiv ? { range: `${tiv[0].toFixed(3)}–${tiv[1].toFixed(3)}` } : {}),
      extra,
    });
    if (c.allocated && c.allocated.method !== 'n/a')
      out.push({ name: `${name} allocated`, unit: 'bytes/op', value: Number(c.allocated.mean.toFixed(1)), extra });
    if (c.ratio !== null && c.ratio !== undefined && c.serializer !== c.baseline) {
      const interval = ratioIntervalOf(c);
      out.push({
        name: `${name} ratio`,
        unit: `× ${c.baseline ?? 'baseline'}`,
        value: Number(c.ratio.toFixed(4)),
        ...(interval ? { range: `${interval[0].toFixed(4)}–${interval[1].toFixed(4)}` } : {}),
        extra,
      });
    }
    if (c.instructions)
      out.push({
        name: `${name} instructions`,
        unit: 'instructions/op',
        value: Math.round(c.instructions.perOp),
        extra,
      });
  }
  return JSON.stringify(out, null, 2) + '\n';
}
