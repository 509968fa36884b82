import type { LaunchOutcome } from '../../src/runtimes/launch.js';
import type { PlannedCase } from '../../src/plan/plan.js';
import type { PayloadFile } from '../../src/plan/payloads.js';
import type { CaseJob, WorkerJob, WorkerMessage } from '../../src/worker/protocol.js';
import type { LaunchPlace } from '../../src/runtimes/types.js';

/**
 * A fake worker for runner tests (hyperfine's mock executor): canned launch outcomes built from
 * hand-written samples, and a launch function that serves them by serializer and mode while
 * recording every job it was given.
 */

const P = { protocol: 1 } as const;

/** The payload every fake case points at (never read: the fake launch ignores files). */
export const payload: PayloadFile = {
  key: 'weather-station-1',
  path: '/nonexistent/weather-station-1.json',
  bytes: 409,
  sha256: 'ab'.repeat(32),
};

/** A planned serialize case of weather-station/1/single whose group baseline is `json`. */
export function planned(serializer: string, extra: Partial<PlannedCase> = {}): PlannedCase {
  return {
    id: `weather-station/1/single/serialize/${serializer}`,
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'serialize',
    caseClass: 'serialize',
    serializer,
    serializerVersion: '1.0.0',
    family: 'builtin',
    platform: 'javascript',
    baseline: 'json',
    payloadKey: payload.key,
    target: { id: 'node', runtime: 'node', version: '20.19.0' },
    status: 'planned',
    ...extra,
  } as PlannedCase;
}

function outcome(messages: WorkerMessage[], rest: Partial<LaunchOutcome> = {}): LaunchOutcome {
  const finished = messages.some((m) => m.type === 'done' || m.type === 'error' || m.type === 'incorrect');
  return {
    messages,
    exitCode: finished ? 0 : null,
    signal: null,
    timedOut: false,
    stderrTail: '',
    stdoutTail: '',
    elapsedMs: 100,
    ...rest,
  };
}

/** The messages of a timing launch up to its rounds: hello, setup, one `round` per entry. */
function roundsOf(serializerNs: number[][], baselineNs: number[][] = []): WorkerMessage[] {
  return [
    { ...P, type: 'hello', runtime: 'node', version: '20.19.0', gc: true },
    {
      ...P,
      type: 'setup',
      opsPerSample: { serializer: 1000, baseline: baselineNs.length ? 1000 : 0 },
      warmup: { serializerOps: 200, serializerMs: 20, baselineOps: 200, baselineMs: 20 },
      emptyNsPerOp: 1,
    },
    ...serializerNs.map((s, i): WorkerMessage => ({
      ...P,
      type: 'round',
      round: i,
      serializerNs: s,
      baselineNs: baselineNs[i] ?? [],
    })),
  ];
}

/** A timing launch that finished: per-round samples (ns/op) of the serializer and, if paired, its baseline. */
export function timed(serializerNs: number[][], baselineNs: number[][] = []): LaunchOutcome {
  return outcome([
    ...roundsOf(serializerNs, baselineNs),
    { ...P, type: 'done', noisy: false, elapsedMs: 90, checksum: 1 },
  ]);
}

/** Allocation windows (bytes/op): served inside the timing launch that asks for them (`job.alloc`). */
export function allocated(windowsBytesPerOp: number[]): LaunchOutcome {
  return outcome([
    { ...P, type: 'hello', runtime: 'node', version: '20.19.0', gc: true },
    {
      ...P,
      type: 'alloc',
      windowsBytesPerOp,
      gcPerOp: 0.001,
      opsPerWindow: 1000,
      method: 'exact',
      how: 'GC-corrected V8 heap accounting (node:v8 GCProfiler)',
    },
    { ...P, type: 'done', noisy: false, elapsedMs: 50, checksum: 1 },
  ]);
}

/** A launch whose serializer failed the correctness gate. */
export function incorrect(side: 'serializer' | 'baseline' = 'serializer'): LaunchOutcome {
  return outcome([
    {
      ...P,
      type: 'incorrect',
      side,
      path: '$.station_id',
      expected: '220051',
      actual: '220052',
      reason: 'output differs at $.station_id',
    },
  ]);
}

/** A cold-start launch that finished with these figures (ns). */
export function cold(
  loadNs: number,
  prepareNs: number,
  firstCallNs: number,
  cpu?: { loadNs: number; prepareNs: number; firstCallNs: number },
): LaunchOutcome {
  return outcome([
    { ...P, type: 'hello', runtime: 'node', version: '20.19.0', gc: true },
    { ...P, type: 'cold', loadNs, prepareNs, firstCallNs, ...(cpu ? { cpu } : {}) },
    { ...P, type: 'done', noisy: false, elapsedMs: 30, checksum: 1 },
  ]);
}

/** A launch that reported an error in a stage. */
export function failed(stage: string, message: string, side?: 'serializer' | 'baseline'): LaunchOutcome {
  return outcome([{ ...P, type: 'error', stage, ...(side ? { side } : {}), message }]);
}

/** A launch the host killed after the timeout, having streamed these rounds first. */
export function timedOut(serializerNs: number[][], baselineNs: number[][] = []): LaunchOutcome {
  return outcome(roundsOf(serializerNs, baselineNs), { timedOut: true, signal: 'SIGKILL' });
}

/** A launch whose process died without `done`. */
export function crashed(
  how: { exitCode?: number; signal?: NodeJS.Signals; stderrTail?: string; protocolError?: string },
  serializerNs: number[][] = [],
  baselineNs: number[][] = [],
): LaunchOutcome {
  return outcome(serializerNs.length ? roundsOf(serializerNs, baselineNs) : [], {
    exitCode: how.exitCode ?? null,
    signal: how.signal ?? null,
    stderrTail: how.stderrTail ?? '',
    ...(how.protocolError ? { protocolError: how.protocolError } : {}),
  });
}

/** What the fake serves: per `serializer/mode`, the outcomes of its successive launches (the last one repeats). */
export type Script = Record<string, LaunchOutcome[]>;

/** A launch function serving `script`, and the case jobs (with their timeouts and places) it was called with, in order. */
export function fakeLaunch(script: Script): {
  launch: (job: WorkerJob, timeoutMs: number, place?: LaunchPlace) => Promise<LaunchOutcome>;
  calls: { job: CaseJob; timeoutMs: number; place?: LaunchPlace }[];
} {
  const calls: { job: CaseJob; timeoutMs: number; place?: LaunchPlace }[] = [];
  const served = new Map<string, number>();
  return {
    calls,
    launch: async (job, timeoutMs, place) => {
      if (job.mode === 'probe') throw new Error('fake launch: serves case jobs only');
      calls.push({ job, timeoutMs, ...(place ? { place } : {}) });
      await new Promise((r) => setImmediate(r)); // a real launch yields: concurrent slots interleave
      const key = `${job.serializer}/${job.mode}`;
      const list = script[key];
      if (!list?.length) throw new Error(`fake launch: nothing scripted for ${key}`);
      const n = served.get(key) ?? 0;
      served.set(key, n + 1);
      const out = structuredClone(list[Math.min(n, list.length - 1)]);
      // a timing launch asked for allocation too carries the scripted allocation windows before its `done`
      const allocList = job.mode === 'time' && job.alloc ? script[`${job.serializer}/alloc`] : undefined;
      const alloc = allocList?.[0].messages.find((m) => m.type === 'alloc');
      const done = out.messages.findIndex((m) => m.type === 'done');
      if (alloc && done >= 0) out.messages.splice(done, 0, structuredClone(alloc));
      return out;
    },
  };
}
