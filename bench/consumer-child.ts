/**
 * The processes of `npm run bench:consumer` (see consumer.ts). One serializer, prepared and
 * gated as jsonbench's worker does, then either:
 *
 * - `serve <job.json>`: a `node:http` server on 127.0.0.1 (an ephemeral port, printed as one JSON
 *   line `{ port }` on stdout) with one route per serializer label of `job.serializers`:
 *   `GET /s/<label>` answers `res.end(serialize(value))` (content-type application/json; two
 *   identical copies of the value alternate by request); `GET /mark` answers `{ cpuNs, requests, gcNs }`:
 *   this process's CPU time so far (process.cpuUsage(), user + system, ns), the number of
 *   serialize requests answered, and the GC pause time so far (v8.GCProfiler, main thread, ns).
 *   consumer.ts starts one such process per serializer by default (`--baseline separate`: the
 *   process holds only that serializer's inputs, as a server using one serializer does), or one
 *   with json's and one serializer's routes (`--baseline same`). `json#2` is a second json
 *   instance: the A/A control.
 * - `ops <job.json>`: the candidate serialize ops measured in this process against the `json`
 *   baseline in paired rounds (ABBA, CPU clock): `string` (value → string, dropped: today's op),
 *   `flat` (the string flattened by `charCodeAt`, which flattens a V8 cons string),
 *   `utf8` (`Buffer.from(s, 'utf8')`), `textencoder` (`TextEncoder.encode(s)`), `http` (the steps
 *   node:http's `res.end(s)` takes with a string body, by hand: `Buffer.byteLength(s, 'utf8')` for
 *   Content-Length, the header + body concatenation of OutgoingMessage._send, then the UTF-8 copy the
 *   socket write makes of that string, here `Buffer.from(header + s, 'utf8')`). Prints one JSON
 *   line `{ ops: { [op]: OpFigures } }` (ns per op by CPU clock).
 *
 * job.json: `{ workload, size, shape, serializer, payloadPath, rounds?, ops? }` (ops: which of OPS, default all).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { GCProfiler } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { workloads } from '../src/workloads/index.js';
import { serializers } from '../src/serializers/index.js';
import { unitView, unitsOf } from '../src/workloads/unit.js';
import { caseIo, checkCase } from '../src/measure/gate.js';
import type { Shape } from '../src/case/coordinates.js';
import { policies } from '../src/config/policies.js';

export interface ConsumerJob {
  workload: string;
  size: number;
  shape: Shape;
  serializer: string;
  serializers?: string[];
  payloadPath: string;
  rounds?: number;
  ops?: SerializeOp[];
  gcAtMark?: boolean;
}

/** The serialize ops compared with the consumer. */
export const OPS = ['string', 'flat', 'utf8', 'textencoder', 'http'] as const;
export type SerializeOp = (typeof OPS)[number];

/** Process CPU time (user + system, all threads) in ns. */
const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
};
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/** The gated serialize function of `id` for the job's workload, and two copies of its input. */
async function prepareSerialize(
  job: ConsumerJob,
  id: string,
): Promise<{ serialize: (v: unknown) => string; inputs: [unknown, unknown] }> {
  const w = unitView(await workloads.load(job.workload), job.shape);
  const text = readFileSync(job.payloadPath, 'utf8');
  const prepared = await (await serializers.load(id)).prepare(w, 'serialize');
  const io = () => caseIo(w, 'serialize', 'serialize', unitsOf(JSON.parse(text), job.shape));
  const gate = io();
  if (gate.inputs.length !== 1) throw new Error('consumer bench: one document per request (shape single or list)');
  const failure = checkCase(prepared, w, 'serialize', gate);
  if (failure) throw new Error(`${id} fails the correctness gate: ${failure.reason}`);
  const fn = prepared.serialize!;
  return { serialize: (v) => fn.call(prepared, v as never), inputs: [gate.inputs[0], io().inputs[0]] };
}

async function serve(job: ConsumerJob): Promise<void> {
  const routes = new Map<string, { serialize: (v: unknown) => string; inputs: [unknown, unknown] }>();
  for (const label of job.serializers ?? [job.serializer])
    routes.set(`/s/${encodeURIComponent(label)}`, await prepareSerialize(job, label.replace(/#.*$/, '')));
  let requests = 0;
  // GC pause time (main thread, v8.GCProfiler's cost per GC in µs) summed between marks, so a window
  // says how much of its CPU time went to the collector
  let gcNs = 0;
  let profiler = new GCProfiler();
  profiler.start();
  const server = createServer((req, res) => {
    if (req.url === '/mark') {
      // --gc-at-mark: a full GC before the reading, so a window pays for its own garbage (and not for the previous route's)
      if (job.gcAtMark) (globalThis as { gc?: () => void }).gc?.();
      gcNs += profiler.stop().statistics.reduce((sum, g) => sum + g.cost * 1e3, 0);
      profiler = new GCProfiler();
      profiler.start();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ cpuNs: cpuNs(), requests, gcNs }));
      return;
    }
    const route = routes.get(req.url ?? '');
    if (!route) {
      res.statusCode = 404;
      res.end();
      return;
    }
    const body = route.serialize(route.inputs[requests++ & 1]);
    res.setHeader('content-type', 'application/json');
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }) + '\n');
  });
}

