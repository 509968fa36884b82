import type { ResultsFile } from '../results/types.js';
import { asRuns, buildModel } from './model.js';
import { benchmarkName } from './bmf.js';
import { formatRatio } from './units.js';
import { ratioIntervalOf } from '../results/ratio.js';

/** One entry of github-action-benchmark's `customSmallerIsBetter` input. */
export interface GabEntry {
  name: string;
  unit: string;
  value: number;
  range?: string;
  extra?: string;
}

/**
 * Renders the JSON array github-action-benchmark reads with `tool: 'customSmallerIsBetter'`: per
 * measured case one `ns/op` entry (range `± error`), and one `bytes/op` entry when the allocation
 * pass ran; `extra` carries the serializer version, the ratio against the class baseline and the
 * target. Cases without numbers are left out (the format has no status). Pure.
 */
export function renderGithubActionBenchmark(input: ResultsFile | readonly ResultsFile[]): string {
  const model = buildModel(asRuns(input));
  const multi = model.targets.length > 1;
  const out: GabEntry[] = [];
  for (const c of model.cases) {
    if (c.status !== 'measured' || !c.time) continue;
    const name = benchmarkName(c, multi);
    const extra = `${c.serializer} ${c.serializerVersion} · ${c.targetKey} · ratio ${formatRatio(c.ratio, ratioIntervalOf(c))} vs ${c.baseline ?? 'none'}`;
    out.push({
      name: `${name} time`,
      unit: 'ns/op',
      value: Number(c.time.mean.toFixed(3)),
      range: `± ${c.time.error.toFixed(3)}`,
      extra,
    });
    if (c.allocated && c.allocated.method !== 'n/a')
      out.push({ name: `${name} allocated`, unit: 'bytes/op', value: Number(c.allocated.mean.toFixed(1)), extra });
  }
  return JSON.stringify(out, null, 2) + '\n';
}
