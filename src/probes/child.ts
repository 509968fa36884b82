/**
 * Child-process entry of the probe runner (runner.ts). Receives one {@link ChildJob} over IPC,
 * runs each (probe, direction) of it against one serializer in order, and reports
 * `{ type: 'start', key }` before, `{ type: 'prepared', key }` once the serializer is prepared
 * and `{ type: 'result', result }` after each, so the parent knows which probe was in flight —
 * and in which stage — when this process hangs or dies. Phase 2 replaces this with a
 * `probe` job mode of the worker (worker/job.ts) speaking the worker protocol.
 */
import { pathToFileURL } from 'node:url';
import { probeAdapter } from './typia-probes.js';
import type { SerializerAdapter } from '../serializers/types.js';
import { loadCatalog, type CatalogOptions } from './index.js';
import { runProbe, type PrepareCache } from './run-probe.js';
import type { ProbeDirection, ProbeResult } from './types.js';

export interface ChildJob { serializer: string; keys: string[]; catalog: CatalogOptions; configPath?: string }

/**
 * The serializers of a plain-JavaScript config module (`export default { serializers: [...] }`),
 * for user adapters and test fixtures. Phase 2 uses config/user-config.ts, as the worker does.
 */
export async function configSerializers(configPath: string | undefined): Promise<SerializerAdapter[]> {
  if (!configPath) return [];
  const mod = (await import(pathToFileURL(configPath).href)) as { default?: { serializers?: SerializerAdapter[] } };
  return mod.default?.serializers ?? [];
}
export type ChildMessage =
  | { type: 'start'; key: string }
  | { type: 'prepared'; key: string }
  | { type: 'result'; result: ProbeResult }
  | { type: 'done' };

/** `probe id` + `|` + direction: one cell of the matrix. */
export const cellKey = (probe: string, direction: ProbeDirection) => `${probe}|${direction}`;
export const parseCellKey = (key: string): [string, ProbeDirection] => {
  const i = key.lastIndexOf('|');
  return [key.slice(0, i), key.slice(i + 1) as ProbeDirection];
};

async function main(job: ChildJob): Promise<void> {
  const send = (m: ChildMessage) => new Promise<void>((resolve) => process.send!(m, () => resolve()));
  const probes = loadCatalog(job.catalog).probes;
  const byId = new Map(probes.map((p) => [p.id, p]));
  const adapter = await probeAdapter(job.serializer, job.keys.map((k) => byId.get(parseCellKey(k)[0])!).filter(Boolean), await configSerializers(job.configPath));
  const cache: PrepareCache = new Map();
  for (const key of job.keys) {
    const [id, direction] = parseCellKey(key);
    const probe = byId.get(id);
    if (!probe) throw new Error(`probe child: unknown probe ${id}`);
    await send({ type: 'start', key });
    const verdict = (await runProbe(adapter, probe, direction, cache, () => process.send!({ type: 'prepared', key })))!;
    await send({ type: 'result', result: { probe: id, family: probe.family, direction, serializer: job.serializer, verdict } });
  }
  await send({ type: 'done' });
  process.disconnect();
}

process.once('message', (job: ChildJob) => {
  main(job).catch((e) => {
    process.stderr.write(`probe child: ${(e as Error).stack ?? e}\n`);
    process.exit(70);
  });
});
