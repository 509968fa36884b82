/**
 * `npm run bench:consumer`: what a consumer pays for serialize, next to what the candidate
 * serialize ops report (issue 13, section 4).
 *
 * For each runtime (`--runtimes`, default the host's node and node@22 when installed) and
 * workload (`--cases`, default users/10000, orders/10000, weather-station): one `node:http`
 * server process with a route per serializer (consumer-child.ts `serve`: `res.end(serialize(value))`
 * on 127.0.0.1), each route warmed up, then `--windows` windows in alternating order; in each window
 * the client (this process, `node:http` with a keep-alive agent, `--concurrency` requests in
 * flight) sends a fixed number of requests to one route and reads the server's CPU time
 * (process.cpuUsage, user + system) before and after: CPU ns per request. The consumer ratio is
 * the median over windows of serializer ÷ json in the same cycle; the difference is the median of
 * serializer − json per request. `--reps` fresh process sets. Then each serializer's candidate
 * ops are measured in-process against json (consumer-child.ts `ops`, CPU clock) in `--reps`
 * processes (the op's ratio is the median of theirs, as the engine's default policy reports a case
 * from two launches). The table gives, with standard errors (consumer-analysis.ts), the consumer's
 * ratio and difference and the ops', and issue 13's two verdicts for the default op (bytes): its
 * ratio within 10% of the consumer's, and its difference in µs per request within the errors of
 * the consumer's (the comparable figure where the server's own work dilutes the ratio).
 *
 * Flags: --runtimes node,node@22 --cases users/10000/list,orders/10000/list,weather-station/1/single
 * --serializers fast-json-stringify,typia,ajv-jtd --reps 2 --windows 12 --concurrency 1
 * (`json#2` adds a second json server: the A/A control, whose ratio should read 1)
 * --ops string,flat,utf8,textencoder (which candidate ops; utf8 and string are required)
 * --gc-at-mark (the server runs a full GC before each CPU reading, so a window pays for its own
 * garbage, not the previous route's; off by default: on Node 20, users/10000, load 10–14 it added
 * ~6 ms of forced GC to json's ~24 ms per request, diluting every ratio toward 1, and the A/A control
 * still read 0.97 and 1.05 in two server processes) --window-ms 300 (server CPU per window) --out <dir> (JSON of every number, consumer.json, written
 * after each case; default a temp dir); --from <consumer.json> prints a finished run's tables again
 * (no measuring).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { workloads } from '../src/workloads/index.js';
import { writePayload } from '../src/plan/payloads.js';
import { parseTargets } from '../src/runtimes/index.js';
import { prepareTargets } from '../src/runtimes/prepare.js';
import { defaultCacheDir } from '../src/runtimes/cache.js';
import type { Shape } from '../src/case/coordinates.js';
import { OPS, type ConsumerJob, type OpFigures, type SerializeOp } from './consumer-child.js';
import { consumerFigures, differencesAgree, opDifference, ratioWithin, repsEstimate, type Estimate } from './consumer-analysis.js';

const childEntry = fileURLToPath(new URL('./consumer-child.js', import.meta.url));
const log = (s: string) => process.stdout.write(s + '\n');
const median = (xs: readonly number[]) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Server { child: ChildProcess; port: number }

/** Starts the server child (every serializer of the job on its own route); resolves with its port once it listens. @throws Error when it dies first */
function startServer(node: string, jobPath: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['--expose-gc', childEntry, 'serve', jobPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve({ child, port: (JSON.parse(line) as { port: number }).port }));
    child.once('exit', (code) => reject(new Error(`server exited with code ${code} before listening`)));
  });
}

/** GET path from the server; resolves with the body (as text only for /mark). */
function get(agent: Agent, port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      if (res.statusCode !== 200) { reject(new Error(`GET ${path}: HTTP ${res.statusCode}`)); res.resume(); return; }
      if (path === '/mark') { let t = ''; res.setEncoding('utf8'); res.on('data', (c: string) => { t += c; }); res.on('end', () => resolve(t)); return; }
      res.on('data', () => {}); res.on('end', () => resolve(''));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends `n` requests with `concurrency` in flight; returns the server's CPU ns and GC pause ns per request over them. */
async function window(agent: Agent, port: number, label: string, n: number, concurrency: number): Promise<{ cpu: number; gc: number }> {
  const mark = async () => JSON.parse(await get(agent, port, '/mark')) as { cpuNs: number; requests: number; gcNs: number };
  const path = `/s/${encodeURIComponent(label)}`;
  const a = await mark();
  let sent = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (sent < n) { sent++; await get(agent, port, path); } }));
  const b = await mark();
  return { cpu: (b.cpuNs - a.cpuNs) / (b.requests - a.requests), gc: (b.gcNs - a.gcNs) / (b.requests - a.requests) };
}

