import { ResultsFileError } from './errors.js';
import type { CaseResult, ResultsFile, TargetRecord } from './types.js';

/** Shards that cannot be merged into one run: which files, and why (a bad input: exit 2, as any results file error). */
export class ShardMergeError extends ResultsFileError {
  constructor(problem: string) {
    super('jsonbench merge', '', problem);
  }
}

/** The most shards a run may be split into: plan/shard.ts parseShard refuses more at `run --shard`. */
const MAX_SHARDS = 10_000;

/**
 * Shard numbers (ascending) as ranges of `count`: `2/5, 4–5/5`; past `max` ranges, `and N more`.
 * Pure. (hx5: 9,999,999 missing shards were listed one by one, 183 MB on stderr.)
 */
export function shardRanges(shards: readonly number[], count: number, max = 20): string {
  const ranges: [number, number][] = [];
  for (const k of shards) {
    const last = ranges.at(-1);
    if (last && k === last[1] + 1) last[1] = k;
    else ranges.push([k, k]);
  }
  const shown = ranges.slice(0, max).map(([a, b]) => (a === b ? `${a}/${count}` : `${a}–${b}/${count}`));
  const rest = ranges.slice(max).reduce((n, [a, b]) => n + b - a + 1, 0);
  return `${shown.join(', ')}${rest ? ` and ${rest} more` : ''}`;
}

/** Two files that measured one payload id on different bytes ({@link payloadBytesMismatch}). */
export interface PayloadMismatch {
  /** the two files' indexes, the earlier first */
  first: number;
  second: number;
  workload: string;
  firstSha: string;
  secondSha: string;
}

/**
 * The first pair of `files` that measured one payload id (a payload record's workload) on different bytes (file
 * SHA-256), or undefined when every payload id has one hash across them. `merge` refuses such files, `report`
 * warns of them (hx6/hx7 U1, hx24 CM2). Pure.
 */
export function payloadBytesMismatch(files: readonly Pick<ResultsFile, 'payloads'>[]): PayloadMismatch | undefined {
  const seen = new Map<string, { sha: string; i: number }>();
  for (const [i, f] of files.entries())
    for (const p of f.payloads ?? []) {
      const before = seen.get(p.workload);
      if (!before) seen.set(p.workload, { sha: p.sha256, i });
      else if (before.sha !== p.sha256)
        return { first: before.i, second: i, workload: p.workload, firstSha: before.sha, secondSha: p.sha256 };
    }
  return undefined;
}

/**
 * Refuses files that measured one payload id on different bytes (hx6/hx7 U1: two shards run on
 * different `response.json` files merged as "24 cases from 2 shards", no word; `compare` warns of
 * it: {@link payloadBytesMismatch}). Returns the files' payload records (for the merge to keep once each).
 * @throws ShardMergeError naming both files, the payload id and both hashes
 */
function samePayloadBytes(
  files: readonly ResultsFile[],
  name: (i: number) => string,
): (ResultsFile['payloads'] | undefined)[] {
  const m = payloadBytesMismatch(files);
  if (m)
    throw new ShardMergeError(
      `${name(m.first)} and ${name(m.second)} measured payload ${m.workload} on different bytes (sha256 ${m.firstSha} and ${m.secondSha}): the same payload id, another file's content, so their cases are not one run's; run every shard on the same payload file`,
    );
  return files.map((f) => f.payloads);
}

/**
 * What a merge of `files` says of its integrity (ResultsFile.unchecked): the files read unchecked
 * (no sidecar and no ledger record, results/integrity.ts), each named with why; nothing when none was.
 */
function uncheckedOf(files: readonly ResultsFile[], name: (i: number) => string): { unchecked?: string } {
  const list = files.flatMap((f, i) => (f.unchecked ? [`${name(i)}: ${f.unchecked}`] : []));
  return list.length ? { unchecked: list.join('; ') } : {};
}

