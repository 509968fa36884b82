// Cases for the analysers' tests: a measured pair from the report fixture (weather-station
// serialize, fast-json-stringify against json), with launches built to order.
import type { CaseResult, LaunchRecord } from '../../src/results/types.js';
import type { AnalysisContext } from '../../src/analysers/analyser.js';
import { fixture } from '../report/support.js';

type Measured = Extract<CaseResult, { status: 'measured' }>;

/** A launch of `rounds` rounds whose samples are `serializerNs` and `baselineNs` ns/op each (3 per side and round). */
export function launch(
  n: number,
  serializerNs: number,
  baselineNs: number,
  extra: Partial<LaunchRecord> = {},
  rounds = 5,
): LaunchRecord {
  return {
    launch: n,
    opsPerSample: { serializer: 1000, baseline: 1000 },
    warmup: { serializerOps: 1000, serializerMs: 100, baselineOps: 1000, baselineMs: 100 },
    emptyNsPerOp: 2,
    rounds: Array.from({ length: rounds }, () => ({
      serializerNs: [serializerNs, serializerNs, serializerNs],
      baselineNs: [baselineNs, baselineNs, baselineNs],
    })),
    noisy: false,
    elapsedMs: 100,
    ...extra,
  };
}

/**
 * The fixture's measured fast-json-stringify case (`c`, no findings) and its baseline json's own
 * case (`base`), each with `launches`, and the context an analyser gets for `c`.
 */
export function measuredPair(launches: LaunchRecord[], baseLaunches: LaunchRecord[] = [launch(1, 1000, 1000)]) {
  const r = fixture('single');
  const measured = r.cases.filter(
    (x): x is Measured => x.status === 'measured' && x.direction === 'serialize' && x.target?.id === 'node',
  );
  const c = structuredClone(measured.find((x) => x.serializer === 'fast-json-stringify')!);
  const base = structuredClone(measured.find((x) => x.serializer === x.baseline)!);
  if (!c || !base) throw new Error('the report fixture lost its measured fast-json-stringify/json pair');
  c.findings = [];
  c.samples = { launches, relaunches: launches.filter((l) => l.discarded).length };
  base.samples = { launches: baseLaunches, relaunches: 0 };
  Object.assign(base.time, { mean: 1000, median: 1000, error: 10 });
  const context: AnalysisContext = { policy: r.policy.measure, baseline: base };
  return { c, base, context };
}

/**
 * The report fixture's first measured non-baseline case with `rounds` copies of its first round, each side's wall
 * samples its CPU samples times a stretch (above 1: it waited, or was preempted; below 1: its CPU clock counted
 * other threads' work). For the waits and clocks-disagree analysers.
 */
export function withWall(serializerStretch: number, baselineStretch: number, rounds = 5): CaseResult {
  const r = fixture('single');
  const c = structuredClone(r.cases.find((x) => x.status === 'measured' && x.serializer !== x.baseline)!);
  if (c.status !== 'measured') throw new Error('fixture');
  const round = c.samples.launches[0].rounds[0];
  c.samples.launches = [
    {
      ...c.samples.launches[0],
      rounds: Array.from({ length: rounds }, () => ({
        ...round,
        serializerWallNs: round.serializerNs.map((x) => x * serializerStretch),
        baselineWallNs: round.baselineNs.map((x) => x * baselineStretch),
      })),
    },
  ];
  return c;
}
