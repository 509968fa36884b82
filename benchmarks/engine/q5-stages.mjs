// Q5: where a suite run's time goes, from the stage log the instrumented worker writes
// (JSONBENCH_STAGE_LOG) and the run's launches.partial.jsonl / results.
// node benchmarks/engine/q5-stages.mjs <stages.jsonl> <run dir> [total wall s]
import { readFileSync, existsSync } from 'node:fs';
const [stagesPath, runDir, totalS] = process.argv.slice(2);
const lines = readFileSync(stagesPath, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const byPid = new Map();
for (const l of lines) {
  if (!byPid.has(l.pid)) byPid.set(l.pid, []);
  byPid.get(l.pid).push(l);
}
const sum = {};
const cpuSum = {};
const add = (k, v, c = 0) => {
  sum[k] = (sum[k] ?? 0) + v;
  cpuSum[k] = (cpuSum[k] ?? 0) + c;
};
const count = { time: 0, alloc: 0, verify: 0 };
const perCase = new Map();
let ajvPrepare = 0;
for (const [, ev] of byPid) {
  const mode = ev[0].stage.split(' ')[1];
  count[mode] = (count[mode] ?? 0) + 1;
  const at = (re) => ev.find((e) => re.test(e.stage))?.ms;
  const start = ev[0].ms;
  add(`${mode}: boot + worker import (process start → job start)`, start, ev[0].cpuMs ?? 0);
  let prev = start;
  let prevCpu = ev[0].cpuMs ?? 0;
  for (const e of ev.slice(1)) {
    const name = e.stage
      .replace(/ (serializer|baseline)$/, '')
      .replace(/^rounds done.*/, 'rounds')
      .replace(/^prepared/, 'prepare()')
      .replace(/^gated/, 'gate')
      .replace(/^adapter loaded/, 'adapter import')
      .replace(/^workload loaded/, 'workload import + payload read');
    add(`${mode}: ${name}`, e.ms - prev, (e.cpuMs ?? 0) - prevCpu);
    prevCpu = e.cpuMs ?? 0;
    if (/^prepared/.test(e.stage) && /ajv-jtd/.test(ev[0].stage) && /serializer/.test(e.stage))
      ajvPrepare += e.ms - prev;
    prev = e.ms;
  }
}
const launchRecs = existsSync(`${runDir}/launches.partial.jsonl`)
  ? readFileSync(`${runDir}/launches.partial.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
  : [];
const timingElapsed = launchRecs.reduce((a, l) => a + l.record.elapsedMs, 0);
const total = Object.values(sum).reduce((a, b) => a + b, 0);
console.log(
  `launches by mode: ${JSON.stringify(count)}; stage time inside workers ${(total / 1000).toFixed(1)} s; timing launches' host-side elapsed ${(timingElapsed / 1000).toFixed(1)} s${totalS ? `; run wall ${totalS} s` : ''}`,
);
console.log('| stage | total wall s | share of worker wall | per launch ms | total CPU s | CPU per launch ms |');
console.log('|---|---|---|---|---|---|');
for (const [k, v] of Object.entries(sum).sort((a, b) => b[1] - a[1])) {
  const mode = k.split(':')[0];
  console.log(
    `| ${k} | ${(v / 1000).toFixed(1)} | ${((100 * v) / total).toFixed(1)}% | ${(v / count[mode]).toFixed(0)} | ${(cpuSum[k] / 1000).toFixed(1)} | ${(cpuSum[k] / count[mode]).toFixed(0)} |`,
  );
}
console.log(
  `ajv-jtd prepare() total ${(ajvPrepare / 1000).toFixed(1)} s wall; CPU in all stages ${(Object.values(cpuSum).reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s`,
);
