/**
 * One probe pass (issue 11), shared by `jsonbench probe` (every probe asked) and a timed run (the
 * probes relevant to its payloads): plan each probe side per serializer row on the host
 * (plan/probe-plan.ts: ✘ declared, – inexpressible), generate typia's probe modules, run the rest
 * in workers on each target (run/probe-runner.ts), and assemble the results file's probe section.
 */
import { mkdirSync } from 'node:fs';
import { writeFileNamed } from '../files/write-file.js';
import { join } from 'node:path';
import { variantPathOf, type CaseTarget, type Direction } from '../case/coordinates.js';
import type { ProbeFamily } from '../case/probe.js';
import type { ProbeVerdictRecord, ProbesSection } from '../results/types.js';
import { planProbes, type ProbeRow } from '../plan/probe-plan.js';
import type { Probe } from '../probes/types.js';
import type { ConformanceSet } from '../probes/catalog/conformance.js';
import type { PayloadProbeSet } from '../probes/catalog/payload.js';
import type { ProbeData } from '../probes/index.js';
import type { SkippedFile } from '../probes/catalog/conformance-folder.js';
import { typiaProbeAdapter } from '../probes/typia-probes.js';
import { prepareTypiaProbes } from '../probes/typia-generate.js';
import type { LaunchFn } from '../runtimes/types.js';
import { parseTarget } from '../runtimes/index.js';
import { platformOf } from '../serializers/types.js';
import { probeRecords } from './probe-records.js';
import { dotnetCells, type DotnetProbe } from '../probes/dotnet/catalog.js';
import { judgeDotnet } from '../probes/dotnet/outcome.js';
import type { SerializerInfo } from '../serializers/types.js';
import { failedProbesBySerializer } from '../results/probe-failures.js';
import { runProbeWork, type ProbeRunInput, type ProbeWork } from './probe-runner.js';
import { packageFilesHash, type ProbeVerdictCache, type ProbeCacheScope } from './probe-cache.js';

/** Default per-probe-side timeout: generous for the 50 MiB document and ajv's compile on a loaded 2-core machine (ms). */
export const DEFAULT_PROBE_TIMEOUT_MS = 120_000;

/**
 * Default total budget of a timed run's probe pass (ms): 15 minutes, about what every probe of every
 * built-in serializer takes here (docs/probes.md); the cells left when it runs out are skipped.
 */
export const DEFAULT_PROBE_BUDGET_MS = 15 * 60_000;

/** The conformance folder of a pass, as the host read it. */
export interface ConformanceInput {
  folder: string;
  set: ConformanceSet;
  skipped: SkippedFile[];
}

/**
 * Writes the pass's payload file (`<dir>/probes.json`: {@link ProbeData}, the conformance texts and
 * the run's payload probe sets) and its
 * `.variant.json` twin (targets that hand payloads over read both), and returns its path. Called
 * before targets are prepared, so ssh copies it with the other payloads.
 */
export function writeProbePayload(
  dir: string,
  conformance?: ConformanceInput,
  payload: readonly PayloadProbeSet[] = [],
  dotnet: readonly DotnetProbe[] = [],
): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'probes.json');
  const data: ProbeData = {
    conformance: conformance?.set ?? null,
    payload: [...payload],
    ...(dotnet.length ? { dotnet: dotnetCells(dotnet) } : {}),
  };
  writeFileNamed(path, JSON.stringify(data));
  writeFileNamed(variantPathOf(path), 'null');
  return path;
}

/** A .NET serializer row of the matrix (its probes run in the C# worker of each .NET target). */
export interface DotnetProbeRow {
  serializer: SerializerInfo;
  /** the id, or a version row's label (`newtonsoft@13.0.1`) */
  label: string;
  /** the version a target's worker loads (the row's own for a version row) */
  version(targetId: string): string;
}

