/**
 * The worker for Node-like runtimes (Node, Bun, Deno): one process per case launch. Reads a
 * {@link StartMessage} from stdin, then runs the job (worker/job.ts), streaming
 * {@link WorkerMessage}s on file descriptor 3 (see protocol.ts). Deno cannot write to an inherited
 * fd 3, so there the channel is stdout and everything else a library prints through `console` or
 * `process.stdout` goes to stderr (same messages, another pipe; the host knows which per target).
 * Started with `--expose-gc` (Node; Deno through `--v8-flags`); Bun collects through `Bun.gc`.
 * Runs as compiled (build/src/worker/main.js) or bundled into one file per target kind.
 */
import { readFileSync, readSync, writeSync as importedWriteSync } from 'node:fs';
import {
  encodeMessage,
  PROTOCOL_VERSION,
  sealLine,
  type MessageMac,
  type StartMessage,
  type WorkerJob,
} from './protocol.js';
import { channelMac } from './channel-key.js';
import { runJob } from './job.js';
import type { OutgoingMessage, WorkerHost } from './host.js';
import type { AllocationProbe } from '../measure/allocation-probe.js';
import type { V8Module } from '../measure/allocation.js';
import { loadUserConfig } from '../config/user-config.js';
import { describeThrown } from '../host/describe-thrown.js';
import { screenStacks } from './stack-screen.js';

/** What the globals say about the runtime this worker runs in. */
interface RuntimeGlobals {
  Deno?: { version: { deno: string; v8: string }; stdout: { writeSync(b: Uint8Array): number } };
  Bun?: { version: string; gc(force: boolean): void };
  gc?: () => void;
}
const g = globalThis as RuntimeGlobals;
const CHANNEL_FD = 3;

/*
 * Everything the channel's send path calls is taken here, when this module loads — before any
 * adapter or config code runs in this process — so code that later replaces TextEncoder, fs,
 * Deno.stdout or Uint8Array methods cannot see or alter what is sent (protocol.ts: authentication).
 */
const callOf = Function.prototype.call.bind(Function.prototype.call) as <T>(
  fn: (...a: never[]) => T,
  self: unknown,
  ...args: unknown[]
) => T;
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode;
const subarray = Uint8Array.prototype.subarray;
const writeSync = importedWriteSync;
const denoStdout = g.Deno?.stdout;
const denoWrite = denoStdout?.writeSync;
const write: (b: Uint8Array) => number = denoWrite
  ? (b) => callOf(denoWrite as never, denoStdout, b)
  : (b) => writeSync(CHANNEL_FD, b);

/** The key's MAC and the next sequence number, set from the start message (closure state, never exported). */
let mac: MessageMac | undefined;
let seq = 0;

/** The last step the job started (its `stage` messages), for the report of a Promise that never settles. */
let lastStage: { stage: string; side?: 'serializer' | 'baseline' } = { stage: 'load' };
let finished = false;

function send(message: OutgoingMessage): void {
  if (message.type === 'stage') lastStage = { stage: message.stage, ...(message.side ? { side: message.side } : {}) };
  if (message.type === 'done' || message.type === 'error' || message.type === 'incorrect') finished = true;
  const line = mac ? sealLine(encodeMessage(message), seq++, mac) : encodeMessage(message);
  const bytes = callOf<Uint8Array>(encode as never, encoder, line);
  let offset = 0;
  while (offset < bytes.length) offset += write(callOf<Uint8Array>(subarray as never, bytes, offset));
}

/** On Deno the channel is stdout: route what libraries print to stderr so it cannot corrupt it. */
function keepStdoutForChannel(): void {
  if (!g.Deno) return;
  const err = console.error.bind(console);
  console.log = err;
  console.info = err;
  console.debug = err;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
}

function runtimeOf(): { runtime: string; version: string } {
  if (g.Deno) return { runtime: 'deno', version: g.Deno.version.deno };
  if (g.Bun) return { runtime: 'bun', version: g.Bun.version };
  return { runtime: 'node', version: process.versions.node };
}

/**
 * The GC between the sides of a round: a minor GC (scavenge) in V8. A full GC there took 42–45% of
 * the rounds' CPU time and, at load 11–19, gave a launch-to-launch ratio CV of 6.6% on users/10000
 * where a minor GC gave 1.35% (issue 13's study, benchmarks/engine/q2-flags.mjs).
 */
function gcOf(): (() => void) | undefined {
  if (typeof g.gc === 'function') {
    const gc = g.gc as (o?: { type: string }) => void;
    return () => gc({ type: 'minor' });
  }
  if (g.Bun) return () => g.Bun!.gc(true);
  return undefined;
}