/**
 * Merges the results files of all shards of one run (`run --shard i/n` for i = 1…n) into the
 * results file the unsharded run would have written: the cases in the plan's order, the run's
 * targets and payloads once each, the earliest start and the latest finish; the environment of
 * the first shard (the reports' header; {@link machinesOf} tells when the shards ran on different
 * machines, which the caller says). The probe matrix of the first shard that has one. `names` label the files in errors (their paths).
 * Pure. @throws ShardMergeError when a file is not a shard, the shards are of different plans or
 * policies, measured one payload id on different bytes, one is missing or given twice, or a case is
 * missing or in two shards. Shards read unchecked (no integrity record) are named in `unchecked`. With `partial`,
 * missing shards and cases are allowed and recorded in `partialMerge` (the reports say so).
 */
export function mergeShards(
  files: readonly ResultsFile[],
  names: readonly string[] = [],
  partial = false,
): ResultsFile {
  const name = (i: number) => names[i] ?? `file ${i + 1}`;
  if (files.length === 0) throw new ShardMergeError('no shards to merge');
  files.forEach((f, i) => {
    if (!f.shard) throw new ShardMergeError(`${name(i)} is not a shard of a run (it was not written by run --shard)`);
  });
  const first = files[0];
  const { count, plan } = first.shard!;
  // hx5: a shard of 99999999999999999999 made the list below an "Invalid array length" crash, 10,000,000 a 183 MB error
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_SHARDS)
    throw new ShardMergeError(
      `${name(0)} says it is one of ${count} shards: a run has 1 to ${MAX_SHARDS} (run --shard refuses more)`,
    );
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
        `${name(i)} ran with another policy than ${name(0)} (${policyDifference(f.policy, first.policy)})`,
      );
    const twice = seen.get(s.index);
    if (twice !== undefined)
      throw new ShardMergeError(`shard ${s.index}/${count} is given twice: ${name(twice)} and ${name(i)}`);
    seen.set(s.index, i);
  });
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((k) => !seen.has(k));
  if (missing.length && !partial)
    throw new ShardMergeError(
      `shard${missing.length > 1 ? 's' : ''} ${shardRanges(missing, count)} missing: give all ${count} (or --partial to merge only these, which the reports then say)`,
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
  if (absent.length && !partial)
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
  const payloads = byJson(samePayloadBytes(files, name));
  const probes = files.find((f) => f.probes)?.probes;
  const { shard: _shard, unread: _unread, unchecked: _unchecked, ...rest } = first;
  void [_shard, _unread, _unchecked];
  return {
    ...rest,
    startedAt: files.map((f) => f.startedAt).sort()[0],
    ...(finished.length === files.length ? { finishedAt: finished.sort().at(-1)! } : {}),
    targets: targetsOnce(files.map((f) => f.targets)),
    ...(payloads.length ? { payloads } : {}),
    cases,
    ...(probes ? { probes } : {}),
    ...(partial && (missing.length || absent.length)
      ? { partialMerge: { count, missing, absentCases: absent.length } }
      : {}),
    ...uncheckedOf(files, name),
  };
}

/**
 * The targets of several shards of one run, once each (by id, in order of first appearance), each
 * shard's wall time on a target added up (`timing`). Every shard prepares every target, so their
 * records differ only in timing; before this a merge of 3 shards listed `node` three times, and
 * every report of it drew a "by target" table of node | node | node.
 */
function targetsOnce(lists: readonly (readonly TargetRecord[])[]): TargetRecord[] {
  const out = new Map<string, TargetRecord>();
  for (const list of lists)
    for (const t of list) {
      const seen = out.get(t.id);
      if (!seen) out.set(t.id, { ...t, ...(t.timing ? { timing: { ...t.timing } } : {}) });
      else if (seen.timing && t.timing) {
        seen.timing.prepareMs += t.timing.prepareMs;
        seen.timing.launchMs += t.timing.launchMs;
        seen.timing.launches += t.timing.launches;
      }
    }
  return [...out.values()];
}

/** A case id less its `@<target>` suffix (`weather-station/1/single/serialize/json@node@22` → `…/json`). */
function withoutTarget(id: string, targetIds: readonly string[]): string {
  const t = targetIds.find((t) => id.endsWith(`@${t}`));
  return t ? id.slice(0, -(t.length + 1)) : id;
}

