/**
 * How a finished launch is read (pure): its worker's messages and how the process ended become a
 * {@link Verdict} about its case — measured (with its record), unsupported, incorrect, or bad
 * (failed, timed out, crashed; with the rounds streamed before it).
 */
import type { Side } from '../case/coordinates.js';
import type { AllocationMeasurement } from '../case/measurements.js';
import type { LaunchRecord } from '../results/types.js';
import type { WorkerMessage } from '../worker/protocol.js';
import type { LaunchOutcome } from '../runtimes/launch.js';

/** What a finished launch says about its case. */
export type Verdict =
  | { kind: 'ok'; record: LaunchRecord; alloc?: AllocationMeasurement; loadedVersion?: string }
  | { kind: 'unsupported'; side?: Side; reason: string }
  | {
      kind: 'incorrect';
      side: Side;
      reason: string;
      mismatch: { path: string; expected: string; actual: string; when?: 'timing'; on?: 'variant' };
    }
  | { kind: 'bad'; side?: Side; status: 'failed' | 'timeout' | 'crashed'; reason: string; partial?: LaunchRecord };

/**
 * The most telling line of a dead worker's stderr: its first error line (.NET's "Stack overflow."
 * included), else a stack overflow when the tail shows one (.NET's repeated-frames block, or one
 * frame filling the tail as Mono leaves it), else its last line.
 */
