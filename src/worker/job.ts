import { variantPathOf, type Side } from '../case/coordinates.js';
import type { CaseJob, WorkerJob } from './protocol.js';
import type { WorkerHost } from './host.js';
import { workloads } from '../workloads/index.js';
import { caseWorkload, userEntriesFor } from './case-context.js';
import { serializers } from '../serializers/index.js';
import { prepareCase, type PreparedCase } from '../measure/prepare-case.js';
import { pairSeal } from './job-seal.js';
import { runStreak, TimedCheckFailure, type SideChecks } from '../measure/timed-check.js';
import { makeEmptyOp, makeOp, sinkChecksum, type Op } from '../measure/sink.js';
import { measureGroupRounds, measureRounds, pilot, runSample, useClock, warmup } from '../measure/timing.js';
import { measureWithProbe } from '../measure/allocation-probe.js';
import { nowNs } from '../measure/clock.js';
import { runColdJob } from './cold.js';
import { checkChangedInPlace } from '../measure/in-place.js';
import { describeThrown, messageOfThrown } from '../host/describe-thrown.js';

class StageError extends Error {
  constructor(
    readonly stage: string,
    readonly side: Side | undefined,
    message: string,
    readonly unsupported = false,
  ) {
    super(message);
  }
}

/**
 * Globals of Node or of the web platform that a bare engine (QuickJS) or a browser may lack: a
 * library that reaches for one where the runtime has none cannot run there (`unsupported`).
 */
const PLATFORM_GLOBAL =
  /^'?(process|Buffer|require|__dirname|__filename|global|setImmediate|Blob|File|TextEncoder|TextDecoder|URL|URLSearchParams|setTimeout|clearTimeout|queueMicrotask|structuredClone|crypto|fetch|atob|btoa|WeakRef|FinalizationRegistry|Intl)'? is not defined/;

/** A runtime that cannot import files runs the built-ins only; a config's own entries are unsupported there. @throws StageError (unsupported) */
function builtinOnlyCheck(
  job: CaseJob,
  loadConfig: WorkerHost['loadConfig'],
): (kind: string, id: string, known: readonly string[]) => void {
  return (kind, id, known) => {
    if (job.configPath && !loadConfig && !known.includes(id))
      throw new StageError(
        'load',
        undefined,
        `${kind} ${id} comes from a jsonbench.config, which this runtime cannot load (it has no file imports)`,
        true,
      );
  };
}

async function stage<T>(name: string, side: Side | undefined, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (thrown) {
    if (ownFailure(thrown)) throw thrown;
    const e = plainThrown(thrown);
    const err = e as Error;
    const missing =
      err && err.name === 'ReferenceError' && typeof err.message === 'string'
        ? PLATFORM_GLOBAL.exec(err.message)?.[1]
        : undefined;
    if (missing)
      throw new StageError(
        name,
        side,
        `needs the global \`${missing}\`, which this runtime does not have (${err.message})`,
        true,
      );
    const unsupported = Boolean(err && err.name === 'UnsupportedOnTarget');
    const tooDeep =
      err instanceof RangeError && /call stack/i.test(err.message)
        ? " (the payload or schema is nested deeper than this code's recursion can follow)"
        : '';
    throw new StageError(
      name,
      side,
      err && err.message
        ? unsupported
          ? err.message
          : `${err.name ?? 'Error'}: ${err.message}${tooDeep}`
        : `threw ${describeThrown(e)}${e === null || (typeof e !== 'object' && typeof e !== 'function') ? ', not an Error' : ''}`,
      unsupported,
    );
  }
}

/**
 * What adapter code threw, safe to read: an Error as it is; anything else (null, a string, an object
 * whose `message` getter throws, one with no toString) as a plain `{ name, message }` or its text.
 */

/**
 * Whether `thrown` is one of the job's own failures (StageError, TimedCheckFailure), asked without letting the value
 * run code: `instanceof` calls a Proxy's getPrototypeOf trap (hx18 A04: a serializer threw a Proxy whose trap threw
 * "trap2", and the case read "failed: measure: trap2").
 */
