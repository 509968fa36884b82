import { variantPathOf, type Side } from '../case/coordinates.js';
import type { WorkerJob } from './protocol.js';
import type { WorkerHost } from './host.js';
import { workloads } from '../workloads/index.js';
import { serializers } from '../serializers/index.js';
import { prepareCase, type PreparedCase } from '../measure/prepare-case.js';
import { TimedCheckFailure, type SideChecks } from '../measure/timed-check.js';
import { makeEmptyOp, makeOp, sinkChecksum, type Op } from '../measure/sink.js';
import { measureRounds, pilot, runSample, useClock, warmup } from '../measure/timing.js';
import { measureWithProbe } from '../measure/allocation-probe.js';
import { nowNs } from '../measure/clock.js';
import { runColdJob } from './cold.js';

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
    if (e instanceof StageError || e instanceof TimedCheckFailure) throw e;
    const err = e as Error;
    const missing = err && err.name === 'ReferenceError' && typeof err.message === 'string' ? PLATFORM_GLOBAL.exec(err.message)?.[1] : undefined;
    if (missing) throw new StageError(name, side, `needs the global \`${missing}\`, which this runtime does not have (${err.message})`, true);
    const unsupported = Boolean(err && err.name === 'UnsupportedOnTarget');
    const tooDeep = err instanceof RangeError && /call stack/i.test(err.message) ? ' (the payload or schema is nested deeper than this code\'s recursion can follow)' : '';
    throw new StageError(name, side, err && err.message ? (unsupported ? err.message : `${err.name ?? 'Error'}: ${err.message}${tooDeep}`) : String(e), unsupported);
  }
}

/**
 * Runs one worker job, sending protocol messages through `host.send`. Never throws: a failing
 * stage becomes an `error` message naming the stage and side (`unsupported: true` when the
 * adapter needs an API this runtime lacks).
 */
