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
 * Authentication (protocol 2): the code being measured runs in the worker and could write lines
 * of its own to the channel (a `round` of 1 ns/op was once accepted). The host puts a fresh
 * random `key` in each start message; the worker keeps it in a closure, numbers its messages
 * 0, 1, 2, … (`seq`) and ends each line with `"mac"`, the HMAC-SHA256 of the line before it under
 * that key ({@link sealLine}). The host ({@link createChannelReader}) rejects a line that is
 * unsigned, wrongly signed, repeated or out of order, and the launch is `crashed` with that
 * reason. Chromium's channel is an in-page function and carries unsigned lines: only built-in
 * adapters run there. What this does not stop: code in the worker's realm can still tamper with
 * the measuring code itself (replace built-ins it calls) or read the key from the process's
 * memory; see the README's "What the checks cannot catch".
 *
 * Other targets carry the same messages over another pipe (src/runtimes/): Deno cannot write to an
 * inherited fd 3, so its worker writes them to stdout (library output is sent to stderr there); a
 * remote worker's fd 3 is redirected into the ssh channel (`3>&1 1>&2`); in Chromium and QuickJS
 * the host hands in the job and payload texts and receives each line through a bridge function
 * (worker/browser.ts).
 */
import type { CaseCoordinates, Direction, Side } from '../case/coordinates.js';
import type { MeasurePolicy } from '../case/policy.js';
import type { AllocationMeasurement } from '../case/measurements.js';
import type { PayloadWorkloadSpec } from '../workloads/payload.js';
import type { Verdict } from '../case/probe.js';
import type { DotnetProbeOutcome } from '../probes/dotnet/outcome.js';

export const PROTOCOL_VERSION = 2;

/** JSON.stringify taken when this module loads, before any adapter code runs in the worker. */
const { stringify } = JSON;

/** What one worker launch is asked to do: measure or check a case, or run probes. */
export type WorkerJob = CaseJob | ProbeJob;

/** A case's launch. */
export interface CaseJob extends CaseCoordinates {
  /**
   * `time`: paired timing rounds; `alloc`: untimed allocation windows; `verify`: only the
   * correctness gate; `cold`: in this fresh process, the serializer's load, `prepare()` and first
   * call timed once each, then the gate (worker/cold.ts).
   */
  mode: 'time' | 'alloc' | 'verify' | 'cold';
  /** The group's baseline, timed in alternating rounds; omitted when the case is the baseline. */
  baseline?: string;
  /** File holding the payload text (the wire value as JSON, written once by the host; a user's payload: their own bytes). */
  payloadPath: string;
  /** A user's payload: its workload as data (workers cannot load it by id); absent for built-in and config workloads. */
  workloadSpec?: PayloadWorkloadSpec;
  /** A user's jsonbench.config.* to load custom adapters and workloads from. */
  configPath?: string;
  policy: MeasurePolicy;
  /** `time` jobs: also take the serializer's allocation windows in this process, after the timed rounds (an `alloc` message) */
  alloc?: boolean;
  /**
   * A group launch (`time` jobs with a `baseline`): these serializers of the class (not the
   * baseline), each paired with the baseline in rounds in this one process (measure/timing.ts
   * measureGroupRounds). Each `setup`, `round`, `alloc`, `incorrect` and `error` message about one
   * of them (or about the baseline's own figures: the baseline's id) carries its id in `serializer`.
   * `serializer` above is the first of them. Absent: one serializer (and its baseline) per launch.
   */
  serializers?: string[];
}

/** One probe side a probe job runs: the probe's id in the catalog, and the direction. */
export interface ProbeCell {
  probe: string;
  direction: Direction;
}

/**
 * A probe launch (never timed): every cell in order against one serializer, each through the same
 * `prepareCase` as a timed case and judged by the probe judge (src/probes/). The worker builds the
 * catalog itself, so inputs no JSON can carry (Dates, BigInts, Maps, cycles) never cross the wire;
 * only ids do. For each cell it sends `probe-start`, `probe-prepared` once the adapter is prepared,
 * and `probe` with the verdict; then `done`. The host arms its per-probe timeout at `probe-start`.
 * The .NET worker reads each cell's input from the probe file's `dotnet` section and sends
 * `probe-outcome` instead of `probe`: the host judges ({@link ProbeOutcomeMessage}).
 */
export interface ProbeJob {
  mode: 'probe';
  serializer: string;
  cells: ProbeCell[];
  /**
   * A file of the probe pass (the conformance files' texts as `{ root, files: [{ path, text }] }`,
   * or `null` when no conformance folder was given), handed to every target as a payload file is.
   */
  payloadPath: string;
  /** A user's jsonbench.config.* (or a version matrix's module) to load adapters from. */
  configPath?: string;
  /** Folder of typia's probe modules, generated by the host before the launch (src/probes/typia-probes.ts); typia only. */
  typiaModules?: string;
}
/** In a group launch: the serializer a message is about (the baseline's id for the baseline's own figures). */
interface About {
  serializer?: string;
}

