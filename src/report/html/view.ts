import type { CaseStatus, Finding, MismatchRecord } from '../../results/types.js';
import type { ReportModel } from '../model.js';
import { ratioIntervalOf, timeIntervalOf } from '../../results/ratio.js';
import { allocWindowRange } from '../../results/alloc.js';
import { buildTables, savesText, tableKey } from '../rows.js';
import type { ReportCase } from '../model.js';
import { isLoss, payloadCosts } from '../costs.js';
import type { MeasuredCase, ResultsFile } from '../../results/types.js';
import { caseReason } from '../reason.js';

/** True when `results`' probes show the case's serializer losing data on the user's own records (a loss on a payload probe the baseline does not share: report/costs.ts). */
function losesOnPayload(c: MeasuredCase, results: ResultsFile | undefined): boolean {
  return results ? payloadCosts(c, results).some((k) => isLoss(k) && k.onPayload) : false;
}

/** One case as the HTML report embeds it: the statistics without the raw samples. Times in ns/op, bytes per op. */
export interface ViewCase {
  id: string;
  /** the group (table) it belongs to: `workload · size · shape · direction` */
  group: string;
  workload: string;
  size: number;
  shape: string;
  direction: string;
  cls: string;
  serializer: string;
  version: string;
  family: string;
  baseline: string | null;
  status: CaseStatus;
  reason?: string;
  mismatch?: MismatchRecord;
  /** the adapter's call being measured, as written in its source */
  code?: string;
  /** what its translation of the schema checks more loosely (translation notes) */
  notes?: string[];
  target: string;
  mean?: number;
  median?: number;
  /** the mean's confidence interval [low, high], ns/op (results/ratio.ts timeIntervalOf: log scale, asymmetric) */
  interval?: [number, number];
  alloc?: number;
  /** the allocation figure is an estimate (shown with `~`) */
  allocEstimate?: true;
  /** its allocation windows' [lowest, highest] bytes/op when they disagree (results/alloc.ts): shown instead of one figure */
  allocRange?: [number, number];
  /** ratio and its log-scale interval (results/ratio.ts) */
  ratio: number | null;
  ratioInterval: [number, number] | null;
  /** what it saves (or costs) per op against its baseline (report/rows.ts savesText), when recorded */
  saves?: string;
  allocRatio: number | null;
  findings: Finding[];
  /** the run's probes show it losing data on the user's own records (report/costs.ts `payloadCosts`, losses on payload probes): the takeaway says so */
  loses?: true;
}

/**
 * A class of one platform inside a group: its measured baseline, its serializers in table order,
 * the platform (`javascript`, `dotnet`) and the targets its cases ran on.
 */
export interface ViewSection {
  cls: string;
  platform: string;
  baseline: string | null;
  serializers: string[];
  targets: string[];
}

/** One results table: workload × size × shape × direction, with its payload. */
export interface ViewGroup {
  key: string;
  workload: string;
  size: number;
  shape: string;
  direction: string;
  /** the payload(s) measured; more than one only when merged files used different payloads */
  payloads: { bytes: number; sha256: string }[];
  sections: ViewSection[];
}

/** A scaling chart: one workload × shape × direction × class measured at several sizes. */
export interface ViewScaling {
  workload: string;
  shape: string;
  direction: string;
  cls: string;
  sizes: number[];
}

/** Everything the page's script needs, embedded as JSON in the report. */
export interface ViewData {
  targets: string[];
  serializers: string[];
  classes: string[];
  directions: string[];
  groups: ViewGroup[];
  scaling: ViewScaling[];
  cases: ViewCase[];
  /** the ratio intervals' confidence level, 0–1 (the runs' policy; the lowest when merged runs differ), as the takeaways label them */
  confidence: number;
  /** a run of the quick policy is in the report: its figures are a first look, not figures to quote (said once, under the provenance) */
  firstLook: boolean;
}

