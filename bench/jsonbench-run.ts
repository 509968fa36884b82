import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { workloads } from '../src/workloads/index.js';
import { serializers } from '../src/serializers/index.js';
import { dotnetSerializers } from '../src/serializers/dotnet/index.js';
import type { CaseTarget } from '../src/case/coordinates.js';
import type { LaunchFn } from '../src/runtimes/types.js';
import { planCases, type CaseGroup } from '../src/plan/plan.js';
import { expandTargets } from '../src/plan/targets.js';
import type { PayloadFile } from '../src/plan/payloads.js';
import { runGroups } from '../src/run/runner.js';
import { launchWorker, type LaunchOutcome } from '../src/runtimes/launch.js';
import { PROTOCOL_VERSION, type WorkerJob } from '../src/worker/protocol.js';
import { policies, type RunPolicy } from '../src/config/policies.js';
import type { ProfileName } from '../src/case/profile.js';
import { pairId, type Pair } from './pairs.js';

/** What one run says about a pair: the ratio and both sides' mean time (ns/op), or why it has none. */
export type PairNumbers =
  | { ok: true; ratio: number; serializerNs: number; baselineNs: number; noisyLaunches: number; relaunches: number }
  | { ok: false; reason: string };

/**
 * Launches timing workers as jsonbench does, without the allocation windows (asked of a case's first
 * timing launch, after its rounds; older runners sent separate allocation launches, answered here
 * with an empty `done`): the precision bench reads only times, which the allocation pass does not touch.
 * The worker gets `profile`'s V8 flags (src/runtimes/launch.ts workerFlagsFor).
 */
function timingOnly(job: WorkerJob, timeoutMs: number, profile: ProfileName): Promise<LaunchOutcome> {
  if (job.mode === 'probe') return launchWorker(job, timeoutMs, undefined, profile);
  if (job.mode !== 'alloc') return launchWorker({ ...job, alloc: false }, timeoutMs, undefined, profile);
  return Promise.resolve({
    messages: [{ protocol: PROTOCOL_VERSION, type: 'done', noisy: false, elapsedMs: 0, checksum: 0 }],
    exitCode: 0,
    signal: null,
    timedOut: false,
    stderrTail: '',
    stdoutTail: '',
    elapsedMs: 0,
  });
}

/** A prepared .NET target (src/runtimes/prepare.ts) for the .NET pairs: its placement and launcher. */
export interface DotnetPlacement {
  target: CaseTarget;
  serializerVersions?: Readonly<Record<string, string>>;
  launch: LaunchFn;
}

/**
 * The planned group of each pair (its serializer and its baseline, baseline first): JavaScript
 * pairs on node, .NET pairs (`target: 'dotnet'`) on the prepared `dotnet` target.
 * @throws Error for a .NET pair without `dotnet`, or a pair jsonbench plans no group for
 */
export async function planPairs(
  pairs: readonly Pair[],
  policy: RunPolicy,
  dotnet?: DotnetPlacement,
): Promise<CaseGroup[]> {
  const all = [...(await serializers.loadAll()), ...(await dotnetSerializers.loadAll())];
  const groups: CaseGroup[] = [];
  for (const p of pairs) {
    const planned = planCases(
      {
        workloads: [await workloads.load(p.workload)],
        serializers: all.filter((s) => s.id === p.serializer || s.id === p.baseline),
        sizes: [p.size],
        directions: [p.direction],
        policy,
      },
      all,
    );
    const group = planned.find((g) =>
      g.some((c) => c.shape === p.shape && c.serializer === p.serializer && c.baseline === p.baseline),
    );
    if (!group) throw new Error(`${pairId(p)}: jsonbench plans no group with this serializer and baseline`);
    const pairGroup = [group.filter((c) => c.serializer === p.serializer || c.serializer === p.baseline)];
    if (p.target === 'dotnet') {
      if (!dotnet) throw new Error(`${pairId(p)}: no prepared dotnet target`);
      groups.push(
        ...expandTargets(
          pairGroup,
          [
            {
              target: dotnet.target,
              platform: 'dotnet',
              ...(dotnet.serializerVersions ? { serializerVersions: dotnet.serializerVersions } : {}),
            },
          ],
          false,
        ),
      );
    } else {
      groups.push(
        ...expandTargets(pairGroup, [{ id: 'node', runtime: 'node', version: process.versions.node }], false),
      );
    }
  }
  return groups;
}