export interface StartMessage {
  protocol: number;
  type: 'start';
  job: WorkerJob;
  /** per-launch secret (hex) the worker signs its messages with (absent: unsigned lines, Chromium's in-page channel) */
  key?: string;
}

/** First message: what runtime the worker is running in. */
export interface HelloMessage {
  protocol: number;
  type: 'hello';
  runtime: string;
  version: string;
  gc: boolean;
}

/** The correctness gate failed: the case is `incorrect` and is never timed. */
export interface IncorrectMessage extends About {
  protocol: number;
  type: 'incorrect';
  /** which side failed the gate: the case's serializer or its baseline */
  side: Side;
  path: string;
  expected: string;
  actual: string;
  reason: string;
  /** `timing`: a result or an input changed after the gate, between samples (measure/timed-check.ts); absent: the gate itself */
  when?: 'timing';
  /** `variant`: the gate failed on its variant payload (another seed, hostile strings), not the payload itself; absent: the payload */
  on?: 'variant';
}

/** One finished round: raw per-sample times (ns/op) of both sides. */
export interface RoundMessage extends About {
  protocol: number;
  type: 'round';
  round: number;
  /** ns/op by the launch's clock (setup's `clock`) */
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
  /** the .NET worker on Linux, a diagnostic the lab's scripts read (results do not keep it): the measuring thread's minor page faults per op, per sample */
  serializerFaults?: number[];
  baselineFaults?: number[];
  /** the JavaScript worker with the CPU clock: the same samples by wall time (ns/op; `serializerNs` is then CPU time) */
  serializerWallNs?: number[];
  baselineWallNs?: number[];
  /**
   * The JavaScript worker where the measuring thread has its own CPU clock (Linux; measure/clock.ts threadCpuNowNs):
   * per side, the process's and the measuring thread's CPU (ns, totals) from just before its first sample to just
   * after its last; the difference is what other threads burnt meanwhile, `helpersNs` the part of it the threads the
   * worker started with burnt (measure/timing.ts CpuSpan)
   */
  serializerSpan?: { cpuNs: number; threadNs: number; helpersNs?: number };
  baselineSpan?: { cpuNs: number; threadNs: number; helpersNs?: number };
}

/**
 * The library a side's serializer really runs, as loaded in the worker (sent once per side,
 * before its gate): its version is what results record as `serializerVersion`, never the version
 * a project file asked for. The .NET worker sends it (assembly metadata).
 */