/** `json#2` (a second json server: the A/A control of the method) → `json`. */
const serializerOf = (label: string) => label.replace(/#.*$/, '');

interface CaseSpec { workload: string; size: number; shape: Shape }

/** Per label, CPU ns and GC pause ns per request of each window. */
async function measureConsumer(node: string, c: CaseSpec, ids: string[], payloadPath: string, dir: string, windows: number, concurrency: number, windowMs: number, gcAtMark: boolean): Promise<{ cpu: Record<string, number[]>; gc: Record<string, number[]> }> {
  const labels = ['json', ...ids];
  const jobPath = join(dir, 'serve.json');
  writeFileSync(jobPath, JSON.stringify({ ...c, serializer: 'json', serializers: labels, payloadPath, gcAtMark } satisfies ConsumerJob));
  const server = await startServer(node, jobPath);
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    // warmup: ≥ 0.5 s of server CPU per route; sizes the window from json's cost
    let perRequest = 0;
    for (const label of labels) {
      let n = 25; let cpu = 0;
      for (let spent = 0; spent < 5e8;) { const ns = (await window(agent, server.port, label, n, concurrency)).cpu; spent += ns * n; cpu = ns; n = Math.min(n * 2, 2000); }
      if (label === 'json') perRequest = cpu;
    }
    const n = Math.max(10, Math.ceil((windowMs * 1e6) / perRequest));
    const cpu: Record<string, number[]> = Object.fromEntries(labels.map((l) => [l, []]));
    const gc: Record<string, number[]> = Object.fromEntries(labels.map((l) => [l, []]));
    for (let w = 0; w < windows; w++) {
      const order = w % 2 === 0 ? labels : [...labels].reverse();
      for (const label of order) { const x = await window(agent, server.port, label, n, concurrency); cpu[label].push(x.cpu); gc[label].push(x.gc); }
    }
    agent.destroy();
    return { cpu, gc };
  } finally {
    server.child.kill('SIGKILL');
  }
}

function measureOps(node: string, c: CaseSpec, id: string, payloadPath: string, dir: string, ops: SerializeOp[]): Record<string, OpFigures> {
  const jobPath = join(dir, `ops-${id}.json`);
  writeFileSync(jobPath, JSON.stringify({ ...c, serializer: id, payloadPath, rounds: 15, ops } satisfies ConsumerJob));
  const r = spawnSync(node, ['--expose-gc', childEntry, 'ops', jobPath], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`ops ${id}: ${r.stderr.slice(-1000)}`);
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as { ops: Record<string, OpFigures> }).ops;
}

/**
 * One serializer's numbers in one runtime and case (the records of consumer.json): CPU ns per
 * request per rep and window for it and for json (and GC pause ns per request, `consumerGc` / `jsonGc`,
 * absent in older files); the ops per launch (`ops[op][launch]`; a file
 * written before launches were repeated holds one launch as a bare object); the load averages.
 */
interface ConsumerRecord { runtime: string; version: string; case: string; bytes?: number; serializer: string; consumer: number[][]; json: number[][]; consumerGc?: number[][]; jsonGc?: number[][]; ops: Record<string, OpFigures | OpFigures[]>; loads: string[] }

/** The default serialize op (`--serialize-to bytes`: `Buffer.from(s, 'utf8')` on Node, src/measure/prepare-case.ts) and the one before it. */
const DEFAULT_OP: SerializeOp = 'utf8';
const STRING_OP: SerializeOp = 'string';

const launchesOf = (o: OpFigures | OpFigures[]): OpFigures[] => (Array.isArray(o) ? o : [o]);

/**
 * The op's figures over its launches: ratio = median of the launches' ratios (as the engine reports a
 * case), its error as repsEstimate over the per-round ratios; difference (ns per op) from per-round
 * serializer − json. Files without per-round ns give each round's difference as
 * (round ratio − 1) × the launch's json median (`approx`).
 */
function opFigures(o: OpFigures | OpFigures[]): { ratio: Estimate; difference: Estimate; approx: boolean; launches: number[] } {
  const ls = launchesOf(o);
  const approx = ls.some((l) => !l.serializerRounds || !l.baselineRounds);
  const s = ls.map((l) => l.serializerRounds ?? l.roundRatios.map((x) => x * l.baselineNs));
  const b = ls.map((l) => l.baselineRounds ?? l.roundRatios.map(() => l.baselineNs));
  return { ratio: repsEstimate(ls.map((l) => l.roundRatios)), difference: opDifference(s, b), approx, launches: ls.map((l) => l.ratio) };
}

/**
 * 'yes' / 'no' for differencesAgree; 'yes, unresolved' when the 95% interval of the consumer's
 * difference also holds 0 and is wider than the op's difference: agreement that could not have
 * failed, since the consumer cannot tell the two serializers apart at this noise.
 */