/** Trims the merged model to the data the page renders from (no samples). Pure. */
export function toViewData(model: ReportModel): ViewData {
  const cases: ViewCase[] = model.cases.map((c) => ({
    id: c.id,
    group: tableKey(c),
    workload: c.workload,
    size: c.size,
    shape: c.shape,
    direction: c.direction,
    cls: c.class,
    serializer: c.serializer,
    version: c.serializerVersion,
    family: c.family,
    baseline: c.baseline,
    status: c.status,
    ...(c.reason !== undefined ? { reason: caseReason(c) } : {}),
    ...(c.mismatch ? { mismatch: c.mismatch } : {}),
    ...(c.code ? { code: c.code } : {}),
    ...(c.notes?.length ? { notes: c.notes } : {}),
    target: c.targetKey,
    ...(c.status === 'measured' && c.time ? { mean: c.time.mean, median: c.time.median } : {}),
    ...(c.status === 'measured' && c.time && timeIntervalOf(c.time) ? { interval: timeIntervalOf(c.time)! } : {}),
    ...(c.status === 'measured' && c.allocated && c.allocated.method !== 'n/a' ? { alloc: c.allocated.mean } : {}),
    ...(c.status === 'measured' && c.allocated?.method === 'estimate' ? { allocEstimate: true as const } : {}),
    ...(c.status === 'measured' && allocWindowRange(c.allocated) ? { allocRange: allocWindowRange(c.allocated)! } : {}),
    ratio: c.status === 'measured' ? (c.ratio ?? null) : null,
    ratioInterval: c.status === 'measured' ? ratioIntervalOf(c) : null,
    ...(savesText(c) ? { saves: savesText(c) } : {}),
    allocRatio: c.status === 'measured' && c.allocated?.method !== 'n/a' ? (c.allocRatio ?? null) : null,
    findings: c.findings,
    ...(c.status === 'measured' && losesOnPayload(c, model.runs[c.source]) ? { loses: true as const } : {}),
  }));
  const groups: ViewGroup[] = buildTables(model.cases).map((t) => {
    const all = t.sections.flatMap((s) => s.cases);
    const first = all[0];
    const payloads = [...new Map(all.map((c) => [c.payload.sha256, c.payload])).values()];
    return {
      // the cases' group (tableKey), not the title: a `many` title adds what an op is, and its takeaway read no rows
      key: t.key,
      workload: first.workload,
      size: first.size,
      shape: first.shape,
      direction: first.direction,
      payloads,
      sections: t.sections.map((s) => ({
        cls: s.caseClass,
        platform: s.platform,
        baseline: s.baseline,
        serializers: [...new Set(s.cases.map((c) => c.serializer))],
        targets: [...new Set((s.cases as ReportCase[]).map((c) => c.targetKey))],
      })),
    };
  });
  const scaling = new Map<string, ViewScaling>();
  for (const c of model.cases) {
    if (c.status !== 'measured') continue;
    const k = `${c.workload}|${c.shape}|${c.direction}|${c.class}`;
    if (!scaling.has(k))
      scaling.set(k, { workload: c.workload, shape: c.shape, direction: c.direction, cls: c.class, sizes: [] });
    const s = scaling.get(k)!;
    if (!s.sizes.includes(c.size)) s.sizes.push(c.size);
  }
  const uniq = <T>(xs: T[]) => [...new Set(xs)];
  return {
    targets: model.targets,
    serializers: uniq(cases.map((c) => c.serializer)),
    classes: uniq(groups.flatMap((g) => g.sections.map((s) => s.cls))),
    directions: uniq(cases.map((c) => c.direction)),
    groups,
    scaling: [...scaling.values()]
      .filter((s) => s.sizes.length > 1)
      .map((s) => ({ ...s, sizes: s.sizes.sort((a, b) => a - b) })),
    cases,
    confidence: Math.min(...model.runs.map((r) => r.policy.measure.confidence)),
    firstLook: model.runs.some((r) => r.policy.name === 'quick'),
  };
}
