import type { CaseJob } from './protocol.js';
import type { WorkerHost } from './host.js';
import type { Workload } from '../workloads/types.js';
import { workloads } from '../workloads/index.js';
import { payloadWorkload } from '../workloads/payload.js';
import { serializers } from '../serializers/index.js';

/** What a case's worker gets from the user's config: its serializers and workloads (empty when not loaded). */
export type UserEntries = Awaited<ReturnType<NonNullable<WorkerHost['loadConfig']>>>;

/**
 * The user's config for a case job whose sides are `serializerIds`, or no entries: a job of
 * built-ins only (a built-in workload or a user payload, which is data, and built-in serializers)
 * never loads it, so its top level cannot patch what the built-ins and the baseline call (issue 9).
 * Shared by the pair, group and cold jobs.
 */
export async function userEntriesFor(
  job: CaseJob,
  host: WorkerHost,
  serializerIds: readonly string[],
): Promise<UserEntries> {
  const builtinCase =
    (Boolean(job.workloadSpec) || workloads.ids.includes(job.workload)) &&
    serializerIds.every((id) => serializers.ids.includes(id));
  return job.configPath && host.loadConfig && !builtinCase
    ? host.loadConfig(job.configPath)
    : { serializers: [], workloads: [] };
}

/**
 * The workload of a case job: a user payload's, built from its spec, or the registry's (a config's
 * own among `user`'s). `beforeRegistry` runs first on the registry path (the runtime check of a
 * config entry the runtime cannot load).
 */
export async function caseWorkload(
  job: CaseJob,
  user: UserEntries,
  beforeRegistry: () => void = () => {},
): Promise<Workload> {
  if (job.workloadSpec) return payloadWorkload(job.workloadSpec);
  beforeRegistry();
  return workloads.load(job.workload, user.workloads);
}
