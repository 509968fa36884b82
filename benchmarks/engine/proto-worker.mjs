// Prototype engine worker (issue 13 study; not the lab's worker). One process measures one group:
// its baseline and serializers of one class on one payload, in rounds, by the process CPU clock,
// stopping when every serializer's ratio is known; then allocation windows in the same process.
// node --expose-gc proto-worker.mjs '<json job>'  → one JSON line on stdout.
// job: { workload, size, shape, direction, caseClass, baseline, serializers: [ids, baseline excluded],
//        order?: 'forward'|'reverse', payloadPath, policy: { warmupMinOps, warmupMinMs, warmupMaxMs,
//        sampleTargetMs, samplesPerRound, minRounds, maxRounds, cpuCapMs, targetSe, gc }, alloc: bool }
import { readFileSync, appendFileSync } from 'node:fs';
const T0 = performance.now();
const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
};
const C0 = cpuNs();
const job = JSON.parse(process.argv[2]);
const P = job.policy;
const stages = []; // [name, wall ms, cpu ms] since the previous mark
let lastW = 0,
  lastC = 0; // the first mark counts from process start (performance.now() origin, process CPU from 0)
const mark = (name) => {
  const w = performance.now(),
    c = cpuNs();
  stages.push([name, w - lastW, (c - lastC) / 1e6]);
  lastW = w;
  lastC = c;
};
const B = new URL('../../build/src/', import.meta.url);
const { workloads } = await import(new URL('workloads/index.js', B));
const { serializers } = await import(new URL('serializers/index.js', B));
const { unitView, unitsOf } = await import(new URL('workloads/unit.js', B));
const { caseIo, checkCase } = await import(new URL('measure/gate.js', B));
const { variantPathOf } = await import(new URL('worker/protocol.js', B));
mark('boot+lab import');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const madSe = (xs) => {
  const m = median(xs);
  return (1.4826 * median(xs.map((x) => Math.abs(x - m))) * 1.2533) / Math.sqrt(xs.length) / m;
};
const gc = globalThis.gc ?? (() => {});
const gcBetween = () => {
  if (P.gc === 'full') gc();
  else if (P.gc === 'minor') gc({ type: 'minor' });
};

const w = unitView(await workloads.load(job.workload), job.shape);
const texts = [readFileSync(job.payloadPath, 'utf8'), readFileSync(variantPathOf(job.payloadPath), 'utf8')];
const io = () => caseIo(w, job.direction, job.caseClass, unitsOf(JSON.parse(texts[0]), job.shape));
const inA = io().inputs,
  inB = io().inputs;
mark('workload');

const sink = { v: undefined };
let checksum = 0;
const drain = () => {
  const v = sink.v;
  checksum = (checksum + (typeof v === 'string' ? v.length : 1)) % 1e9;
  sink.v = undefined;
};
/** A loop compiled per side (its own feedback: a monomorphic call site). */
const makeOp = (call) =>
  new Function(
    'call',
    'x',
    'y',
    'sink',
    inA.length === 1
      ? 'return function op(i) { sink.v = undefined; sink.v = call((i & 1) === 0 ? x : y); };'
      : 'return function op(i) { const xs = (i & 1) === 0 ? x : y; for (let j = 0; j < xs.length; j++) { sink.v = undefined; sink.v = call(xs[j]); } };',
  )(call, inA.length === 1 ? inA[0] : inA, inA.length === 1 ? inB[0] : inB, sink);

let ids = [job.baseline, ...job.serializers];
if (job.order === 'reverse') ids = [job.baseline, ...[...job.serializers].reverse()];
const sides = {};
const failed = {};
for (const id of ids) {
  // cold start of this side: import, prepare(), first call (each CPU and wall)
  try {
    const w0 = performance.now(),
      c0 = cpuNs();
    const adapter = await serializers.load(id);
    const w1 = performance.now(),
      c1 = cpuNs();
    const prepared = await adapter.prepare(w, job.direction);
    const w2 = performance.now(),
      c2 = cpuNs();
    const fn = job.direction === 'serialize' ? prepared.serialize : prepared.deserialize;
    const call = (x) => fn.call(prepared, x);
    const first = io().inputs;
    const w3 = performance.now(),
      c3 = cpuNs();
    for (const x of first) sink.v = call(x);
    const w4 = performance.now(),
      c4 = cpuNs();
    drain();
    if (job.gate !== false)
      for (const text of texts) {
        const f = checkCase(
          prepared,
          w,
          job.direction,
          caseIo(w, job.direction, job.caseClass, unitsOf(JSON.parse(text), job.shape)),
        );
        if (f) throw new Error(`incorrect: ${f.reason} at ${f.path}`);
      }
    sides[id] = {
      op: makeOp(call),
      cold: {
        importMs: w1 - w0,
        importCpuMs: (c1 - c0) / 1e6,
        prepareMs: w2 - w1,
        prepareCpuMs: (c2 - c1) / 1e6,
        firstCallMs: w4 - w3,
        firstCallCpuMs: (c4 - c3) / 1e6,
      },
    };
  } catch (e) {
    failed[id] = String(e?.message ?? e).slice(0, 300);
  }
}
mark('import+prepare+gate');
if (failed[job.baseline]) {
  process.stdout.write(JSON.stringify({ failed }) + '\n');
  process.exit(0);
}
ids = ids.filter((id) => sides[id]);

