// Prototype sampler of the engine study (issue 13). One process = one launch of a pair (or a group).
// node --expose-gc build/studies/lib/pair-child.js '<json spec>'  → one JSON line on stdout.
// spec: { kind: 'pair', workload, size, shape, direction, serializer, baseline, payloadPath,
//         op: 'dropped'|'flat'|'utf8'|'te'|'kept', rounds, samplesPerRound, sampleTargetMs,
//         timeBudgetMs?, thread?: bool, alloc?: bool, warmupMinMs? }
//    or { kind: 'twice', rounds, ... } : JSON.stringify once vs twice on users/1000 (known ratio ≈ 2)
// Each sample records wall ns (performance.now), process CPU ns (process.cpuUsage user+system,
// all threads) and, with thread: true, this thread's CPU ns (/proc/thread-self/schedstat, read
// right after cpuUsage(), which brings the kernel's count for the running thread up to date).
// The lab's own worker (src/worker/, src/measure/) replaced it as the engine; the studies keep it
// because their figures were taken with it.
import { openSync, readSync, readFileSync } from 'node:fs';
import * as v8 from 'node:v8';
import type { measureAllocation as MeasureAllocation } from '../../src/measure/allocation.js';
import type { CaseClass, Direction, Shape } from '../../src/case/coordinates.js';

/** What one launch is asked to do (the JSON of argv[2]). */
export interface ChildSpec {
  kind: 'pair' | 'group' | 'twice';
  workload?: string;
  size?: number;
  shape?: Shape;
  direction?: Direction;
  caseClass?: CaseClass;
  serializer?: string;
  baseline?: string;
  /** kind 'group': the serializers measured beside the baseline in this one process */
  group?: string[];
  payloadPath: string;
  op?: 'dropped' | 'flat' | 'utf8' | 'te' | 'kept';
  rounds?: number;
  samplesPerRound?: number;
  sampleTargetMs?: number;
  timeBudgetMs?: number;
  cpuBudgetMs?: number;
  thread?: boolean;
  alloc?: boolean;
  allocWindowMinMs?: number;
  warmupMinMs?: number;
  gcEach?: 'side' | 'round' | 'minor' | 'none';
  pilotClock?: 'wall' | 'cpu';
  ownLoop?: boolean;
}
export type Clock = 'wall' | 'cpu' | 'thr';
/** One side's samples in a round: ns/op per sample by each clock. */
export type SideSamples = Record<Clock, number[]>;
/** One round: per side (`s`, `b`, or a serializer id in a group launch) its samples. */
export type Round = Record<string, SideSamples>;
type AllocFigures = ReturnType<typeof MeasureAllocation>;
/** The JSON line a launch prints. */
export interface ChildOutput {
  pid: number;
  node: string;
  load: number[];
  ops: Record<string, number>;
  warmup: Record<string, { n: number; ms: number }>;
  gcCpuMs: number;
  prep: Record<string, { importMs: number; prepareMs: number; gateMs: number; secondCallMs: number }>;
  rounds: Round[];
  roundsMs: number;
  roundsCpuMs: number;
  roundsThrMs: number;
  alloc?: Record<string, AllocFigures>;
  t: { importMs: number; prepareMs: number; warmMs: number; sinceProcessStartMs: number };
  checksum: number;
}
type Op = (i: number) => void;
type Call = (v: unknown) => unknown;

const USAGE = `node --expose-gc build/studies/lib/pair-child.js '<json spec>': one launch of a pair, one JSON line on stdout (see the head of studies/lib/pair-child.ts)`;
if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const T0 = performance.now();
const spec = JSON.parse(process.argv[2] ?? 'null') as ChildSpec;
if (!spec) throw new Error(USAGE);
// imported after T0 (dynamically, still type-checked): t.importMs is the lab's import time
const { workloads } = await import('../../src/workloads/index.js');
const { serializers } = await import('../../src/serializers/index.js');
const { unitView, unitsOf } = await import('../../src/workloads/unit.js');
const { caseIo, checkCase } = await import('../../src/measure/gate.js');
const { measureAllocation } = await import('../../src/measure/allocation.js');
const { policies } = await import('../../src/config/policies.js');
const tImported = performance.now();

const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
};
const fd = openSync('/proc/thread-self/schedstat', 'r');
const sbuf = Buffer.alloc(128);
const thrNs = () => {
  const n = readSync(fd, sbuf, 0, 128, 0);
  const s = sbuf.toString('latin1', 0, n);
  return Number(s.slice(0, s.indexOf(' ')));
};
const gc: (o?: { type: 'minor' | 'major' }) => void =
  (globalThis as { gc?: (o?: { type: 'minor' | 'major' }) => void }).gc ?? (() => {});

