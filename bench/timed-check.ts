/**
 * `npm run bench:checks`: what the checks made while timing (src/measure/timed-check.ts) cost.
 * For each case the same prepared serializer is timed with measureRounds, alternately with and
 * without its checks (A B A B …, `RUNS` each), in one process. Prints the median ns/op of the
 * samples (the checks run outside the timed loop, so these should agree within noise) and the
 * wall time per run (where the checks' cost shows), with the load average. Then the cache checks
 * made once per launch after the timed rounds (src/measure/cache-checks.ts, through prepareCase's
 * cacheChecks): their time (median of 5) in ms and in ops of the case, and the cost check's alone (prepareCase's
 * cacheCost: both passes, an upper bound of its share).
 */
import { loadavg } from 'node:os';
import { workloads } from '../src/workloads/index.js';
import { serializers } from '../src/serializers/index.js';
import { unitView, unitsOf } from '../src/workloads/unit.js';
import { caseIo, checkCase } from '../src/measure/gate.js';
import { makeOp } from '../src/measure/sink.js';
import { measureRounds, pilot, warmup } from '../src/measure/timing.js';
import { sideChecks } from '../src/measure/timed-check.js';
import { prepareCase } from '../src/measure/prepare-case.js';
import { policies } from '../src/config/policies.js';
import { renderPayload } from '../src/plan/payloads.js';
import type { CaseClass, Direction, Shape } from '../src/case/coordinates.js';

const RUNS = 10;
const CASES: {
  workload: string;
  size: number;
  shape: Shape;
  direction: Direction;
  caseClass: CaseClass;
  serializer: string;
}[] = [
  {
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'serialize',
    caseClass: 'serialize',
    serializer: 'json',
  },
  {
    workload: 'users',
    size: 10000,
    shape: 'list',
    direction: 'serialize',
    caseClass: 'serialize',
    serializer: 'fast-json-stringify',
  },
  { workload: 'users', size: 1000, shape: 'many', direction: 'serialize', caseClass: 'serialize', serializer: 'json' },
  { workload: 'users', size: 10000, shape: 'list', direction: 'deserialize', caseClass: 'parse', serializer: 'json' },
  {
    workload: 'orders',
    size: 1000,
    shape: 'list',
    direction: 'deserialize',
    caseClass: 'transform',
    serializer: 'zod',
  },
];

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const policy = { ...policies.default.measure, minRounds: 6, maxRounds: 6 };

