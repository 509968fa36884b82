// Prototype engine driver: runs the seed suite (a policy's plan) with the prototype worker, one
// process per group launch (or per pair with --scheme pair), N launches plus an adaptive extra
// launch for serializers whose launches disagree, and prints where the time went.
// node benchmarks/engine/proto-suite.mjs --policy quick|default [--scheme group|pair] [--launches 1|2]
//   [--third 0.02] [--gc minor|full|none] [--out /tmp/proto.jsonl] [--workload a,b] [--busy 0]
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { appendFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, load, busyLoops } from './lib.mjs';
const B = (p) => new URL(`../../build/src/${p}`, import.meta.url);
const { workloads } = await import(B('workloads/index.js'));
const { serializers } = await import(B('serializers/index.js'));
const { planCases } = await import(B('plan/plan.js'));
const { policies } = await import(B('config/policies.js'));
const { writePayload } = await import(B('plan/payloads.js'));
const workerPath = fileURLToPath(new URL('./proto-worker.mjs', import.meta.url));
const { values } = parseArgs({
  options: {
    policy: { type: 'string', default: 'quick' },
    scheme: { type: 'string', default: 'group' },
    launches: { type: 'string' },
    third: { type: 'string', default: '0.02' },
    gc: { type: 'string', default: 'minor' },
    out: { type: 'string', default: '/tmp/engine-proto.jsonl' },
    workload: { type: 'string' },
    busy: { type: 'string', default: '0' },
    tag: { type: 'string', default: '' },
    cap: { type: 'string' },
    se: { type: 'string' },
    trim: { type: 'boolean', default: false },
    sizes: { type: 'string' },
  },
});
const POLICY = {
  quick: {
    launches: 1,
    measure: {
      warmupMinOps: 50,
      warmupMinMs: 50,
      warmupMaxMs: 400,
      sampleTargetMs: 2.5,
      samplesPerRound: 3,
      minRounds: 5,
      maxRounds: 40,
      cpuCapMs: 300,
      targetSe: 0.01,
      allocWindows: 3,
      allocWindowMinMs: 5,
    },
  },
  default: {
    launches: 2,
    measure: {
      warmupMinOps: 100,
      warmupMinMs: 100,
      warmupMaxMs: 1000,
      sampleTargetMs: 2.5,
      samplesPerRound: 4,
      minRounds: 6,
      maxRounds: 60,
      cpuCapMs: 1500,
      targetSe: 0.005,
      allocWindows: 5,
      allocWindowMinMs: 10,
    },
  },
}[values.policy];
if (values.cap) POLICY.measure.cpuCapMs = Number(values.cap);
if (values.se) POLICY.measure.targetSe = Number(values.se);
// --trim: warmup of a slow op (≥ 5 ms) stops after 5 ops; allocation and the full gate only in a
// group's first launch (later launches would compare an output hash: a few ms, not counted here)
if (values.trim) Object.assign(POLICY.measure, { slowOpMs: 5, slowOpMinOps: 5, warmupMaxMs: 500 });
const launches = Number(values.launches ?? POLICY.launches);
const t0 = performance.now();
const stopBusy = busyLoops(Number(values.busy));
const all = await serializers.loadAll();
const wl = (await workloads.loadAll()).filter((w) => !values.workload || values.workload.split(',').includes(w.id));
const groups = planCases(
  {
    workloads: wl,
    serializers: all,
    directions: ['serialize', 'deserialize'],
    policy: policies[values.policy],
    ...(values.sizes ? { sizes: values.sizes.split(',').map(Number) } : {}),
  },
  all,
)
  .map((g) => g.filter((c) => !c.unsupported && !c.fault))
  .filter((g) => g.length && g[0].baseline);
const dir = `/tmp/engine-proto-payloads`;
mkdirSync(dir, { recursive: true });
const payloads = new Map();
for (const w of wl)
  for (const size of new Set(groups.filter((g) => g[0].workload === w.id).map((g) => g[0].size)))
    payloads.set(`${w.id}-${size}`, writePayload(dir, w, size, 42).path);
const tPlan = performance.now();
const l0 = load();
const stageSum = {};
let nLaunch = 0,
  nThird = 0,
  launchWall = 0;
