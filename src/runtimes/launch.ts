import { sigkill } from '../host/raw-kill.js';
import {
  descendantsOf,
  killListed,
  killTagged,
  LAUNCH_TAG_VARIABLE,
  newLaunchTag,
  type ListedProcess,
} from './descendants.js';
import { onProcessEnd } from '../files/process-end.js';
import { superviseHost } from './supervisor.js';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { createChannelReader, encodeMessage, type WorkerJob, type WorkerMessage } from '../worker/protocol.js';
import { channelMac, newChannelKey } from '../worker/channel-key.js';
import { pinnedCommand } from './pinning.js';
import { guardOrphan } from './orphan-guard.js';
import { workerEnv } from '../case/startup.js';
import type { ProfileName } from '../case/profile.js';
import { deepFreeze } from '../case/frozen.js';

/** Path of the compiled worker entry. */
export const workerEntry = fileURLToPath(new URL('../worker/main.js', import.meta.url));

/**
 * V8 flags a worker runs with, by profile (case/profile.ts; Node here, on remote machines and in
 * node@VERSION targets; Deno through `--v8-flags`, runtimes/deno.ts):
 * - both: `--expose-gc`, so rounds can start from a collected heap (it adds the `gc` global and
 *   changes no GC behaviour);
 * - `steady` only: `--single-threaded-gc`: the garbage collector's work (scavenges, marking) runs on the main thread
 *   instead of V8's parallel helper threads. The lab reads process CPU time (every thread), and the
 *   helpers' CPU time varied from process to process far more than the work they did: at load 5–9 on
 *   2 cores (session 5, 8 interleaved pairs of bench:precision runs, `JB_XFLAGS` experiment), the
 *   launch-to-launch CV of weather-station serialize fast-json-stringify ÷ JSON.stringify fell from
 *   9.9% (37 launches) to 1.7% (28), its run-to-run CV from 6.4% to 1.3%; users/10000 serialize 3.2%
 *   → 2.0% with its mean unchanged (1.130 → 1.118); typia ÷ typebox deserialize, which allocates
 *   little, unchanged (1.7%). The GC's work is still counted, once, on the thread that caused it; what
 *   is left out is the helpers' coordination (spinning, stealing), which a 2-core shared machine
 *   turns into noise. Tried and not kept: ASLR off, no concurrent recompilation, a predictable GC
 *   schedule, `--predictable`, a 16 MB young generation (quiet machine: 2.6–4.5% vs 4.6–5.1%).
 *   results.json names the flags per target; `compare` calls files with other flags not comparable.
 *   It is a GC setting a user's process does not have (V8's default runs the helpers), so since issue
 *   23 it is in the opt-in `steady` profile only; docs/profiles.md measures what it moves.
 */
export const V8_PROFILE_FLAGS: Readonly<Record<ProfileName, readonly string[]>> = deepFreeze({
  default: ['--expose-gc'],
  steady: ['--expose-gc', '--single-threaded-gc'],
});

/** The V8 flags of a worker in `profile` (a fresh array). */
export function workerFlagsFor(profile: ProfileName = 'default'): string[] {
  return [...V8_PROFILE_FLAGS[profile]];
}

/** The V8 flags of a worker in the default profile (callers outside a run: benches, tests). */
export const workerFlags = deepFreeze(workerFlagsFor('default'));

/** How a launch ended, with every message it sent before that. */
export interface LaunchOutcome {
  messages: WorkerMessage[];
  exitCode: number | null;
  /** the signal that ended the worker (`SIGKILL`), if one did */
  signal: string | null;
  timedOut: boolean;
  /** a line on the channel that was not a valid protocol message */
  protocolError?: string;
  /** last ~2 KB of the worker's stderr and stdout (never parsed; for crash reports) */
  stderrTail: string;
  stdoutTail: string;
  elapsedMs: number;
}

/**
 * A launch outcome holding `messages` and nothing else yet: no signal, not timed out, empty tails, 0 ms.
 * What a launcher fills in as its worker runs (`exitCode` null until it exits), or answers with when it
 * starts no process (a kept verdict, an unsupported target: `exitCode` 0, or 1 for a launch that failed).
 */
