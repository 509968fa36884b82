/**
 * Synthetic results files for the ledger and compare tests: the exact shape `jsonbench run`
 * writes (ResultsFile, CaseResult with raw samples), with numbers from a seeded generator so
 * every test sees the same values.
 */
import type { CaseResult, Environment, ResultsFile } from '../../src/results/types.js';
import { policies } from '../../src/config/policies.js';

export { mulberry32 as prng } from '../../src/stats/mulberry32.js';

/** `n` normal samples (Box–Muller) of mean `mu` and standard deviation `sd`. */
export function normalSamples(rand: () => number, n: number, mu: number, sd: number): number[] {
  return Array.from(
    { length: n },
    () => mu + sd * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()),
  );
}

export const ENV: Environment = {
  cpuModel: 'AMD EPYC',
  cores: 2,
  os: 'Linux 6.1.0',
  arch: 'x64',
  totalMemoryBytes: 8 * 1024 ** 3,
  node: '20.20.2',
  v8: '11.3.244.8-node.38',
  runtime: 'node 20.20.2',
  flags: ['--expose-gc'],
  loadAverage: { start: [0.5, 0.4, 0.3], end: [0.6, 0.4, 0.3] },
  timerResolutionNs: 40,
  jsonbenchVersion: '0.1.0',
  pointerCompression: false,
};

/** What one synthetic case looks like: its serializer and direction, its raw time samples per round (ns/op). */
export interface CaseSpec {
  serializer: string;
  direction?: 'serialize' | 'deserialize';
  version?: string;
  status?: CaseResult['status'];
  reason?: string;
  /** rounds of raw samples (ns/op); 2 launches are made by splitting the rounds in half */
  rounds?: number[][];
  allocWindows?: number[];
  instructions?: number;
}

/** A CaseResult as the runner assembles it (statistics need not match the samples exactly). */
export function makeCase(spec: CaseSpec): CaseResult {
  const direction = spec.direction ?? 'serialize';
  const status = spec.status ?? 'measured';
  const rounds = status === 'measured' ? (spec.rounds ?? [[100, 101, 99]]) : [];
  const half = Math.ceil(rounds.length / 2);
  const launches = [rounds.slice(0, half), rounds.slice(half)]
    .filter((r) => r.length)
    .map((rs, i) => ({
      launch: i + 1,
      opsPerSample: { serializer: 1000, baseline: 900 },
      warmup: { serializerOps: 2000, serializerMs: 150.5, baselineOps: 1800, baselineMs: 151.25 },
      emptyNsPerOp: 1.5,
      rounds: rs.map((r) => ({ serializerNs: r, baselineNs: r.map((x) => x * 0.9) })),
      noisy: false,
      elapsedMs: 812.5,
    }));
  const all = rounds.flat();
  const mean = all.length ? all.reduce((a, b) => a + b, 0) / all.length : 0;
  const header = {
    id: `weather-station/1/single/${direction}/${spec.serializer}`,
    target: { id: 'node', runtime: 'node', version: ENV.node },
    workload: 'weather-station',
    size: 1,
    shape: 'single' as const,
    serializer: spec.serializer,
    serializerVersion: spec.version ?? '1.0.0',
    family: 'schema-compiled' as const,
    direction,
    class: direction === 'serialize' ? ('serialize' as const) : ('parse' as const),
    baseline: 'json',
    payload: { bytes: 393, sha256: 'ab'.repeat(32) },
    findings: [{ code: 'outliers' as const, message: "1 of 12 samples outside Tukey's fences" }],
    samples: { launches, relaunches: 0 },
  };
  if (status !== 'measured')
    return status === 'incorrect'
      ? {
          ...header,
          status,
          reason: spec.reason ?? '',
          mismatch: { side: 'serializer', path: '$', expected: '1', actual: '2' },
        }
      : { ...header, status, reason: spec.reason ?? '' };
  const windows = spec.allocWindows ?? [640.25, 640.5, 640.25, 640.75, 640.25];
  return {
    ...header,
    status,
    time: {
      mean,
      median: mean,
      error: mean * 0.01,
      stddev: mean * 0.02,
      min: Math.min(...all),
      max: Math.max(...all),
      unit: 'ns/op',
      n: all.length,
      outliers: { low: 0, high: 1 },
      launchSpread: 0.01,
    },
    ratio: 1.25,
    ratioError: 0.03,
    allocated: {
      mean: [...windows].sort((a, b) => a - b)[2],
      unit: 'bytes/op',
      gcPerOp: 0.001,
      windows,
      method: 'exact',
    },
    allocRatio: 1.1,
    ...(spec.instructions !== undefined
      ? {
          instructions: {
            perOp: spec.instructions,
            iterations: [1000, 11000] as [number, number],
            totals: [5e7, 5e7 + 10000 * spec.instructions] as [number, number],
            method: 'callgrind' as const,
            tool: 'valgrind-3.19.0',
            flags: ['--predictable'],
          },
        }
      : {}),
  };
}

/** A results file of `cases`, started at `startedAt` on `env`. */
export function makeResults(
  cases: CaseSpec[],
  startedAt = '2025-01-02T03:04:05.678Z',
  env: Partial<Environment> = {},
): ResultsFile {
  const q = policies.quick;
  return {
    schemaVersion: 2,
    tool: 'jsonbench',
    startedAt,
    // 55 s after the start, whatever it is (a file finishing before it started is refused: results/validate.ts)
    finishedAt: new Date(Date.parse(startedAt) + 55_000).toISOString(),
    environment: { ...ENV, ...env },
    policy: {
      name: q.name,
      launches: q.launches,
      seed: 42,
      caseTimeoutMs: q.caseTimeoutMs,
      // a copy: tests edit their results (policies are frozen: config/policies.ts)
      measure: { ...q.measure },
      baselines: { serialize: 'json', parse: 'json', validate: 'typebox', transform: 'zod' },
    },
    targets: [
      {
        id: 'node',
        runtime: 'node',
        version: env.node ?? ENV.node,
        kind: 'node-host',
        engine: 'V8',
        engineVersion: env.v8 ?? ENV.v8,
        flags: ['--expose-gc'],
        probe: {},
      },
    ],
    cases: cases.map((spec) => ({
      ...makeCase(spec),
      target: { id: 'node', runtime: 'node', version: env.node ?? ENV.node },
    })),
  };
}

/** `rounds` rounds of `perRound` normal samples (ns/op). */
export function roundsOf(rand: () => number, rounds: number, perRound: number, mu: number, sd: number): number[][] {
  return Array.from({ length: rounds }, () => normalSamples(rand, perRound, mu, sd));
}