export async function runJob(job: WorkerJob, host: WorkerHost): Promise<void> {
  if (job.mode === 'cold') return runColdJob(job, host);
  const t0 = nowNs();
  const send = (m: Parameters<WorkerHost['send']>[0]) => host.send(m);
  const gc = () => host.gc();
  const enter = (stage: 'load' | 'prepare' | 'verify' | 'warmup', side?: Side) => send({ type: 'stage', stage, ...(side ? { side } : {}) });
  try {
    enter('load');
    const loadConfig = host.loadConfig;
    const user = job.configPath && loadConfig ? await stage('load', undefined, () => loadConfig(job.configPath!)) : { serializers: [], workloads: [] };
    /** A runtime that cannot import files runs the built-ins only; a config's own entries are unsupported there. */
    const builtinOnly = (kind: string, id: string, known: readonly string[]) => {
      if (job.configPath && !loadConfig && !known.includes(id)) throw new StageError('load', undefined, `${kind} ${id} comes from a jsonbench.config, which this runtime cannot load (it has no file imports)`, true);
    };
    const workload = await stage('load', undefined, () => { builtinOnly('workload', job.workload, workloads.ids); return workloads.load(job.workload, user.workloads); });
    const ids: [Side, string][] = [['serializer', job.serializer]];
    if (job.baseline && job.baseline !== job.serializer) ids.push(['baseline', job.baseline]);
    const sides: Partial<Record<Side, PreparedCase>> = {};
    const texts = await stage('load', undefined, () => [host.readText(job.payloadPath), host.readText(variantPathOf(job.payloadPath))]);
    for (const [side, id] of ids) {
      const adapter = await stage('load', side, () => { builtinOnly('serializer', id, serializers.ids); return serializers.load(id, user.serializers); });
      enter('prepare', side);
      const prepared = await stage('prepare', side, () => prepareCase(adapter, workload, { shape: job.shape, direction: job.direction, caseClass: job.caseClass, serializeTo: job.policy.serializeTo }));
      enter('verify', side);
      for (const text of texts) {
        const failure = await stage('verify', side, () => prepared.check(text));
        if (failure) { send({ type: 'incorrect', side, ...failure }); return; }
      }
      sides[side] = prepared;
    }
    if (job.mode === 'verify') { send({ type: 'done', noisy: false, elapsedMs: (nowNs() - t0) / 1e6, checksum: 0 }); return; }
    enter('warmup');

    // Two distinct but identical copies of the inputs, alternated by iteration (DCE guard).
    const a = sides.serializer!.inputs(texts[0]);
    const b = sides.serializer!.inputs(texts[0]);
    const ops: Partial<Record<Side, Op>> = {};
    // Results and inputs are checked between samples too (measure/timed-check.ts).
    const checks: Partial<Record<Side, SideChecks>> = {};
    for (const side of Object.keys(sides) as Side[]) {
      ops[side] = makeOp(sides[side]!.call, a, b);
      checks[side] = sides[side]!.timedChecks(side, texts[0], [a, b]);
    }
    const warm = (side: Side) => warmup(ops[side]!, job.policy, checks[side]);

    if (job.mode === 'alloc') {
      const probe = await stage('load', undefined, () => host.allocationProbe());
      await stage('warmup', 'serializer', () => warm('serializer'));
      const alloc = await stage('measure', 'serializer', () => measureWithProbe(probe, ops.serializer!, job.policy));
      send({ type: 'alloc', ...alloc });
      send({ type: 'done', noisy: false, elapsedMs: (nowNs() - t0) / 1e6, checksum: sinkChecksum() });
      return;
    }

    const clock = useClock('cpu');
    const empty = makeEmptyOp(a, b);
    const emptyOps = pilot(empty, job.policy);
    let emptyNs = Infinity;
    for (let k = 0; k < 5; k++) emptyNs = Math.min(emptyNs, runSample(empty, emptyOps));

    const w: Record<string, { ops: number; ms: number }> = {};
    const opsPerSample: Record<string, number> = {};
    for (const side of Object.keys(ops) as Side[]) {
      w[side] = await stage('warmup', side, () => warm(side));
      opsPerSample[side] = await stage('warmup', side, () => pilot(ops[side]!, job.policy, checks[side]));
    }
    send({
      type: 'setup',
      opsPerSample: { serializer: opsPerSample.serializer, baseline: opsPerSample.baseline ?? 0 },
      warmup: { serializerOps: w.serializer.ops, serializerMs: w.serializer.ms, baselineOps: w.baseline?.ops ?? 0, baselineMs: w.baseline?.ms ?? 0 },
      emptyNsPerOp: emptyNs,
      clock,
    });
    const result = await stage('measure', undefined, () => measureRounds(
      { op: ops.serializer!, opsPerSample: opsPerSample.serializer, checks: checks.serializer },
      ops.baseline ? { op: ops.baseline, opsPerSample: opsPerSample.baseline, checks: checks.baseline } : undefined,
      job.policy, gc,
      (round, index) => send({ type: 'round', round: index, ...round }),
    ));
    // Allocation in this process, after the timed rounds (bytes/op within ~1% of a separate
    // process's on 70 seed cases: issue 13's study, benchmarks/engine/q3-alloc.mjs).
    if (job.alloc) {
      const probe = await stage('load', undefined, () => host.allocationProbe());
      const alloc = await stage('measure', 'serializer', () => measureWithProbe(probe, ops.serializer!, job.policy));
      send({ type: 'alloc', ...alloc });
    }
    send({ type: 'done', noisy: result.noisy, elapsedMs: (nowNs() - t0) / 1e6, checksum: sinkChecksum() });
  } catch (e) {
    if (e instanceof TimedCheckFailure) { send({ type: 'incorrect', side: e.side, ...e.failure, when: 'timing' }); return; }
    const err = e instanceof StageError ? e : new StageError('measure', undefined, String((e as Error)?.message ?? e));
    send({ type: 'error', stage: err.stage, side: err.side, message: err.message, ...(err.unsupported ? { unsupported: true } : {}) });
  }
}