let slot: unknown;
let checksum = 0;
const encoder = new TextEncoder();
/** A response head as node:http writes it before a body (the `http` op prepends it, as OutgoingMessage._send prepends this._header to a string body). */
const HTTP_HEADER =
  'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nDate: Wed, 02 Dec 2026 00:00:00 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=60\r\nContent-Length: 1809228\r\n\r\n';

/** One op of kind `op` over `serialize`: the result goes to a single-slot sink (dropped by the next op). */
function opOf(serialize: (v: unknown) => string, inputs: [unknown, unknown], op: SerializeOp): (i: number) => void {
  const [a, b] = inputs;
  switch (op) {
    case 'string':
      return (i) => {
        slot = undefined;
        slot = serialize((i & 1) === 0 ? a : b);
      };
    case 'flat':
      return (i) => {
        slot = undefined;
        const s = serialize((i & 1) === 0 ? a : b);
        s.charCodeAt(s.length >> 1);
        slot = s;
      };
    case 'utf8':
      return (i) => {
        slot = undefined;
        slot = Buffer.from(serialize((i & 1) === 0 ? a : b), 'utf8');
      };
    case 'textencoder':
      return (i) => {
        slot = undefined;
        slot = encoder.encode(serialize((i & 1) === 0 ? a : b));
      };
    case 'http':
      return (i) => {
        slot = undefined;
        const s = serialize((i & 1) === 0 ? a : b);
        checksum = (checksum + Buffer.byteLength(s, 'utf8')) % 1_000_000_007;
        slot = Buffer.from(HTTP_HEADER + s, 'utf8');
      };
  }
}

/**
 * One op's figures from one `ops` process: ratio = median of the per-round ratios (serializer ÷ json,
 * each round's median of 3 samples per side); serializerNs / baselineNs = medians over all samples,
 * ns per op by CPU clock; serializerRounds / baselineRounds = each round's median per side (absent in
 * files written before they were kept); serializerGcNs / baselineGcNs = GC pause ns per op (v8.GCProfiler,
 * untimed ops after the rounds; absent in older files); serializerFaults / baselineFaults = minor page faults
 * per op and serializerSysNs / baselineSysNs = system CPU ns per op over the timed samples (process.resourceUsage
 * read around each side's samples of a round, outside the sampled clock readings; absent in older files). Why:
 * the op's 1.8 MB document maps fresh pages (string in V8's large-object space, the Buffer's backing store), each
 * page fault costs system time, and the op charges them unevenly (session 7 probes: JSON.stringify's side took
 * 800–1000 faults per op, ajv JTD's 480–520, where each server took ~890 per request for either).
 */
export interface OpFigures {
  ratio: number;
  serializerNs: number;
  baselineNs: number;
  roundRatios: number[];
  serializerRounds?: number[];
  baselineRounds?: number[];
  serializerGcNs?: number;
  baselineGcNs?: number;
  serializerFaults?: number;
  baselineFaults?: number;
  serializerSysNs?: number;
  baselineSysNs?: number;
}

/** CPU ns per op of `ops` iterations. */
function sample(op: (i: number) => void, ops: number): number {
  const c0 = cpuNs();
  for (let i = 0; i < ops; i++) op(i);
  const ns = (cpuNs() - c0) / ops;
  checksum = (checksum + ((slot as { length?: number } | undefined)?.length ?? 1)) % 1_000_000_007;
  slot = undefined;
  return ns;
}

/**
 * Ops per sample so one sample takes at least `targetMs` of CPU, after the engine's default-policy
 * warmup (src/config/policies.ts: at least `warmupMinOps` ops and `warmupMinMs` ms of CPU, stopping
 * at `warmupMaxMs` after at least one op), so the op is warmed as the product's default op is (an
 * earlier ≥ 200 ops and ≥ 300 ms took tens of minutes for typia on orders/10000 on Node 22).
 */