let slot: unknown;
let checksum = 0;
const sinkObj: { v: unknown } = { v: undefined };
const drain = () => {
  const v = slot ?? sinkObj.v;
  const length = (v as { length?: unknown } | undefined)?.length;
  checksum = (checksum + (typeof length === 'number' && length ? length : 1)) % 1e9;
  slot = undefined;
  sinkObj.v = undefined;
};
const te = new TextEncoder();
const wrap = (call: Call, op: ChildSpec['op']): Call => {
  switch (op ?? 'dropped') {
    case 'dropped':
      return call;
    case 'kept':
      return call; // handled by the op: result stays in a ring of 2 (see makeOp)
    case 'flat':
      return (v) => {
        const s = call(v) as string;
        s.charCodeAt(s.length >> 1);
        return s;
      };
    case 'utf8':
      return (v) => Buffer.from(call(v) as string, 'utf8');
    case 'te':
      return (v) => te.encode(call(v) as string);
    default:
      throw new Error(`op ${String(op)}`);
  }
};
const keep: unknown[] = [undefined, undefined];
function makeOp(call: Call, a: unknown[], b: unknown[], op?: ChildSpec['op']): Op {
  if (spec.ownLoop && op !== 'kept') {
    // a loop body compiled per side (new Function): its own SharedFunctionInfo and feedback, so the
    // call site sees one target (monomorphic) instead of every side's (today's shared closure)
    const body =
      a.length === 1
        ? 'return function op(i) { sink.v = undefined; sink.v = call((i & 1) === 0 ? x : y); };'
        : 'return function op(i) { const xs = (i & 1) === 0 ? x : y; for (let j = 0; j < xs.length; j++) { sink.v = undefined; sink.v = call(xs[j]); } };';
    return (new Function('call', 'x', 'y', 'sink', body) as (...args: unknown[]) => Op)(
      call,
      a.length === 1 ? a[0] : a,
      a.length === 1 ? b[0] : b,
      sinkObj,
    );
  }
  if (op === 'kept') {
    if (a.length === 1)
      return (i) => {
        keep[i & 1] = call((i & 1) === 0 ? a[0] : b[0]);
        slot = keep[i & 1];
      };
  }
  if (a.length === 1) {
    const x = a[0],
      y = b[0];
    return (i) => {
      slot = undefined;
      slot = call((i & 1) === 0 ? x : y);
    };
  }
  return (i) => {
    const xs = (i & 1) === 0 ? a : b;
    for (let j = 0; j < xs.length; j++) {
      slot = undefined;
      slot = call(xs[j]);
    }
  };
}

async function sides(): Promise<{ prep: ChildOutput['prep'] } & Record<string, Op>> {
  if (spec.kind === 'twice') {
    const text = readFileSync(spec.payloadPath, 'utf8');
    const mk = () => [JSON.parse(text)];
    const a = mk(),
      b = mk();
    return {
      s: makeOp(
        (v: unknown) => {
          JSON.stringify(v);
          return JSON.stringify(v);
        },
        a,
        b,
      ),
      b: makeOp((v: unknown) => JSON.stringify(v), a, b),
      prep: {},
    } as unknown as { prep: ChildOutput['prep'] } & Record<string, Op>;
  }
  const shape = spec.shape ?? 'single';
  const direction = spec.direction ?? 'serialize';
  const w = unitView(await workloads.load(spec.workload ?? ''), shape);
  const text = readFileSync(spec.payloadPath, 'utf8');
  const out = { prep: {} } as { prep: ChildOutput['prep'] } & Record<string, Op>;
  const ids: [string, string][] =
    spec.kind === 'group'
      ? [['b', spec.baseline ?? 'json'], ...(spec.group ?? []).map((id): [string, string] => [id, id])]
      : [['s', spec.serializer ?? '']];
  if (spec.baseline && spec.kind !== 'group') ids.push(['b', spec.baseline]);
  const mkIo = () =>
    caseIo(
      w,
      direction,
      spec.caseClass ?? (direction === 'serialize' ? 'serialize' : 'validate'),
      unitsOf(JSON.parse(text), shape),
    );
  const ia = mkIo().inputs,
    ib = mkIo().inputs;
  for (const [side, id] of ids) {
    const t0 = performance.now();
    const adapter = await serializers.load(id);
    const t1 = performance.now();
    const prepared = await adapter.prepare(w, direction);
    const t2 = performance.now();
    const call = (direction === 'serialize' ? prepared.serialize : prepared.deserialize) as Call | undefined;
    if (!call) throw new Error(`${id} does not ${direction}`);
    const io = mkIo();
    const f = checkCase(prepared, w, direction, io);
    if (f) throw new Error(`${id} incorrect: ${f.reason}`);
    const t3 = performance.now();
    const c0 = performance.now();
    slot = call.call(prepared, io.inputs[0]);
    const firstCallMs = performance.now() - c0;
    slot = undefined;
    out.prep[side] = { importMs: t1 - t0, prepareMs: t2 - t1, gateMs: t3 - t2, secondCallMs: firstCallMs };
    out[side] = makeOp(
      wrap((x) => call.call(prepared, x), spec.op),
      ia,
      ib,
      spec.op,
    );
  }
  return out;
}

