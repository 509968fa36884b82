/**
 * What the .NET worker (workers/dotnet/) sends beyond the messages every worker sends
 * (src/worker/protocol.ts; same transport, framing and version): a {@link GateMessage} per side
 * and payload (main, variant), what the host's correctness gate compares (runtimes/dotnet/gate.ts;
 * outputs in `verify` mode only, their SHA-256 in every mode), and a {@link DotnetHello}. The
 * .NET target's launcher reads the gate messages and passes on what the runner knows
 * (runtimes/dotnet/gated-launch.ts). Its `round`s carry thread-CPU samples and per-side JIT and
 * GC counts, and it sends a `library` message per side (both in the common protocol).
 */
import type { Side } from '../../case/coordinates.js';
import type { HelloMessage } from '../../worker/protocol.js';

/**
 * The gate's material for one side and one payload. `serialize`: `outputs[i]` is the serializer's
 * text for unit i. `deserialize`: `outputs[i]` is the deserialized model written back by the
 * generated canonical writer (model names, ISO dates in UTC with ms, numbers as numbers).
 */
export interface GateMessage {
  protocol: number;
  type: 'gate';
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
  /** "workstation, Interactive, LOH threshold 100000000 B" (server or workstation, the latency mode and, on .NET, the size from which objects go to the large object heap) */
  gcMode: string;
  /** whether rounds carry thread-CPU samples */
  threadCpuClock: boolean;
  /** Stopwatch ticks per second (1e9 on .NET on Linux, 1e7 on Mono) */
  stopwatchFrequency: number;
  /** set only when a diagnostic environment variable changed the method ("noRoundGc, settleSamples=3"): such a launch is an experiment, not a result */
  methodOverrides?: string;
}

/** Narrowing helper for a host that reads the .NET lines through `decodeMessage`. */
export function isGate(m: { type: string }): m is GateMessage {
  return m.type === 'gate';
}
