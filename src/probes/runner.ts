import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serializers } from '../serializers/index.js';
import { loadCatalog, type CatalogOptions } from './index.js';
import { runProbe, type PrepareCache } from './run-probe.js';
import { probeAdapter } from './typia-probes.js';
import { cellKey, configSerializers, parseCellKey, type ChildJob, type ChildMessage } from './child.js';
import type { Probe, ProbeDirection, ProbeResult } from './types.js';
import { describeVerdict } from './matrix.js';

/**
 * The phase-1 probe runner: every selected probe × direction × serializer, in a child process per
 * serializer (child.ts) so that a stack overflow that kills the process, an out-of-memory or a
 * hang costs only the probe in flight (✗ crash / ✗ hang) and a fresh child carries on with the
 * rest. `inProcess` runs everything here instead (faster, for tests; no hang or crash safety).
 */
export interface ProbeRunOptions extends CatalogOptions {
  /** Serializer ids (default: every built-in). */
  serializers?: readonly string[];
  /** Keep only probes whose id matches. */
  filter?: RegExp;
  /** Per probe side, in the child (ms). */
  timeoutMs?: number;
  inProcess?: boolean;
  /** A plain-JavaScript config module whose `serializers` join the built-ins (user adapters, test fixtures). */
  configPath?: string;
  /** Called with each result as it arrives. */
  onResult?: (r: ProbeResult) => void;
  /** Called with a line of progress (a serializer started or finished, a child died and was replaced). */
  onProgress?: (line: string) => void;
}

export interface ProbeRun { probes: Probe[]; serializers: string[]; results: ProbeResult[]; skipped: { file: string; reason: string }[] }

/** Default per-probe timeout: generous for the 50 MB document on a loaded 2-core machine. */
export const DEFAULT_PROBE_TIMEOUT_MS = 180_000;

const CHILD = fileURLToPath(new URL('./child.js', import.meta.url));

/** The (probe, direction) cells a probe has. */
function cellsOf(probes: readonly Probe[]): string[] {
  const keys: string[] = [];
  for (const p of probes) for (const d of ['serialize', 'deserialize'] as ProbeDirection[]) if (p[d]) keys.push(cellKey(p.id, d));
  return keys;
}

export async function runProbes(options: ProbeRunOptions = {}): Promise<ProbeRun> {
  const catalog: CatalogOptions = { families: options.families, conformanceDir: options.conformanceDir };
  const loaded = loadCatalog(catalog);
  const probes = options.filter ? loaded.probes.filter((p) => options.filter!.test(p.id)) : loaded.probes;
  const user = await configSerializers(options.configPath);
  const ids = options.serializers?.length ? [...options.serializers] : [...serializers.ids, ...user.map((u) => u.id)];
  const results: ProbeResult[] = [];
  const emit = (r: ProbeResult) => { results.push(r); options.onResult?.(r); };
  const keys = cellsOf(probes);
  const family = new Map(probes.map((p) => [p.id, p.family]));
  const deep = new Set(probes.filter((p) => p.deepSchema).map((p) => p.id));
  for (const id of ids) {
    const t0 = Date.now();
    options.onProgress?.(`${id}: ${keys.length} probe sides`);
    if (options.inProcess) {
      const adapter = await probeAdapter(id, probes, user);
      const byId = new Map(probes.map((p) => [p.id, p]));
      const cache: PrepareCache = new Map();
      for (const key of keys) {
        const [pid, direction] = parseCellKey(key);
        emit({ probe: pid, family: family.get(pid)!, direction, serializer: id, verdict: (await runProbe(adapter, byId.get(pid)!, direction, cache))! });
      }
    } else {
      if (id === 'typia') await probeAdapter(id, probes, user); // generate typia's probe modules once, before the children read the cache
      await runInChildren(id, keys, catalog, options.configPath, options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS, deep, (key, verdict) => {
        const [pid, direction] = parseCellKey(key);
        emit({ probe: pid, family: family.get(pid)!, direction, serializer: id, verdict });
      }, options.onProgress);
    }
    options.onProgress?.(`${id}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  return { probes, serializers: ids, results, skipped: loaded.skipped };
}

/** Runs `keys` for one serializer in as many consecutive children as deaths and hangs require. */
async function runInChildren(serializer: string, keys: string[], catalog: CatalogOptions, configPath: string | undefined, timeoutMs: number, deep: ReadonlySet<string>,
  emit: (key: string, verdict: ProbeResult['verdict']) => void, progress?: (line: string) => void): Promise<void> {
  let remaining = keys;
  while (remaining.length > 0) {
    const done = new Set<string>();
    const { inFlight, fault } = await oneChild({ serializer, keys: remaining, catalog, configPath }, timeoutMs, deep, (r) => {
      done.add(cellKey(r.probe, r.direction));
      emit(cellKey(r.probe, r.direction), r.verdict);
    });
    if (inFlight) {
      progress?.(`${serializer}: ${inFlight}: ${describeVerdict(fault!)}; a fresh child takes the rest`);
      emit(inFlight, fault!);
      done.add(inFlight);
    } else if (fault) {
      // The child died between probes (loading the adapter or the catalog): every remaining cell says so.
      for (const key of remaining.filter((k) => !done.has(k))) emit(key, fault);
      return;
    }
    remaining = remaining.filter((k) => !done.has(k));
  }
}

/**
 * One child over `job.keys`. A hang while *preparing* a probe whose schema is a deep stand-in for a
 * recursive one (`deepSchema`) is the stand-in's cost, not the library's answer to deep input:
 * it is – (needs recursive). Any other hang is ✗ hang, saying whether prepare() or the call hung.
 */
function oneChild(job: ChildJob, timeoutMs: number, deep: ReadonlySet<string>, onResult: (r: ProbeResult) => void): Promise<{ inFlight?: string; fault?: ProbeResult['verdict'] }> {
  return new Promise((resolve) => {
    const child = fork(CHILD, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => { stderr = (stderr + b.toString()).slice(-2000); });
    let inFlight: string | undefined;
    let prepared = false;
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    };
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'start') { inFlight = m.key; prepared = false; arm(); }
      else if (m.type === 'prepared') prepared = true;
      else if (m.type === 'result') { inFlight = undefined; clearTimeout(timer); onResult(m.result); }
      else if (m.type === 'done') finished = true;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (finished && !inFlight) return resolve({});
      const tail = stderr.trim().split('\n').slice(-3).join(' / ').slice(0, 300);
      const deepPrepare = timedOut && !prepared && inFlight !== undefined && deep.has(parseCellKey(inFlight)[0]);
      const fault: ProbeResult['verdict'] = deepPrepare
        ? { mark: '–', reason: `needs recursive: prepare() did not finish within ${timeoutMs} ms on this ${inFlight!.includes('1000') ? '1,000' : 'deep'}-level non-recursive stand-in schema` }
        : timedOut
        ? { mark: '✗', fault: 'hang', path: '$', expected: 'an answer or a clean error', actual: `no answer within ${timeoutMs} ms${prepared ? '' : ' (in prepare())'} (process killed)` }
        : { mark: '✗', fault: 'crash', path: '$', expected: 'an answer or a clean error', actual: `process died (${signal ?? `exit ${code}`})${tail ? `: ${tail}` : ''}` };
      resolve({ inFlight, fault });
    });
    child.send(job);
  });
}