// warmup and pilot read the process CPU clock (spec.pilotClock 'wall' for the lab's wall clock):
// under load a wall-clock pilot sized one side's samples 6x too small (4 vs 26 ops).
const pclock = () => (spec.pilotClock === 'wall' ? performance.now() : cpuNs() / 1e6);
function warmup(op: Op, minMs: number, minOps = 200, maxMs = 3000): { n: number; ms: number } {
  const t = pclock();
  let n = 0;
  let next = 1;
  for (;;) {
    op(n++);
    if (n < next) continue; // the clock is read about every 0.5 ms (a CPU clock read costs ~16 µs here)
    const ms = pclock() - t;
    if ((n >= minOps && ms >= minMs) || ms >= maxMs) {
      drain();
      return { n, ms };
    }
    next = n + Math.max(1, Math.floor(0.5 / Math.max(ms / n, 1e-6)));
  }
}
function pilot(op: Op, targetMs: number): number {
  let ops = 1;
  for (;;) {
    const t = pclock();
    for (let i = 0; i < ops; i++) op(i);
    const ms = pclock() - t;
    drain();
    if (ms >= targetMs || ops >= 1 << 30) return ops;
    ops = ms > 0.5 ? Math.max(ops * 2, Math.ceil((ops * targetMs * 1.1) / ms)) : ops * 2;
  }
}
function sample(op: Op, ops: number, thread?: boolean): [number, number, number] {
  let th0 = 0,
    th1 = 0;
  const w0 = performance.now();
  const c0 = cpuNs();
  if (thread) th0 = thrNs();
  for (let i = 0; i < ops; i++) op(i);
  const c1 = cpuNs();
  if (thread) th1 = thrNs();
  const w1 = performance.now();
  drain();
  return [((w1 - w0) * 1e6) / ops, (c1 - c0) / ops, thread ? (th1 - th0) / ops : 0];
}

const S = await sides();
const tPrepared = performance.now();
const sides_ = spec.kind === 'group' ? ['b', ...(spec.group ?? [])] : S.b ? ['s', 'b'] : ['s'];
const wu: ChildOutput['warmup'] = {};
const ops: ChildOutput['ops'] = {};
for (const k of sides_) {
  wu[k] = warmup(S[k], spec.warmupMinMs ?? 500);
  ops[k] = pilot(S[k], spec.sampleTargetMs ?? 10);
}
const tWarm = performance.now();
const rounds: Round[] = [];
const nS = spec.samplesPerRound ?? 5;
const budget = spec.timeBudgetMs ?? Infinity;
const tr0 = performance.now();
let gcCpuMs = 0;
const cpu0 = cpuNs();
const thr0a = (cpuNs(), thrNs());
for (let r = 0; r < (spec.rounds ?? 20); r++) {
  const rec: Round = {};
  const order = r % 2 === 0 ? sides_ : [...sides_].reverse();
  for (const k of order) {
    const ge = spec.gcEach ?? 'side';
    if (ge === 'side' || (ge === 'round' && k === order[0])) {
      const g0 = cpuNs();
      gc();
      gcCpuMs += (cpuNs() - g0) / 1e6;
    } else if (ge === 'minor') {
      const g0 = cpuNs();
      gc({ type: 'minor' });
      gcCpuMs += (cpuNs() - g0) / 1e6;
    }
    const xs: SideSamples = { wall: [], cpu: [], thr: [] };
    for (let j = 0; j < nS; j++) {
      const [w, c, t] = sample(S[k], ops[k], spec.thread);
      xs.wall.push(w);
      xs.cpu.push(c);
      xs.thr.push(t);
    }
    rec[k] = xs;
  }
  rounds.push(rec);
  if (performance.now() - tr0 > budget) break;
  if (spec.cpuBudgetMs && (cpuNs() - cpu0) / 1e6 > spec.cpuBudgetMs) break;
}
const roundsMs = performance.now() - tr0;
const roundsCpuMs = (cpuNs() - cpu0) / 1e6;
const roundsThrMs = (cpuNs(), thrNs() - thr0a) / 1e6;
let alloc: ChildOutput['alloc'];
if (spec.alloc) {
  alloc = {};
  const policy = { ...policies.default.measure, allocWindows: 5, allocWindowMinMs: spec.allocWindowMinMs ?? 20 };
  for (const k of sides_) alloc[k] = measureAllocation(v8, S[k], policy);
}
const output: ChildOutput = {
  pid: process.pid,
  node: process.version,
  load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
  ops,
  warmup: wu,
  gcCpuMs,
  prep: S.prep,
  rounds,
  roundsMs,
  roundsCpuMs,
  roundsThrMs,
  alloc,
  t: {
    importMs: tImported - T0,
    prepareMs: tPrepared - tImported,
    warmMs: tWarm - tPrepared,
    sinceProcessStartMs: performance.now(),
  },
  checksum,
};
process.stdout.write(JSON.stringify(output) + '\n');
