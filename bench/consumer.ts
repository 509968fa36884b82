/**
 * `npm run bench:consumer`: what a consumer pays for serialize, next to what the candidate
 * serialize ops report (issue 13, section 4).
 *
 * For each runtime (`--runtimes`, default the host's node and node@22 when installed) and
 * workload (`--cases`, default users/10000, orders/10000, weather-station): `--servers` (4) server
 * process sets. In a set, with `--baseline separate` (the default), one `node:http` server process
 * per serializer label, each holding only that serializer's inputs and its one route
 * (consumer-child.ts `serve`: `res.end(serialize(value))` on 127.0.0.1), JSON.stringify (`json`,
 * the baseline) and the A/A control (`json#2`, a second JSON.stringify server; `--aa off` drops it)
 * in processes of their own; all are alive at once, each route is warmed up, then `--windows`
 * cycles over the routes in alternating order. In each window the client (this process, `node:http`
 * with a keep-alive agent, `--concurrency` requests in flight) sends a fixed number of requests to
 * one route and reads that server's CPU time (process.cpuUsage, user + system) and GC pause time
 * before and after: CPU ns per request. Why separate: a server that uses one serializer holds one
 * serializer's inputs and garbage. Measured on Node 22, users/10000 (load 7.6–9.1, 2 sets × 6
 * windows; README, serialize op): with json in the serializer's process (`--baseline
 * same`) json's GC pauses read 1.5–1.8 ms per request, alone 7.3 ms (and json#2 alone 7.1 ms): a
 * shared process lends json the heap the other route grew and lets each route's windows collect the
 * other's garbage, so the GC picture is the pair's, not the serializer's. The price is process-to-
 * process spread inside every ratio (fast-json-stringify 1.18/1.06 separate vs 1.17/1.20 same),
 * hence ≥ 4 sets, the spread printed per ratio, and the A/A control printed with a verdict: when
 * the A/A ratio of any set or its median is more than 10% off 1, the consumer cannot resolve
 * issue 13's 10% target and the table says so.
 *
 * The consumer ratio is the median over sets of each set's median over windows of serializer ÷
 * json in the same cycle; the difference is the same of serializer − json per request, with errors
 * (consumer-analysis.ts) that widen when sets disagree. Then each serializer's candidate ops are
 * measured in-process against json (consumer-child.ts `ops`, CPU clock) in `--launches` (2)
 * processes (the op's ratio is the median of theirs, as the engine's default policy reports a case
 * from two launches). The table gives the consumer's ratio and difference and the ops', and issue
 * 13's verdicts for the default op (bytes) and, for contrast, the string op: the ratio within 10%
 * of the consumer's, and the difference in µs per request within the errors of the consumer's (at
 * every size: the comparable figure where the server's own work dilutes the ratio), and the ratio
 * the op's difference predicts for the server (1 + op Δ ÷ json's CPU per request at the server).
 *
 * Flags: --runtimes node,node@22 --cases users/10000/list,orders/10000/list,weather-station/1/single
 * --serializers fast-json-stringify,typia,ajv-jtd --servers 4 --launches 2 --windows 12
 * --baseline separate|same --aa on|off --concurrency 1
 * --ops utf8,string (which candidate ops of string, flat, utf8, textencoder, http; utf8 and string are required)
 * --ops-env NAME=VALUE (repeatable; environment of the ops processes only; default
 * DEFAULT_OPS_ENV, glibc's malloc keeping freed memory: the op whose per-op differences agreed with
 * the consumer's in the most cells; `none` for malloc as it is; recorded as `opsEnv`)
 * --server-flags '--single-threaded-gc' (extra Node flags for the server processes, separated by
 * spaces or commas; give the option twice, e.g. `--server-flags= --server-flags=--single-threaded-gc`,
 * to measure two server variants in alternating sets in the same time window, each with its own
 * table and A/A control, the ops once for both; consumer-flags.ts; recorded as `serverFlags`)
 * --gc-at-mark (the server runs a full GC before each CPU reading, so a window pays for its own
 * garbage; off by default: on Node 20, users/10000, load 10–14 it added ~6 ms of forced GC to json's
 * ~24 ms per request, diluting every ratio toward 1) --window-ms 300 (server CPU per window, at
 * least 10 requests) --out <dir> (JSON of every number, consumer.json, written after each case's
 * servers, with `ops: {}`, and again after its ops;
 * default a temp dir); --from <consumer.json> prints a finished run's tables again (no measuring);
 * --reuse <consumer.json> takes the consumer's figures of the cases it holds from that run and
 * measures only the ops (e.g. after the op's flags changed). The ops run with the steady profile's V8
 * flags (OPS_FLAGS: --single-threaded-gc); the servers with Node's defaults (as a server
 * runs) unless --server-flags says otherwise; the table header names the servers' flags.
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
import { workerFlagsFor } from '../src/runtimes/launch.js';
import type { Shape } from '../src/case/coordinates.js';
import { OPS, type ConsumerJob, type OpFigures, type SerializeOp } from './consumer-child.js';
import { parseOpsEnv, parseServerFlags, sameServerFlags, serverFlagsLabel } from './consumer-flags.js';
import {
  aaResolution,
  consumerFigures,
  differencesAgree,
  opDifference,
  processSpread,
  ratioWithin,
  repsEstimate,
  type Estimate,
} from './consumer-analysis.js';

const childEntry = fileURLToPath(new URL('./consumer-child.js', import.meta.url));

/**
 * The ops' V8 flags: the steady profile's (runtimes/launch.ts: --expose-gc --single-threaded-gc),
 * the flags of the op whose differences agreed with the consumer's in 9 of 12 cells (below).
 */
