/**
 * The process callgrind runs for `--metric instructions`: prepares one case's serializer and
 * calls it `iterations` times on the case's payload, then exits. No timing, no correctness gate
 * (the case passed the gate in its timing launch), no protocol: the host reads only the exit code
 * and callgrind's instruction count. Usage: `node --predictable count-entry.js <job.json> <iterations>`.
 */
import { readFileSync } from 'node:fs';
import { workloads } from '../workloads/index.js';
import { payloadWorkload } from '../workloads/payload.js';
import { serializers } from '../serializers/index.js';
import { prepareCase } from '../measure/prepare-case.js';
import { drainSink, makeOp, sinkChecksum } from '../measure/sink.js';
import { loadUserConfig } from '../config/user-config.js';
import type { CountJob } from './callgrind.js';

async function main(): Promise<void> {
  const [jobPath, iterationsArg] = process.argv.slice(2);
  const job = JSON.parse(readFileSync(jobPath, 'utf8')) as CountJob;
  const iterations = Number(iterationsArg);
  const user = job.configPath ? await loadUserConfig(job.configPath) : { serializers: [], workloads: [] };
  const workload = job.workloadSpec
    ? payloadWorkload(job.workloadSpec)
    : await workloads.load(job.workload, user.workloads);
  const adapter = await serializers.load(job.serializer, user.serializers);
  const prepared = await prepareCase(adapter, workload, job);
  const text = readFileSync(job.payloadPath, 'utf8');
  const op = makeOp(prepared.call, prepared.inputs(text), prepared.inputs(text));
  for (let i = 0; i < iterations; i++) op(i);
  drainSink();
  if (sinkChecksum() < 0) process.stdout.write('unreachable\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`count-entry: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(3);
});
