import { ResultsFileError } from './errors.js';
import type { ResultsFile } from './types.js';

/** Shards that cannot be merged into one run: which files, and why (a bad input: exit 2, as any results file error). */
export class ShardMergeError extends ResultsFileError {
  constructor(problem: string) {
    super('jsonbench merge', '', problem);
  }
}

/** True when every file is a shard (`run --shard`) of a run. */
export function allShards(files: readonly ResultsFile[]): boolean {
  return files.length > 0 && files.every((f) => f.shard !== undefined);
}

/**
 * Merges the results files of all shards of one run (`run --shard i/n` for i = 1…n) into the
 * results file the unsharded run would have written: the cases in the plan's order, the run's
 * targets and payloads once each, the earliest start and the latest finish; the environment of
 * the first shard (the reports' header; {@link machinesOf} tells when the shards ran on different
 * machines, which the caller says). The probe matrix of the first shard that has one. `names` label the files in errors (their paths).
 * Pure. @throws ShardMergeError when a file is not a shard, the shards are of different plans or
 * policies, one is missing or given twice, or a case is missing or in two shards.
 */
export function mergeShards(files: readonly ResultsFile[], names: readonly string[] = []): ResultsFile {
  const name = (i: number) => names[i] ?? `file ${i + 1}`;
  if (files.length === 0) throw new ShardMergeError('no shards to merge');
  files.forEach((f, i) => {
    if (!f.shard) throw new ShardMergeError(`${name(i)} is not a shard of a run (it was not written by run --shard)`);
  });
  const first = files[0];
  const { count, plan } = first.shard!;
  const planKey = JSON.stringify(plan);
  const seen = new Map<number, number>();
  files.forEach((f, i) => {
    const s = f.shard!;
    if (s.count !== count || JSON.stringify(s.plan) !== planKey)
      throw new ShardMergeError(
        `${name(i)} is a shard of another plan than ${name(0)} (shard ${s.index}/${s.count} vs ${first.shard!.index}/${count}, or other cases)`,
      );
    if (JSON.stringify(f.policy) !== JSON.stringify(first.policy))
      throw new ShardMergeError(
        `${name(i)} ran with another policy than ${name(0)} (${f.policy.name} vs ${first.policy.name}, or other settings)`,
      );
    const twice = seen.get(s.index);
    if (twice !== undefined)
      throw new ShardMergeError(`shard ${s.index}/${count} is given twice: ${name(twice)} and ${name(i)}`);
    seen.set(s.index, i);
  });
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((k) => !seen.has(k));
  if (missing.length)
    throw new ShardMergeError(
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${count}`).join(', ')} missing: give all ${count}`,
    );
  const order = new Map(plan.map((id, k) => [id, k]));
  const owner = new Map<string, number>();
  const cases = files.flatMap((f, i) =>
    f.cases.map((c) => {
      if (!order.has(c.id)) throw new ShardMergeError(`${name(i)} holds case ${c.id}, which its plan does not list`);
      const other = owner.get(c.id);
      if (other !== undefined)
        throw new ShardMergeError(`case ${c.id} is in two shards: ${name(other)} and ${name(i)}`);
      owner.set(c.id, i);
      return c;
    }),
  );
  const absent = plan.filter((id) => !owner.has(id));
  if (absent.length)
    throw new ShardMergeError(
      `${absent.length} planned case${absent.length > 1 ? 's are' : ' is'} in no shard (first: ${absent[0]}): was a shard's run killed? rerun it`,
    );
  cases.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  const byJson = <T>(lists: (readonly T[] | undefined)[]): T[] => {
    const out = new Map<string, T>();
    for (const l of lists) for (const x of l ?? []) out.set(JSON.stringify(x), x);
    return [...out.values()];
  };
  const finished = files.map((f) => f.finishedAt).filter((x): x is string => x !== undefined);
  const payloads = byJson(files.map((f) => f.payloads));
  const probes = files.find((f) => f.probes)?.probes;
  const { shard: _shard, unread: _unread, ...rest } = first;
  void _shard;
  void _unread;
  return {
    ...rest,
    startedAt: files.map((f) => f.startedAt).sort()[0],
    ...(finished.length === files.length ? { finishedAt: finished.sort().at(-1)! } : {}),
    targets: byJson(files.map((f) => f.targets)),
    ...(payloads.length ? { payloads } : {}),
    cases,
    ...(probes ? { probes } : {}),
  };
}

/** The distinct machines (CPU × cores, OS, architecture, host runtime) the files ran on, in order. */
export function machinesOf(files: readonly ResultsFile[]): string[] {
  const m = files.map((f) => {
    const e = f.environment;
    return `${e.cpuModel} × ${e.cores}, ${e.os} ${e.arch}, ${e.runtime}`;
  });
  return [...new Set(m)];
}