export const OPS_FLAGS = workerFlagsFor('steady');

/**
 * The ops' environment when `--ops-env` is not given: glibc's malloc told to keep freed memory
 * (mmap threshold 32 MiB, trim threshold 1 GiB), so every side of the op pays exactly one fresh copy
 * of its output per op, as a server's routes do alike. Issue 23, decision 2: the op is chosen by
 * how well its per-op difference (serializer − JSON.stringify) predicts what switching saves per
 * request, and this op's differences lay within the consumer's errors (95%) in 9 of 12 cells
 * (users/10000 and orders/10000 on Node 20 and 22, three serializers; 2026-12-02, load 5.5–10.7),
 * against 5 of 12 for malloc as it is (docs/profiles.md). `--ops-env none` measures malloc as it is.
 */
export const DEFAULT_OPS_ENV: Readonly<Record<string, string>> = {
  GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824',
};
const log = (s: string) => process.stdout.write(s + '\n');
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Server {
  child: ChildProcess;
  port: number;
}

/** Starts the server child (every serializer of the job on its own route); resolves with its port once it listens. @throws Error when it dies first */
function startServer(node: string, jobPath: string, serverFlags: readonly string[]): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['--expose-gc', ...serverFlags, childEntry, 'serve', jobPath], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve({ child, port: (JSON.parse(line) as { port: number }).port }));
    child.once('exit', (code) => reject(new Error(`server exited with code ${code} before listening`)));
  });
}