/** What a pass needs. */
export interface ProbePassInput {
  selection: ProbesSection['selection'];
  families: readonly ProbeFamily[];
  probes: readonly Probe[];
  rows: readonly ProbeRow[];
  directions: readonly Direction[];
  targets: readonly CaseTarget[];
  launchFor(target: CaseTarget): LaunchFn | undefined;
  faultOf(target: CaseTarget): string | undefined;
  /** written by {@link writeProbePayload} */
  payloadPath: string;
  conformance?: ConformanceInput;
  /** module the workers load user adapters and version-matrix rows from */
  configPath?: string;
  timeoutMs: number;
  relevantTo?: Record<string, string[]>;
  onVerdict?(v: ProbeVerdictRecord): void;
  onLaunch?(e: { row: string; target: string; cells: number; relaunch: boolean }): void;
  /** a line of progress (typia's generation) */
  onNote?(line: string): void;
  /**
   * The probe-verdict cache (run/probe-cache.ts) and which rows may use it (the caller's rule:
   * built-in serializers, no config). A row's cached cells are not launched; its worker-judged
   * verdicts are stored. Their records say `cached: true`.
   */
  cache?: { store: ProbeVerdictCache; cacheable(row: ProbeRow): boolean };
  /** the pass's total wall-time budget (ms; absent: none): run/probe-runner.ts {@link ProbeRunInput.budgetMs} */
  budgetMs?: number;
  /** rows (by label) whose probes are not launched, with why (`it hung in its timed case …`) */
  skip?: ReadonlyMap<string, string>;
  /** after a hang, skip the row's other probes on that target (run/probe-runner.ts {@link ProbeRunInput.skipAfterHang}) */
  skipAfterHang?: boolean;
  /**
   * The .NET rows and their probes (probes/dotnet/catalog.ts; their cells are in the payload file:
   * {@link writeProbePayload}), run on the pass's .NET targets and judged here (never cached).
   */
  dotnet?: { rows: readonly DotnetProbeRow[]; probes: readonly DotnetProbe[] };
}

/** Probes made from a user's files (a conformance folder, a payload): never cached, their ids name other data each run. */
const fromUserData = (id: string) => id.startsWith('conformance.') || id.startsWith('payload.');

/** Whether a row is the built-in typia adapter (not a version-matrix row, not a user's adapter named typia). */
const isBuiltinTypia = (row: ProbeRow, builtinTypia: boolean) => row.label === 'typia' && builtinTypia;

/** The rows as the host holds them: the built-in typia row's adapter without its generated modules (they are imported in the worker). */
function hostRows(rows: readonly ProbeRow[], builtinTypia: boolean): ProbeRow[] {
  return rows.map((r) =>
    isBuiltinTypia(r, builtinTypia)
      ? {
          ...r,
          adapter: typiaProbeAdapter(r.adapter, {}, async () => {
            throw new Error('host side: not imported here');
          }),
        }
      : r,
  );
}

/** The cache scope of a row on a target, or undefined when the row may not use the cache (or there is none). */
type ScopeOf = (row: ProbeRow, target: CaseTarget) => ProbeCacheScope | undefined;

/** A probe side to run in a worker. */
type Cell = { probe: string; direction: Direction };

/**
 * The JavaScript rows' cells: emits the ones the plan decides (✘, –) and the ones the cache holds,
 * and returns the rest per `row\0target`, to launch (a row's cells on a target of another platform
 * are not planned).
 */
function planJavaScriptCells(
  input: ProbePassInput,
  rows: readonly ProbeRow[],
  scopeOf: ScopeOf,
  emit: (r: ProbeVerdictRecord) => void,
): Map<string, Cell[]> {
  // a timed run asks a serializer only in the directions it serves: a one-way library's ✘ "has no parser" on
  // every probe was a third of a payload run's verdicts (new-user tryout: 2,741 of 9,444) and said nothing its cases do not
  const planned = planProbes(input.probes, rows, input.directions).filter(
    (p) =>
      input.selection !== 'relevant' || rows.find((r) => r.label === p.row)!.adapter.directions.includes(p.direction),
  );
  // Cells to launch per row × target: the undecided ones the cache does not hold (conformance probes come from a user's folder: never cached).
  const cachedIn = (scope: ProbeCacheScope | undefined, p: Cell) =>
    scope && !fromUserData(p.probe) ? input.cache!.store.get(scope, p) : undefined;
  const toLaunch = new Map<string, Cell[]>();
  // a serializer is probed on the targets of its own platform only (a JavaScript serializer is never
  // sent to the .NET worker: a new user's --target dotnet run got 2,006 bogus "throws" verdicts)
  const runsOn = (row: ProbeRow, target: CaseTarget) =>
    platformOf(row.adapter) === (parseTarget(target.id).platform ?? 'javascript');
  for (const row of rows) {
    const mine = planned.filter((p) => p.row === row.label);
    for (const target of input.targets) {
      if (!runsOn(row, target)) continue;
      const scope = scopeOf(row, target);
      const cells: Cell[] = [];
      for (const p of mine) {
        if (p.decided) {
          emit({
            probe: p.probe,
            direction: p.direction,
            serializer: row.label,
            serializerVersion: row.version,
            target: target.id,
            verdict: p.decided,
          });
          continue;
        }
        const hit = cachedIn(scope, p);
        if (hit)
          emit({
            probe: p.probe,
            direction: p.direction,
            serializer: row.label,
            serializerVersion: row.version,
            target: target.id,
            verdict: hit,
            cached: true,
          });
        else cells.push({ probe: p.probe, direction: p.direction });
      }
      toLaunch.set(`${row.label}\0${target.id}`, cells);
    }
  }
  return toLaunch;
}

