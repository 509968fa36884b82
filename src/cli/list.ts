import { checkInputPaths } from './input-files.js';
import type { Column } from '../report/table/column.js';
import { renderTable } from '../report/table/write.js';
import { DEFAULT_WIDTH, wrap } from '../report/fit.js';
import { stdoutWidth } from './output.js';
import { findConfig, prepareConfig } from '../config/compile-config.js';
import { workloads } from '../workloads/index.js';
import { serializers } from '../serializers/index.js';
import { dotnetSerializers } from '../serializers/dotnet/index.js';
import { platformOf, type SerializerAdapter, type SerializerInfo } from '../serializers/types.js';
import { LOADED_BY_TARGET } from '../plan/plan.js';
import { KNOWN_TARGETS, parseTarget } from '../runtimes/index.js';
import { unitView } from '../workloads/unit.js';
import { supportOf } from '../plan/plan.js';
import { adapterVersion } from '../serializers/version.js';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** A row of the serializers table of `jsonbench list`. */
export interface SerializerRow {
  id: string;
  version: string;
  family: string;
  deserializeClass: string | null;
  supported: string[];
  /** `javascript` (default) or `dotnet` */ platform?: string;
}
/** A row of the workloads table of `jsonbench list`. */
export interface WorkloadRow {
  id: string;
  description: string;
  sizes: readonly number[];
  defaultSizes: readonly number[];
  shapes: readonly string[];
}

/**
 * A serializer's supported pairs as the list shows them: per workload its shapes, a shape that
 * supports one direction only marked `(ser)` or `(de)`: `weather-station single; users list, many
 * (de)`. Every pair is named whole, so two serializers' cells never read alike when a column is
 * narrow (issue 22: "weather-station/singl…" twice in a row). Pure.
 */
export function pairsText(supported: readonly string[]): string {
  const byWorkload = new Map<string, Map<string, Set<string>>>();
  for (const pair of supported) {
    const [direction, shape, ...workload] = pair.split('/').reverse();
    const w = workload.reverse().join('/');
    if (!byWorkload.has(w)) byWorkload.set(w, new Map());
    const shapes = byWorkload.get(w)!;
    if (!shapes.has(shape)) shapes.set(shape, new Set());
    shapes.get(shape)!.add(direction);
  }
  // one direction for every pair: said once, first
  const directions = new Set([...byWorkload.values()].flatMap((shapes) => [...shapes.values()].flatMap((d) => [...d])));
  const only = directions.size === 1 ? [...directions][0] : null;
  const text = [...byWorkload]
    .map(
      ([w, shapes]) =>
        `${w} ${[...shapes].map(([shape, ds]) => (ds.size > 1 || only ? shape : `${shape} (${[...ds][0]})`)).join(', ')}`,
    )
    .join('; ');
  return only ? `${only} only: ${text}` : text;
}

/**
 * A serializer's Supported cell: against every workload shape some serializer of its platform runs,
 * in both directions (the platform's `universe`), `every pair` when it supports them all, `de only: every workload` when it
 * supports every pair of its one direction, else the shorter of
 * {@link pairsText} of what it supports and `all but ` that of what it does not (nu9: the list at 80
 * columns was 163 lines, most of them these cells wrapped). Pure.
 */
export function supportedText(row: SerializerRow, rows: readonly SerializerRow[]): string {
  // nu10: a config's serializer written for one payload showed an empty cell
  if (!row.supported.length) return 'no built-in workload (its supports() refuses them; try it with --payload)';
  const platform = row.platform ?? 'javascript';
  // each workload shape some serializer of the platform runs, in both directions
  const universe = new Set(
    rows
      .filter((r) => (r.platform ?? 'javascript') === platform)
      .flatMap((r) => r.supported.map((p) => p.slice(0, p.lastIndexOf('/'))))
      .flatMap((ws) => [`${ws}/ser`, `${ws}/de`]),
  );
  const missing = [...universe].filter((p) => !row.supported.includes(p));
  if (!missing.length) return 'every pair';
  const directions = new Set(row.supported.map((p) => p.slice(p.lastIndexOf('/') + 1)));
  if (directions.size === 1) {
    const [d] = directions;
    if (![...universe].some((p) => p.endsWith(`/${d}`) && !row.supported.includes(p)))
      return `${d} only: every workload`;
  }
  const named = pairsText(row.supported);
  const but = pairsText(missing).replace(/^(\w+) only: (.*)$/, '$1 of $2');
  const allBut = `all but ${but}`;
  return allBut.length < named.length ? allBut : named;
}

/**
 * The tables of `jsonbench list`, fitted to `width` characters (the terminal's columns, `COLUMNS`,
 * or 100: report/fit.ts): the workloads, then the serializers, one table per platform under a line
 * naming the targets they run on (`JavaScript serializers, run on node, node@20|22|24, bun, …:`),
 * so where a serializer runs is never a column a narrow terminal drops (nu6: at 80 columns "Runs
 * on" was left out). Id columns are as wide as the longest id, so an id is never wrapped or cut
 * ("safe-stable-stringi…"); the other columns wrap (a long word broken, never cut), and on a narrow
 * terminal "Family" is left out (one line under the last table says so). Pure.
 */