/** A run's plan (a shard's whole plan, else its case ids) less the targets, sorted: what runs of one plan on different targets share. */
function planKey(f: ResultsFile): string {
  const targetIds = f.targets.map((t) => t.id);
  return JSON.stringify(
    [...new Set((f.shard?.plan ?? f.cases.map((c) => c.id)).map((id) => withoutTarget(id, targetIds)))].sort(),
  );
}

/**
 * True when the runs are one plan measured on different targets (a CI matrix of one job per
 * target, `run --target <t>` each): two or more runs, none a shard, each naming its targets
 * (case ids with `@<target>`), no target in two of them, the same policy, and the same cases less
 * the targets. Pure.
 */
function oneRunPerTarget(runs: readonly ResultsFile[]): boolean {
  if (runs.length < 2 || runs.some((r) => r.shard)) return false;
  const ids = runs.flatMap((r) => r.targets.map((t) => t.id));
  if (new Set(ids).size !== ids.length) return false;
  if (runs.some((r) => r.cases.some((c) => !c.id.endsWith(`@${c.target.id}`)))) return false;
  const policy = JSON.stringify(runs[0].policy);
  const plan = planKey(runs[0]);
  return runs.every((r) => JSON.stringify(r.policy) === policy && planKey(r) === plan);
}

/** The group a case was planned in (plan/plan.ts: workload × size × shape × direction × platform × class; the unsupported apart). */
const groupOf = (c: CaseResult) =>
  [
    c.workload,
    c.size,
    c.shape,
    c.direction,
    c.platform ?? 'javascript',
    c.status === 'unsupported' ? '-' : c.class,
  ].join('/');

/**
 * Joins runs of one plan on different targets ({@link oneRunPerTarget}) into the run that
 * `run --target a,b,c` would have written: the targets in the order of the runs (the first is the
 * Δ reference), each group's cases on every target together (targets innermost, as
 * plan/targets.ts places them), the earliest start and the latest finish, the first run's
 * environment ({@link machinesOf} tells when they differ), the probe verdicts of every target.
 * Pure. @throws ShardMergeError when the runs are not one plan on different targets
 */
function joinTargets(runs: readonly ResultsFile[], names: readonly string[] = []): ResultsFile {
  if (!oneRunPerTarget(runs))
    throw new ShardMergeError(
      `${names.join(', ') || 'these runs'} are not one plan measured on different targets (the same cases and policy, each run with its own --target)`,
    );
  // `names` are the files given: one per run unless shards were merged first (runsOf)
  const name = (i: number) =>
    (names.length === runs.length ? names[i] : undefined) ??
    `the run on ${runs[i].targets.map((t) => t.id).join(', ')}`;
  const groups = new Map<string, CaseResult[][]>();
  runs.forEach((r, i) => {
    for (const c of r.cases) {
      const key = groupOf(c);
      if (!groups.has(key))
        groups.set(
          key,
          runs.map(() => []),
        );
      groups.get(key)![i].push(c);
    }
  });
  const finished = runs.map((f) => f.finishedAt).filter((x): x is string => x !== undefined);
  const byJson = <T>(lists: (readonly T[] | undefined)[]): T[] => {
    const out = new Map<string, T>();
    for (const l of lists) for (const x of l ?? []) out.set(JSON.stringify(x), x);
    return [...out.values()];
  };
  const payloads = byJson(samePayloadBytes(runs, name));
  const withProbes = runs.map((r) => r.probes).filter((p) => p !== undefined);
  const unread = runs.flatMap((r) => r.unread ?? []);
  const { unread: _unread, probes: _probes, unchecked: _unchecked, ...rest } = runs[0];
  void _unread;
  void _probes;
  void _unchecked;
  return {
    ...rest,
    startedAt: runs.map((f) => f.startedAt).sort()[0],
    ...(finished.length === runs.length ? { finishedAt: finished.sort().at(-1)! } : {}),
    targets: runs.flatMap((r) => r.targets),
    ...(payloads.length ? { payloads } : {}),
    cases: [...groups.values()].flat(2),
    ...(withProbes.length
      ? {
          probes: {
            ...withProbes[0],
            elapsedMs: withProbes.reduce((n, p) => n + p.elapsedMs, 0),
            launches: withProbes.reduce((n, p) => n + p.launches, 0),
            probes: byJson(withProbes.map((p) => p.probes)),
            verdicts: withProbes.flatMap((p) => p.verdicts),
            ...(withProbes.some((p) => p.failing)
              ? {
                  failing: Object.fromEntries(
                    [...new Set(withProbes.flatMap((p) => Object.keys(p.failing ?? {})))].map((k) => [
                      k,
                      withProbes.flatMap((p) => p.failing?.[k] ?? []),
                    ]),
                  ),
                }
              : {}),
          },
        }
      : {}),
    ...(unread.length ? { unread } : {}),
    ...uncheckedOf(runs, name),
  };
}

