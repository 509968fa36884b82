import type { CaseResult, Environment, ResultsFile } from '../results/types.js';

/** A case as the reports see it: tagged with the target it ran on and the results file it came from. */
export type ReportCase = CaseResult & {
  /** the target's label in every report (see {@link targetLabel}), plus ` · #<file>` when two files share it but not a machine */
  targetKey: string;
  /** index into {@link ReportModel.runs} */
  source: number;
  /** its results file's `unchecked` (why it was read without an integrity check); absent: checked */
  sourceUnchecked?: string;
};

/** Several results files merged into one report: every provenance kept, cases concatenated. */
export interface ReportModel {
  /** the results files, in the order given (each keeps its environment and policy) */
  runs: readonly ResultsFile[];
  cases: ReportCase[];
  /** target keys in order of first appearance */
  targets: string[];
}

/**
 * How reports name the runtime a case ran on: its `target` id with the version (`bun 1.1.30`,
 * `node@22 22.11.0`), else, for a run without `--target`, the host's `environment.runtime`
 * (`node 20.20.2`).
 */
export function targetLabel(c: CaseResult, environment: Environment): string {
  const t = c.target;
  if (!t) return environment.runtime;
  return t.version && !t.id.includes(t.version) ? `${t.id} ${t.version}` : t.id;
}

/** What makes two runs "the same machine": CPU, cores, OS, architecture and host runtime. */
function machineOf(e: Environment): string {
  return JSON.stringify([e.cpuModel, e.cores, e.os, e.arch, e.runtime]);
}

/**
 * Merges results files into one model. A case's target key is {@link targetLabel}. When one key occurs in several files whose machines
 * differ, or whose case ids overlap, each of those cases is tagged with its file (`node 20.20.2 · #2`)
 * so no measurement is mixed with another. Pure; never reorders cases within a file.
 * @throws Error when `runs` is empty
 */
export function buildModel(runs: readonly ResultsFile[]): ReportModel {
  if (runs.length === 0) throw new Error('no results to report');
  const baseKey = (c: CaseResult, i: number) => targetLabel(c, runs[i].environment);
  const sourcesOf = new Map<string, Set<number>>();
  runs.forEach((r, i) =>
    r.cases.forEach((c) => {
      const k = baseKey(c, i);
      if (!sourcesOf.has(k)) sourcesOf.set(k, new Set());
      sourcesOf.get(k)!.add(i);
    }),
  );
  const tagged = new Set<string>();
  for (const [k, sources] of sourcesOf) {
    if (sources.size < 2) continue;
    const list = [...sources];
    const machines = new Set(list.map((i) => machineOf(runs[i].environment)));
    const fileOfId = new Map<string, number>();
    let overlap = false;
    for (const i of list)
      for (const c of runs[i].cases) {
        if (baseKey(c, i) !== k) continue;
        const first = fileOfId.get(c.id);
        if (first === undefined) fileOfId.set(c.id, i);
        else if (first !== i) overlap = true;
      }
    if (machines.size > 1 || overlap) tagged.add(k);
  }
  const cases: ReportCase[] = [];
  const targets: string[] = [];
  runs.forEach((r, i) =>
    r.cases.forEach((c) => {
      const base = baseKey(c, i);
      const targetKey = tagged.has(base) ? `${base} · #${i + 1}` : base;
      if (!targets.includes(targetKey)) targets.push(targetKey);
      cases.push({ ...c, targetKey, source: i, ...(r.unchecked ? { sourceUnchecked: r.unchecked } : {}) });
    }),
  );
  return { runs, cases, targets };
}

/** Accepts one results file or several; the exporters' common entry. */
export function asRuns(input: ResultsFile | readonly ResultsFile[]): readonly ResultsFile[] {
  return Array.isArray(input) ? input : [input as ResultsFile];
}