console.log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
for (const c of CASES) {
  const w = unitView(await workloads.load(c.workload), c.shape);
  const text = renderPayload(await workloads.load(c.workload), c.size, 42);
  const io = caseIo(w, c.direction, c.caseClass, unitsOf(JSON.parse(text), c.shape));
  const prepared = await (await serializers.load(c.serializer)).prepare(w, c.direction);
  const outputs: unknown[] = [];
  if (checkCase(prepared, w, c.direction, io, outputs)) throw new Error(`${c.serializer} fails the gate`);
  const inputs = () => caseIo(w, c.direction, c.caseClass, unitsOf(JSON.parse(text), c.shape)).inputs;
  const a = inputs();
  const b = inputs();
  const call =
    c.direction === 'serialize'
      ? (v: unknown) => prepared.serialize!(v)
      : (v: unknown) => prepared.deserialize!(v as string);
  const op = makeOp(call, a, b);
  const checks = sideChecks('serializer', w, c.direction, {
    expected: () =>
      caseIo(w, c.direction, c.caseClass, unitsOf(JSON.parse(text), c.shape)).expected[outputs.length - 1],
    gated: outputs[outputs.length - 1],
    gatedUnits: c.direction === 'serialize' ? outputs : undefined,
    expectedUnits: () => caseIo(w, c.direction, c.caseClass, unitsOf(JSON.parse(text), c.shape)).expected,
    units: outputs.length,
    copies: [a, b],
    snapshot: inputs,
  });
  // time spent inside the checks, measured directly (robust to a loaded machine, unlike wall-time differences)
  let inChecksMs = 0;
  const timed =
    <A extends unknown[]>(f: (...a: A) => void) =>
    (...a: A) => {
      const t = performance.now();
      try {
        f(...a);
      } finally {
        inChecksMs += performance.now() - t;
      }
    };
  // the calls drawn at random and checked (check-schedule.ts), counted per run
  let picked = 0;
  const measured = {
    quick: timed(checks.quick),
    full: timed(checks.full),
    inputs: checks.inputs,
    roundEnd: timed(checks.roundEnd),
    picked: (...a: Parameters<NonNullable<typeof checks.picked>>) => {
      const t = performance.now();
      try {
        const n = checks.picked!(...a);
        picked += n;
        return n;
      } finally {
        inChecksMs += performance.now() - t;
      }
    },
  };
  warmup(op, policy);
  const opsPerSample = pilot(op, policy);
  const ns: Record<'on' | 'off', number[]> = { on: [], off: [] };
  const wallMs: Record<'on' | 'off', number[]> = { on: [], off: [] };
  const sampledMs: number[] = [];
  const checkMs: number[] = [];
  const pickedPerRun: number[] = [];
  for (let r = 0; r < 2 * RUNS; r++) {
    const mode = r % 2 === 0 ? 'on' : 'off';
    const t0 = performance.now();
    inChecksMs = 0;
    picked = 0;
    let sampled = 0;
    measureRounds(
      { op, opsPerSample, ...(mode === 'on' ? { checks: measured } : {}) },
      undefined,
      policy,
      gc,
      (round) => {
        ns[mode].push(...round.serializerNs);
        sampled += (round.serializerNs.reduce((x, y) => x + y, 0) * opsPerSample) / 1e6;
      },
    );
    wallMs[mode].push(performance.now() - t0);
    if (mode === 'on') {
      sampledMs.push(sampled);
      checkMs.push(inChecksMs);
      pickedPerRun.push(picked);
    }
  }
  const fmt = (x: number) =>
    x >= 1e6 ? `${(x / 1e6).toFixed(3)} ms` : x >= 1e3 ? `${(x / 1e3).toFixed(2)} µs` : `${x.toFixed(0)} ns`;
  const id = `${c.workload}/${c.size}/${c.shape}/${c.direction}/${c.serializer}`;
  const dNs = median(ns.on) / median(ns.off) - 1;
  const dWall = median(wallMs.on) / median(wallMs.off) - 1;
  console.log(
    `${id}: ${opsPerSample} ops/sample; median sample ${fmt(median(ns.on))}/op with checks, ${fmt(median(ns.off))}/op without (${(dNs * 100).toFixed(1)}%); wall per run ${median(wallMs.on).toFixed(0)} ms vs ${median(wallMs.off).toFixed(0)} ms (${(dWall * 100).toFixed(1)}%); time in checks ${median(checkMs).toFixed(1)} ms per run = ${(100 * median(checkMs.map((c, i) => c / sampledMs[i]))).toFixed(1)}% of the time sampled; calls drawn at random and checked ${median(pickedPerRun)} per run of ${policy.maxRounds} rounds × ${policy.samplesPerRound} samples`,
  );
  // the cache checks, once per launch after the rounds: the same case prepared as the worker prepares it
  const workload = await workloads.load(c.workload);
  const side = await prepareCase(await serializers.load(c.serializer), workload, {
    shape: c.shape,
    direction: c.direction,
    caseClass: c.caseClass,
  });
  if (side.check(text)) throw new Error(`${c.serializer} fails the gate (prepareCase)`);
  const cacheMs: number[] = [];
  const costMs: number[] = [];
  for (let k = 0; k < 5; k++) {
    const copy = side.inputs(text);
    let t = performance.now();
    const failure = side.cacheChecks(text, copy);
    cacheMs.push(performance.now() - t);
    if (failure) throw new Error(`${c.serializer} fails the cache checks: ${failure.reason}`);
    // the cost check alone, both passes (the check runs the second only when the first is over its threshold)
    t = performance.now();
    side.cacheCost(text, side.inputs(text));
    costMs.push(performance.now() - t);
  }
  console.log(
    `${id}: cache checks after the rounds ${median(cacheMs).toFixed(2)} ms per launch = ${(median(cacheMs) / (median(ns.off) / 1e6)).toFixed(1)} ops; the cost check alone with both passes ${median(costMs).toFixed(2)} ms`,
  );
}
console.log(
  `load average at end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