/**
 * What `jsonbench merge` and `jsonbench report` make of several results files, in order: the
 * shards of each run (`run --shard`, grouped by their plan) merged ({@link mergeShards}); then
 * runs of one plan on different targets (a matrix of shard × target) joined into one run with the
 * targets side by side ({@link joinTargets}). Anything else stays as given (one file: as it is, a
 * shard too). Pure.
 * @throws ShardMergeError when the shards of a plan are incomplete, repeated or inconsistent
 */
export function runsOf(files: readonly ResultsFile[], names: readonly string[] = []): ResultsFile[] {
  if (files.length < 2) return [...files];
  const plans = new Map<string, number[]>();
  const out: (ResultsFile | number[])[] = [];
  files.forEach((f, i) => {
    if (!f.shard) return void out.push(f);
    const key = JSON.stringify(f.shard.plan);
    if (!plans.has(key)) {
      plans.set(key, []);
      out.push(plans.get(key)!);
    }
    plans.get(key)!.push(i);
  });
  const runs = out.map((x) =>
    Array.isArray(x)
      ? mergeShards(
          x.map((i) => files[i]),
          x.map((i) => names[i] ?? `file ${i + 1}`),
        )
      : x,
  );
  return oneRunPerTarget(runs) ? [joinTargets(runs, names)] : runs;
}

/** The distinct machines (CPU × cores, OS, architecture, host runtime) the files ran on, in order. */
export function machinesOf(files: readonly ResultsFile[]): string[] {
  const m = files.map((f) => {
    const e = f.environment;
    return `${e.cpuModel} × ${e.cores}, ${e.os} ${e.arch}, ${e.runtime}`;
  });
  return [...new Set(m)];
}

/**
 * `jsonbench merge`: all shards of one run, or of one plan run per target (a CI matrix of shard ×
 * target), into one run ({@link runsOf}). Pure. @throws ShardMergeError when a file is not a
 * shard, the shards are of different plans (other than by target), or a plan's shards are
 * incomplete (unless `partial`: {@link mergeShards}), repeated or inconsistent
 */
export function mergeRun(files: readonly ResultsFile[], names: readonly string[] = [], partial = false): ResultsFile {
  // one shard alone too: mergeShards names the shards missing from it (hx3: 1 of 2 was merged silently, exit 0)
  if (files.length < 2 || files.some((f) => !f.shard) || new Set(files.map(planKey)).size > 1)
    return mergeShards(files, names, partial);
  const runs = runsOf(files, names);
  if (runs.length === 1) return runs[0];
  throw new ShardMergeError(
    `these shards are of ${runs.length} runs of one plan that cannot be joined (a target in two of them, or other policies): merge each run's shards apart`,
  );
}

/**
 * What differs between two recorded policies, named by the first keys (dotted paths) that differ: `seed 7 vs 42`,
 * `measure.timeCapMs 300 vs 1000` (hx19 M03: shards of other seeds read "quick vs quick, or other settings").
 */
function policyDifference(a: unknown, b: unknown): string {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string) => {
    if (out.length >= 3) return;
    if (
      x !== null &&
      y !== null &&
      typeof x === 'object' &&
      typeof y === 'object' &&
      !Array.isArray(x) &&
      !Array.isArray(y)
    ) {
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)]))
        walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y))
      out.push(`${path || 'policy'} ${JSON.stringify(x) ?? 'absent'} vs ${JSON.stringify(y) ?? 'absent'}`);
  };
  walk(a, b, '');
  return out.join('; ') || 'other settings';
}