function ownFailure(thrown: unknown): boolean {
  return isA(thrown, StageError) || isA(thrown, TimedCheckFailure);
}

/** `value instanceof C`, false where asking throws (a Proxy's getPrototypeOf trap). */
function isA<T>(value: unknown, C: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof C;
  } catch {
    return false;
  }
}

function plainThrown(e: unknown): unknown {
  if (e === null || (typeof e !== 'object' && typeof e !== 'function')) return e;
  try {
    const { name, message } = e as { name?: unknown; message?: unknown };
    if (e instanceof Error && typeof message === 'string') return e;
    return typeof message === 'string'
      ? { name: typeof name === 'string' ? name : 'Error', message }
      : Object.prototype.toString.call(e);
  } catch {
    return 'an object whose properties throw when read';
  }
}

/** A job's protocol senders: any message, and a `stage` message when a stage begins. */
interface JobIo {
  send: (m: Parameters<WorkerHost['send']>[0]) => void;
  enter: (stage: 'load' | 'prepare' | 'verify' | 'warmup', side?: Side) => void;
}

function jobIo(host: WorkerHost): JobIo {
  const send = (m: Parameters<WorkerHost['send']>[0]) => host.send(m);
  return { send, enter: (stage, side) => send({ type: 'stage', stage, ...(side ? { side } : {}) }) };
}

/**
 * The `incorrect` or `error` message of what ended a job (a timed check that failed, a stage that
 * threw); in a group launch an `incorrect` names the serializer whose check failed.
 */
function sendJobEnd(send: JobIo['send'], e: unknown, group = false): void {
  if (isA(e, TimedCheckFailure)) {
    send({
      type: 'incorrect',
      ...(group ? { serializer: (e as { serializerId?: string }).serializerId } : {}),
      side: e.side,
      ...e.failure,
      when: 'timing',
    });
    return;
  }
  const err = isA(e, StageError) ? e : new StageError('measure', undefined, messageOfThrown(e));
  send({
    type: 'error',
    stage: err.stage,
    side: err.side,
    message: err.message,
    ...(err.unsupported ? { unsupported: true } : {}),
  });
}

/**
 * Loads the case's workload, payload texts (the payload and the gate's variant) and sides
 * (serializer, and the baseline unless it is the serializer), prepares each and gates it on both
 * texts. Null when a side failed its gate (the `incorrect` message is sent).
 * @throws StageError from a stage
 */
async function loadAndGate(
  job: CaseJob,
  host: WorkerHost,
  { send, enter }: JobIo,
): Promise<{ texts: string[]; sides: Partial<Record<Side, PreparedCase>> } | null> {
  enter('load');
  const loadConfig = host.loadConfig;
  const user = await stage('load', undefined, () =>
    userEntriesFor(job, host, [job.serializer, ...(job.baseline ? [job.baseline] : [])]),
  );
  const builtinOnly = builtinOnlyCheck(job, loadConfig);
  const workload = await stage('load', undefined, () =>
    caseWorkload(job, user, () => builtinOnly('workload', job.workload, workloads.ids)),
  );
  const ids: [Side, string][] = [['serializer', job.serializer]];
  if (job.baseline && job.baseline !== job.serializer) ids.push(['baseline', job.baseline]);
  const sides: Partial<Record<Side, PreparedCase>> = {};
  const texts = await stage('load', undefined, () => [
    host.readText(job.payloadPath),
    host.readText(variantPathOf(job.payloadPath)),
  ]);
  for (const [side, id] of ids) {
    const adapter = await stage('load', side, () => {
      builtinOnly('serializer', id, serializers.ids);
      return serializers.load(id, user.serializers);
    });
    enter('prepare', side);
    const prepared = await stage('prepare', side, () =>
      prepareCase(adapter, workload, {
        shape: job.shape,
        direction: job.direction,
        caseClass: job.caseClass,
        serializeTo: job.policy.serializeTo,
      }),
    );
    enter('verify', side);
    for (const [i, text] of texts.entries()) {
      const failure = await stage('verify', side, () => prepared.check(text));
      if (failure) {
        send({ type: 'incorrect', side, ...failure, ...onVariant(i) });
        return null;
      }
    }
    sides[side] = prepared;
  }
  return { texts, sides };
}

