import type { ProbeJob } from './protocol.js';
import { describeThrown } from '../host/describe-thrown.js';
import type { WorkerHost } from './host.js';
import { serializers } from '../serializers/index.js';
import type { SerializerAdapter } from '../serializers/types.js';
import { loadCatalog, type ProbeData } from '../probes/index.js';
import { runProbe, type PrepareCache } from '../probes/run-probe.js';
import { typiaProbeAdapter, type TypiaModuleIndex } from '../probes/typia-probes.js';
import type { Probe, Verdict } from '../probes/types.js';
import { PROBE_FAMILIES, type ProbeFamily } from '../case/probe.js';

/**
 * A probe launch (protocol.ts {@link ProbeJob}): loads the serializer as a case launch does (a
 * user's config or a version matrix's module through `host.loadConfig`), builds the catalog of the
 * families its cells need (conformance from the job's file), and runs each cell through
 * probes/run-probe.ts — the lab's one `prepareCase`, a per-launch prepare cache, the probe judge —
 * sending `probe-start`, `probe-prepared` and `probe` for each, then `done`. A failure to load
 * is one `error` message (the host gives every cell of the launch that reason). Never throws.
 */
export async function runProbeJob(job: ProbeJob, host: WorkerHost): Promise<void> {
  const t0 = performance.now();
  const send = host.send;
  let adapter: SerializerAdapter;
  let byId: Map<string, Probe>;
  try {
    const loadConfig = host.loadConfig;
    if (job.configPath && !loadConfig && !serializers.ids.includes(job.serializer)) {
      send({
        type: 'error',
        stage: 'load',
        message: `serializer ${job.serializer} comes from a jsonbench.config, which this runtime cannot load (it has no file imports)`,
        unsupported: true,
      });
      return;
    }
    const user = job.configPath && loadConfig ? await loadConfig(job.configPath) : { serializers: [], workloads: [] };
    adapter = await serializers.load(job.serializer, user.serializers);
    if (job.typiaModules) {
      if (!loadConfig) {
        send({
          type: 'error',
          stage: 'load',
          message: "typia's probe code is generated at run time into files, which this runtime cannot import",
          unsupported: true,
        });
        return;
      }
      const index = JSON.parse(host.readText(job.typiaModules)) as TypiaModuleIndex;
      adapter = typiaProbeAdapter(adapter, index, (path) => import(`file://${path}`));
    }
    const families = new Set(
      job.cells
        .map((c) => c.probe.split('.')[0])
        .filter((f): f is ProbeFamily => (PROBE_FAMILIES as readonly string[]).includes(f)),
    );
    const data =
      families.has('conformance') || families.has('payload')
        ? (JSON.parse(host.readText(job.payloadPath)) as ProbeData)
        : null;
    const conformance = data?.conformance;
    byId = new Map(
      loadCatalog({
        families: [...families],
        ...(conformance ? { conformance } : {}),
        ...(data?.payload.length ? { payload: data.payload } : {}),
      }).map((p) => [p.id, p]),
    );
  } catch (e) {
    send({ type: 'error', stage: 'load', message: describeThrown(e) });
    return;
  }
  const cache: PrepareCache = new Map();
  for (const cell of job.cells) {
    send({ type: 'probe-start', ...cell });
    const probe = byId.get(cell.probe);
    let verdict: Verdict | null;
    if (!probe)
      verdict = {
        mark: '–',
        reason: `probe ${cell.probe} is not in this worker's catalog (a conformance file that changed since the host read it?)`,
      };
    else {
      try {
        verdict = await runProbe(adapter, probe, cell.direction, cache, () =>
          send({ type: 'probe-prepared', ...cell }),
        );
      } catch (e) {
        // Building the probe's own input threw: a fault of the catalog, said as such.
        verdict = { mark: '–', reason: `jsonbench could not build this probe's input: ${(e as Error).message}` };
      }
      verdict ??= { mark: '–', reason: `probe ${cell.probe} has no ${cell.direction} side` };
    }
    send({ type: 'probe', ...cell, verdict });
  }
  send({ type: 'done', noisy: false, elapsedMs: performance.now() - t0, checksum: 0 });
}
