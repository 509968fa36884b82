import { KNOWN_TARGETS, parseTarget } from '../runtimes/index.js';
import type { Column } from '../report/table/column.js';
import { renderTable } from '../report/table/write.js';
import { DEFAULT_WIDTH, wrapLines } from '../report/fit.js';
import { stdoutWidth } from './output.js';
import { defaultCacheDir } from '../runtimes/cache.js';
import type { Detection } from '../runtimes/types.js';
import { UsageError } from '../config/usage-error.js';

/** Options shared by `jsonbench runtimes list|install`. */
export interface RuntimesOptions {
  cacheDir?: string;
  chromiumPath?: string;
  json?: boolean;
}

/** One row of `jsonbench runtimes list`. */
export interface RuntimeRow {
  target: string;
  installed: boolean;
  version: string | null;
  where: string | null;
  install: string | null;
}

/** Detects every known target (in parallel); never throws. */
export async function listRuntimes(opts: RuntimesOptions): Promise<RuntimeRow[]> {
  const cacheDir = opts.cacheDir ?? defaultCacheDir();
  return Promise.all(
    KNOWN_TARGETS.map(async (id) => {
      const t = parseTarget(id);
      const d: Detection = await t.detect({ cacheDir, chromiumPath: opts.chromiumPath });
      return d.installed
        ? { target: id, installed: true, version: d.version, where: d.location, install: null }
        : {
            target: id,
            installed: false,
            version: null,
            where: null,
            install: t.install ? `jsonbench runtimes install ${id}` : t.installHint,
          };
    }),
  );
}

/** The columns of `jsonbench runtimes list`; a location in the cache starts with `(cache)/`, the folder said under the table. */
const runtimeColumns = (cacheDir: string): Column<RuntimeRow>[] => [
  { id: 'target', header: 'Target', cell: (r) => r.target },
  { id: 'status', header: 'Status', cell: (r) => (r.installed ? 'installed' : 'missing') },
  { id: 'version', header: 'Version', cell: (r) => r.version ?? '—', wrap: 24 },
  {
    id: 'where',
    header: 'Location / install',
    cell: (r) =>
      r.installed
        ? (r.where ?? '').startsWith(`${cacheDir}/`)
          ? `(cache)${(r.where ?? '').slice(cacheDir.length)}`
          : (r.where ?? '')
        : `run: ${r.install}`,
    wrap: 100,
  },
];

/** Renders the rows as a table, then where the cache is, fitted to `width` (default 100: report/fit.ts). Pure. */
export function renderRuntimes(rows: readonly RuntimeRow[], cacheDir: string, width = DEFAULT_WIDTH): string {
  return [
    renderTable({ columns: runtimeColumns(cacheDir), rows, compact: true }, 'terminal', { width }),
    '',
    wrapLines(
      `cache: ${cacheDir} (set JSONBENCH_CACHE or --cache-dir to move it)\nremote: --target ssh://user@host[:port]?node=/path/to/node`,
      width,
      '  ',
      { keepLongWords: true },
    ),
    '',
  ].join('\n');
}

/**
 * `jsonbench runtimes install <targets…>`: installs each from the npm registry into the cache.
 * Returns 0, or 1 when one could not be installed (chromium and ssh targets are not installed by
 * jsonbench: the message says how). @throws UsageError on an unknown target
 */
export async function installRuntimes(
  ids: readonly string[],
  opts: RuntimesOptions,
  out: (line: string) => void,
): Promise<number> {
  const cacheDir = opts.cacheDir ?? defaultCacheDir();
  const targets = ids
    .flatMap((v) => v.split(','))
    .filter(Boolean)
    .map((id) => {
      try {
        return parseTarget(id);
      } catch (e) {
        throw new UsageError('runtimes install', (e as Error).message);
      }
    });
  let code = 0;
  for (const t of targets) {
    if (!t.install) {
      out(`${t.id}: not installed by jsonbench: ${t.installHint}`);
      code = 1;
      continue;
    }
    const t0 = performance.now();
    try {
      await t.install(cacheDir, (l) => out(`${t.id}: ${l}`));
      const d = await t.detect({ cacheDir, chromiumPath: opts.chromiumPath });
      if (!d.installed) throw new Error(d.reason);
      out(`${t.id}: installed ${d.version} in ${((performance.now() - t0) / 1000).toFixed(1)} s (${d.location})`);
    } catch (e) {
      out(`${t.id}: install failed: ${(e as Error).message}`);
      code = 1;
    }
  }
  return code;
}

/** `jsonbench runtimes list`: prints the table (or `--json`) on stdout. Returns 0. */
export async function runtimesListCommand(opts: RuntimesOptions): Promise<number> {
  const rows = await listRuntimes(opts);
  process.stdout.write(
    opts.json
      ? JSON.stringify(rows, null, 2) + '\n'
      : renderRuntimes(rows, opts.cacheDir ?? defaultCacheDir(), stdoutWidth()),
  );
  return 0;
}