/**
 * After a case's timed rounds: its allocation windows when asked (`alloc` message), then the
 * changed-in-place check (serialize) and the cache checks of each side.
 * @param a the input copy the ops alternate on (the changed-in-place check changes it), `b` the other
 * @throws StageError, TimedCheckFailure
 */
async function afterRounds(
  job: CaseJob,
  host: WorkerHost,
  send: JobIo['send'],
  sides: Partial<Record<Side, PreparedCase>>,
  serializerOp: Op,
  texts: string[],
  a: unknown[],
  b: unknown[],
  timed: Record<Side, number[]>,
): Promise<void> {
  // Allocation in this process, after the timed rounds (bytes/op within ~1% of a separate
  // process's on 70 seed cases: issue 13's study, benchmarks/engine/q3-alloc.mjs) and before the
  // changed-in-place check, which leaves the copy `a` the op alternates on changed.
  if (job.alloc) {
    const probe = await stage('load', undefined, () => host.allocationProbe());
    const alloc = await stage('measure', 'serializer', () => measureWithProbe(probe, serializerOp, job.policy));
    send({ type: 'alloc', ...alloc });
  }
  // a run of calls back to back, every result compared (measure/timed-check.ts runStreak): wrong on one call in N
  for (const side of Object.keys(sides) as Side[])
    await stage('measure', side, () => streakCheck(sides[side]!, side, job.direction, texts[0], a, b));
  // a result cached per input object is timed at lookup speed on the two reused copies (measure/in-place.ts)
  if (job.direction === 'serialize') {
    const s = sides.serializer!;
    const variant = await stage('measure', 'serializer', () => s.inputs(texts[1]));
    await stage('measure', 'serializer', () =>
      checkChangedInPlace(a, variant, s.call, s.timedChecks('serializer', texts[1], [a, b])),
    );
  }
  // caches keyed on the input, by behaviour (measure/cache-checks.ts), on the copy `b` the changed-in-place check left alone
  for (const side of Object.keys(sides) as Side[]) {
    const failure = await stage('measure', side, () =>
      sides[side]!.cacheChecks(texts[0], b, timed[side], side === 'serializer' ? timed.baseline : undefined),
    );
    if (failure) throw new TimedCheckFailure(side, failure);
  }
}

/**
 * After a side's timed rounds: {@link runStreak}'s calls back to back on the copies `a` and `b` (before the
 * changed-in-place check changes `a`), each result then compared with what the gate accepted (`text`: the payload
 * text the rounds were timed on). `id`: the serializer's, in a group launch (its failure is tagged with it).
 * @throws TimedCheckFailure on the first wrong result
 */
function streakCheck(
  p: PreparedCase,
  side: Side,
  direction: CaseJob['direction'],
  text: string,
  a: unknown[],
  b: unknown[],
  id?: string,
): void {
  const perCall = (text.length / Math.max(1, a.length)) * (direction === 'serialize' ? 1 : 16);
  const results = runStreak(p.call, [a, b], perCall);
  const checks = p.timedChecks(side, text, [a, b]);
  (id ? tagged(id, checks) : checks).streak?.(results, 'calls back to back after the timed rounds');
}

/** The best (lowest) of five samples of the empty op, ns/op: the floor a case's mean is read against. */
function emptyOpNs(a: unknown[], b: unknown[], policy: CaseJob['policy']): number {
  const empty = makeEmptyOp(a, b);
  const emptyOps = pilot(empty, policy);
  let emptyNs = Infinity;
  for (let k = 0; k < 5; k++) emptyNs = Math.min(emptyNs, runSample(empty, emptyOps));
  return emptyNs;
}