export function outcomeOf(messages: WorkerMessage[], exitCode: number | null): LaunchOutcome {
  return { messages, exitCode, signal: null, timedOut: false, stderrTail: '', stdoutTail: '', elapsedMs: 0 };
}

const TAIL_BYTES = 2048;
/**
 * After the worker exits, how long its pipes may stay open (ms): long enough to read what it wrote,
 * short enough that a child it left behind holding them (a detached server, a `sleep`) cannot hold
 * the case until the timeout and make it lose its measured numbers.
 */
const DRAIN_AFTER_EXIT_MS = 1000;

/** Process groups of running workers (with their launch tags), killed if the host exits first (a worker leads its own group, so Ctrl-C does not reach it). */
const liveGroups = new Map<number, string>();
/** the outcome of each launch still running, by its worker's pid */
const liveOutcomes = new Map<number, LaunchOutcome>();

/** Why a launch running while jsonbench was stopped and continued by its supervisor failed. */
const STOPPED_HOST =
  'it stopped the jsonbench process (a SIGSTOP to its parent, hx5): the supervisor continued jsonbench after 2 s and this launch was killed';

/**
 * Ends every launch still running, each failing with `reason` (its case `crashed` with it): the
 * supervisor found jsonbench stopped while they ran (supervisor.ts). Which worker sent the signal
 * cannot be told; only launches that were running are failed.
 */
function failLiveLaunches(reason: string): void {
  for (const [pid, outcome] of liveOutcomes) {
    outcome.protocolError ??= reason;
    killGroup(pid);
  }
}
let killOnExit = false;
function killGroup(pid: number | undefined): void {
  if (!pid) return;
  sigkill(-pid);
}

function keepTail(stream: Readable | null, onText: (tail: string) => void): void {
  let tail = '';
  stream?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
    onText(tail);
  });
}

