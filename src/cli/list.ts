import Table from 'cli-table3';
import { findConfig, prepareConfig } from '../config/compile-config.js';
import { workloads } from '../workloads/index.js';
import { serializers } from '../serializers/index.js';
import { unitView } from '../workloads/unit.js';
import { adapterVersion } from '../serializers/version.js';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** `jsonbench list`: workloads, then serializers with versions, families, classes and the pairs each supports. */
export async function listCommand(opts: { config?: string; json?: boolean }): Promise<number> {
  const configFile = findConfig(process.cwd(), opts.config);
  const prepared = configFile ? await prepareConfig(configFile, tmpdir()) : null;
  try {
    const user = prepared?.config ?? { serializers: [], workloads: [] };
    const ws = await workloads.loadAll(user.workloads);
    const ss = await serializers.loadAll(user.serializers);
    const rows = ss.map((s) => {
      const pairs: string[] = [];
      for (const w of ws) for (const shape of w.shapes) for (const d of ['serialize', 'deserialize'] as const) {
        if (d === 'deserialize' && !s.deserializeClass) continue;
        let ok: true | string;
        try { ok = s.supports(unitView(w, shape), d); } catch (e) { ok = (e as Error).message; }
        if (ok === true) pairs.push(`${w.id}/${shape}/${d === 'serialize' ? 'ser' : 'de'}`);
      }
      const version = adapterVersion(s, configFile ?? undefined);
      return { id: s.id, version, family: s.family, deserializeClass: s.deserializeClass ?? null, supported: pairs };
    });
    if (opts.json) {
      process.stdout.write(JSON.stringify({ workloads: ws.map((w) => ({ id: w.id, description: w.description, sizes: w.sizes, defaultSizes: w.defaultSizes, shapes: w.shapes })), serializers: rows }, null, 2) + '\n');
      return 0;
    }
    // cli-table3 colours its head and borders unless told not to: plain when piped or NO_COLOR.
    // Id columns are as wide as the longest id, so an id is never wrapped or cut ("safe-stable-stringi…").
    const style = process.env.NO_COLOR || !process.stdout.isTTY ? { head: [], border: [] } : {};
    const idWidth = (ids: string[], min: number) => Math.max(min, ...ids.map((id) => id.length + 2));
    const wt = new Table({ head: ['Workload', 'Sizes (default)', 'Shapes', 'Description'], style, wordWrap: true, colWidths: [idWidth(ws.map((w) => w.id), 18), 30, 14, 60] });
    for (const w of ws) wt.push([w.id, `${w.sizes.join(', ')} (${w.defaultSizes.join(', ')})`, w.shapes.join(', '), w.description]);
    const st = new Table({ head: ['Serializer', 'Version', 'Family', 'Deserialize class', 'Supported pairs'], style, wordWrap: true, colWidths: [idWidth(rows.map((r) => r.id), 22), 14, 17, 12, 60] });
    for (const r of rows) st.push([r.id, r.version, r.family, r.deserializeClass ?? '—', r.supported.join(', ')]);
    process.stdout.write(`${wt.toString()}\n${st.toString()}\n`);
    return 0;
  } finally {
    if (prepared && prepared.modulePath !== configFile) rmSync(prepared.modulePath, { force: true });
  }
}