/**
 * Runs one worker job, sending protocol messages through `host.send`. Never throws: a failing
 * stage becomes an `error` message naming the stage and side (`unsupported: true` when the
 * adapter needs an API this runtime lacks). A probe job runs in worker/probe-job.ts.
 */
export async function runJob(job: WorkerJob, host: WorkerHost): Promise<void> {
  if (job.mode === 'probe') {
    // Loaded only by probe launches: a timed launch never evaluates the probe catalog.
    const { runProbeJob } = await import('./probe-job.js');
    return runProbeJob(job, host);
  }
  if (job.mode === 'cold') return runColdJob(job, host);
  if (job.mode === 'time' && job.baseline && job.serializers?.length)
    return runGroupJob(job, host, job.baseline, job.serializers);
  const t0 = nowNs();
  // before any user code: a change to what the baseline calls fails the serializer (./job-seal.ts)
  const seal = pairSeal(job);
  const io = jobIo(host);
  const { send, enter } = io;
  const gc = () => host.gc();
  try {
    const ready = await loadAndGate(job, host, io);
    if (!ready) return;
    const { texts, sides } = ready;
    seal.check('while loaded, prepared and checked');
    if (job.mode === 'verify') {
      send({ type: 'done', noisy: false, elapsedMs: (nowNs() - t0) / 1e6, checksum: 0 });
      return;
    }
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
    const emptyNs = emptyOpNs(a, b, job.policy);

    const w: Record<string, { ops: number; ms: number }> = {};
    const opsPerSample: Record<string, number> = {};
    for (const side of Object.keys(ops) as Side[]) {
      w[side] = await stage('warmup', side, () => warm(side));
      opsPerSample[side] = await stage('warmup', side, () => pilot(ops[side]!, job.policy, checks[side]));
    }
    send({
      type: 'setup',
      opsPerSample: { serializer: opsPerSample.serializer, baseline: opsPerSample.baseline ?? 0 },
      warmup: {
        serializerOps: w.serializer.ops,
        serializerMs: w.serializer.ms,
        baselineOps: w.baseline?.ops ?? 0,
        baselineMs: w.baseline?.ms ?? 0,
      },
      emptyNsPerOp: emptyNs,
      clock,
    });
    // every sample's ns per op, per side: the cost check compares calls on the timed input with them (cache-checks.ts slowerThanTimed)
    const timed: Record<Side, number[]> = { serializer: [], baseline: [] };
    const result = await stage('measure', undefined, () =>
      measureRounds(
        { op: ops.serializer!, opsPerSample: opsPerSample.serializer, checks: checks.serializer },
        ops.baseline ? { op: ops.baseline, opsPerSample: opsPerSample.baseline, checks: checks.baseline } : undefined,
        job.policy,
        gc,
        (round, index) => {
          seal.check(`by round ${index + 1}`);
          timed.serializer.push(...round.serializerNs);
          timed.baseline.push(...(round.baselineNs ?? []));
          send({ type: 'round', round: index, ...round });
        },
      ),
    );
    await afterRounds(job, host, send, sides, ops.serializer!, texts, a, b, timed);
    seal.check('by the end of the launch');
    send({ type: 'done', noisy: result.noisy, elapsedMs: (nowNs() - t0) / 1e6, checksum: sinkChecksum() });
  } catch (e) {
    sendJobEnd(send, e);
  }
}

/** Reports a failure of one side of a group launch (`incorrect` or `error` naming it); true when it was the baseline (the launch ends). */
type GroupReport = (e: unknown, id: string, side: Side) => boolean;

function groupReporter(send: JobIo['send']): GroupReport {
  return (e, id, side) => {
    if (isA(e, TimedCheckFailure)) send({ type: 'incorrect', serializer: id, side, ...e.failure, when: 'timing' });
    else {
      const err = isA(e, StageError) ? e : new StageError('measure', side, messageOfThrown(e));
      send({
        type: 'error',
        serializer: id,
        stage: err.stage,
        side,
        message: err.message,
        ...(err.unsupported ? { unsupported: true } : {}),
      });
    }
    return side === 'baseline';
  };
}

