import type { Column } from '../report/table/column.js';
import { renderTable } from '../report/table/write.js';
import { findConfig, prepareConfig } from '../config/compile-config.js';
import { workloads } from '../workloads/index.js';
import { serializers } from '../serializers/index.js';
import { unitView } from '../workloads/unit.js';
import { supportOf } from '../plan/plan.js';
import { adapterVersion } from '../serializers/version.js';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** A row of the serializers table of `jsonbench list`. */
export interface SerializerRow { id: string; version: string; family: string; deserializeClass: string | null; supported: string[] }
/** A row of the workloads table of `jsonbench list`. */
export interface WorkloadRow { id: string; description: string; sizes: readonly number[]; defaultSizes: readonly number[]; shapes: readonly string[] }

/** The two tables of `jsonbench list`; id columns as wide as the longest id, so an id is never wrapped or cut ("safe-stable-stringi…"). Pure. */
export function renderList(ws: readonly WorkloadRow[], rows: readonly SerializerRow[], color: boolean): string {
  const idWidth = (ids: string[], min: number) => Math.max(min, ...ids.map((id) => id.length + 2));
  const workloadColumns: Column<WorkloadRow>[] = [
    { id: 'workload', header: 'Workload', cell: (w) => w.id, wrap: idWidth(ws.map((w) => w.id), 18) },
    { id: 'sizes', header: 'Sizes (default)', cell: (w) => `${w.sizes.join(', ')} (${w.defaultSizes.join(', ')})`, wrap: 30 },
    { id: 'shapes', header: 'Shapes', cell: (w) => w.shapes.join(', '), wrap: 14 },
    { id: 'description', header: 'Description', cell: (w) => w.description, wrap: 60 },
  ];
  const serializerColumns: Column<SerializerRow>[] = [
    { id: 'serializer', header: 'Serializer', cell: (r) => r.id, wrap: idWidth(rows.map((r) => r.id), 22) },
    { id: 'version', header: 'Version', cell: (r) => r.version, wrap: 14 },
    { id: 'family', header: 'Family', cell: (r) => r.family, wrap: 17 },
    { id: 'class', header: 'Deserialize class', cell: (r) => r.deserializeClass ?? '—', wrap: 12 },
    { id: 'pairs', header: 'Supported pairs', cell: (r) => r.supported.join(', '), wrap: 60 },
  ];
  return `${renderTable({ columns: workloadColumns, rows: ws }, 'terminal', { color })}\n${renderTable({ columns: serializerColumns, rows }, 'terminal', { color })}\n`;
}

/** `jsonbench list`: workloads, then serializers with versions, families, classes and the pairs each supports. */
export async function listCommand(opts: { config?: string; json?: boolean }): Promise<number> {
  const configFile = findConfig(process.cwd(), opts.config);
  const prepared = configFile ? await prepareConfig(configFile, tmpdir()) : null;
  try {
    const user = prepared?.config ?? { serializers: [], workloads: [] };
    const ws = await workloads.loadAll(user.workloads);
    const ss = await serializers.loadAll(user.serializers);
    const rows = ss.map((s): SerializerRow => {
      const pairs: string[] = [];
      for (const w of ws) for (const shape of w.shapes) for (const d of ['serialize', 'deserialize'] as const) {
        if (supportOf(s, unitView(w, shape), d).status === 'planned') pairs.push(`${w.id}/${shape}/${d === 'serialize' ? 'ser' : 'de'}`);
      }
      const version = adapterVersion(s, configFile ?? undefined);
      return { id: s.id, version, family: s.family, deserializeClass: s.deserializeClass ?? null, supported: pairs };
    });
    if (opts.json) {
      process.stdout.write(JSON.stringify({ workloads: ws.map((w) => ({ id: w.id, description: w.description, sizes: w.sizes, defaultSizes: w.defaultSizes, shapes: w.shapes })), serializers: rows }, null, 2) + '\n');
      return 0;
    }
    process.stdout.write(renderList(ws, rows, !process.env.NO_COLOR && Boolean(process.stdout.isTTY)));
    return 0;
  } finally {
    if (prepared && prepared.modulePath !== configFile) rmSync(prepared.modulePath, { force: true });
  }
}
