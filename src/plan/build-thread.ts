/**
 * Entry of the worker thread that builds payloads (see payloads.ts {@link buildPayloadTexts}):
 * loads the workload (built-in, or from the user's compiled config), awaits `build(size, seed)`
 * for each seed, checks the value survives JSON, writes hostile strings into the variant's
 * plain-string fields, and posts the texts back (or the error).
 */
import { messageOfThrown } from '../host/describe-thrown.js';
import { parentPort, workerData } from 'node:worker_threads';
import { workloads } from '../workloads/index.js';
import { loadUserConfig } from '../config/user-config.js';
import { hostileVariantText, payloadText, WorkloadError, type BuildReply, type BuildRequest } from './payloads.js';

async function build(req: BuildRequest): Promise<BuildReply> {
  try {
    const user = req.configPath ? await loadUserConfig(req.configPath) : { workloads: [] };
    const workload = await workloads.load(req.workload, user.workloads);
    const texts: string[] = [];
    for (const [i, seed] of req.seeds.entries()) {
      let value: unknown;
      try {
        value = await workload.build(req.size, seed);
      } catch (e) {
        throw new WorkloadError(`workload ${workload.id}: build(${req.size}, ${seed}) threw: ${messageOfThrown(e)}`);
      }
      const text = payloadText(workload, req.size, seed, value);
      texts.push(req.hostile?.includes(i) ? hostileVariantText(workload, text) : text);
    }
    return { texts };
  } catch (e) {
    return { error: messageOfThrown(e) };
  }
}

parentPort!.postMessage(await build(workerData as BuildRequest));
