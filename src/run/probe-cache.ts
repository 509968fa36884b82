/**
 * The probe-verdict cache: a timed run's probe pass (run/probe-pass.ts) judges the same built-in
 * serializers on the same built-in probes every time, and its verdicts are facts of the code, not
 * measurements. A verdict a worker judged is kept under `<cache>/probe-verdicts/` (case/cache.ts),
 * one file per scope — serializer id + its loaded version + target id, runtime and runtime version
 * + {@link codeHash} (jsonbench's own compiled code: the probe catalog, judge, adapters, worker) —
 * and a later pass of the same scope reads it instead of launching a worker.
 *
 * What is never cached (the caller decides, session.ts): user adapters, version-matrix rows, any
 * pass with a jsonbench.config (its top level runs in the probe worker), conformance probes (a
 * user's folder), and every verdict the host made up for a worker that crashed, hung or could not
 * load the serializer (only verdicts a worker sent as its own judgement are stored).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFolder } from '../files/make-folder.js';
import type { Direction } from '../case/coordinates.js';
import type { Verdict } from '../case/probe.js';

/** Whose verdicts one cache file holds. */
export interface ProbeCacheScope {
  /** the built-in serializer's id */
  serializer: string;
  /** its loaded version (serializerVersion) */
  version: string;
  /** the target's id, runtime and exact runtime version */
  target: string;
  runtime: string;
  runtimeVersion: string;
}

/** A probe side within a scope. */
export interface ProbeCacheCell { probe: string; direction: Direction }

interface CacheFile { code: string; scope: ProbeCacheScope; verdicts: Record<string, Verdict> }

const cellKey = (c: ProbeCacheCell) => `${c.direction} ${c.probe}`;

let ownCode: string | undefined;

/**
 * sha256 (hex) of every compiled file of jsonbench's `src` folder (paths and contents, sorted by
 * path): any change to the catalog, the judge, an adapter or the worker gives a new hash, so no
 * verdict of older code is read. Computed once per process (~300 files, a few ms).
 */
export function codeHash(root?: string): string {
  if (!root && ownCode) return ownCode;
  const dir = root ?? join(dirname(fileURLToPath(import.meta.url)), '..');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.(js|json|cjs|mjs)$/.test(d.name))
    .map((d) => join(d.parentPath, d.name))
    .sort();
  const h = createHash('sha256');
  for (const f of files) h.update(f.slice(dir.length)).update('\0').update(readFileSync(f)).update('\0');
  const hex = h.digest('hex');
  if (!root) ownCode = hex;
  return hex;
}

/**
 * Verdicts by scope, read from and written to `dir` (one JSON file per scope, named by the hash of
 * scope and code). A missing, unreadable or foreign file reads as empty; {@link flush} writes the
 * scopes that gained verdicts (write to a temporary file, then rename). Not safe for two runs
 * writing the same scope at once beyond last-writer-wins (both wrote true verdicts).
 */
export class ProbeVerdictCache {
  private readonly files = new Map<string, CacheFile>();
  private readonly dirty = new Set<string>();
  /** verdicts read from the cache / stored into it, over this object's life */
  hits = 0;
  stored = 0;

  /**
   * @param dir the cache folder (`<cache>/probe-verdicts`)
   * @param code the code hash verdicts are valid for ({@link codeHash})
   */
  constructor(readonly dir: string, readonly code: string = codeHash()) {}

  private fileName(scope: ProbeCacheScope): string {
    const id = createHash('sha256').update(JSON.stringify([this.code, scope.serializer, scope.version, scope.target, scope.runtime, scope.runtimeVersion])).digest('hex').slice(0, 32);
    return `${scope.serializer.replace(/[^a-z0-9-]/gi, '_')}-${id}.json`;
  }

  private fileOf(scope: ProbeCacheScope): CacheFile {
    const name = this.fileName(scope);
    let file = this.files.get(name);
    if (!file) {
      file = { code: this.code, scope, verdicts: {} };
      try {
        const read = JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as CacheFile;
        if (read && read.code === this.code && JSON.stringify(read.scope) === JSON.stringify(scope) && read.verdicts && typeof read.verdicts === 'object') file = read;
      } catch { /* missing or unreadable: empty */ }
      this.files.set(name, file);
    }
    return file;
  }

  /** The cached verdict of one probe side, or undefined. */
  get(scope: ProbeCacheScope, cell: ProbeCacheCell): Verdict | undefined {
    const v = this.fileOf(scope).verdicts[cellKey(cell)];
    if (v) this.hits++;
    return v;
  }

  /** Keeps a verdict a worker judged (written by {@link flush}). */
  put(scope: ProbeCacheScope, cell: ProbeCacheCell, verdict: Verdict): void {
    this.fileOf(scope).verdicts[cellKey(cell)] = verdict;
    this.dirty.add(this.fileName(scope));
    this.stored++;
  }

  /** Writes every scope that gained verdicts. @throws Error when the folder cannot be written */
  flush(): void {
    if (!this.dirty.size) return;
    makeFolder(this.dir);
    for (const name of this.dirty) {
      const tmp = join(this.dir, `${name}.${process.pid}.tmp`);
      writeFileSync(tmp, JSON.stringify(this.files.get(name)));
      renameSync(tmp, join(this.dir, name));
    }
    this.dirty.clear();
  }
}