export function crashLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const error = lines.find((l) => /^(\w*Error|RangeError|FATAL|Abort|Segmentation|Stack overflow|#)|Error:/.test(l));
  if (error) return error.slice(0, 300);
  const frames = lines.filter((l) => l.startsWith('at '));
  // .NET prints a stack overflow as "Stack overflow." then the repeated frames between two lines of dashes; a
  // tail may have lost the first lines but keeps the closing dashes, then the outer frames
  if (frames.length && lines.some((l) => /^-{20,}$/.test(l)))
    return `Stack overflow (the runtime's trace of repeated frames; the first in the tail: ${frames[0]})`.slice(0, 300);
  const counts = new Map<string, number>();
  for (const f of frames) counts.set(f, (counts.get(f) ?? 0) + 1);
  const [top, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  if (n >= 2 && frames.length >= lines.length * 0.8)
    return `a stack overflow? ${n} of the last ${lines.length} stderr lines are one frame: ${top}`.slice(0, 300);
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}

/** What a round may carry beside its samples (the .NET worker's CPU samples, GC and JIT counts per side; the JavaScript worker's CPU spans per side), kept as sent. */
const ROUND_EXTRAS = [
  'serializerCpuNs',
  'baselineCpuNs',
  'serializerGcs',
  'baselineGcs',
  'serializerJitMethods',
  'baselineJitMethods',
  'serializerSpan',
  'baselineSpan',
] as const;

/** The messages of type `t` a launch sent, in order. */
function messagesOf<T extends WorkerMessage['type']>(o: LaunchOutcome, t: T): Extract<WorkerMessage, { type: T }>[] {
  return o.messages.filter((m) => m.type === t) as Extract<WorkerMessage, { type: T }>[];
}

/** The raw record of launch `launch`: its setup, its rounds as sent (with their extras), how long it ran. */
function recordOf(o: LaunchOutcome, launch: number): LaunchRecord {
  const setup = messagesOf(o, 'setup')[0];
  const hello = messagesOf(o, 'hello')[0];
  const rounds = messagesOf(o, 'round').map((r) => {
    const round: LaunchRecord['rounds'][number] = {
      serializerNs: r.serializerNs,
      baselineNs: r.baselineNs,
      ...(r.serializerWallNs ? { serializerWallNs: r.serializerWallNs, baselineWallNs: r.baselineWallNs ?? [] } : {}),
    };
    for (const k of ROUND_EXTRAS) if (r[k] !== undefined) (round as Record<string, unknown>)[k] = r[k];
    return round;
  });
  return {
    launch,
    opsPerSample: setup?.opsPerSample ?? { serializer: 0, baseline: 0 },
    warmup: setup?.warmup ?? { serializerOps: 0, serializerMs: 0, baselineOps: 0, baselineMs: 0 },
    emptyNsPerOp: setup?.emptyNsPerOp ?? 0,
    rounds,
    noisy: messagesOf(o, 'done')[0]?.noisy ?? true,
    elapsedMs: o.elapsedMs,
    ...(hello ? { gc: hello.gc } : {}),
    ...(setup?.clock ? { clock: setup.clock } : {}),
  };
}

/** Reads a launch outcome: the messages, then how the process ended. */
export function judgeLaunch(o: LaunchOutcome, launch: number, timeoutMs: number): Verdict {
  const get = <T extends WorkerMessage['type']>(t: T) => messagesOf(o, t);
  const setup = get('setup')[0];
  const done = get('done')[0];
  const stage = get('stage').at(-1);
  const record = recordOf(o, launch);
  const rounds = record.rounds;
  const incorrect = get('incorrect')[0];
  if (incorrect)
    return {
      kind: 'incorrect',
      side: incorrect.side,
      reason: incorrect.reason,
      mismatch: {
        path: incorrect.path,
        expected: incorrect.expected,
        actual: incorrect.actual,
        ...(incorrect.when ? { when: incorrect.when } : {}),
        ...(incorrect.on ? { on: incorrect.on } : {}),
      },
    };
  const error = get('error')[0];
  if (error?.unsupported)
    return { kind: 'unsupported', ...(error.side ? { side: error.side } : {}), reason: error.message };
  if (error)
    return {
      kind: 'bad',
      side: error.side,
      status: 'failed',
      reason: `${error.stage}: ${error.message}`,
      partial: record,
    };
  if (o.timedOut) {
    const reached = setup
      ? `${rounds.length} round${rounds.length === 1 ? '' : 's'} measured`
      : stage
        ? `${stage.stage}${stage.side ? ` of the ${stage.side}` : ''}`
        : 'before measuring';
    return {
      kind: 'bad',
      status: 'timeout',
      reason: `no result after ${(timeoutMs / 1000).toFixed(0)} s; worker killed (stage reached: ${reached})`,
      partial: record,
    };
  }
  if (o.protocolError) return { kind: 'bad', status: 'crashed', reason: o.protocolError, partial: record };
  if (!done) {
    const how = o.signal ? `killed by ${o.signal}` : `exited with code ${o.exitCode}`;
    const tail = crashLine(o.stderrTail);
    return {
      kind: 'bad',
      status: 'crashed',
      reason: `worker ${how} before finishing${tail ? `: ${tail}` : ''}`,
      partial: record,
    };
  }
  // a worker that sent `done` and then exited non-zero (or was killed) did something after its results: not kept (issue 25)
  if (!o.timedOut && ((o.exitCode !== null && o.exitCode !== 0) || o.signal)) {
    const how = o.signal ? `was killed by ${o.signal}` : `exited with code ${o.exitCode}`;
    const tail = crashLine(o.stderrTail);
    return {
      kind: 'bad',
      status: 'crashed',
      reason: `worker ${how} after sending its results; the launch is not kept${tail ? `: ${tail}` : ''}`,
      partial: record,
    };
  }
  const alloc = get('alloc')[0];
  const library = get('library').find((m) => m.side === 'serializer');
  return {
    kind: 'ok',
    record,
    ...(library ? { loadedVersion: library.version } : {}),
    ...(alloc
      ? {
          alloc: {
            windowsBytesPerOp: alloc.windowsBytesPerOp,
            gcPerOp: alloc.gcPerOp,
            opsPerWindow: alloc.opsPerWindow,
            method: alloc.method,
            how: alloc.how,
          },
        }
      : {}),
  };
}