async function allocationProbe(): Promise<AllocationProbe> {
  const v8 = (await import('node:v8')) as unknown as V8Module;
  if (typeof v8.GCProfiler !== 'function')
    return { method: 'n/a', how: `${runtimeOf().runtime} has no node:v8 GCProfiler` };
  if (g.Deno)
    return {
      method: 'estimate',
      v8,
      how: "GC-corrected heap accounting through Deno's node:v8 GCProfiler compatibility layer (same V8 method as Node; calibrated on {a:1,b:2} → 40 B/op like Node, not verified further)",
    };
  // Bun's node:v8 GCProfiler is an emulation over JavaScriptCore: on weather-station it reported
  // 0 B/op for ajv-jtd, typia and zod, which certainly allocate; JSC's heapSize and
  // process.memoryUsage() move in block-sized steps (0 B over 1 000 small objects). No honest figure.
  if (g.Bun)
    return {
      method: 'n/a',
      how: "JavaScriptCore exposes no allocation counter: Bun's node:v8 GCProfiler emulation reads 0 B/op for calls that allocate, and its heap size moves in block-sized steps",
    };
  return { method: 'exact', v8, how: 'GC-corrected V8 heap accounting (node:v8 GCProfiler)' };
}

/**
 * All of stdin as text, to its end. A read that finds the descriptor non-blocking and empty (EAGAIN)
 * waits 5 ms and reads again: `readFileSync(0)` threw there, and the launch failed at its load
 * ("EAGAIN: resource temporarily unavailable, read"; once in a CI run of 2026-12-06, a probe launch).
 */
function readStdin(): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(1 << 16);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buffer, 0, buffer.length, null);
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 5);
      continue;
    }
    if (n === 0) return Buffer.concat(chunks).toString('utf8');
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
}

/** Reads the start message; keeps its key (if any) in this module's closure and returns the job. */
function readStart(): WorkerJob {
  const text = readStdin();
  const message = JSON.parse(text.split('\n')[0]) as StartMessage;
  if (message.protocol !== PROTOCOL_VERSION || message.type !== 'start') {
    throw new Error(`worker: expected a start message of protocol ${PROTOCOL_VERSION}`);
  }
  if (typeof message.key === 'string') mac = channelMac(message.key);
  delete message.key;
  return message.job;
}

async function main(): Promise<void> {
  keepStdoutForChannel();
  // before any user code loads: the traces it captures end at its own frames (stack-screen.ts)
  screenStacks();
  let job: WorkerJob;
  try {
    job = readStart();
  } catch (e) {
    send({ type: 'error', stage: 'load', message: (e as Error).message });
    process.exit(2);
  }
  const gc = gcOf();
  send({ type: 'hello', ...runtimeOf(), gc: typeof gc === 'function' });
  const host: WorkerHost = {
    send,
    gc: gc ?? (() => {}),
    readText: (path) => readFileSync(path, 'utf8'),
    allocationProbe,
    loadConfig: (path) => loadUserConfig(path),
  };
  // A step awaiting a Promise nothing can settle (an async prepare() that never resolves, a config's
  // top-level await) leaves the event loop empty: Node would exit 0 with no result. Say which step.
  process.once('beforeExit', () => {
    if (finished) return;
    send({
      type: 'error',
      ...lastStage,
      message: `${lastStage.stage}${lastStage.side ? ` (${lastStage.side})` : ''} never settled: the worker ran out of work while waiting on a Promise that never resolves`,
    });
    process.exit(1);
  });
  // An exception thrown, or a rejection left unhandled, outside any call the worker made (a timer or
  // callback a serializer scheduled) would crash a server: it fails the launch, naming the last stage.
  const outside = (what: string) => (e: unknown) => {
    // nothing here may throw: a throw inside this handler would end the process without the error sent
    try {
      const text = describeThrown(e);
      send({
        type: 'error',
        ...lastStage,
        message: `${what} outside any call (a timer, callback or Promise a serializer left behind), last seen in ${lastStage.stage}${lastStage.side ? ` (${lastStage.side})` : ''}: ${text.slice(0, 500)}`,
      });
    } finally {
      process.exit(1);
    }
  };
  process.on('uncaughtException', outside('an exception was thrown'));
  process.on('unhandledRejection', outside('a Promise rejection was left unhandled'));
  await runJob(job, host);
  // let what is already queued run (0 ms timers, immediates, microtasks), so a late throw is seen
  await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => setImmediate(r));
  process.exit(0);
}

void main();