export interface LibraryMessage {
  protocol: number;
  type: 'library';
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
export interface TimingSetupMessage extends About {
  protocol: number;
  type: 'setup';
  opsPerSample: { serializer: number; baseline: number };
  warmup: { serializerOps: number; serializerMs: number; baselineOps: number; baselineMs: number };
  /** ns/op of an empty op measured the same way (the floor below which a case is "too fast to be real"). */
  emptyNsPerOp: number;
  /** the clock samples are read on: process CPU time where the runtime has one, else wall time */
  clock?: 'cpu' | 'wall';
}

/** The allocation pass's figures (see {@link AllocationMeasurement}). */
export interface AllocMessage extends AllocationMeasurement, About {
  protocol: number;
  type: 'alloc';
}

/**
 * A cold start (`cold` jobs, worker/cold.ts), each timed once in a fresh process, in ns by the wall
 * clock, and by the process CPU clock where the runtime has one (`process.cpuUsage()`: µs steps):
 * loading the adapter and its library, `prepare()` (with the workload's unit view), the first op.
 */
export interface ColdMessage {
  protocol: number;
  type: 'cold';
  loadNs: number;
  prepareNs: number;
  firstCallNs: number;
  cpu?: { loadNs: number; prepareNs: number; firstCallNs: number };
}

/**
 * The worker starts a step that runs adapter or config code (`load`, then per side `prepare` and
 * `verify`, then `warmup` once every gate passed): a launch killed at its timeout says which step
 * ran out. Measuring is marked by `setup` and the rounds.
 */
export interface StageMessage {
  protocol: number;
  type: 'stage';
  stage: 'load' | 'prepare' | 'verify' | 'warmup';
  side?: Side;
}

export interface DoneMessage {
  protocol: number;
  type: 'done';
  noisy: boolean;
  elapsedMs: number;
  checksum: number;
  /** group launches: the serializers (and the baseline) whose figures met the error target before the cap */
  precise?: string[];
}

/** A thrown error in a named stage (`prepare`, `verify`, `warmup`, `measure`, `load`). */
export interface ErrorMessage extends About {
  protocol: number;
  type: 'error';
  stage: string;
  side?: Side;
  message: string;
  /** the adapter cannot run on this runtime (it needs an API the runtime lacks): the case is `unsupported`, not `failed` */
  unsupported?: boolean;
}

/** A probe side starts (the host arms its per-probe timeout). */
export interface ProbeStartMessage extends ProbeCell {
  protocol: number;
  type: 'probe-start';
}

/** The adapter is prepared for the probe in flight (a hang after this is the call's, not prepare()'s). */
export interface ProbePreparedMessage extends ProbeCell {
  protocol: number;
  type: 'probe-prepared';
}

/** A probe side's verdict. */
export interface ProbeVerdictMessage extends ProbeCell {
  protocol: number;
  type: 'probe';
  verdict: Verdict;
}

/**
 * What a .NET worker's probe side did (workers/dotnet/src/ProbeRunner.cs): the C# worker cannot run
 * the judge, so it reports the outcome and the host judges it (probes/dotnet/outcome.ts `judgeDotnet`,
 * run/probe-runner.ts) where a JavaScript worker sends `probe` with its verdict.
 */
export interface ProbeOutcomeMessage extends ProbeCell, DotnetProbeOutcome {
  protocol: number;
  type: 'probe-outcome';
}

export type WorkerMessage =
  | HelloMessage
  | StageMessage
  | IncorrectMessage
  | TimingSetupMessage
  | RoundMessage
  | AllocMessage
  | ColdMessage
  | DoneMessage
  | ErrorMessage
  | LibraryMessage
  | ProbeStartMessage
  | ProbePreparedMessage
  | ProbeVerdictMessage
  | ProbeOutcomeMessage;

/** Distributes Omit over the union so each message keeps its own fields. */
type WithoutProtocol<T> = T extends unknown ? Omit<T, 'protocol'> : never;

/** Encodes one message as a protocol line. */
export function encodeMessage(message: WithoutProtocol<WorkerMessage> | Omit<StartMessage, 'protocol'>): string {
  return stringify({ protocol: PROTOCOL_VERSION, ...message }) + '\n';
}

/**
 * Decodes one protocol line. Throws an Error naming the problem when the line is not JSON, has
 * no `type`, or carries another protocol version.
 */
export function decodeMessage(line: string): WorkerMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`protocol: not JSON: ${line.slice(0, 120)}`);
  }
  const m = value as { protocol?: unknown; type?: unknown };
  if (m === null || typeof m !== 'object' || typeof m.type !== 'string')
    throw new Error(`protocol: message without type: ${line.slice(0, 120)}`);
  if (m.protocol !== PROTOCOL_VERSION)
    throw new Error(
      `protocol: version ${m.protocol === undefined ? 'missing' : JSON.stringify(m.protocol)}, expected ${PROTOCOL_VERSION}`,
    );
  return value as WorkerMessage;
}

/** A keyed MAC of a text, as lowercase hex: HMAC-SHA256 in every implementation here (worker/channel-key.ts). */
export type MessageMac = (text: string) => string;

/**
 * Adds the sequence number and the MAC to an encoded message line (`{…}\n`): the result is
 * `{…,"seq":N,"mac":"<hex>"}\n`, where the MAC covers `{…,"seq":N}`.
 */
export function sealLine(line: string, seq: number, mac: MessageMac): string {
  const body = `${line.slice(0, line.lastIndexOf('}'))},"seq":${seq}}`;
  return `${body.slice(0, -1)},"mac":"${mac(body)}"}\n`;
}

const SEAL = /,"mac":"([0-9a-f]{64})"\}\s*$/;

/**
 * A reader of one launch's channel: decodes each line ({@link decodeMessage}) and, with a MAC,
 * checks its signature and that it is the next in sequence, returning the message without
 * `seq`/`mac`. @throws Error (`protocol: …`) naming what is wrong: unsigned, forged, repeated or
 * out of order.
 */
export function createChannelReader(mac?: MessageMac): (line: string) => WorkerMessage {
  let next = 0;
  return (line) => {
    if (!mac) return decodeMessage(line);
    const seal = SEAL.exec(line);
    if (!seal)
      throw new Error(
        `protocol: an unsigned line on the channel (not written by this launch's worker; forged by the code being measured?): ${line.slice(0, 120)}`,
      );
    const body = `${line.slice(0, seal.index)}}`;
    if (mac(body) !== seal[1])
      throw new Error(
        `protocol: a line whose signature does not match this launch's key (forged): ${line.slice(0, 120)}`,
      );
    const m = decodeMessage(body) as WorkerMessage & { seq?: unknown };
    if (m.seq !== next)
      throw new Error(
        `protocol: message ${String(m.seq)} arrived where ${next} was expected (${typeof m.seq === 'number' && m.seq < next ? 'repeated' : 'out of order'})`,
      );
    next++;
    delete m.seq;
    return m;
  };
}
