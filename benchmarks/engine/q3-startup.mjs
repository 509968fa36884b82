// Q3: worker start-up per target: spawn → `hello` (runtime booted, worker module graph loaded) and
// spawn → `done` of a verify job (workload + adapter imported, prepare(), the gate on 2 payloads),
// for node (compiled, unbundled: today's host worker), node with the node bundle, node with a
// bundle without faker (payloads are made by the host), node@22, bun, deno.
// node benchmarks/engine/q3-startup.mjs [--reps 5] [--case weather-station/1/single/serialize/json]
import { parseArgs } from 'node:util';
import { mkdirSync, statSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { median, load, payload } from './lib.mjs';
const B = (p) => new URL(`../../build/src/${p}`, import.meta.url);
const { launchCommand, workerEntry } = await import(B('run/launch.js'));
const { parseTargets } = await import(B('runtimes/index.js'));
const { prepareTargets } = await import(B('runtimes/prepare.js'));
const { defaultCacheDir } = await import(B('runtimes/cache.js'));
const { values } = parseArgs({
  options: {
    reps: { type: 'string', default: '5' },
    cases: {
      type: 'string',
      default:
        'weather-station/1/single/serialize/json,users/10000/list/serialize/ajv-jtd,users/10000/list/deserialize/ajv-jtd,users/10000/list/serialize/fast-json-stringify,weather-station/1/single/deserialize/typia',
    },
    targets: { type: 'string', default: 'node,node-bundle,node-nofaker,node@22,bun,deno' },
  },
});
const dir = '/tmp/engine-startup';
mkdirSync(dir, { recursive: true });

// A bundle of the node worker with @faker-js/faker replaced by a stub (the worker never builds payloads).
async function noFakerBundle() {
  const esbuild = await import('esbuild');
  const outfile = join(dir, 'worker-node-nofaker.mjs');
  await esbuild.build({
    entryPoints: [workerEntry],
    outfile,
    bundle: true,
    target: 'es2022',
    logLevel: 'error',
    legalComments: 'none',
    platform: 'node',
    format: 'esm',
    banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" },
    plugins: [
      {
        name: 'no-faker',
        setup(b) {
          b.onResolve({ filter: /^@faker-js\/faker/ }, () => ({ path: 'faker', namespace: 'stub' }));
          b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
            contents:
              "export const faker = new Proxy({}, { get() { throw new Error('faker is not in the worker bundle: payloads are made by the host'); } });",
            loader: 'js',
          }));
        },
      },
    ],
  });
  return outfile;
}
const cmds = {};
const wanted = values.targets.split(',');
cmds.node = { command: process.execPath, args: ['--expose-gc', workerEntry], channel: 'fd3' };
const others = wanted.filter((t) => ['node@22', 'bun', 'deno'].includes(t));
const prepared = await prepareTargets(
  parseTargets(['node', ...others]),
  { cacheDir: defaultCacheDir(), bundleDir: dir, payloadPaths: [] },
  (l) => console.error(l),
);
const { bundleWorker } = await import(B('runtimes/bundle.js'));
const nb = await bundleWorker('node', dir);
cmds['node-bundle'] = { command: process.execPath, args: ['--expose-gc', nb.path], channel: 'fd3' };
const nf = await noFakerBundle();
cmds['node-nofaker'] = { command: process.execPath, args: ['--expose-gc', nf], channel: 'fd3' };
console.error(
  `bundle ${(nb.bytes / 2 ** 20).toFixed(2)} MiB, without faker ${(statSync(nf).size / 2 ** 20).toFixed(2)} MiB`,
);
for (const info of prepared.infos)
  if (info.id !== 'node')
    cmds[info.id] = {
      command: info.probe.executable,
      args: [...info.flags, nb.path],
      channel: info.runtime === 'deno' ? 'stdout' : 'fd3',
    };

const policy = (await import(B('config/policies.js'))).policies.quick.measure;
console.log(`load before ${load()}`);
const stageLog = join(dir, 'stages.jsonl');
for (const c of Object.values(cmds)) c.env = { ...process.env, JSONBENCH_STAGE_LOG: stageLog };
const stagesOf = () => {
  if (!existsSync(stageLog)) return [];
  const xs = readFileSync(stageLog, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  rmSync(stageLog);
  return xs;
};
console.log(
  '| target | case | hello ms (host wall) | verify done ms (host wall) | exit ms | CPU ms at job start (boot + worker import) | CPU ms to gated (+ workload, adapter import, prepare, gate) |',
);
console.log('|---|---|---|---|---|---|---|');
for (const c of values.cases.split(',')) {
  const [workload, size, shape, direction, serializer] = c.split('/');
  const path = await payload(workload, Number(size));
  const caseClass = direction === 'serialize' ? 'serialize' : serializer === 'json' ? 'parse' : 'validate';
  const job = {
    mode: 'verify',
    workload,
    size: Number(size),
    shape,
    direction,
    caseClass,
    serializer,
    payloadPath: path,
    policy,
  };
  for (const t of wanted) {
    if (!cmds[t]) {
      console.log(`| ${t} | ${c} | not available | | |`);
      continue;
    }
    const hello = [],
      done = [],
      exit = [],
      cpuStart = [],
      cpuReady = [];
    let err;
    for (let r = 0; r < Number(values.reps); r++) {
      const t0 = performance.now();
      let th, td;
      const o = await launchCommand(cmds[t], job, 60_000, (m) => {
        if (m.type === 'hello') th = performance.now() - t0;
        if (m.type === 'done') td = performance.now() - t0;
      });
      const bad = o.messages.find((m) => m.type === 'error' || m.type === 'incorrect');
      if (bad) err = bad.message ?? bad.reason;
      hello.push(th);
      done.push(td);
      exit.push(o.elapsedMs);
      const st = stagesOf();
      if (st.length) {
        cpuStart.push(st[0].cpuMs);
        cpuReady.push(st[st.length - 1].cpuMs);
      }
    }
    console.log(
      `| ${t} | ${c} | ${median(hello).toFixed(0)} | ${err ? `error: ${err}` : median(done).toFixed(0)} | ${median(exit).toFixed(0)} | ${cpuStart.length ? median(cpuStart).toFixed(0) : '—'} | ${cpuReady.length ? median(cpuReady).toFixed(0) : '—'} |`,
    );
  }
}
console.log(`load after ${load()}`);
await prepared.close();