const results = [];
function launch(g, sers, order, first = true) {
  const c = g[0];
  const job = {
    workload: c.workload,
    size: c.size,
    shape: c.shape,
    direction: c.direction,
    caseClass: c.caseClass,
    baseline: c.baseline,
    serializers: sers,
    order,
    payloadPath: payloads.get(c.payloadKey),
    policy: { ...POLICY.measure, gc: values.gc },
    alloc: !values.trim || first,
    gate: !values.trim || first,
  };
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--expose-gc', workerPath, JSON.stringify(job)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    timeout: 300_000,
  });
  const ms = performance.now() - t;
  launchWall += ms;
  nLaunch++;
  if (r.status !== 0) return { error: r.stderr.slice(-500), ms };
  const o = JSON.parse(r.stdout.trim().split('\n').pop());
  for (const [name, w, cpu] of o.stages ?? []) {
    stageSum[name] ??= [0, 0];
    stageSum[name][0] += w;
    stageSum[name][1] += cpu;
  }
  stageSum['exit+spawn (host view − worker)'] ??= [0, 0];
  stageSum['exit+spawn (host view − worker)'][0] += ms - (o.stages ?? []).reduce((a, s) => a + s[1], 0);
  return { ...o, ms };
}
for (const g of groups) {
  const c = g[0];
  const sers = g.filter((x) => x.serializer !== x.baseline).map((x) => x.serializer);
  const key = `${c.workload}/${c.size}/${c.shape}/${c.direction}/${c.caseClass}`;
  const runs = [];
  const units = values.scheme === 'pair' ? (sers.length ? sers.map((s) => [s]) : [[]]) : [sers];
  for (let l = 0; l < launches; l++)
    for (const u of units) runs.push(launch(g, u, l % 2 ? 'reverse' : 'forward', l === 0));
  const ratioOf = (id) => runs.filter((o) => o.sides?.[id]?.ratio).map((o) => o.sides[id].ratio);
  // adaptive third launch: serializers whose two launch ratios differ by more than --third (relative)
  if (launches >= 2 && Number(values.third) > 0) {
    const disagree = sers.filter((id) => {
      const rs = ratioOf(id);
      return rs.length === 2 && Math.abs(rs[0] - rs[1]) / ((rs[0] + rs[1]) / 2) > Number(values.third);
    });
    if (disagree.length) {
      nThird++;
      const us = values.scheme === 'pair' ? disagree.map((s) => [s]) : [disagree];
      for (const u of us) runs.push({ ...launch(g, u, 'forward', false), third: true });
    }
  }
  const rec = {
    key,
    sers,
    baseline: c.baseline,
    ratios: Object.fromEntries(sers.map((id) => [id, ratioOf(id)])),
    final: Object.fromEntries(sers.map((id) => [id, median(ratioOf(id))])),
    launches: runs.map((o) => ({
      ms: o.ms,
      rounds: o.rounds,
      stop: o.stop,
      error: o.error,
      failed: o.failed,
      third: o.third,
      sides:
        o.sides &&
        Object.fromEntries(
          Object.entries(o.sides).map(([id, s]) => [
            id,
            {
              ratio: s.ratio,
              se: s.se,
              cpuNs: s.cpuNs,
              wallNs: s.wallNs,
              ops: s.ops,
              spr: s.spr,
              cold: s.cold,
              alloc: s.alloc?.bytesPerOp,
            },
          ]),
        ),
    })),
  };
  appendFileSync(
    values.out,
    JSON.stringify({ tag: values.tag, policy: values.policy, scheme: values.scheme, gc: values.gc, ...rec }) + '\n',
  );
  process.stderr.write(
    `${key} ${runs.length} launch(es) ${(runs.reduce((a, o) => a + o.ms, 0) / 1000).toFixed(1)} s ${runs.map((o) => o.stop ?? 'err').join(',')} ${sers.map((id) => `${id} ${rec.final[id]?.toFixed(3)}`).join(' ')}\n`,
  );
}
stopBusy();
const total = performance.now() - t0;
console.log(
  `proto ${values.policy} scheme ${values.scheme} gc ${values.gc} launches ${launches}${launches >= 2 ? ` (+ third above ${values.third})` : ''}: ${groups.length} groups, ${groups.flat().length} measured cases, ${nLaunch} worker launches (${nThird} groups needed a third); total ${(total / 1000).toFixed(1)} s (plan + payloads ${((tPlan - t0) / 1000).toFixed(1)} s, launches ${(launchWall / 1000).toFixed(1)} s); load ${l0} → ${load()}`,
);
console.log('| stage | wall s | CPU s | share of launch wall |');
console.log('|---|---|---|---|');
for (const [k, [w, c]] of Object.entries(stageSum))
  console.log(
    `| ${k} | ${(w / 1000).toFixed(1)} | ${(c / 1000).toFixed(1)} | ${((100 * w) / launchWall).toFixed(1)}% |`,
  );
