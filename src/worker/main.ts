/**
 * The worker: one process per case launch. Reads a {@link StartMessage} from stdin, then
 * prepare → correctness gate → (time: warmup, pilot, paired rounds | alloc: untimed windows),
 * streaming {@link WorkerMessage}s on fd 3 (see protocol.ts). Imports only the workload and
 * adapters its case needs. Started by the host with `--expose-gc`.
 */
import { readFileSync, writeSync } from 'node:fs';
import { encodeMessage, PROTOCOL_VERSION, type StartMessage, type WorkerJob } from './protocol.js';
import { runJob } from './job.js';

const CHANNEL_FD = 3;

function send(message: Parameters<typeof encodeMessage>[0]): void {
  const line = encodeMessage(message);
  let offset = 0;
  const buf = Buffer.from(line);
  while (offset < buf.length) offset += writeSync(CHANNEL_FD, buf, offset);
}

function readStart(): WorkerJob {
  const text = readFileSync(0, 'utf8');
  const message = JSON.parse(text.split('\n')[0]) as StartMessage;
  if (message.protocol !== PROTOCOL_VERSION || message.type !== 'start') {
    throw new Error(`worker: expected a start message of protocol ${PROTOCOL_VERSION}`);
  }
  return message.job;
}

async function main(): Promise<void> {
  let job: WorkerJob;
  try {
    job = readStart();
  } catch (e) {
    send({ type: 'error', stage: 'load', message: (e as Error).message });
    process.exit(2);
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  send({ type: 'hello', runtime: 'node', version: process.versions.node, gc: typeof gc === 'function' });
  await runJob(job, send as (m: unknown) => void, gc ?? (() => {}), async () => (await import('node:v8')) as never);
  process.exit(0);
}

void main();
