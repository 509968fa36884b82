/**
 * The JavaScript side of issue 12's method question (studies/gc-before-sides/dotnet-gc-study.ts is the .NET side):
 * does the forced full GC before each side of a round bias the ratio of allocation-heavy
 * serializers on a large payload in the JavaScript worker too? users/10000 list serialize,
 * fast-json-stringify (and typia) ÷ JSON.stringify, each variant in its own process (`--expose-gc`),
 * interleaved launch by launch:
 *   - `side`: `gc()` before each side (the JavaScript worker's method, src/measure/timing.ts);
 *   - `side+settle`: the same, then one untimed sample;
 *   - `none+long`: no forced GC, 100 ms samples;
 *   - `reference`: no forced GC, 500 ms samples (each spans many scavenges): the steady state.
 * Warmup and pilot are the worker's own (measure/timing.ts); the rounds are written here so the
 * rules can differ. Per sample: wall (performance.now) and process CPU (process.cpuUsage, user +
 * system: V8's helper threads included). The ratio is the lab's: median of per-round ratios of
 * medians. This is a study: the engine (issue 13) owns the JavaScript worker's method.
 *   node build/studies/gc-before-sides/js-gc-study.js [--launches 3] [--variants side,side+settle,none+long,reference] [--serializers fast-json-stringify]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { helpRequested } from '../lib/lib.js';
import { policies } from '../../src/config/policies.js';
import { writePayload } from '../../src/plan/payloads.js';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { prepareCase } from '../../src/measure/prepare-case.js';
import { makeOp, type Op } from '../../src/measure/sink.js';
import { pilot, runSample, warmup } from '../../src/measure/timing.js';
import { medianOf } from '../../src/stats/estimate.js';
import { readFileSync } from 'node:fs';

const VARIANTS: Record<
  string,
  { gc: 'side' | 'none'; settle: number; sampleTargetMs: number; samplesPerRound: number; capMs: number }
> = {
  side: { gc: 'side', settle: 0, sampleTargetMs: 10, samplesPerRound: 5, capMs: 3000 },
  'side+settle': { gc: 'side', settle: 1, sampleTargetMs: 10, samplesPerRound: 5, capMs: 3000 },
  'none+long': { gc: 'none', settle: 0, sampleTargetMs: 100, samplesPerRound: 5, capMs: 3000 },
  reference: { gc: 'none', settle: 0, sampleTargetMs: 500, samplesPerRound: 2, capMs: 8000 },
};

interface ChildResult {
  wall: number;
  cpu: number;
  rounds: number;
  sMs: number;
  bMs: number;
  sCpuMs: number;
  bCpuMs: number;
  first: number;
}

async function child(variantName: string, serializerId: string, payloadPath: string): Promise<void> {
  const v = VARIANTS[variantName];
  const gc = (globalThis as { gc?: () => void }).gc!;
  const w = await workloads.load('users');
  const text = readFileSync(payloadPath, 'utf8');
  const c = { shape: 'list' as const, direction: 'serialize' as const, caseClass: 'serialize' as const };
  const sides = await Promise.all(
    [serializerId, 'json'].map(async (id) => prepareCase(await serializers.load(id), w, c)),
  );
  const inputsA = sides[0].inputs(text);
  const inputsB = sides[0].inputs(text);
  const ops: Op[] = sides.map((s) => makeOp(s.call, inputsA, inputsB));
  const policy = { ...policies.default.measure, sampleTargetMs: v.sampleTargetMs };
  for (const op of ops) warmup(op, policy);
  const perSample = ops.map((op) => pilot(op, policy));
  const cpuNow = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) * 1e3;
  };
  const sample = (k: number) => {
    const c0 = cpuNow();
    const wallNs = runSample(ops[k], perSample[k]);
    return { wallNs, cpuNs: (cpuNow() - c0) / perSample[k] };
  };
  const rounds: { s: { wallNs: number; cpuNs: number }[]; b: { wallNs: number; cpuNs: number }[] }[] = [];
  const start = performance.now();
  const side = (k: number) => {
    if (v.gc === 'side') gc();
    for (let i = 0; i < v.settle; i++) sample(k);
    const xs = [];
    let spent = 0;
    while (xs.length < v.samplesPerRound) {
      const x = sample(k);
      xs.push(x);
      spent += (x.wallNs * perSample[k]) / 1e6;
      if (perSample[k] === 1 && spent >= v.samplesPerRound * v.sampleTargetMs) break;
    }
    return xs;
  };
  for (let r = 0; r < 200; r++) {
    const round =
      r % 2 === 0
        ? { s: side(0), b: side(1) }
        : (() => {
            const b = side(1);
            return { s: side(0), b };
          })();
    rounds.push(round);
    if (r + 1 >= 4 && performance.now() - start >= v.capMs) break;
  }
  const ratio = (f: (x: { wallNs: number; cpuNs: number }) => number) =>
    medianOf(rounds.map((r) => medianOf(r.s.map(f)) / medianOf(r.b.map(f))));
  const all = (k: 's' | 'b', f: (x: { wallNs: number; cpuNs: number }) => number) =>
    medianOf(rounds.flatMap((r) => r[k].map(f))) / 1e6;
  const firsts = rounds
    .filter((r) => r.s.length >= 2)
    .map((r) => r.s[0].wallNs / medianOf(r.s.slice(1).map((x) => x.wallNs)));
  const out: ChildResult = {
    wall: ratio((x) => x.wallNs),
    cpu: ratio((x) => x.cpuNs),
    rounds: rounds.length,
    sMs: all('s', (x) => x.wallNs),
    bMs: all('b', (x) => x.wallNs),
    sCpuMs: all('s', (x) => x.cpuNs),
    bCpuMs: all('b', (x) => x.cpuNs),
    first: firsts.length ? medianOf(firsts) : NaN,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}

function runChild(variant: string, serializer: string, payloadPath: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      [
        '--expose-gc',
        fileURLToPath(import.meta.url),
        '--child',
        variant,
        '--serializers',
        serializer,
        '--payload',
        payloadPath,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildResult)
        : reject(new Error(`child exited ${code}`)),
    );
  });
}

helpRequested(
  `node build/studies/gc-before-sides/js-gc-study.js [--launches 3] [--variants side,side+settle,none+long,reference] [--serializers fast-json-stringify]`,
);
const { values } = parseArgs({
  options: {
    child: { type: 'string' },
    payload: { type: 'string' },
    launches: { type: 'string', default: '3' },
    variants: { type: 'string', default: 'side,side+settle,none+long,reference' },
    serializers: { type: 'string', default: 'fast-json-stringify' },
  },
});
if (values.child) {
  await child(values.child, values.serializers!, values.payload!);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-js-gc-'));
  const payload = await writePayload(dir, await workloads.load('users'), 10000, 42);
  const started = performance.now();
  console.log(
    `# users/10000 list serialize, ÷ JSON.stringify; Node ${process.versions.node}; ${values.launches} launches per variant, interleaved; load at start ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const rows: string[] = [];
  for (const serializer of values.serializers!.split(',')) {
    const got: Record<string, (ChildResult & { load: number })[]> = {};
    for (let k = 0; k < Number(values.launches); k++) {
      for (const variant of values.variants!.split(',')) {
        const load = loadavg()[0];
        const r = await runChild(variant, serializer, payload.path);
        (got[variant] ??= []).push({ ...r, load });
        console.log(
          `${serializer} ${variant} #${k + 1}: wall ${r.wall.toFixed(3)} cpu ${r.cpu.toFixed(3)} (${r.sMs.toFixed(2)} / ${r.bMs.toFixed(2)} ms wall, ${r.sCpuMs.toFixed(2)} / ${r.bCpuMs.toFixed(2)} ms CPU), ${r.rounds} rounds, first sample ÷ later ${r.first.toFixed(2)}, load ${load.toFixed(2)}`,
        );
      }
    }
    const range = (xs: number[]) =>
      `${medianOf(xs).toFixed(2)} [${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}]`;
    rows.push(`| ${serializer} ÷ json | | | | | | |`);
    for (const [variant, g] of Object.entries(got)) {
      rows.push(
        `| ${variant} | ${range(g.map((x) => x.wall))} | ${range(g.map((x) => x.cpu))} | ${medianOf(g.map((x) => x.sCpuMs)).toFixed(2)} / ${medianOf(g.map((x) => x.bCpuMs)).toFixed(2)} | ${medianOf(g.map((x) => x.first)).toFixed(2)} | ${medianOf(g.map((x) => x.rounds))} | ${range(g.map((x) => x.load))} |`,
      );
    }
  }
  console.log(
    [
      '',
      '| rule | ratio wall, median [range] | ratio process CPU | median CPU ms/op (serializer / json) | first sample after GC ÷ later (serializer) | rounds | load |',
      '|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
  console.log(
    `\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s; load at end ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