// warmup (CPU clock, read about every 0.5 ms): ≥ warmupMinOps ops and ≥ warmupMinMs, at most warmupMaxMs
for (const id of ids) {
  const op = sides[id].op;
  const t = cpuNs();
  let n = 0,
    next = 1;
  for (;;) {
    op(n++);
    if (n < next) continue;
    const ms = (cpuNs() - t) / 1e6;
    // a slow op (≥ slowOpMs) needs only a few ops: V8 tiers up on loop back-edges and calls inside one op
    if (
      (n >= P.warmupMinOps && ms >= P.warmupMinMs) ||
      ms >= P.warmupMaxMs ||
      (P.slowOpMs && n >= (P.slowOpMinOps ?? 5) && ms >= P.warmupMinMs && ms / n >= P.slowOpMs)
    )
      break;
    next = n + Math.max(1, Math.floor(0.5 / Math.max(ms / n, 1e-6)));
  }
  drain();
  sides[id].warmupOps = n;
}
mark('warmup');
// empty sample: CPU cost of the two clock reads, subtracted from every sample
const emptyCpu = [];
for (let k = 0; k < 15; k++) {
  const c = cpuNs();
  emptyCpu.push(cpuNs() - c);
}
const clockNs = median(emptyCpu);
const sample = (op, ops) => {
  const w0 = performance.now(),
    c0 = cpuNs();
  for (let i = 0; i < ops; i++) op(i);
  const c1 = cpuNs(),
    w1 = performance.now();
  drain();
  return [(c1 - c0 - clockNs) / ops, ((w1 - w0) * 1e6) / ops];
};
for (const id of ids) {
  let ops = 1;
  for (;;) {
    const [ns] = sample(sides[id].op, ops);
    const ms = (ns * ops) / 1e6;
    if (ms >= P.sampleTargetMs || ops >= 1 << 30) break;
    ops = ms > 0.3 ? Math.max(ops + 1, Math.ceil((ops * P.sampleTargetMs * 1.1) / ms)) : ops * 4;
  }
  sides[id].ops = ops;
  // a slow op (one op ≥ the sample target) takes one sample per round
  sides[id].spr = ops === 1 ? 1 : P.samplesPerRound;
  sides[id].cpu = [];
  sides[id].wall = [];
  sides[id].ratios = [];
}
mark('pilot');
const rounds0 = cpuNs();
let r = 0,
  stop = 'cap';
for (; r < P.maxRounds; r++) {
  const order = r % 2 === 0 ? ids : [...ids].reverse();
  const med = {};
  for (const id of order) {
    gcBetween();
    const s = sides[id];
    const xs = [];
    for (let k = 0; k < s.spr; k++) {
      const [c, wl] = sample(s.op, s.ops);
      xs.push(c);
      s.cpu.push(c);
      s.wall.push(wl);
    }
    med[id] = median(xs);
  }
  for (const id of ids.slice(1)) sides[id].ratios.push(med[id] / med[job.baseline]);
  if (r + 1 >= P.minRounds && ids.slice(1).every((id) => madSe(sides[id].ratios) <= P.targetSe)) {
    stop = 'precise';
    r++;
    break;
  }
  if ((cpuNs() - rounds0) / 1e6 >= P.cpuCapMs) {
    r++;
    break;
  }
}
mark('rounds');
let alloc = {};
if (job.alloc) {
  const { measureAllocation } = await import(new URL('measure/allocation.js', B));
  const v8 = await import('node:v8');
  for (const id of ids) {
    const a = measureAllocation(v8, sides[id].op, {
      allocWindows: P.allocWindows ?? 5,
      allocWindowMinMs: P.allocWindowMinMs ?? 10,
    });
    alloc[id] = { bytesPerOp: median(a.windowsBytesPerOp), windows: a.windowsBytesPerOp, gcPerOp: a.gcPerOp };
  }
}
mark('alloc');
const out = {
  rounds: r,
  stop,
  clockNs,
  failed,
  stages,
  load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0],
  sides: {},
};
for (const id of ids) {
  const s = sides[id];
  out.sides[id] = {
    cold: s.cold,
    warmupOps: s.warmupOps,
    ops: s.ops,
    spr: s.spr,
    cpuNs: median(s.cpu),
    wallNs: median(s.wall),
    ...(id === job.baseline ? {} : { ratio: median(s.ratios), se: madSe(s.ratios), ratios: s.ratios }),
    alloc: alloc[id],
  };
}
process.stdout.write(JSON.stringify(out) + '\n');