function agreeVerdict(consumer: Estimate, op: Estimate): string {
  if (!differencesAgree(consumer, op)) return 'no';
  const half = 1.96 * consumer.se;
  return Math.abs(consumer.value) <= half && half > Math.abs(op.value) ? 'yes, unresolved' : 'yes';
}

const pm = (e: Estimate, digits: number, scale = 1) => `${(e.value / scale).toFixed(digits)} ± ${(e.se / scale).toFixed(digits)}`;

/** Prints one runtime × case: per serializer the consumer's ratio and difference, the ops', and the two verdicts of issue 13. */
function printCase(records: readonly ConsumerRecord[]): void {
  const first = records[0];
  log(`\n## ${first.runtime} ${first.version}, ${first.case}${first.bytes ? ` (${first.bytes} bytes)` : ''}, loads ${first.loads.map((l) => l.split(' ')[0]).join(' → ')}`);
  log('(± one standard error; ratio and Δ are serializer against JSON.stringify; Δ in µs CPU per request or per op; "bytes" is the default op, Buffer.from(s, \'utf8\'))');
  log(`| serializer | consumer ratio (per rep) | bytes op ratio (per launch) | bytes within 10% | ${OPS.filter((k) => k !== DEFAULT_OP).map((k) => `${k} op ratio`).join(' | ')} | consumer Δ µs | bytes op Δ µs | bytes Δ agrees (95%) | string op Δ µs | string Δ agrees |`);
  log(`|---|---|---|---|${OPS.filter((k) => k !== DEFAULT_OP).map(() => '---').join('|')}|---|---|---|---|---|`);
  let approx = false;
  for (const r of records) {
    const c = consumerFigures(r.consumer, r.json);
    const reps = r.consumer.map((xs, i) => repsEstimate([xs.map((x, w) => x / r.json[i][w])]).value);
    const op = Object.fromEntries(OPS.filter((k) => r.ops[k]).map((k) => [k, opFigures(r.ops[k])])) as Partial<Record<SerializeOp, ReturnType<typeof opFigures>>> & Record<'utf8' | 'string', ReturnType<typeof opFigures>>;
    const d = op.utf8; const st = op.string; // DEFAULT_OP and STRING_OP, which --ops requires
    approx ||= d.approx || st.approx;
    log(`| ${r.serializer} | ${pm(c.ratio, 3)} (${reps.map((x) => x.toFixed(3)).join(', ')}) | ${d.ratio.value.toFixed(3)} (${d.launches.map((x) => x.toFixed(3)).join(', ')}) | ${ratioWithin(d.ratio.value, c.ratio.value) ? 'yes' : 'no'} (${((d.ratio.value / c.ratio.value - 1) * 100).toFixed(1)}%) | ${OPS.filter((k) => k !== DEFAULT_OP).map((k) => op[k]?.ratio.value.toFixed(3) ?? '—').join(' | ')} | ${pm(c.difference, 2, 1e3)} | ${pm(d.difference, 2, 1e3)} | ${agreeVerdict(c.difference, d.difference)} | ${pm(st.difference, 2, 1e3)} | ${agreeVerdict(c.difference, st.difference)} |`);
  }
  const json = records[0].json.flat().sort((a, b) => a - b);
  const baseline = (k: SerializeOp) => records.flatMap((r) => launchesOf(r.ops[k]).map((l) => l.baselineNs)).sort((a, b) => a - b);
  const mid = (xs: number[]) => xs[xs.length >> 1];
  log(`json: consumer ${(mid(json) / 1e3).toFixed(1)} µs CPU/request; ops ${OPS.filter((k) => records[0].ops[k]).map((k) => `${k} ${(mid(baseline(k)) / 1e3).toFixed(1)} µs`).join(', ')}`);
  if (approx) log('(op Δ errors from round ratios × the json median: this file predates per-round ns)');
  // where the time goes: GC pause µs per request at the server and per op in the bytes op, serializer and json
  const gcLines = records.filter((r) => r.consumerGc && r.jsonGc).map((r) => {
    const opGc = launchesOf(r.ops[DEFAULT_OP]).filter((l) => l.serializerGcNs !== undefined);
    const m = (xs: number[]) => repsEstimate([xs]).value / 1e3;
    return `${r.serializer} ${m(r.consumerGc!.flat()).toFixed(0)} vs json ${m(r.jsonGc!.flat()).toFixed(0)} µs/request${opGc.length ? `, bytes op ${m(opGc.map((l) => l.serializerGcNs!)).toFixed(0)} vs json ${m(opGc.map((l) => l.baselineGcNs!)).toFixed(0)} µs/op` : ''}`;
  });
  if (gcLines.length) log(`GC pauses (main thread): ${gcLines.join('; ')}`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: {
    runtimes: { type: 'string', default: 'node,node@22' }, cases: { type: 'string', default: 'users/10000/list,orders/10000/list,weather-station/1/single' },
    serializers: { type: 'string', default: 'fast-json-stringify,typia,ajv-jtd' }, reps: { type: 'string', default: '2' }, windows: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '1' }, 'window-ms': { type: 'string', default: '300' }, out: { type: 'string' }, from: { type: 'string' }, ops: { type: 'string', default: OPS.join(',') }, 'gc-at-mark': { type: 'boolean', default: false },
  } });
  if (values.from) {
    // re-read a run's numbers (its consumer.json) and print its tables with this file's analysis
    const records = JSON.parse(readFileSync(values.from, 'utf8')) as ConsumerRecord[];
    const groups = new Map<string, ConsumerRecord[]>();
    for (const r of records) { const k = `${r.runtime} ${r.case}`; groups.set(k, [...(groups.get(k) ?? []), r]); }
    log(`consumer bench: the numbers of ${values.from}`);
    for (const g of groups.values()) printCase(g);
    return 0;
  }
  const dir = values.out ?? mkdtempSync(join(tmpdir(), 'jsonbench-consumer-'));
  mkdirSync(dir, { recursive: true });
  const ids = values.serializers!.split(',');
  const opList = values.ops!.split(',') as SerializeOp[];
  for (const k of opList) if (!(OPS as readonly string[]).includes(k)) throw new Error(`--ops: unknown op "${k}" (choose from ${OPS.join(', ')})`);
  if (!opList.includes(DEFAULT_OP) || !opList.includes(STRING_OP)) throw new Error(`--ops must include ${DEFAULT_OP} (the default op) and ${STRING_OP} (the contrast)`);
  const runtimeIds = values.runtimes!.split(',');
  const prepared = await prepareTargets(parseTargets(runtimeIds), { cacheDir: defaultCacheDir(), bundleDir: dir, payloadPaths: [] });
  const all: ConsumerRecord[] = [];
  const t0 = performance.now();
  log(`consumer bench: ${runtimeIds.join(', ')}; raw numbers in ${dir}; load ${loadavg()}`);
  for (const info of prepared.infos) {
    if (info.runtime !== 'node') { log(`${info.id}: skipped (the consumer server is node:http; runtime ${info.runtime})`); continue; }
    const node = String((info.probe as { executable?: string } | undefined)?.executable ?? process.execPath);
    for (const spec of values.cases!.split(',')) {
      const [workload, size, shape] = spec.split('/');
      const c: CaseSpec = { workload, size: Number(size), shape: shape as Shape };
      const payload = await writePayload(join(dir, 'payloads'), await workloads.load(workload), c.size, 42);
      const consumer: Record<string, number[][]> = {};
      const consumerGc: Record<string, number[][]> = {};
      const loads: string[] = [loadavg()];
      for (let r = 0; r < Number(values.reps); r++) {
        const perWindow = await measureConsumer(node, c, ids, payload.path, dir, Number(values.windows), Number(values.concurrency), Number(values['window-ms']), values['gc-at-mark']!);
        for (const [id, xs] of Object.entries(perWindow.cpu)) (consumer[id] ??= []).push(xs);
        for (const [id, xs] of Object.entries(perWindow.gc)) (consumerGc[id] ??= []).push(xs);
        loads.push(loadavg());
      }
      // the ops in `--reps` processes per serializer, as the engine's default policy launches a case twice
      const ops = Object.fromEntries(ids.map((id) => {
        const launches = Array.from({ length: Number(values.reps) }, () => measureOps(node, c, serializerOf(id), payload.path, dir, opList));
        return [id, Object.fromEntries(opList.map((k) => [k, launches.map((l) => l[k])]))];
      }));
      loads.push(loadavg());
      const records: ConsumerRecord[] = ids.map((id) => ({ runtime: info.id, version: info.version, case: spec, bytes: payload.bytes, serializer: id, consumer: consumer[id], json: consumer.json, consumerGc: consumerGc[id], jsonGc: consumerGc.json, ops: ops[id], loads }));
      printCase(records);
      all.push(...records);
      // every number so far, so a later failure loses none
      writeFileSync(join(dir, 'consumer.json'), JSON.stringify(all, null, 1));
    }
  }
  writeFileSync(join(dir, 'consumer.json'), JSON.stringify(all, null, 1));
  log(`\ntotal ${((performance.now() - t0) / 1000).toFixed(0)} s; load ${loadavg()}`);
  await prepared.close();
  return 0;
}

main().then((code) => { process.exitCode = code; }, (e) => { process.stderr.write(`${(e as Error).stack ?? e}\n`); process.exitCode = 1; });
