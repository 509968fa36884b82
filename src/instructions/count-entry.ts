/**
 * The process callgrind runs for `--metric instructions`: prepares one case's serializer and
 * calls it `iterations` times on the case's payload, then exits. No timing, no correctness gate
 * (the case passed the gate in its timing launch), no protocol: the host reads only the exit code
 * and callgrind's instruction count. Usage: `node --predictable count-entry.js <job.json> <iterations>`.
 */
import { readFileSync } from 'node:fs';
import { workloads } from '../workloads/index.js';
import { serializers } from '../serializers/index.js';
import { unitView, unitsOf } from '../workloads/unit.js';
import { caseIo } from '../measure/gate.js';
import { drainSink, makeOp, sinkChecksum } from '../measure/sink.js';
import { loadUserConfig } from '../config/user-config.js';
import type { CountJob } from './callgrind.js';

async function main(): Promise<void> {
  const [jobPath, iterationsArg] = process.argv.slice(2);
  const job = JSON.parse(readFileSync(jobPath, 'utf8')) as CountJob;
  const iterations = Number(iterationsArg);
  const user = job.configPath ? await loadUserConfig(job.configPath) : { serializers: [], workloads: [] };
  const workload = unitView(await workloads.load(job.workload, user.workloads), job.shape);
  const adapter = await serializers.load(job.serializer, user.serializers);
  const prepared = await adapter.prepare(workload, job.direction);
  const call = job.direction === 'serialize' ? prepared.serialize : prepared.deserialize;
  if (typeof call !== 'function') throw new Error(`prepare() returned no ${job.direction} function`);
  const text = readFileSync(job.payloadPath, 'utf8');
  const copy = () => caseIo(workload, job.direction, job.caseClass, unitsOf(JSON.parse(text), job.shape)).inputs;
  const op = makeOp((input) => call.call(prepared, input as never), copy(), copy());
  for (let i = 0; i < iterations; i++) op(i);
  drainSink();
  if (sinkChecksum() < 0) process.stdout.write('unreachable\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`count-entry: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(3);
});
