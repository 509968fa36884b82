/**
 * What the .NET worker (workers/dotnet/) adds to protocol version 1 (src/worker/protocol.ts).
 * Same transport and framing: one StartMessage line on stdin, JSON lines on fd 3. The worker
 * sends every message of {@link WorkerMessage} with the same fields, plus:
 * - {@link LibraryMessage}: per side, the assembly the serializer's code really came from;
 * - {@link GateMessage}: per side and payload (main, variant), what the host's correctness gate
 *   compares (src/dotnet/gate.ts); outputs in `verify` mode only, their SHA-256 in every mode;
 * - extra fields on `hello` ({@link DotnetHello}) and thread-CPU samples on `round`
 *   ({@link CpuRound}); a protocol-1 host that ignores them loses nothing it reads today.
 * A host decodes these lines with `decodeMessage` as today (it checks only `protocol` and `type`).
 */
import type { HelloMessage, RoundMessage, WorkerMessage } from '../worker/protocol.js';

export type Side = 'serializer' | 'baseline';

/** The library a side's serializer runs, as loaded (never the version asked for in a project file). */
export interface LibraryMessage {
  protocol: number; type: 'library';
  side: Side;
  serializer: string;
  /** the measured call, for reports: "JsonSerializer.Serialize(value, options)" */
  code: string;
  /** assembly simple name: "System.Text.Json", "Newtonsoft.Json" */
  assembly: string;
  /** the product version: AssemblyInformationalVersion before '+' ("10.0.12", "13.0.4") */
  version: string;
  /** the strong-name version the CLR binds by ("10.0.0.0", "13.0.0.0") */
  assemblyVersion: string;
  informationalVersion?: string;
  fileVersion?: string;
  /** the file it was loaded from (the shared framework's copy on .NET, the NuGet copy on Mono) */
  location: string;
}

/**
 * The gate's material for one side and one payload. `serialize`: `outputs[i]` is the serializer's
 * text for unit i. `deserialize`: `outputs[i]` is the deserialized model written back by the
 * generated canonical writer (model names, ISO dates in UTC with ms, numbers as numbers).
 */
export interface GateMessage {
  protocol: number; type: 'gate';
  side: Side;
  payload: 'main' | 'variant';
  direction: 'serialize' | 'deserialize';
  /** units the op handles (1 for single/list, the records for many) */
  units: number;
  /** UTF-8 bytes of the unit texts the worker cut from the payload (deserialize inputs) */
  inputBytes: number;
  /** hex SHA-256 of the outputs joined with "\n" */
  digest: string;
  /** present in `verify` mode */
  outputs?: string[];
}

/** `hello` from the .NET worker. */
export interface DotnetHello extends HelloMessage {
  /** ".NET 10.0.12", "Mono 6.8.0.105 (Debian …)" */
  description: string;
  /** ".NETCoreApp,Version=v10.0", ".NETFramework,Version=v4.6.2" */
  targetFramework: string;
  /** "workstation, Interactive" (server or workstation, and the latency mode) */
  gcMode: string;
  /** whether rounds carry thread-CPU samples */
  threadCpuClock: boolean;
  /** Stopwatch ticks per second (1e9 on .NET on Linux, 1e7 on Mono) */
  stopwatchFrequency: number;
  /** set only when a diagnostic environment variable changed the method ("noRoundGc, settleSamples=3"): such a launch is an experiment, not a result */
  methodOverrides?: string;
}

/** `round` with thread-CPU ns/op per sample beside the wall-clock ones (same order and length). */
export interface CpuRound extends RoundMessage {
  serializerCpuNs?: number[];
  baselineCpuNs?: number[];
  /** methods the JIT compiled while each side's samples ran (tier-1 rejits included); -1 where the runtime has no counter (Mono) */
  serializerJitMethods?: number;
  baselineJitMethods?: number;
  /** garbage collections (any generation) while each side's samples ran (the forced GC before the side not counted) */
  serializerGcs?: number;
  baselineGcs?: number;
}

export type DotnetWorkerMessage = WorkerMessage | LibraryMessage | GateMessage;

/** Narrowing helpers for a host that reads the .NET lines through `decodeMessage`. */
export function isLibrary(m: { type: string }): m is LibraryMessage { return m.type === 'library'; }
export function isGate(m: { type: string }): m is GateMessage { return m.type === 'gate'; }
