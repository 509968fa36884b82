import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { decodeMessage, encodeMessage, type WorkerJob, type WorkerMessage } from '../worker/protocol.js';

/** Path of the compiled worker entry. */
export const workerEntry = fileURLToPath(new URL('../worker/main.js', import.meta.url));

/** Flags every worker runs with: `--expose-gc` so rounds can start from a collected heap. */
export const workerFlags = ['--expose-gc'];

/** How a launch ended, with every message it sent before that. */
export interface LaunchOutcome {
  messages: WorkerMessage[];
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** a line on the channel that was not a valid protocol message */
  protocolError?: string;
  /** last ~2 KB of the worker's stderr and stdout (never parsed; for crash reports) */
  stderrTail: string;
  stdoutTail: string;
  elapsedMs: number;
}

const TAIL_BYTES = 2048;

function keepTail(stream: Readable | null, onText: (tail: string) => void): void {
  let tail = '';
  stream?.on('data', (chunk: Buffer) => { tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES); onText(tail); });
}

/** A worker command: what to spawn and where its protocol lines come out. */
export interface WorkerCommand {
  command: string;
  args: string[];
  /** `fd3`: a fourth pipe (Node, Bun, the QuickJS runner); `stdout`: the worker's stdout (Deno, ssh) */
  channel: 'fd3' | 'stdout';
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * Starts one worker process for a job and collects its messages until it exits. Kills the worker
 * (SIGKILL) after `timeoutMs`. Never rejects: spawn errors, crashes and protocol errors are
 * described in the outcome.
 * @param onMessage called for each message as it arrives (progress, live samples)
 */
export function launchWorker(job: WorkerJob, timeoutMs: number, onMessage?: (m: WorkerMessage) => void): Promise<LaunchOutcome> {
  return launchCommand({ command: process.execPath, args: [...workerFlags, workerEntry], channel: 'fd3' }, job, timeoutMs, onMessage);
}

/**
 * {@link launchWorker} for any command speaking the protocol: the job goes to its stdin, messages
 * come from `cmd.channel`. Never rejects.
 */
export function launchCommand(cmd: WorkerCommand, job: WorkerJob, timeoutMs: number, onMessage?: (m: WorkerMessage) => void): Promise<LaunchOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd.command, cmd.args, { stdio: ['pipe', 'pipe', 'pipe', cmd.channel === 'fd3' ? 'pipe' : 'ignore'], env: cmd.env ?? process.env, cwd: cmd.cwd });
    const outcome: LaunchOutcome = { messages: [], exitCode: null, signal: null, timedOut: false, stderrTail: '', stdoutTail: '', elapsedMs: 0 };
    keepTail(child.stderr, (t) => { outcome.stderrTail = t; });
    if (cmd.channel === 'fd3') keepTail(child.stdout, (t) => { outcome.stdoutTail = t; });
    const channel = (cmd.channel === 'fd3' ? child.stdio[3] : child.stdout) as Readable;
    const lines = createInterface({ input: channel });
    lines.on('line', (line) => {
      if (!line.trim()) return;
      try {
        const m = decodeMessage(line);
        outcome.messages.push(m);
        onMessage?.(m);
      } catch (e) {
        outcome.protocolError ??= (e as Error).message;
      }
    });
    const timer = setTimeout(() => { outcome.timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    let channelClosed = false;
    let exited = false;
    const finish = () => {
      if (!channelClosed || !exited) return;
      clearTimeout(timer);
      outcome.elapsedMs = performance.now() - started;
      resolve(outcome);
    };
    lines.on('close', () => { channelClosed = true; finish(); });
    child.on('error', (e) => { outcome.protocolError ??= `could not start worker: ${e.message}`; });
    child.on('close', (code, signal) => {
      outcome.exitCode = code; outcome.signal = signal; exited = true;
      if (!channelClosed) { channelClosed = true; lines.close(); }
      finish();
    });
    child.stdin!.on('error', () => { /* worker died before reading its job: reported by close */ });
    child.stdin!.end(encodeMessage({ type: 'start', job }));
  });
}