/**
 * Loads, prepares and gates the baseline, then each serializer of a group launch (see
 * {@link runGroupJob}). Null when the baseline failed (the launch ends); a serializer that fails
 * is reported and left out of the map.
 * @throws StageError from loading the workload or the payload texts
 */
async function loadAndGateGroup(
  job: CaseJob,
  host: WorkerHost,
  baselineId: string,
  ids: readonly string[],
  { send, enter }: JobIo,
  report: GroupReport,
): Promise<{ texts: string[]; prepared: Map<string, PreparedCase> } | null> {
  enter('load');
  const loadConfig = host.loadConfig;
  // the host groups built-ins only, so a group launch never loads the user's config
  const user = await stage('load', undefined, () => userEntriesFor(job, host, [baselineId, ...ids]));
  const builtinOnly = builtinOnlyCheck(job, loadConfig);
  const workload = await stage('load', undefined, () =>
    caseWorkload(job, user, () => builtinOnly('workload', job.workload, workloads.ids)),
  );
  const texts = await stage('load', undefined, () => [
    host.readText(job.payloadPath),
    host.readText(variantPathOf(job.payloadPath)),
  ]);
  const shape = {
    shape: job.shape,
    direction: job.direction,
    caseClass: job.caseClass,
    serializeTo: job.policy.serializeTo,
  };
  const prepared = new Map<string, PreparedCase>();
  for (const [id, side] of [[baselineId, 'baseline'], ...ids.map((x) => [x, 'serializer'])] as [string, Side][]) {
    try {
      const adapter = await stage('load', side, () => {
        builtinOnly('serializer', id, serializers.ids);
        return serializers.load(id, user.serializers);
      });
      enter('prepare', side);
      const p = await stage('prepare', side, () => prepareCase(adapter, workload, shape));
      enter('verify', side);
      let failure = null;
      for (const [i, text] of texts.entries()) {
        failure = await stage('verify', side, () => p.check(text));
        if (failure) {
          send({ type: 'incorrect', serializer: id, side, ...failure, ...onVariant(i) });
          break;
        }
      }
      if (failure) {
        if (side === 'baseline') return null;
        continue;
      }
      prepared.set(id, p);
    } catch (e) {
      if (report(e, id, side)) return null;
    }
  }
  return { texts, prepared };
}

/** One side of a group launch, warmed up and piloted. */
interface LiveSide {
  id: string;
  side: Side;
  op: Op;
  checks: SideChecks;
  warm: { ops: number; ms: number };
  opsPerSample: number;
}

/** Warms up and pilots each prepared side on the input copies `a` and `b`; null when the baseline failed (reported). */
async function warmGroup(
  job: CaseJob,
  prepared: ReadonlyMap<string, PreparedCase>,
  baselineId: string,
  text: string,
  a: unknown[],
  b: unknown[],
  report: GroupReport,
): Promise<LiveSide[] | null> {
  const live: LiveSide[] = [];
  for (const [id, p] of prepared) {
    const side: Side = id === baselineId ? 'baseline' : 'serializer';
    try {
      const op = makeOp(p.call, a, b);
      const checks = tagged(id, p.timedChecks(side, text, [a, b]));
      const warm = await stage('warmup', side, () => warmup(op, job.policy, checks));
      const opsPerSample = await stage('warmup', side, () => pilot(op, job.policy, checks));
      live.push({ id, side, op, checks, warm, opsPerSample });
    } catch (e) {
      if (report(e, id, side)) return null;
    }
  }
  return live;
}