/** GET path from the server; resolves with the body (as text only for /mark). */
function get(agent: Agent, port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET ${path}: HTTP ${res.statusCode}`));
        res.resume();
        return;
      }
      if (path === '/mark') {
        let t = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          t += c;
        });
        res.on('end', () => resolve(t));
        return;
      }
      res.on('data', () => {});
      res.on('end', () => resolve(''));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends `n` requests with `concurrency` in flight; returns the server's CPU ns and GC pause ns per request over them. */
async function window(
  agent: Agent,
  port: number,
  label: string,
  n: number,
  concurrency: number,
): Promise<{ cpu: number; gc: number }> {
  const mark = async () =>
    JSON.parse(await get(agent, port, '/mark')) as { cpuNs: number; requests: number; gcNs: number };
  const path = `/s/${encodeURIComponent(label)}`;
  const a = await mark();
  let sent = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < n) {
        sent++;
        await get(agent, port, path);
      }
    }),
  );
  const b = await mark();
  return { cpu: (b.cpuNs - a.cpuNs) / (b.requests - a.requests), gc: (b.gcNs - a.gcNs) / (b.requests - a.requests) };
}

interface CaseSpec {
  workload: string;
  size: number;
  shape: Shape;
}

/** CPU ns and GC pause ns per request of each window of one server process set, for one serializer and for its json baseline. */
interface SetFigures {
  cpu: number[];
  gc: number[];
  jsonCpu: number[];
  jsonGc: number[];
}

interface WindowOptions {
  windows: number;
  concurrency: number;
  windowMs: number;
  gcAtMark: boolean;
}

/**
 * Warms every route up (≥ 0.5 s of server CPU each, in doubling windows), sizes the window from
 * json's cost per request (`windowMs` of server CPU, at least 10 requests), then runs `windows`
 * cycles over the routes in alternating order. Returns per label CPU ns and GC ns per request per window.
 */
async function runWindows(
  routes: readonly { label: string; port: number }[],
  o: WindowOptions,
): Promise<{ cpu: Record<string, number[]>; gc: Record<string, number[]> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  try {
    let perRequest = 0;
    for (const { label, port } of routes) {
      let n = 25;
      let cpu = 0;
      for (let spent = 0; spent < 5e8;) {
        const ns = (await window(agent, port, label, n, o.concurrency)).cpu;
        spent += ns * n;
        cpu = ns;
        n = Math.min(n * 2, 2000);
      }
      if (label === 'json') perRequest = cpu;
    }
    const n = Math.max(10, Math.ceil((o.windowMs * 1e6) / perRequest));
    const cpu: Record<string, number[]> = Object.fromEntries(routes.map((r) => [r.label, []]));
    const gc: Record<string, number[]> = Object.fromEntries(routes.map((r) => [r.label, []]));
    for (let w = 0; w < o.windows; w++) {
      const order = w % 2 === 0 ? routes : [...routes].reverse();
      for (const { label, port } of order) {
        const x = await window(agent, port, label, n, o.concurrency);
        cpu[label].push(x.cpu);
        gc[label].push(x.gc);
      }
    }
    return { cpu, gc };
  } finally {
    agent.destroy();
  }
}

/** Starts a server process (Node flags `serverFlags` besides --expose-gc) holding only `labels`' routes and inputs. */
async function startFor(
  node: string,
  c: CaseSpec,
  labels: string[],
  payloadPath: string,
  dir: string,
  gcAtMark: boolean,
  serverFlags: readonly string[],
): Promise<Server> {
  const jobPath = join(dir, `serve-${labels.map((l) => l.replace(/[^\w-]/g, '_')).join('+')}.json`);
  writeFileSync(
    jobPath,
    JSON.stringify({ ...c, serializer: labels[0], serializers: labels, payloadPath, gcAtMark } satisfies ConsumerJob),
  );
  return startServer(node, jobPath, serverFlags);
}

/**
 * One server process set: per serializer label, its CPU and GC per request per window and its json
 * baseline's. `baseline` 'separate': one server process per label (each holds only its own
 * serializer's inputs and route; json in a process of its own), all alive at once, the windows of a
 * cycle alternating between them, so each label's heap and GC are its own, as a server that uses one
 * serializer has. 'same': per label a server with two routes, json and the label, measured in turn.
 */
async function measureSet(
  node: string,
  c: CaseSpec,
  ids: string[],
  payloadPath: string,
  dir: string,
  baseline: Baseline,
  o: WindowOptions,
  serverFlags: readonly string[],
): Promise<Record<string, SetFigures>> {
  const out: Record<string, SetFigures> = {};
  if (baseline === 'separate') {
    const labels = ['json', ...ids];
    const servers: Server[] = [];
    try {
      for (const label of labels)
        servers.push(await startFor(node, c, [label], payloadPath, dir, o.gcAtMark, serverFlags));
      const r = await runWindows(
        labels.map((label, i) => ({ label, port: servers[i].port })),
        o,
      );
      for (const id of ids) out[id] = { cpu: r.cpu[id], gc: r.gc[id], jsonCpu: r.cpu.json, jsonGc: r.gc.json };
    } finally {
      for (const s of servers) s.child.kill('SIGKILL');
    }
    return out;
  }
  for (const id of ids) {
    const server = await startFor(node, c, ['json', id], payloadPath, dir, o.gcAtMark, serverFlags);
    try {
      const r = await runWindows(
        [
          { label: 'json', port: server.port },
          { label: id, port: server.port },
        ],
        o,
      );
      out[id] = { cpu: r.cpu[id], gc: r.gc[id], jsonCpu: r.cpu.json, jsonGc: r.gc.json };
    } finally {
      server.child.kill('SIGKILL');
    }
  }
  return out;
}

/** Where the json baseline's route lives: a server process of its own, or each serializer's server. */
type Baseline = 'separate' | 'same';

function measureOps(
  node: string,
  c: CaseSpec,
  id: string,
  payloadPath: string,
  dir: string,
  ops: SerializeOp[],
  opsEnv: Record<string, string>,
): Record<string, OpFigures> {
  const jobPath = join(dir, `ops-${id}.json`);
  writeFileSync(jobPath, JSON.stringify({ ...c, serializer: id, payloadPath, rounds: 15, ops } satisfies ConsumerJob));
  // the steady profile's V8 flags (--single-threaded-gc), with which the default op's differences agreed (DEFAULT_OPS_ENV)
  const r = spawnSync(node, [...OPS_FLAGS, childEntry, 'ops', jobPath], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: { ...process.env, ...opsEnv },
  });
  if (r.status !== 0) throw new Error(`ops ${id}: ${r.stderr.slice(-1000)}`);
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as { ops: Record<string, OpFigures> }).ops;
}

/**
 * One serializer's numbers in one runtime and case (the records of consumer.json): CPU ns per
 * request per server process and window for it and for its json baseline (and GC pause ns per
 * request, `consumerGc` / `jsonGc`, absent in older files); the ops per launch (`ops[op][launch]`; a
 * file written before launches were repeated holds one launch as a bare object; `{}` for the A/A
 * control json#2); where the baseline ran (`baseline`, absent in files before it was an option:
 * 'same', every route in one process); the servers' extra Node flags (`serverFlags`, absent in files
 * before `--server-flags`: Node's defaults; the ops, shared by the variants of one run, are the
 * same object in each); the load averages (before the sets, after each of this variant's sets, after
 * the ops).
 */
interface ConsumerRecord {
  runtime: string;
  version: string;
  case: string;
  bytes?: number;
  serializer: string;
  baseline?: Baseline;
  serverFlags?: string[];
  opsEnv?: string[];
  consumer: number[][];
  json: number[][];
  consumerGc?: number[][];
  jsonGc?: number[][];
  ops: Record<string, OpFigures | OpFigures[]>;
  loads: string[];
}

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
function opFigures(o: OpFigures | OpFigures[]): {
  ratio: Estimate;
  difference: Estimate;
  approx: boolean;
  launches: number[];
} {
  const ls = launchesOf(o);
  const approx = ls.some((l) => !l.serializerRounds || !l.baselineRounds);
  const s = ls.map((l) => l.serializerRounds ?? l.roundRatios.map((x) => x * l.baselineNs));
  const b = ls.map((l) => l.baselineRounds ?? l.roundRatios.map(() => l.baselineNs));
  return {
    ratio: repsEstimate(ls.map((l) => l.roundRatios)),
    difference: opDifference(s, b),
    approx,
    launches: ls.map((l) => l.ratio),
  };
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

const pm = (e: Estimate, digits: number, scale = 1) =>
  `${(e.value / scale).toFixed(digits)} ± ${(e.se / scale).toFixed(digits)}`;

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

/**
 * Prints one runtime × case: the A/A control and what it says about resolving 10%; per serializer
 * the consumer's ratio (with its per-process medians and their spread) and difference per request,
 * the default (bytes) and string ops' ratio and difference, issue 13's verdicts (ratio within 10%;
 * difference within the errors, at every size), and the ratio the bytes op's difference predicts
 * for the server (1 + op Δ ÷ the server's json CPU per request: the op's extra cost diluted by the
 * server's own work); then GC pauses per request at the server and per op in the bytes op.
 */
function printCase(records: readonly ConsumerRecord[]): void {
  const first = records[0];
  log(
    `\n## ${first.runtime} ${first.version}, ${first.case}${first.bytes ? ` (${first.bytes} bytes)` : ''}, baseline ${first.baseline ?? 'same'}, servers on ${serverFlagsLabel(first.serverFlags)}, ${first.consumer.length} server process set(s),${first.opsEnv?.length ? ` ops with ${first.opsEnv.join(' ')},` : ''} loads ${first.loads.map((l) => l.split(' ')[0]).join(' → ')}`,
  );
  const aa = records.find((r) => r.serializer === 'json#2');
  let resolves = true;
  if (aa) {
    const f = consumerFigures(aa.consumer, aa.json);
    const per = processSpread(aa.consumer.map((xs, p) => xs.map((x, w) => x / aa.json[p][w])));
    const v = aaResolution(per.medians, f.ratio.value);
    resolves = v.resolves;
    log(
      `A/A control (json#2 ÷ json): ${pm(f.ratio, 3)} (per process ${per.medians.map((x) => x.toFixed(3)).join(', ')}; spread ${(per.spread * 100).toFixed(1)}%), Δ ${pm(f.difference, 2, 1e3)} µs: ${v.resolves ? `resolves 10% (worst ${(v.worst * 100).toFixed(1)}%)` : `CANNOT resolve 10% (worst ${(v.worst * 100).toFixed(1)}% off 1): the ratio verdicts below are not decisive`}`,
    );
  } else log('A/A control: off (--aa off): nothing says whether this consumer resolves 10%');
  log(
    '(± one standard error; ratios and Δ are serializer against JSON.stringify; Δ in µs CPU per request or per op; "bytes" is the default op, Buffer.from(s, \'utf8\'); spread = (max − min) ÷ median of the per-process ratios; "bytes Δ → ratio" = 1 + bytes op Δ ÷ the server\'s json CPU per request)',
  );
  log(
    '| serializer | consumer ratio | per process (spread) | bytes op ratio (per launch) | bytes within 10% | string op ratio | string within 10% | consumer Δ µs | bytes op Δ µs | bytes Δ agrees (95%) | string op Δ µs | string Δ agrees | bytes Δ → ratio |',
  );
  log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  let approx = false;
  const others: string[] = [];
  for (const r of records) {
    if (r.serializer === 'json#2') continue;
    const c = consumerFigures(r.consumer, r.json);
    const per = processSpread(r.consumer.map((xs, p) => xs.map((x, w) => x / r.json[p][w])));
    const jsonPerRequest = repsEstimate(r.json).value;
    const op = Object.fromEntries(OPS.filter((k) => r.ops[k]).map((k) => [k, opFigures(r.ops[k])])) as Partial<
      Record<SerializeOp, ReturnType<typeof opFigures>>
    > &
      Record<'utf8' | 'string', ReturnType<typeof opFigures>>;
    const d = op.utf8;
    const st = op.string; // DEFAULT_OP and STRING_OP, which --ops requires
    approx ||= d.approx || st.approx;
    const within = (o: Estimate) =>
      `${ratioWithin(o.value, c.ratio.value) ? 'yes' : 'no'} (${pct(o.value / c.ratio.value - 1)})${resolves ? '' : ', unresolved'}`;
    log(
      `| ${r.serializer} | ${pm(c.ratio, 3)} | ${per.medians.map((x) => x.toFixed(3)).join(', ')} (${(per.spread * 100).toFixed(1)}%) | ${d.ratio.value.toFixed(3)} (${d.launches.map((x) => x.toFixed(3)).join(', ')}) | ${within(d.ratio)} | ${st.ratio.value.toFixed(3)} | ${within(st.ratio)} | ${pm(c.difference, 2, 1e3)} | ${pm(d.difference, 2, 1e3)} | ${agreeVerdict(c.difference, d.difference)} | ${pm(st.difference, 2, 1e3)} | ${agreeVerdict(c.difference, st.difference)} | ${(1 + d.difference.value / jsonPerRequest).toFixed(3)} |`,
    );
    const extra = OPS.filter((k) => k !== DEFAULT_OP && k !== STRING_OP && op[k]);
    if (extra.length)
      others.push(
        `${r.serializer}: ${extra.map((k) => `${k} ${op[k]!.ratio.value.toFixed(3)} within 10%: ${within(op[k]!.ratio)}, Δ ${pm(op[k]!.difference, 2, 1e3)} µs agrees: ${agreeVerdict(c.difference, op[k]!.difference)}`).join('; ')}`,
      );
  }
  if (others.length) log(`other ops (ratio, against the consumer's; Δ): ${others.join(' | ')}`);
  const measured = records.filter((r) => r.serializer !== 'json#2');
  const json = measured.flatMap((r) => r.json.flat()).sort((a, b) => a - b);
  const baseline = (k: SerializeOp) =>
    measured.flatMap((r) => launchesOf(r.ops[k]).map((l) => l.baselineNs)).sort((a, b) => a - b);
  const mid = (xs: number[]) => xs[xs.length >> 1];
  log(
    `json: consumer ${(mid(json) / 1e3).toFixed(1)} µs CPU/request; ops ${OPS.filter((k) => measured[0]?.ops[k])
      .map((k) => `${k} ${(mid(baseline(k)) / 1e3).toFixed(1)} µs`)
      .join(', ')}`,
  );
  if (approx) log('(op Δ errors from round ratios × the json median: this file predates per-round ns)');
  // where the time goes: GC pause µs per request at the server and per op in the bytes op, serializer and json
  const gcLines = records
    .filter((r) => r.consumerGc && r.jsonGc)
    .map((r) => {
      const opGc = launchesOf(r.ops[DEFAULT_OP] ?? []).filter((l) => l.serializerGcNs !== undefined);
      const m = (xs: number[]) => repsEstimate([xs]).value / 1e3;
      return `${r.serializer} ${m(r.consumerGc!.flat()).toFixed(0)} vs json ${m(r.jsonGc!.flat()).toFixed(0)} µs/request${opGc.length ? `, bytes op ${m(opGc.map((l) => l.serializerGcNs!)).toFixed(0)} vs json ${m(opGc.map((l) => l.baselineGcNs!)).toFixed(0)} µs/op` : ''}`;
    });
  if (gcLines.length) log(`GC pauses (main thread, median): ${gcLines.join('; ')}`);
  // fresh memory: minor page faults and system CPU per op over the bytes op's timed samples, serializer and json
  const faultLines = measured
    .map((r) => ({ r, ls: launchesOf(r.ops[DEFAULT_OP] ?? []).filter((l) => l.serializerFaults !== undefined) }))
    .filter((x) => x.ls.length)
    .map(({ r, ls }) => {
      const m = (xs: number[]) => repsEstimate([xs]).value;
      return `${r.serializer} ${m(ls.map((l) => l.serializerFaults!)).toFixed(0)} vs json ${m(ls.map((l) => l.baselineFaults!)).toFixed(0)} faults, ${(m(ls.map((l) => l.serializerSysNs!)) / 1e6).toFixed(1)} vs ${(m(ls.map((l) => l.baselineSysNs!)) / 1e6).toFixed(1)} ms system CPU`;
    });
  if (faultLines.length) log(`bytes op, per op over the timed samples (median of launches): ${faultLines.join('; ')}`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runtimes: { type: 'string', default: 'node,node@22' },
      cases: { type: 'string', default: 'users/10000/list,orders/10000/list,weather-station/1/single' },
      serializers: { type: 'string', default: 'fast-json-stringify,typia,ajv-jtd' },
      servers: { type: 'string', default: '4' },
      launches: { type: 'string', default: '2' },
      windows: { type: 'string', default: '12' },
      baseline: { type: 'string', default: 'separate' },
      aa: { type: 'string', default: 'on' },
      concurrency: { type: 'string', default: '1' },
      'window-ms': { type: 'string', default: '300' },
      out: { type: 'string' },
      from: { type: 'string' },
      reuse: { type: 'string' },
      ops: { type: 'string', default: `${DEFAULT_OP},${STRING_OP}` },
      'gc-at-mark': { type: 'boolean', default: false },
      'server-flags': { type: 'string', multiple: true },
      'ops-env': { type: 'string', multiple: true },
    },
  });
  if (values.from) {
    // re-read a run's numbers (its consumer.json) and print its tables with this file's analysis
    const records = JSON.parse(readFileSync(values.from, 'utf8')) as ConsumerRecord[];
    const groups = new Map<string, ConsumerRecord[]>();
    for (const r of records) {
      const k = `${r.runtime} ${r.case} ${r.baseline ?? 'same'} ${serverFlagsLabel(r.serverFlags)}`;
      groups.set(k, [...(groups.get(k) ?? []), r]);
    }
    log(`consumer bench: the numbers of ${values.from}`);
    for (const g of groups.values()) {
      // a run stopped after the servers and before the ops wrote its records with `ops: {}`
      if (g.some((r) => r.serializer !== 'json#2' && !r.ops[DEFAULT_OP])) {
        log(
          `\n## ${g[0].runtime} ${g[0].case}, servers on ${serverFlagsLabel(g[0].serverFlags)}: the servers' figures only (the run stopped before the ops); --reuse ${values.from} measures the ops`,
        );
        continue;
      }
      printCase(g);
    }
    return 0;
  }
  const positive = (name: string, v: string | undefined, min = 1) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name}: expected an integer ≥ ${min}, got "${v}"`);
    return n;
  };
  const servers = positive('servers', values.servers);
  const launches = positive('launches', values.launches);
  const windowOptions: WindowOptions = {
    windows: positive('windows', values.windows, 3),
    concurrency: positive('concurrency', values.concurrency),
    windowMs: positive('window-ms', values['window-ms']),
    gcAtMark: values['gc-at-mark']!,
  };
  if (values.baseline !== 'separate' && values.baseline !== 'same')
    throw new Error(`--baseline: "separate" or "same", got "${values.baseline}"`);
  const baseline: Baseline = values.baseline;
  if (values.aa !== 'on' && values.aa !== 'off') throw new Error(`--aa: "on" or "off", got "${values.aa}"`);
  const variants = parseServerFlags(values['server-flags']);
  // the default op (DEFAULT_OPS_ENV) unless --ops-env says otherwise; `--ops-env none`: malloc as it is
  const asked = values['ops-env'];
  const opsEnv =
    asked === undefined ? { ...DEFAULT_OPS_ENV } : asked.length === 1 && asked[0] === 'none' ? {} : parseOpsEnv(asked);
  const opsEnvList = Object.entries(opsEnv).map(([k, v]) => `${k}=${v}`);
  const dir = values.out ?? mkdtempSync(join(tmpdir(), 'jsonbench-consumer-'));
  mkdirSync(dir, { recursive: true });
  const ids = values.serializers!.split(',').filter((id) => id !== 'json#2');
  const labels = values.aa === 'on' ? [...ids, 'json#2'] : ids;
  const opList = values.ops!.split(',') as SerializeOp[];
  for (const k of opList)
    if (!(OPS as readonly string[]).includes(k))
      throw new Error(`--ops: unknown op "${k}" (choose from ${OPS.join(', ')})`);
  if (!opList.includes(DEFAULT_OP) || !opList.includes(STRING_OP))
    throw new Error(`--ops must include ${DEFAULT_OP} (the default op) and ${STRING_OP} (the contrast)`);
  const reuse = values.reuse ? (JSON.parse(readFileSync(values.reuse, 'utf8')) as ConsumerRecord[]) : [];
  const runtimeIds = values.runtimes!.split(',');
  const prepared = await prepareTargets(parseTargets(runtimeIds), {
    cacheDir: defaultCacheDir(),
    bundleDir: dir,
    payloadPaths: [],
  });
  const all: ConsumerRecord[] = [];
  const t0 = performance.now();
  log(
    `consumer bench: ${runtimeIds.join(', ')}; baseline ${baseline}; servers on ${variants.map((f) => serverFlagsLabel(f)).join(' | ')}; ${servers} server process sets${variants.length > 1 ? ' per variant (alternating)' : ''} × ${windowOptions.windows} windows; ops in ${launches} launches${opsEnvList.length ? ` with ${opsEnvList.join(' ')}` : ''}; raw numbers in ${dir}; load ${loadavg()}`,
  );
  for (const info of prepared.infos) {
    if (info.runtime !== 'node') {
      log(`${info.id}: skipped (the consumer server is node:http; runtime ${info.runtime})`);
      continue;
    }
    const node = String((info.probe as { executable?: string } | undefined)?.executable ?? process.execPath);
    for (const spec of values.cases!.split(',')) {
      const [workload, size, shape] = spec.split('/');
      const c: CaseSpec = { workload, size: Number(size), shape: shape as Shape };
      const payload = await writePayload(join(dir, 'payloads'), await workloads.load(workload), c.size, 42);
      // per server variant: its sets, and its loads (before, after each set; the ops' load is added below)
      const sets: Record<string, SetFigures>[][] = variants.map(() => []);
      const loads: string[][] = variants.map(() => [loadavg()]);
      const tc = performance.now();
      const toMeasure: number[] = [];
      for (const [v, flags] of variants.entries()) {
        const old = reuse.filter(
          (r) => r.runtime === info.id && r.case === spec && sameServerFlags(r.serverFlags, flags),
        );
        if (old.length === 0) {
          toMeasure.push(v);
          continue;
        }
        // --reuse: the consumer's figures of an earlier run; only the ops are measured again
        for (const id of labels)
          if (!old.some((r) => r.serializer === id))
            throw new Error(
              `--reuse ${values.reuse}: no ${id} record for ${info.id} ${spec} (servers on ${serverFlagsLabel(flags)})`,
            );
        for (let p = 0; p < old[0].consumer.length; p++)
          sets[v].push(
            Object.fromEntries(
              old.map((r) => [
                r.serializer,
                { cpu: r.consumer[p], gc: r.consumerGc?.[p] ?? [], jsonCpu: r.json[p], jsonGc: r.jsonGc?.[p] ?? [] },
              ]),
            ),
          );
        loads[v] = old[0].loads.slice(0, old[0].consumer.length + 1);
        log(
          `${info.id} ${spec} (servers on ${serverFlagsLabel(flags)}): consumer figures reused from ${values.reuse} (loads ${loads[v].map((l) => l.split(' ')[0]).join(' → ')} then); ops measured now`,
        );
      }
      // the variants' sets alternate (set 1 of each variant, then set 2 of each, ...), so they share the machine's load
      for (let p = 0; p < servers; p++) {
        for (const v of toMeasure) {
          sets[v].push(await measureSet(node, c, labels, payload.path, dir, baseline, windowOptions, variants[v]));
          loads[v].push(loadavg());
        }
      }
      const tServers = performance.now() - tc;
      // the servers' figures before the ops (which take minutes on a large document), with `ops: {}`,
      // so a run stopped during the ops keeps them (--reuse takes them and measures the ops)
      const serverRecords = variants.flatMap((flags, v) =>
        labels.map((id): ConsumerRecord => ({
          runtime: info.id,
          version: info.version,
          case: spec,
          bytes: payload.bytes,
          serializer: id,
          baseline,
          serverFlags: flags,
          consumer: sets[v].map((s) => s[id].cpu),
          json: sets[v].map((s) => s[id].jsonCpu),
          consumerGc: sets[v].map((s) => s[id].gc),
          jsonGc: sets[v].map((s) => s[id].jsonGc),
          ops: {},
          loads: loads[v],
        })),
      );
      writeFileSync(join(dir, 'consumer.json'), JSON.stringify([...all, ...serverRecords], null, 1));
      // the ops in `--launches` processes per serializer, as the engine's default policy launches a case twice
      const ops = Object.fromEntries(
        ids.map((id) => {
          const ls = Array.from({ length: launches }, () => measureOps(node, c, id, payload.path, dir, opList, opsEnv));
          return [id, Object.fromEntries(opList.map((k) => [k, ls.map((l) => l[k])]))];
        }),
      );
      const opsLoad = loadavg();
      for (const [v, flags] of variants.entries()) {
        loads[v].push(opsLoad);
        const records: ConsumerRecord[] = labels.map((id) => ({
          runtime: info.id,
          version: info.version,
          case: spec,
          bytes: payload.bytes,
          serializer: id,
          baseline,
          serverFlags: flags,
          consumer: sets[v].map((s) => s[id].cpu),
          json: sets[v].map((s) => s[id].jsonCpu),
          consumerGc: sets[v].map((s) => s[id].gc),
          jsonGc: sets[v].map((s) => s[id].jsonGc),
          ops: ops[id] ?? {},
          loads: loads[v],
          ...(opsEnvList.length ? { opsEnv: opsEnvList } : {}),
        }));
        printCase(records);
        all.push(...records);
      }
      log(
        `(servers ${(tServers / 1000).toFixed(0)} s, ops ${((performance.now() - tc - tServers) / 1000).toFixed(0)} s)`,
      );
      // every number so far, so a later failure loses none
      writeFileSync(join(dir, 'consumer.json'), JSON.stringify(all, null, 1));
    }
  }
  writeFileSync(join(dir, 'consumer.json'), JSON.stringify(all, null, 1));
  log(`\ntotal ${((performance.now() - t0) / 1000).toFixed(0)} s; load ${loadavg()}`);
  await prepared.close();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  },
);
