import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunPolicy } from '../../src/config/policies.js';
import { policies } from '../../src/config/policies.js';
import { defaultCacheDir } from '../../src/runtimes/cache.js';
import type { Target } from '../../src/runtimes/types.js';
import { planCases } from '../../src/plan/plan.js';
import { writePayload, type PayloadFile } from '../../src/plan/payloads.js';
import { expandTargets } from '../../src/plan/targets.js';
import { prepareTargets } from '../../src/runtimes/prepare.js';
import { runGroups } from '../../src/run/runner.js';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { dotnetSerializers } from '../../src/serializers/dotnet/index.js';
import type { SerializerInfo } from '../../src/serializers/types.js';
import type { CaseResult, TargetRecord } from '../../src/results/types.js';

/** A policy small enough that a case takes well under a second on any runtime (wiring, not timing). */
export const TINY: RunPolicy = {
  ...policies.quick,
  name: 'quick',
  launches: 1,
  caseTimeoutMs: 60_000,
  measure: {
    ...policies.quick.measure,
    warmupMinOps: 10,
    warmupMinMs: 5,
    warmupMaxMs: 50,
    sampleTargetMs: 2,
    samplesPerRound: 2,
    minRounds: 2,
    maxRounds: 2,
    timeCapMs: 50,
    allocWindows: 3,
    allocWindowMinMs: 2,
  },
};

/** The cache the tests install into: the user's (so CI's `runtimes install` is reused). */
export const cacheDir = defaultCacheDir();

/**
 * Makes sure a target is there, installing it from the npm registry when it is missing and
 * jsonbench can install it. Returns undefined when ready, else the reason to skip.
 */
export async function ensureInstalled(t: Target): Promise<string | undefined> {
  const first = await t.detect({ cacheDir });
  if (first.installed) return undefined;
  if (!t.install) return `${first.reason} (jsonbench cannot install it)`;
  try {
    await t.install(cacheDir, () => {});
  } catch (e) {
    return `${t.id} is not installed and could not be installed here: ${(e as Error).message}`;
  }
  const again = await t.detect({ cacheDir });
  return again.installed ? undefined : again.reason;
}

/**
 * Runs weather-station/1 with the given serializers (JavaScript and .NET ids, and `userSerializers`) and direction
 * on the targets through the real plan → prepare → runner path. Returns the case results and the target records.
 */
export async function runOnTargets(
  targets: Target[],
  opts: {
    serializers?: string[];
    direction?: 'serialize' | 'deserialize';
    configPath?: string;
    userSerializers?: SerializerInfo[];
  } = {},
): Promise<{ cases: CaseResult[]; targets: TargetRecord[]; payload: PayloadFile }> {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-targets-'));
  const w = await workloads.load('weather-station');
  const all: SerializerInfo[] = [
    ...(await serializers.loadAll()),
    ...(await dotnetSerializers.loadAll()),
    ...(opts.userSerializers ?? []),
  ];
  const chosen = all.filter((s) => (opts.serializers ?? ['json']).includes(s.id));
  const payload = await writePayload(join(dir, 'payloads'), w, 1, 42);
  const groups = planCases(
    { workloads: [w], serializers: chosen, sizes: [1], directions: [opts.direction ?? 'serialize'], policy: TINY },
    all,
  );
  const prepared = await prepareTargets(targets, {
    cacheDir,
    bundleDir: join(dir, 'worker'),
    payloadPaths: [payload.path],
    // a .NET target compiles the workload's DTOs and gates its output against it
    workloads: [w],
    serializers: chosen.map((s) => s.id),
  });
  try {
    const cases = await runGroups({
      // each group on the targets of its platform (a .NET group on a .NET target), as run/session.ts places them
      groups: expandTargets(
        groups,
        prepared.platforms.map((p) => ({
          target: p.ref,
          platform: p.platform,
          ...(p.serializerVersions ? { serializerVersions: p.serializerVersions } : {}),
        })),
      ),
      payloads: new Map([[payload.key, payload]]),
      policy: TINY,
      partialPath: join(dir, 'partial.jsonl'),
      launchFor: prepared.launchFor,
      faultOf: prepared.faultOf,
      ...(opts.configPath ? { configPath: opts.configPath } : {}),
    });
    return { cases, targets: prepared.infos, payload };
  } finally {
    await prepared.close();
  }
}
