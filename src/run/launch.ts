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

/**
 * Starts one worker process for a job and collects its messages until it exits. Kills the worker
 * (SIGKILL) after `timeoutMs`. Never rejects: spawn errors, crashes and protocol errors are
 * described in the outcome.
 * @param onMessage called for each message as it arrives (progress, live samples)
 */
export function launchWorker(job: WorkerJob, timeoutMs: number, onMessage?: (m: WorkerMessage) => void): Promise<LaunchOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...workerFlags, workerEntry], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    const outcome: LaunchOutcome = { messages: [], exitCode: null, signal: null, timedOut: false, stderrTail: '', stdoutTail: '', elapsedMs: 0 };
    keepTail(child.stderr, (t) => { outcome.stderrTail = t; });
    keepTail(child.stdout, (t) => { outcome.stdoutTail = t; });
    const channel = child.stdio[3] as Readable;
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
    child.stdin.on('error', () => { /* worker died before reading its job: reported by close */ });
    child.stdin.end(encodeMessage({ type: 'start', job }));
  });
}
