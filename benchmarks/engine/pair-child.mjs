// Prototype sampler for the engine study (issue 13). One process = one launch of a pair.
// node --expose-gc benchmarks/engine/pair-child.mjs '<json spec>'  → one JSON line on stdout.
// spec: { kind: 'pair', workload, size, shape, direction, serializer, baseline, payloadPath,
//         op: 'dropped'|'flat'|'utf8'|'te'|'kept', rounds, samplesPerRound, sampleTargetMs,
//         timeBudgetMs?, thread?: bool, alloc?: bool, warmupMinMs? }
//    or { kind: 'twice', rounds, ... } : JSON.stringify once vs twice on users/1000 (known ratio ≈ 2)
// Each sample records wall ns (performance.now), process CPU ns (process.cpuUsage user+system,
// all threads) and, with thread: true, this thread's CPU ns (/proc/thread-self/schedstat, read
// right after cpuUsage(), which brings the kernel's count for the running thread up to date).
import { openSync, readSync, readFileSync } from 'node:fs';
const B = new URL('../../build/src/', import.meta.url);
const T0 = performance.now();
const spec = JSON.parse(process.argv[2]);
const { workloads } = await import(new URL('workloads/index.js', B));
const { serializers } = await import(new URL('serializers/index.js', B));
const { unitView, unitsOf } = await import(new URL('workloads/unit.js', B));
const { caseIo, checkCase } = await import(new URL('measure/gate.js', B));
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
const gc = globalThis.gc ?? (() => {});

let slot;
let checksum = 0;
const sinkObj = { v: undefined };
const drain = () => {
  const v = slot ?? sinkObj.v;
  checksum = (checksum + (typeof v === 'string' ? v.length : v && v.length ? v.length : 1)) % 1e9;
  slot = undefined;
  sinkObj.v = undefined;
};
const te = new TextEncoder();
const wrap = (call, op) => {
  switch (op ?? 'dropped') {
    case 'dropped':
      return call;
    case 'kept':
      return call; // handled by the op: result stays in a ring of 2 (see makeOp)
    case 'flat':
      return (v) => {
        const s = call(v);
        s.charCodeAt(s.length >> 1);
        return s;
      };
    case 'utf8':
      return (v) => Buffer.from(call(v), 'utf8');
    case 'te':
      return (v) => te.encode(call(v));
    default:
      throw new Error(`op ${op}`);
  }
};
const keep = [undefined, undefined];
function makeOp(call, a, b, op) {
  if (spec.ownLoop && op !== 'kept') {
    // a loop body compiled per side (new Function): its own SharedFunctionInfo and feedback, so the
    // call site sees one target (monomorphic) instead of every side's (today's shared closure)
    const body =
      a.length === 1
        ? 'return function op(i) { sink.v = undefined; sink.v = call((i & 1) === 0 ? x : y); };'
        : 'return function op(i) { const xs = (i & 1) === 0 ? x : y; for (let j = 0; j < xs.length; j++) { sink.v = undefined; sink.v = call(xs[j]); } };';
    return new Function('call', 'x', 'y', 'sink', body)(
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

async function sides() {
  if (spec.kind === 'twice') {
    const w = await workloads.load('users');
    const text = readFileSync(spec.payloadPath, 'utf8');
    const mk = () => [JSON.parse(text)];
    const a = mk(),
      b = mk();
    return {
      s: makeOp(
        (v) => {
          JSON.stringify(v);
          return JSON.stringify(v);
        },
        a,
        b,
      ),
      b: makeOp((v) => JSON.stringify(v), a, b),
      prep: {},
    };
  }
  const w = unitView(await workloads.load(spec.workload), spec.shape);
  const text = readFileSync(spec.payloadPath, 'utf8');
  const out = { prep: {} };
  const ids =
    spec.kind === 'group' ? [['b', spec.baseline], ...spec.group.map((id) => [id, id])] : [['s', spec.serializer]];
  if (spec.baseline && spec.kind !== 'group') ids.push(['b', spec.baseline]);
  const mkIo = () =>
    caseIo(
      w,
      spec.direction,
      spec.caseClass ?? (spec.direction === 'serialize' ? 'serialize' : 'validate'),
      unitsOf(JSON.parse(text), spec.shape),
    );
  const ia = mkIo().inputs,
    ib = mkIo().inputs;
  for (const [side, id] of ids) {
    const t0 = performance.now();
    const adapter = await serializers.load(id);
    const t1 = performance.now();
    const prepared = await adapter.prepare(w, spec.direction);
    const t2 = performance.now();
    const call = spec.direction === 'serialize' ? prepared.serialize : prepared.deserialize;
    const io = mkIo();
    const f = checkCase(prepared, w, spec.direction, io);
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
function warmup(op, minMs, minOps = 200, maxMs = 3000) {
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
function pilot(op, targetMs) {
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
function sample(op, ops, thread) {
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
const sides_ = spec.kind === 'group' ? ['b', ...spec.group] : S.b ? ['s', 'b'] : ['s'];
const wu = {};
const ops = {};
for (const k of sides_) {
  wu[k] = warmup(S[k], spec.warmupMinMs ?? 500);
  ops[k] = pilot(S[k], spec.sampleTargetMs ?? 10);
}
const tWarm = performance.now();
const rounds = [];
const nS = spec.samplesPerRound ?? 5;
const budget = spec.timeBudgetMs ?? Infinity;
const tr0 = performance.now();
let gcCpuMs = 0;
const cpu0 = cpuNs();
const thr0a = (cpuNs(), thrNs());
for (let r = 0; r < (spec.rounds ?? 20); r++) {
  const rec = {};
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
    const xs = { wall: [], cpu: [], thr: [] };
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
let alloc;
if (spec.alloc) {
  const { measureAllocation } = await import(new URL('measure/allocation.js', B));
  const v8 = await import('node:v8');
  alloc = {};
  for (const k of sides_)
    alloc[k] = measureAllocation(v8, S[k], { allocWindows: 5, allocWindowMinMs: spec.allocWindowMinMs ?? 20 });
}
process.stdout.write(
  JSON.stringify({
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
  }) + '\n',
);