/** A worker command: what to spawn and where its protocol lines come out. */
export interface WorkerCommand {
  command: string;
  args: string[];
  /** `fd3`: a fourth pipe (Node, Bun, the QuickJS runner); `stdout`: the worker's stdout (Deno, ssh) */
  channel: 'fd3' | 'stdout';
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/**
 * Whether a message starts a new timeout window: a probe job's `timeoutMs` is per probe side,
 * re-armed as each starts (a case job's is for the whole launch).
 */
export function restartsTimeout(m: WorkerMessage): boolean {
  return m.type === 'probe-start';
}

/**
 * Starts one worker process for a job and collects its messages until it exits. Kills the worker
 * (SIGKILL) after `timeoutMs` (a probe job: `timeoutMs` after the last `probe-start`). Never rejects: spawn errors, crashes and protocol errors are
 * described in the outcome. Pinned to `place.cpu` when given (runtimes/pinning.ts).
 * @param onMessage called for each message as it arrives (progress, live samples)
 */
export function launchWorker(
  job: WorkerJob,
  timeoutMs: number,
  place?: { cpu?: number; onMessage?: (m: WorkerMessage) => void },
  profile: ProfileName = 'default',
): Promise<LaunchOutcome> {
  return launchCommand(pinnedCommand(hostWorkerCommand(profile), place?.cpu), job, timeoutMs, place?.onMessage);
}

/** The command of a worker on the host's Node: this binary, the profile's flags ({@link workerFlagsFor}), the compiled entry. */
export function hostWorkerCommand(profile: ProfileName = 'default'): WorkerCommand {
  return { command: process.execPath, args: [...workerFlagsFor(profile), workerEntry], channel: 'fd3' };
}

/**
 * {@link launchWorker} for any command speaking the protocol: the job goes to its stdin, messages
 * come from `cmd.channel`. Never rejects.
 */
export function launchCommand(
  cmd: WorkerCommand,
  job: WorkerJob,
  timeoutMs: number,
  onMessage?: (m: WorkerMessage) => void,
): Promise<LaunchOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    // detached: the worker leads a process group, so a timeout or a leftover child is killed with all it started
    // a tag every process it starts inherits: what left the group is found by it at the end (descendants.ts)
    const tag = newLaunchTag();
    const child = spawn(cmd.command, cmd.args, {
      stdio: ['pipe', 'pipe', 'pipe', cmd.channel === 'fd3' ? 'pipe' : 'ignore'],
      // NODE_OPTIONS and the other Node variables as jsonbench started: a config's top level may have changed them (case/startup.ts)
      env: { ...(cmd.env ?? workerEnv()), [LAUNCH_TAG_VARIABLE]: tag },
      cwd: cmd.cwd,
      detached: true,
    });
    if (child.pid) liveGroups.set(child.pid, tag);
    // a host killed outright (kill -9) cannot kill the group itself: a sentinel does (orphan-guard.ts)
    const releaseGuard = guardOrphan(child.pid);
    if (!killOnExit) {
      killOnExit = true;
      // a worker that stops the jsonbench process (SIGSTOP to its parent) no longer freezes the run (supervisor.ts)
      superviseHost(() => failLiveLaunches(STOPPED_HOST));
      // at any end of the process, jsonbench's own end included (files/process-end.ts runs no 'exit' listener)
      onProcessEnd(() => {
        for (const [pid, t] of liveGroups) {
          killGroup(pid);
          killTagged(t);
        }
      });
    }
    const outcome = outcomeOf([], null);
    if (child.pid) liveOutcomes.set(child.pid, outcome);
    keepTail(child.stderr, (t) => {
      outcome.stderrTail = t;
    });
    if (cmd.channel === 'fd3')
      keepTail(child.stdout, (t) => {
        outcome.stdoutTail = t;
      });
    const channel = (cmd.channel === 'fd3' ? child.stdio[3] : child.stdout) as Readable;
    const lines = createInterface({ input: channel });
    const key = newChannelKey();
    const listed: ListedProcess[] = [];
    let listedOnce = false;
    const read = createChannelReader(channelMac(key));
    lines.on('line', (line) => {
      if (!line.trim()) return;
      try {
        const m = read(line);
        outcome.messages.push(m);
        // the worker's descendants while it lives: one started with an environment of its own has no tag (hx4)
        if (child.pid && (m.type === 'done' || m.type === 'error' || (m.type === 'round' && !listedOnce))) {
          listedOnce = true;
          for (const d of descendantsOf(child.pid)) if (!listed.some((l) => l.pid === d.pid)) listed.push(d);
        }
        if (restartsTimeout(m)) arm();
        onMessage?.(m);
      } catch (e) {
        outcome.protocolError ??= (e as Error).message;
      }
    });
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        outcome.timedOut = true;
        killGroup(child.pid);
      }, timeoutMs);
    };
    arm();
    let channelClosed = false;
    let exited = false;
    let resolved = false;
    let drain: NodeJS.Timeout | undefined;
    const finish = () => {
      if (!channelClosed || !exited || resolved) return;
      resolved = true;
      clearTimeout(timer);
      clearTimeout(drain);
      killGroup(child.pid);
      killTagged(tag);
      killListed(listed);
      releaseGuard();
      if (child.pid) liveGroups.delete(child.pid);
      if (child.pid) liveOutcomes.delete(child.pid);
      outcome.elapsedMs = performance.now() - started;
      resolve(outcome);
    };
    lines.on('close', () => {
      channelClosed = true;
      finish();
    });
    child.on('error', (e) => {
      outcome.protocolError ??= `could not start worker: ${e.message}`;
      exited = true;
      channelClosed = true;
      finish();
    });
    // The worker is done when it exits; its pipes get DRAIN_AFTER_EXIT_MS to deliver what it wrote,
    // then whatever it left running is killed and the pipes are closed.
    child.on('exit', (code, signal) => {
      if (resolved) return;
      outcome.exitCode = code;
      outcome.signal = signal;
      exited = true;
      drain = setTimeout(() => {
        killGroup(child.pid);
        for (const s of child.stdio) s?.destroy();
        if (!channelClosed) {
          channelClosed = true;
          lines.close();
        }
        finish();
      }, DRAIN_AFTER_EXIT_MS);
      finish();
    });
    child.stdin!.on('error', () => {
      /* worker died before reading its job: reported by close */
    });
    child.stdin!.end(encodeMessage({ type: 'start', job, key }));
  });
}