/** .NET rows: every .NET probe side on every .NET target, judged on the host as each worker reports it; emits the inexpressible ones (–). */
function dotnetWork(input: ProbePassInput, emit: (r: ProbeVerdictRecord) => void): ProbeWork[] {
  const net = input.dotnet;
  const netWork: ProbeWork[] = [];
  if (!net?.rows.length) return netWork;
  const byId = new Map(net.probes.map((p) => [p.id, p]));
  const judgeOutcome: ProbeWork['judge'] = (m) =>
    byId.has(m.probe)
      ? judgeDotnet(byId.get(m.probe)!, m.direction, m)
      : { mark: '–', reason: `probe ${m.probe} is not in the host's .NET catalog` };
  for (const row of net.rows)
    for (const target of input.targets) {
      if (parseTarget(target.id).platform !== 'dotnet') continue;
      const version = row.version(target.id);
      const cells: Cell[] = [];
      for (const p of net.probes)
        for (const direction of input.directions) {
          if (!p[direction] || (input.selection === 'relevant' && !row.serializer.directions.includes(direction)))
            continue;
          const why = p.inexpressible?.[direction];
          if (why)
            emit({
              probe: p.id,
              direction,
              serializer: row.label,
              serializerVersion: version,
              target: target.id,
              verdict: { mark: '–', reason: why },
            });
          else cells.push({ probe: p.id, direction });
        }
      if (cells.length)
        netWork.push({ row: row.label, version, serializer: row.label, target, cells, judge: judgeOutcome });
    }
  return netWork;
}

