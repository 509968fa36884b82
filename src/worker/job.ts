import { variantPathOf, type WorkerJob } from './protocol.js';
import type { WorkerHost } from './host.js';
import { workloads } from '../workloads/index.js';
import { serializers } from '../serializers/index.js';
import { unitView, unitsOf } from '../workloads/unit.js';
import { caseIo, checkCase } from '../measure/gate.js';
import { makeEmptyOp, makeOp, sinkChecksum, type Op } from '../measure/sink.js';
import { measureRounds, pilot, runSample, warmup } from '../measure/timing.js';
import { measureWithProbe } from '../measure/allocation-probe.js';
import type { PreparedSerializer } from '../serializers/types.js';
import { nowNs } from '../measure/clock.js';

type Side = 'serializer' | 'baseline';

/**
 * Engine study instrumentation (branch engine, not for merging as is): with JSONBENCH_STAGE_LOG
 * set, appends `{ pid, stage, ms, cpuMs }` lines (ms = performance.now(), since process start;
 * cpuMs = process CPU so far) to that
 * file, so a suite run can say where each launch's time went.
 */
const stageLog = typeof process !== 'undefined' ? process.env?.JSONBENCH_STAGE_LOG : undefined;
let appendStage: ((line: string) => void) | undefined;
async function mark(stage: string): Promise<void> {
  if (!stageLog) return;
  if (!appendStage) { const fs = await import('node:fs'); appendStage = (line) => fs.appendFileSync(stageLog, line); }
  const u = process.cpuUsage();
  appendStage(JSON.stringify({ pid: process.pid, stage, ms: performance.now(), cpuMs: (u.user + u.system) / 1000 }) + '\n');
}


class StageError extends Error {
  constructor(readonly stage: string, readonly side: Side | undefined, message: string, readonly unsupported = false) { super(message); }
}

/**
 * Globals of Node or of the web platform that a bare engine (QuickJS) or a browser may lack: a
 * library that reaches for one where the runtime has none cannot run there (`unsupported`).
 */
const PLATFORM_GLOBAL = /^'?(process|Buffer|require|__dirname|__filename|global|setImmediate|Blob|File|TextEncoder|TextDecoder|URL|URLSearchParams|setTimeout|clearTimeout|queueMicrotask|structuredClone|crypto|fetch|atob|btoa|WeakRef|FinalizationRegistry|Intl)'? is not defined/;

async function stage<T>(name: string, side: Side | undefined, fn: () => T | Promise<T>): Promise<T> {
  try { return await fn(); } catch (e) {
    if (e instanceof StageError) throw e;
    const err = e as Error;
    const missing = err && err.name === 'ReferenceError' && typeof err.message === 'string' ? PLATFORM_GLOBAL.exec(err.message)?.[1] : undefined;
    if (missing) throw new StageError(name, side, `needs the global \`${missing}\`, which this runtime does not have (${err.message})`, true);
    const unsupported = Boolean(err && err.name === 'UnsupportedOnTarget');
    throw new StageError(name, side, err && err.message ? (unsupported ? err.message : `${err.name ?? 'Error'}: ${err.message}`) : String(e), unsupported);
  }
}

/**
 * Runs one worker job, sending protocol messages through `host.send`. Never throws: a failing
 * stage becomes an `error` message naming the stage and side (`unsupported: true` when the
 * adapter needs an API this runtime lacks).
 */