/** The `setup` message of each side of a group launch: the baseline's alone, each serializer's with the baseline's figures. */
function sendGroupSetups(
  send: JobIo['send'],
  base: LiveSide,
  others: readonly LiveSide[],
  emptyNs: number,
  clock: ReturnType<typeof useClock>,
): void {
  send({
    type: 'setup',
    serializer: base.id,
    opsPerSample: { serializer: base.opsPerSample, baseline: 0 },
    warmup: { serializerOps: base.warm.ops, serializerMs: base.warm.ms, baselineOps: 0, baselineMs: 0 },
    emptyNsPerOp: emptyNs,
    clock,
  });
  for (const o of others) {
    send({
      type: 'setup',
      serializer: o.id,
      opsPerSample: { serializer: o.opsPerSample, baseline: base.opsPerSample },
      warmup: {
        serializerOps: o.warm.ops,
        serializerMs: o.warm.ms,
        baselineOps: base.warm.ops,
        baselineMs: base.warm.ms,
      },
      emptyNsPerOp: emptyNs,
      clock,
    });
  }
}

/**
 * After a group launch's rounds, per side: allocation windows when asked, the changed-in-place
 * check (serialize) and the cache checks; a side that fails one is reported (incorrect alone) and
 * skips the rest.
 */
async function groupAfterRounds(
  job: CaseJob,
  host: WorkerHost,
  send: JobIo['send'],
  live: readonly LiveSide[],
  prepared: ReadonlyMap<string, PreparedCase>,
  texts: string[],
  a: unknown[],
  b: unknown[],
  report: GroupReport,
  timed: ReadonlyMap<string, number[]>,
): Promise<void> {
  // allocation before the changed-in-place check, which changes the copy `a` the ops alternate on
  const failed = new Set<string>();
  if (job.alloc) {
    const probe = await stage('load', undefined, () => host.allocationProbe());
    for (const l of live) {
      try {
        send({ type: 'alloc', serializer: l.id, ...measureWithProbe(probe, l.op, job.policy) });
      } catch (e) {
        report(e, l.id, l.side);
        failed.add(l.id);
      }
    }
  }
  // a run of calls back to back, every result compared (measure/timed-check.ts runStreak), per side
  for (const l of live.filter((x) => !failed.has(x.id)))
    try {
      streakCheck(prepared.get(l.id)!, l.side, job.direction, texts[0], a, b, l.id);
    } catch (e) {
      report(e, l.id, l.side);
      failed.add(l.id);
    }
  // a result cached per input object (measure/in-place.ts), per side: one that fails is incorrect alone
  if (job.direction === 'serialize')
    for (const l of live.filter((x) => !failed.has(x.id))) {
      try {
        const p = prepared.get(l.id)!;
        checkChangedInPlace(a, p.inputs(texts[1]), p.call, tagged(l.id, p.timedChecks(l.side, texts[1], [a, b])));
      } catch (e) {
        report(e, l.id, l.side);
        failed.add(l.id);
      }
    }
  // caches keyed on the input, by behaviour (measure/cache-checks.ts), per side on the copy `b`: one that fails is incorrect alone
  for (const l of live.filter((x) => !failed.has(x.id))) {
    try {
      const baseline = live.find((x) => x.side === 'baseline');
      const failure = prepared
        .get(l.id)!
        .cacheChecks(
          texts[0],
          b,
          timed.get(l.id),
          l.side === 'serializer' && baseline ? timed.get(baseline.id) : undefined,
        );
      if (failure) report(new TimedCheckFailure(l.side, failure), l.id, l.side);
    } catch (e) {
      report(e, l.id, l.side);
    }
  }
}

/**
 * A group launch: the baseline and `ids` (serializers of its class) in this one process. Each side is
 * loaded, prepared and gated in turn (baseline first); a serializer that fails its gate or a stage
 * is reported (`incorrect`/`error` naming it) and left out while the others go on; a baseline that
 * fails ends the launch (the host then measures the group's cases one by one). Then warmup and
 * pilot per side, group rounds (measureGroupRounds), allocation windows per side when asked (after
 * the rounds), and `done` with the sides that met the error target. Never throws.
 */