/** The built-in typia row's generated probe modules (a folder), for the probes it launches; undefined when it launches none. */
async function typiaModulesFor(
  input: ProbePassInput,
  typiaRow: ProbeRow | undefined,
  toLaunch: ReadonlyMap<string, Cell[]>,
): Promise<string | undefined> {
  const typiaCells = typiaRow ? input.targets.flatMap((t) => toLaunch.get(`${typiaRow.label}\0${t.id}`) ?? []) : [];
  if (!typiaRow || !typiaCells.length) return undefined;
  const t = performance.now();
  const asked = new Set(typiaCells.map((p) => p.probe));
  let generated = false;
  // said only when a schema's module is not in the cache yet (nu12: said on every rerun, read from the cache)
  const typiaModules = await prepareTypiaProbes(
    input.probes.filter((p) => asked.has(p.id)),
    (modules) => {
      generated = true;
      input.onNote?.(
        `typia: generating code for ${modules} probe schema${modules === 1 ? '' : 's'} with its own transformer (kept for the next runs)…`,
      );
    },
  );
  if (generated) input.onNote?.(`typia: probe code ready in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return typiaModules;
}

/** Sorts verdicts in place: by row, then target, then the catalog's order (`records`), then direction. */
function sortVerdicts(
  verdicts: ProbeVerdictRecord[],
  input: ProbePassInput,
  rows: readonly ProbeRow[],
  records: readonly { id: string }[],
): void {
  const rowOrder = new Map(
    [...rows.map((r) => r.label), ...(input.dotnet?.rows ?? []).map((r) => r.label)].map((l, i) => [l, i]),
  );
  const targetOrder = new Map(input.targets.map((t, i) => [t.id, i]));
  const probeOrder = new Map(records.map((p, i) => [p.id, i]));
  verdicts.sort(
    (a, b) =>
      rowOrder.get(a.serializer)! - rowOrder.get(b.serializer)! ||
      targetOrder.get(a.target)! - targetOrder.get(b.target)! ||
      probeOrder.get(a.probe)! - probeOrder.get(b.probe)! ||
      (a.direction === b.direction ? 0 : a.direction === 'serialize' ? -1 : 1),
  );
}

/**
 * Runs the pass and returns the results file's probe section. Verdicts are ordered by row, then
 * target, then the catalog's order, then direction.
 * @param builtinTypia true when the `typia` row is the built-in adapter (its probe modules are generated here)
 */
export async function runProbePass(input: ProbePassInput, builtinTypia = true): Promise<ProbesSection> {
  const t0 = performance.now();
  const rows = hostRows(input.rows, builtinTypia);
  const verdicts: ProbeVerdictRecord[] = [];
  const emit = (r: ProbeVerdictRecord) => {
    verdicts.push(r);
    input.onVerdict?.(r);
  };
  const cache = input.cache;
  const scopeOf: ScopeOf = (row, target) =>
    cache && target.version !== 'unavailable' && cache.cacheable(row)
      ? {
          serializer: row.label,
          version: row.version,
          target: target.id,
          runtime: target.runtime,
          runtimeVersion: target.version,
          files: packageFilesHash(row.adapter.packageName),
        }
      : undefined;
  const toLaunch = planJavaScriptCells(input, rows, scopeOf, emit);
  const net = input.dotnet;
  const netWork = dotnetWork(input, emit);
  const typiaRow = rows.find((r) => isBuiltinTypia(r, builtinTypia));
  const typiaModules = await typiaModulesFor(input, typiaRow, toLaunch);
  const work: ProbeWork[] = [];
  const scopes = new Map<string, ProbeCacheScope>();
  let stored = 0;
  for (const row of rows) {
    for (const target of input.targets) {
      const cells = toLaunch.get(`${row.label}\0${target.id}`);
      if (!cells) continue;
      const scope = scopeOf(row, target);
      if (scope) scopes.set(`${row.label}\0${target.id}`, scope);
      if (cells.length)
        work.push({
          row: row.label,
          version: row.version,
          serializer: row.adapter.id,
          target,
          cells,
          ...(row === typiaRow && typiaModules ? { typiaModules } : {}),
        });
    }
  }
  work.push(...netWork);
  const run = await runProbeWork({
    work,
    payloadPath: input.payloadPath,
    configPath: input.configPath,
    timeoutMs: input.timeoutMs,
    deepSchema: new Set(input.probes.filter((p) => p.deepSchema).map((p) => p.id)),
    launchFor: input.launchFor,
    faultOf: input.faultOf,
    onVerdict: emit,
    onLaunch: input.onLaunch,
    ...(input.budgetMs !== undefined ? { budgetMs: input.budgetMs } : {}),
    ...(input.skip ? { skip: input.skip } : {}),
    ...(input.skipAfterHang ? { skipAfterHang: true } : {}),
    onJudged: (w, cell, verdict) => {
      const scope = scopes.get(`${w.row}\0${w.target.id}`);
      if (scope && !fromUserData(cell.probe)) {
        cache!.store.put(scope, { probe: cell.probe, direction: cell.direction as Direction }, verdict);
        stored++;
      }
    },
  });
  const cacheHits = verdicts.filter((r) => r.cached).length;
  if (cache) {
    try {
      cache.store.flush();
    } catch (e) {
      input.onNote?.(`probes: the verdict cache was not written (${(e as Error).message})`);
    }
  }
  const records = probeRecords(rows.length ? input.probes : [], net?.rows.length ? net.probes : []);
  sortVerdicts(verdicts, input, rows, records);
  return {
    selection: input.selection,
    families: [...input.families],
    ...(input.conformance
      ? {
          conformance: {
            folder: input.conformance.folder,
            files: input.conformance.set.files.length,
            skipped: input.conformance.skipped,
          },
        }
      : {}),
    timeoutMs: input.timeoutMs,
    elapsedMs: performance.now() - t0,
    launches: run.launches,
    probes: records,
    verdicts,
    ...(cache ? { cache: { folder: cache.store.dir, hits: cacheHits, stored } } : {}),
    ...(input.relevantTo ? { relevantTo: input.relevantTo } : {}),
    failing: failedProbesBySerializer({ probes: records, verdicts }),
  };
}