function warmAndSize(op: (i: number) => void, targetMs: number): number {
  const { warmupMinOps, warmupMinMs, warmupMaxMs } = policies.default.measure;
  const t0 = cpuNs();
  let n = 0;
  for (;;) {
    op(n++);
    const ms = (cpuNs() - t0) / 1e6;
    if ((n >= warmupMinOps && ms >= warmupMinMs) || ms >= warmupMaxMs) break;
  }
  let ops = 1;
  for (;;) {
    const ms = (sample(op, ops) * ops) / 1e6;
    if (ms >= targetMs) return ops;
    ops = ms > 0.5 ? Math.max(ops * 2, Math.ceil((ops * targetMs * 1.1) / ms)) : ops * 2;
  }
}

/** Rounds of one op: at least MIN_ROUNDS (the engine's default minRounds), then up to `job.rounds` while the rounds so far took under ROUNDS_CAP_MS of CPU (a 4.9 MB document takes ~0.1–1 s per op). */
const MIN_ROUNDS = policies.default.measure.minRounds;
const ROUNDS_CAP_MS = 20_000;

async function measureOps(job: ConsumerJob): Promise<void> {
  // a minor GC between sides (a forced full GC before each side made allocation-heavy serializers
  // read up to 25% cheaper than in steady state; see the engine study)
  const gcFn = (globalThis as { gc?: (o?: { type: string }) => void }).gc;
  const gc = () => gcFn?.({ type: 'minor' });
  const s = await prepareSerialize(job, job.serializer);
  const b = await prepareSerialize(job, 'json');
  const out: Record<string, OpFigures> = {};
  for (const op of job.ops ?? OPS) {
    const sides = [opOf(s.serialize, s.inputs, op), opOf(b.serialize, b.inputs, op)];
    const ops = sides.map((f) => warmAndSize(f, 5));
    const ns: number[][] = [[], []];
    const ratios: number[] = [];
    const rounds: number[][] = [[], []];
    // minor page faults and system CPU µs over each side's timed samples (resourceUsage read outside sample())
    const faults = [0, 0];
    const sysUs = [0, 0];
    const r0 = cpuNs();
    for (let r = 0; r < (job.rounds ?? 20) && (r < MIN_ROUNDS || cpuNs() - r0 < ROUNDS_CAP_MS * 1e6); r++) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0];
      const med: number[] = [0, 0];
      for (const k of order) {
        gc();
        const u0 = process.resourceUsage();
        const xs = [0, 1, 2].map(() => sample(sides[k], ops[k]));
        const u1 = process.resourceUsage();
        faults[k] += u1.minorPageFault - u0.minorPageFault;
        sysUs[k] += u1.systemCPUTime - u0.systemCPUTime;
        ns[k].push(...xs);
        med[k] = median(xs);
      }
      ratios.push(med[0] / med[1]);
      rounds[0].push(med[0]);
      rounds[1].push(med[1]);
    }
    // untimed, after the rounds: GC pause ns per op of each side (v8.GCProfiler, cost in µs), one sample's ops
    const gcPerOp = sides.map((f, k) => {
      gc();
      const p = new GCProfiler();
      p.start();
      for (let i = 0; i < ops[k] * 3; i++) f(i);
      return p.stop().statistics.reduce((sum, g) => sum + g.cost * 1e3, 0) / (ops[k] * 3);
    });
    out[op] = {
      ratio: median(ratios),
      serializerNs: median(ns[0]),
      baselineNs: median(ns[1]),
      roundRatios: ratios,
      serializerRounds: rounds[0],
      baselineRounds: rounds[1],
      serializerGcNs: gcPerOp[0],
      baselineGcNs: gcPerOp[1],
      serializerFaults: faults[0] / (ns[0].length * ops[0]),
      baselineFaults: faults[1] / (ns[1].length * ops[1]),
      serializerSysNs: (sysUs[0] * 1e3) / (ns[0].length * ops[0]),
      baselineSysNs: (sysUs[1] * 1e3) / (ns[1].length * ops[1]),
    };
  }
  process.stdout.write(JSON.stringify({ ops: out, checksum }) + '\n');
}

async function main(): Promise<void> {
  const [mode, jobPath] = process.argv.slice(2);
  const job = JSON.parse(readFileSync(jobPath, 'utf8')) as ConsumerJob;
  if (mode === 'serve') await serve(job);
  else if (mode === 'ops') await measureOps(job);
  else throw new Error(`consumer-child: unknown mode "${mode}" (serve, ops)`);
}

// consumer.ts imports OPS from this file: run only when started as a process
if (process.argv[1] === fileURLToPath(import.meta.url))
  main().catch((e) => {
    process.stderr.write(`consumer-child: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  });