/**
 * One jsonbench run of every pair under `policy` (timing launches as the CLI runs them: the same
 * runner, workers, interleaving and relaunch rule; node workers with the V8 flags of `policy.profile`,
 * .NET workers as `dotnet.launch` was prepared for that profile), reading the ratio and the `time.mean` of the
 * serializer's case and of the baseline's own case from the case results. The case results
 * (raw samples included) stay in `<workDir>/jsonbench-<run>.jsonl` (`jsonbench-<label>-<run>.jsonl` for a labelled variant).
 */
export async function runJsonbench(
  pairs: readonly Pair[],
  groups: CaseGroup[],
  payloads: ReadonlyMap<string, PayloadFile>,
  policy: RunPolicy,
  workDir: string,
  run: number,
  dotnet?: DotnetPlacement,
  label = '',
): Promise<Map<string, PairNumbers>> {
  const partialPath = join(workDir, `jsonbench${label ? `-${label}` : ''}-${run}.jsonl`); // every case result of this run, with its raw samples
  writeFileSync(partialPath, '');
  // .NET cases: the target's own (gated) launcher; their separate allocation launches answered empty, as timingOnly does
  const dotnetTiming: LaunchFn | undefined =
    dotnet &&
    ((job, timeoutMs) =>
      job.mode === 'alloc' ? timingOnly(job, timeoutMs, policy.profile) : dotnet.launch(job, timeoutMs));
  const nodeTiming: LaunchFn = (job, timeoutMs) => timingOnly(job, timeoutMs, policy.profile);
  const results = await runGroups({
    groups,
    payloads,
    policy,
    partialPath,
    launchFor: (c) => (dotnetTiming && c.target.id === dotnet?.target.id ? dotnetTiming : nodeTiming),
  });
  const out = new Map<string, PairNumbers>();
  pairs.forEach((p, k) => {
    const [base, ser] = [p.baseline, p.serializer].map((id) =>
      results.find((r) => r.id === `${groups[k][0].workload}/${p.size}/${p.shape}/${p.direction}/${id}`),
    );
    if (!ser || !base) return out.set(pairId(p), { ok: false, reason: 'case missing from the results' });
    if (ser.status !== 'measured' || base.status !== 'measured')
      return out.set(pairId(p), {
        ok: false,
        reason: `${ser.status}/${base.status}: ${ser.reason ?? base.reason ?? ''}`,
      });
    if (ser.ratio == null || !ser.time || !base.time) return out.set(pairId(p), { ok: false, reason: 'no ratio' });
    out.set(pairId(p), {
      ok: true,
      ratio: ser.ratio,
      serializerNs: ser.time.mean,
      baselineNs: base.time.mean,
      noisyLaunches:
        ser.samples.launches.filter((l) => l.noisy).length + base.samples.launches.filter((l) => l.noisy).length,
      relaunches: ser.samples.relaunches + base.samples.relaunches,
    });
  });
  return out;
}

/**
 * A `--variant label=key:value,…` flag as a policy: the default policy with those settings changed.
 * Keys: the policy's `launches`, `maxLaunches`, `relaunchFactor`, `maxRelaunches`, or any numeric
 * field of its `measure` (e.g. `timeCapMs`, `targetRelativeError`, `minRounds`, `warmupMinMs`).
 * Throws on an unknown key or a value that is not a finite number.
 */
export function parseVariant(flag: string, base: RunPolicy = policies.default): { label: string; policy: RunPolicy } {
  const eq = flag.indexOf('=');
  const label = eq > 0 ? flag.slice(0, eq) : '';
  if (!/^[\w.-]+$/.test(label))
    throw new Error(`--variant ${flag}: expected label=key:value,… with a label of letters, digits, '.', '_' or '-'`);
  const top = ['launches', 'maxLaunches', 'relaunchFactor', 'maxRelaunches'] as const;
  const policy: RunPolicy = { ...base, measure: { ...base.measure } };
  for (const kv of flag
    .slice(eq + 1)
    .split(',')
    .filter(Boolean)) {
    const [key, raw] = kv.split(':');
    const value = Number(raw);
    if (!Number.isFinite(value))
      throw new Error(`--variant ${flag}: ${key} needs a finite number, got ${JSON.stringify(raw)}`);
    if ((top as readonly string[]).includes(key)) (policy as unknown as Record<string, number>)[key] = value;
    else if (typeof (policy.measure as unknown as Record<string, unknown>)[key] === 'number')
      (policy.measure as unknown as Record<string, number>)[key] = value;
    else
      throw new Error(
        `--variant ${flag}: unknown setting ${JSON.stringify(key)} (policy: ${top.join(', ')}; measure: ${Object.keys(
          base.measure,
        )
          .filter((k) => typeof (base.measure as unknown as Record<string, unknown>)[k] === 'number')
          .join(', ')})`,
      );
  }
  return { label, policy };
}
