/**
 * The host ↔ worker protocol, version {@link PROTOCOL_VERSION}.
 *
 * Transport (modelled on esbuild's stdio protocol, but with JSON lines):
 * - host → worker: exactly one line of JSON on the worker's **stdin**: a {@link StartMessage}.
 * - worker → host: newline-delimited JSON on **file descriptor 3** (a pipe the host opens), one
 *   {@link WorkerMessage} per line, each carrying `protocol`. The worker's stdout and stderr are
 *   never parsed: a library that prints there cannot corrupt the channel (the host keeps their
 *   tails for crash reports).
 * - The worker streams each round as it finishes, so the host keeps partial samples when the
 *   worker later hangs or dies. It ends with `done` (or `error`) and exits.
 * A host that reads a message of another protocol version treats the launch as `crashed`.
 *
 * Other targets carry the same messages over another pipe (src/runtimes/): Deno cannot write to an
 * inherited fd 3, so its worker writes them to stdout (library output is sent to stderr there); a
 * remote worker's fd 3 is redirected into the ssh channel (`3>&1 1>&2`); in Chromium and QuickJS
 * the host hands in the job and payload texts and receives each line through a bridge function
 * (worker/browser.ts).
 */
import type { CaseCoordinates, Side } from '../case/coordinates.js';
import type { MeasurePolicy } from '../case/policy.js';
import type { AllocationMeasurement } from '../case/measurements.js';

export const PROTOCOL_VERSION = 1;

/** What one worker launch is asked to do. */
export interface WorkerJob extends CaseCoordinates {
  /** `time`: paired timing rounds; `alloc`: untimed allocation windows; `verify`: only the correctness gate. */
  mode: 'time' | 'alloc' | 'verify';
  /** The group's baseline, timed in alternating rounds; omitted when the case is the baseline. */
  baseline?: string;
  /** File holding the payload text (the wire value as JSON, written once by the host). */
  payloadPath: string;
  /** A user's jsonbench.config.* to load custom adapters and workloads from. */
  configPath?: string;
  policy: MeasurePolicy;
}

export interface StartMessage { protocol: number; type: 'start'; job: WorkerJob }

/** First message: what runtime the worker is running in. */
export interface HelloMessage { protocol: number; type: 'hello'; runtime: string; version: string; gc: boolean }

/** The correctness gate failed: the case is `incorrect` and is never timed. */
export interface IncorrectMessage {
  protocol: number; type: 'incorrect';
  /** which side failed the gate: the case's serializer or its baseline */
  side: Side;
  path: string; expected: string; actual: string; reason: string;
}

/** One finished round: raw per-sample times (ns/op) of both sides. */
export interface RoundMessage {
  protocol: number; type: 'round';
  round: number;
  serializerNs: number[];
  baselineNs: number[];
  /** CPU time per op of the same samples (same order and length), where the worker has a CPU clock (the .NET worker: the thread's, CLOCK_THREAD_CPUTIME_ID) */
  serializerCpuNs?: number[];
  baselineCpuNs?: number[];
  /** garbage collections (any generation) while each side's samples ran (the forced GC before the side not counted) */
  serializerGcs?: number;
  baselineGcs?: number;
  /** methods the JIT compiled while each side's samples ran (tier-up rejits included); -1 where the runtime has no counter (Mono) */
  serializerJitMethods?: number;
  baselineJitMethods?: number;
}

/**
 * The library a side's serializer really runs, as loaded in the worker (sent once per side,
 * before its gate): its version is what results record as `serializerVersion`, never the version
 * a project file asked for. The .NET worker sends it (assembly metadata).
 */
export interface LibraryMessage {
  protocol: number; type: 'library';
  side: Side;
  serializer: string;
  /** the measured call, for reports: "JsonSerializer.Serialize(value, options)" */
  code: string;
  /** assembly or package name: "System.Text.Json", "Newtonsoft.Json" */
  assembly: string;
  /** the product version: "10.0.12", "13.0.4" (.NET: AssemblyInformationalVersion before '+') */
  version: string;
  /** the strong-name version the CLR binds by ("10.0.0.0", "13.0.0.0") */
  assemblyVersion?: string;
  informationalVersion?: string;
  fileVersion?: string;
  /** the file it was loaded from (the shared framework's copy on .NET, the NuGet copy on Mono) */
  location?: string;
}

/** Facts about a timing launch, sent once before its first round. */
export interface TimingSetupMessage {
  protocol: number; type: 'setup';
  opsPerSample: { serializer: number; baseline: number };
  warmup: { serializerOps: number; serializerMs: number; baselineOps: number; baselineMs: number };
  /** ns/op of an empty op measured the same way (the floor below which a case is "too fast to be real"). */
  emptyNsPerOp: number;
}

/** The allocation pass's figures (see {@link AllocationMeasurement}). */
export interface AllocMessage extends AllocationMeasurement { protocol: number; type: 'alloc' }

export interface DoneMessage { protocol: number; type: 'done'; noisy: boolean; elapsedMs: number; checksum: number }

/** A thrown error in a named stage (`prepare`, `verify`, `warmup`, `measure`, `load`). */
export interface ErrorMessage {
  protocol: number; type: 'error'; stage: string; side?: Side; message: string;
  /** the adapter cannot run on this runtime (it needs an API the runtime lacks): the case is `unsupported`, not `failed` */
  unsupported?: boolean;
}

export type WorkerMessage =
  | HelloMessage | IncorrectMessage | TimingSetupMessage | RoundMessage | AllocMessage | DoneMessage | ErrorMessage | LibraryMessage;

/** Distributes Omit over the union so each message keeps its own fields. */
type WithoutProtocol<T> = T extends unknown ? Omit<T, 'protocol'> : never;

/** Encodes one message as a protocol line. */
export function encodeMessage(message: WithoutProtocol<WorkerMessage> | Omit<StartMessage, 'protocol'>): string {
  return JSON.stringify({ protocol: PROTOCOL_VERSION, ...message }) + '\n';
}

/**
 * Decodes one protocol line. Throws an Error naming the problem when the line is not JSON, has
 * no `type`, or carries another protocol version.
 */
export function decodeMessage(line: string): WorkerMessage {
  let value: unknown;
  try { value = JSON.parse(line); } catch { throw new Error(`protocol: not JSON: ${line.slice(0, 120)}`); }
  const m = value as { protocol?: unknown; type?: unknown };
  if (m === null || typeof m !== 'object' || typeof m.type !== 'string') throw new Error(`protocol: message without type: ${line.slice(0, 120)}`);
  if (m.protocol !== PROTOCOL_VERSION) throw new Error(`protocol: version ${m.protocol === undefined ? 'missing' : JSON.stringify(m.protocol)}, expected ${PROTOCOL_VERSION}`);
  return value as WorkerMessage;
}