export async function runJob(job: WorkerJob, host: WorkerHost): Promise<void> {
  const t0 = nowNs();
  const send = (m: Parameters<WorkerHost['send']>[0]) => host.send(m);
  const gc = () => host.gc();
  try {
    await mark(`start ${job.mode} ${job.workload}/${job.size}/${job.shape}/${job.direction}/${job.serializer}${job.baseline ? '~' + job.baseline : ''}`);
    const loadConfig = host.loadConfig;
    const user = job.configPath && loadConfig ? await stage('load', undefined, () => loadConfig(job.configPath!)) : { serializers: [], workloads: [] };
    /** A runtime that cannot import files runs the built-ins only; a config's own entries are unsupported there. */
    const builtinOnly = (kind: string, id: string, known: readonly string[]) => {
      if (job.configPath && !loadConfig && !known.includes(id)) throw new StageError('load', undefined, `${kind} ${id} comes from a jsonbench.config, which this runtime cannot load (it has no file imports)`, true);
    };
    const workload = unitView(await stage('load', undefined, () => { builtinOnly('workload', job.workload, workloads.ids); return workloads.load(job.workload, user.workloads); }), job.shape);
    const ids: [Side, string][] = [['serializer', job.serializer]];
    if (job.baseline && job.baseline !== job.serializer) ids.push(['baseline', job.baseline]);
    const fn: Partial<Record<Side, (input: unknown) => unknown>> = {};
    const texts = await stage('load', undefined, () => [host.readText(job.payloadPath), host.readText(variantPathOf(job.payloadPath))]);
    await mark('workload loaded');
    for (const [side, id] of ids) {
      const adapter = await stage('load', side, () => { builtinOnly('serializer', id, serializers.ids); return serializers.load(id, user.serializers); });
      await mark(`adapter loaded ${side}`);
      const prepared: PreparedSerializer = await stage('prepare', side, () => adapter.prepare(workload, job.direction));
      await mark(`prepared ${side}`);
      if (prepared === null || typeof prepared !== 'object') throw new StageError('prepare', side, `prepare() returned ${prepared === null ? 'null' : typeof prepared}; it must return { serialize?, deserialize? }`);
      const call = job.direction === 'serialize' ? prepared.serialize : prepared.deserialize;
      if (typeof call !== 'function') throw new StageError('prepare', side, `prepare() returned no ${job.direction} function`);
      for (const text of texts) {
        const io = caseIo(workload, job.direction, job.caseClass, unitsOf(JSON.parse(text), job.shape));
        const failure = await stage('verify', side, () => checkCase(prepared, workload, job.direction, io));
        if (failure) { send({ type: 'incorrect', side, ...failure }); return; }
      }
      fn[side] = (input) => call.call(prepared, input as never);
      await mark(`gated ${side}`);
    }
    if (job.mode === 'verify') { send({ type: 'done', noisy: false, elapsedMs: (nowNs() - t0) / 1e6, checksum: 0 }); return; }

    // Two distinct but identical copies of the inputs, alternated by iteration (DCE guard).
    const copy = () => caseIo(workload, job.direction, job.caseClass, unitsOf(JSON.parse(texts[0]), job.shape)).inputs;
    const a = copy();
    const b = copy();
    const ops: Partial<Record<Side, Op>> = {};
    for (const side of Object.keys(fn) as Side[]) ops[side] = makeOp(fn[side]!, a, b);

    if (job.mode === 'alloc') {
      const probe = await stage('load', undefined, () => host.allocationProbe());
      await stage('warmup', 'serializer', () => warmup(ops.serializer!, job.policy));
      await mark('alloc warmup done');
      const alloc = await stage('measure', 'serializer', () => measureWithProbe(probe, ops.serializer!, job.policy));
      await mark('alloc done');
      send({ type: 'alloc', ...alloc });
      send({ type: 'done', noisy: false, elapsedMs: (nowNs() - t0) / 1e6, checksum: sinkChecksum() });
      return;
    }

    const empty = makeEmptyOp(a, b);
    const emptyOps = pilot(empty, job.policy);
    let emptyNs = Infinity;
    for (let k = 0; k < 5; k++) emptyNs = Math.min(emptyNs, runSample(empty, emptyOps));
    await mark('empty op done');

    const w: Record<string, { ops: number; ms: number }> = {};
    const opsPerSample: Record<string, number> = {};
    for (const side of Object.keys(ops) as Side[]) {
      w[side] = await stage('warmup', side, () => warmup(ops[side]!, job.policy));
      await mark(`warmup done ${side}`);
      opsPerSample[side] = await stage('warmup', side, () => pilot(ops[side]!, job.policy));
      await mark(`pilot done ${side}`);
    }
    send({
      type: 'setup',
      opsPerSample: { serializer: opsPerSample.serializer, baseline: opsPerSample.baseline ?? 0 },
      warmup: { serializerOps: w.serializer.ops, serializerMs: w.serializer.ms, baselineOps: w.baseline?.ops ?? 0, baselineMs: w.baseline?.ms ?? 0 },
      emptyNsPerOp: emptyNs,
    });
    const result = await stage('measure', undefined, () => measureRounds(
      { op: ops.serializer!, opsPerSample: opsPerSample.serializer },
      ops.baseline ? { op: ops.baseline, opsPerSample: opsPerSample.baseline } : undefined,
      job.policy, gc,
      (round, index) => send({ type: 'round', round: index, ...round }),
    ));
    await mark(`rounds done ${result.rounds} ${result.noisy ? 'noisy' : 'precise'}`);
    send({ type: 'done', noisy: result.noisy, elapsedMs: (nowNs() - t0) / 1e6, checksum: sinkChecksum() });
  } catch (e) {
    const err = e instanceof StageError ? e : new StageError('measure', undefined, String((e as Error)?.message ?? e));
    send({ type: 'error', stage: err.stage, side: err.side, message: err.message, ...(err.unsupported ? { unsupported: true } : {}) });
  }
}
