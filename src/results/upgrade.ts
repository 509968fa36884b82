/**
 * Reads results files of older layouts: each step upgrades one schema version to the next, so a
 * file recorded by an older jsonbench (or a ledger run recorded from one) still renders.
 *
 * - 1 → 2: every case names its target (version 1 left it out for a run without `--target`: the
 *   host's Node, recorded in `environment`); a run always lists its targets; allocation without a
 *   figure (`n/a`) keeps only its reason; a `measured` case without time samples (never written by
 *   a working jsonbench) becomes `failed`.
 */
import { RESULTS_SCHEMA_VERSION } from './types.js';
import { ResultsFileError } from './errors.js';

type Loose = Record<string, unknown>;

function upgrade1to2(file: Loose): Loose {
  const env = (file.environment ?? {}) as Loose;
  const host = { id: 'node', runtime: 'node', version: String(env.node ?? 'unknown') };
  const cases = Array.isArray(file.cases) ? (file.cases as Loose[]) : [];
  const upgraded = cases.map((c) => {
    const out: Loose = { ...c, target: c.target ?? host };
    const alloc = out.allocated as Loose | undefined;
    if (alloc && alloc.method === 'n/a')
      out.allocated = {
        method: 'n/a',
        unit: 'bytes/op',
        note: String(alloc.note ?? 'no allocation counter on this runtime'),
      };
    if (out.status === 'measured') {
      if (!out.time) return { ...dropNumbers(out), status: 'failed', reason: 'no time samples were recorded' };
      out.ratio ??= null;
      out.ratioError ??= null;
      out.allocRatio ??= null;
    } else if (out.status === 'incorrect' && !out.mismatch) {
      out.mismatch = { side: 'serializer', path: '$', expected: '', actual: '' };
    }
    if (out.status !== 'measured') return { ...dropNumbers(out), reason: out.reason ?? '' };
    return out;
  });
  const targets = Array.isArray(file.targets)
    ? file.targets
    : [
        {
          ...host,
          kind: 'node-host',
          engine: 'V8',
          engineVersion: String(env.v8 ?? 'unknown'),
          flags: Array.isArray(env.flags) ? env.flags : [],
          probe: {},
        },
      ];
  return { ...file, schemaVersion: 2, targets, cases: upgraded };
}

function dropNumbers(c: Loose): Loose {
  const { time: _t, ratio: _r, ratioError: _e, allocated: _a, allocRatio: _ar, instructions: _i, ...rest } = c;
  return rest;
}

const steps: Record<number, (f: Loose) => Loose> = { 1: upgrade1to2 };

/**
 * Upgrades a parsed results file step by step to {@link RESULTS_SCHEMA_VERSION}; a current file is
 * returned as it is. Checks nothing else (results/validate.ts does).
 * @throws ResultsFileError when it is not a jsonbench results file, or its version is newer than this jsonbench reads
 */
export function upgradeResults(value: unknown, where: string): unknown {
  const r = value as Loose | null;
  if (!r || typeof r !== 'object' || Array.isArray(r) || r.tool !== 'jsonbench' || !Array.isArray(r.cases))
    throw new ResultsFileError(where, '', 'not a jsonbench results file (expected "tool": "jsonbench" and "cases")');
  let file = r;
  for (;;) {
    const v = file.schemaVersion;
    if (v === RESULTS_SCHEMA_VERSION) return file;
    if (typeof v === 'number' && v > RESULTS_SCHEMA_VERSION)
      throw new ResultsFileError(
        where,
        '/schemaVersion',
        `results schemaVersion ${v} is newer than this jsonbench reads (${RESULTS_SCHEMA_VERSION}): update jsonbench`,
      );
    const step = typeof v === 'number' ? steps[v] : undefined;
    if (!step)
      throw new ResultsFileError(
        where,
        '/schemaVersion',
        `results schemaVersion ${JSON.stringify(v)}; this jsonbench reads versions 1 to ${RESULTS_SCHEMA_VERSION}`,
      );
    file = step(file);
  }
}