export function renderList(
  ws: readonly WorkloadRow[],
  rows: readonly SerializerRow[],
  color: boolean,
  width = DEFAULT_WIDTH,
): string {
  const workloadColumns: Column<WorkloadRow>[] = [
    { id: 'workload', header: 'Workload', cell: (w) => w.id },
    {
      id: 'sizes',
      header: 'Sizes (default)',
      cell: (w) => `${w.sizes.join(', ')} (${w.defaultSizes.join(', ')})`,
      wrap: 12,
    },
    { id: 'shapes', header: 'Shapes', cell: (w) => w.shapes.join(', '), wrap: 14 },
    { id: 'description', header: 'Description', cell: (w) => w.description, wrap: 60 },
  ];
  const serializerColumns: Column<SerializerRow>[] = [
    { id: 'serializer', header: 'Serializer', cell: (r) => r.id },
    { id: 'version', header: 'Version', cell: (r) => r.version, wrap: 14 },
    { id: 'family', header: 'Family', cell: (r) => r.family, wrap: 17, priority: 1 },
    // two header lines, so the header is never cut ("Deseriali…") in a column as narrow as its cells
    // a serializer that never deserializes here (class-transformer: converts without validating) has no class to show
    {
      id: 'class',
      header: 'Deserialize\nclass',
      // none supported (a config's serializer for the user's payload alone): its declared class still says what it is
      cell: (r) =>
        r.supported.some((p) => !p.endsWith('/ser')) || !r.supported.length ? (r.deserializeClass ?? '—') : '—',
      wrap: 13,
    },
    { id: 'pairs', header: 'Supported (workload shapes)', cell: (r) => supportedText(r, rows), wrap: 60 },
  ];
  const platforms = [...new Set(rows.map((r) => r.platform ?? 'javascript'))];
  // the columns a narrow terminal leaves out, said once under the last table
  const dropped = new Set<string>();
  const onDropped = (headers: string[]) => headers.forEach((h) => dropped.add(h));
  const tables = platforms.map((platform) => {
    const mine = rows.filter((r) => (r.platform ?? 'javascript') === platform);
    const name = platform === 'javascript' ? 'JavaScript' : platform === 'dotnet' ? '.NET' : platform;
    return `${wrap(`${name} serializers, run on ${targetsOf(platform)}:`, width)}\n${renderTable({ columns: serializerColumns, rows: mine }, 'terminal', { color, width, onDropped, open: true })}`;
  });
  const left = [...dropped];
  const leftOut = left.length
    ? `${wrap(`(${left.length === 1 ? 'column' : 'columns'} left out to fit ${width} characters: ${left.join(', ')}; a wider terminal shows ${left.length === 1 ? 'it' : 'them'})`, width)}\n`
    : '';
  return `${renderTable({ columns: workloadColumns, rows: ws }, 'terminal', { color, width, open: true })}\n${tables.join('\n')}\n${leftOut}${wrap('Supported: the shapes of each workload a serializer runs, in both directions unless "ser" (serialize) or "de" (deserialize) says which ("every pair": every one a serializer of its platform runs); --json lists them.', width)}\n`;
}

/**
 * The targets a platform's serializers run on, versions of one runtime collapsed: `node,
 * node@20|22|24, bun, deno, chromium, quickjs` for JavaScript, `dotnet, dotnet@8|9|10, mono` for .NET.
 */
function targetsOf(platform: string): string {
  const ids = KNOWN_TARGETS.filter((id) => (parseTarget(id).platform ?? 'javascript') === platform);
  const out: string[] = [];
  for (const id of ids) {
    const [runtime, version] = id.split('@');
    const at = out.findIndex((x) => x.startsWith(`${runtime}@`));
    if (version && at >= 0) out[at] += `|${version}`;
    else out.push(id);
  }
  return out.join(', ');
}

/** `jsonbench list`: workloads, then serializers (JavaScript and .NET) with versions, families, classes, the targets they run on and the pairs each supports. */
export async function listCommand(opts: { config?: string; json?: boolean }): Promise<number> {
  // a FIFO as --config blocked importing it (hx8): refused before anything opens it
  checkInputPaths({ config: opts.config });
  const configFile = findConfig(process.cwd(), opts.config);
  const prepared = configFile ? await prepareConfig(configFile, tmpdir()) : null;
  try {
    const user = prepared?.config ?? { serializers: [], workloads: [] };
    const ws = await workloads.loadAll(user.workloads);
    const ss: SerializerInfo[] = [
      ...(await serializers.loadAll(user.serializers)),
      ...(await dotnetSerializers.loadAll()),
    ];
    const rows = ss.map((s): SerializerRow => {
      const pairs: string[] = [];
      for (const w of ws)
        for (const shape of w.shapes)
          for (const d of ['serialize', 'deserialize'] as const) {
            if (supportOf(s, unitView(w, shape), d).status === 'planned')
              pairs.push(`${w.id}/${shape}/${d === 'serialize' ? 'ser' : 'de'}`);
          }
      const dotnet = platformOf(s) !== 'javascript';
      const version = dotnet ? LOADED_BY_TARGET : adapterVersion(s as SerializerAdapter, configFile ?? undefined);
      return {
        id: s.id,
        version,
        family: s.family,
        deserializeClass: s.deserializeClass ?? null,
        supported: pairs,
        ...(dotnet ? { platform: platformOf(s) } : {}),
      };
    });
    if (opts.json) {
      process.stdout.write(
        JSON.stringify(
          {
            workloads: ws.map((w) => ({
              id: w.id,
              description: w.description,
              sizes: w.sizes,
              defaultSizes: w.defaultSizes,
              shapes: w.shapes,
            })),
            serializers: rows,
          },
          null,
          2,
        ) + '\n',
      );
      return 0;
    }
    process.stdout.write(renderList(ws, rows, !process.env.NO_COLOR && Boolean(process.stdout.isTTY), stdoutWidth()));
    return 0;
  } finally {
    if (prepared && prepared.modulePath !== configFile) rmSync(prepared.modulePath, { force: true });
  }
}