async function runGroupJob(job: CaseJob, host: WorkerHost, baselineId: string, ids: readonly string[]): Promise<void> {
  const t0 = nowNs();
  const io = jobIo(host);
  const { send, enter } = io;
  const gc = () => host.gc();
  const report = groupReporter(send);
  try {
    const ready = await loadAndGateGroup(job, host, baselineId, ids, io, report);
    if (!ready) return;
    const { texts, prepared } = ready;
    const baseCase = prepared.get(baselineId)!;
    enter('warmup');
    const a = baseCase.inputs(texts[0]);
    const b = baseCase.inputs(texts[0]);
    const clock = useClock('cpu');
    const emptyNs = emptyOpNs(a, b, job.policy);
    const live = await warmGroup(job, prepared, baselineId, texts[0], a, b, report);
    if (!live) return;
    const base = live.find((l) => l.side === 'baseline')!;
    const others = live.filter((l) => l.side === 'serializer');
    sendGroupSetups(send, base, others, emptyNs, clock);
    const wall = clock === 'cpu';
    // every sample's ns per op, per serializer id: the cost check compares calls on the timed input with them
    const timed = new Map<string, number[]>([base, ...others].map((l) => [l.id, []]));
    const result = await stage('measure', undefined, () =>
      measureGroupRounds(base, others, job.policy, gc, (round, index) => {
        timed.get(base.id)!.push(...round.baseline.ns);
        round.sides.forEach((x, i) => timed.get(others[i].id)!.push(...x.ns));
        send({
          type: 'round',
          serializer: baselineId,
          round: index,
          serializerNs: round.baseline.ns,
          baselineNs: [],
          ...(wall ? { serializerWallNs: round.baseline.wallNs, baselineWallNs: [] } : {}),
          ...(round.baseline.span ? { serializerSpan: round.baseline.span } : {}),
        });
        round.sides.forEach((x, i) =>
          send({
            type: 'round',
            serializer: others[i].id,
            round: index,
            serializerNs: x.ns,
            baselineNs: round.baseline.ns,
            ...(wall ? { serializerWallNs: x.wallNs, baselineWallNs: round.baseline.wallNs } : {}),
            ...(x.span ? { serializerSpan: x.span } : {}),
            ...(round.baseline.span ? { baselineSpan: round.baseline.span } : {}),
          }),
        );
      }),
    );
    await groupAfterRounds(job, host, send, live, prepared, texts, a, b, report, timed);
    const precise = [
      ...(result.baselinePrecise ? [baselineId] : []),
      ...others.filter((_, i) => result.precise[i]).map((o) => o.id),
    ];
    send({ type: 'done', noisy: result.noisy, elapsedMs: (nowNs() - t0) / 1e6, checksum: sinkChecksum(), precise });
  } catch (e) {
    sendJobEnd(send, e, true);
  }
}

/**
 * Which payload a gate failure was found on, from the index of the text checked: the second is the gate's
 * variant (another seed, hostile strings in its plain-string fields: plan/payloads.ts), sent as the
 * `incorrect` message's `on` (results keep it as `mismatch.on`; reports say it first: report/reason.ts).
 */
function onVariant(i: number): { on?: 'variant' } {
  return i === 1 ? { on: 'variant' } : {};
}

/** A side's timed checks whose failures carry the serializer's id (`serializerId`), so a group launch names the side that changed. */
function tagged(id: string, checks: SideChecks): SideChecks {
  const wrap =
    <A extends unknown[], R>(f: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return f(...args);
      } catch (e) {
        if (isA(e, TimedCheckFailure)) Object.assign(e, { serializerId: id });
        throw e;
      }
    };
  return {
    quick: wrap(checks.quick),
    full: wrap(checks.full),
    roundEnd: wrap(checks.roundEnd),
    ...(checks.roundChange ? { roundChange: checks.roundChange } : {}),
    inputs: wrap(checks.inputs),
    ...(checks.unlocked ? { unlocked: wrap(checks.unlocked) } : {}),
    ...(checks.distinct ? { distinct: wrap(checks.distinct) } : {}),
    ...(checks.picked ? { picked: wrap(checks.picked) } : {}),
    ...(checks.streak ? { streak: wrap(checks.streak) } : {}),
  };
}
