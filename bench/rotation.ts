/**
 * `node --expose-gc build/bench/rotation.js [--launches N]`: what timing over a rotating set of K = 3 distinct inputs
 * (issue 25's design: different values in every field, made before timing) would do to honest ratios, against the
 * two identical copies the timed op alternates between today (src/measure/sink.ts makeOp). A/B on the same pairs in
 * one process, launches alternated (A B A B …, `N` each, default 6): each launch warms up and pilots both sides,
 * then paired rounds of the default policy (measureRounds); its ratio is the median of its per-round ratios.
 * Prints, per pair and mode, the median launch ratio, the launches' range and the median launch's relative error.
 * The inputs of mode B are payloads of seeds 42, 43 and 44 (same workload, size and schema; every value differs),
 * mode A two copies of seed 42. Also times hx7's leafcache (test/fixtures/hostile/hostile8/) against json both ways:
 * a cache keyed by the input object hits on each of the K inputs after the first cycle.
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { workloads } from '../src/workloads/index.js';
import { serializers } from '../src/serializers/index.js';
import type { PreparedCase } from '../src/measure/prepare-case.js';
import { makeOp, type Op } from '../src/measure/sink.js';
import { measureRounds, pilot, useClock, warmup } from '../src/measure/timing.js';
import { medianOf, medianRelativeError } from '../src/stats/median.js';
import { policies } from '../src/config/policies.js';
import { renderPayload } from '../src/plan/payloads.js';
import { prepareGated, type Pair } from './pairs.js';
import type { SerializerAdapter } from '../src/serializers/types.js';

const i = process.argv.indexOf('--launches');
const LAUNCHES = i > 0 ? Number(process.argv[i + 1]) : 6;
const K = 3;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const policy = policies.default.measure;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const leafcache = async (): Promise<SerializerAdapter> =>
  (
    (await import(
      fileURLToPath(new URL('../../test/fixtures/hostile/hostile8/leafcache.config.mjs', import.meta.url))
    )) as { default: { serializers: SerializerAdapter[] } }
  ).default.serializers[0];

const PAIRS: Pair[] = [
  {
    workload: 'users',
    size: 100,
    shape: 'list',
    direction: 'serialize',
    serializer: 'fast-json-stringify',
    baseline: 'json',
  },
  {
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'serialize',
    serializer: 'fast-json-stringify',
    baseline: 'json',
  },
  { workload: 'users', size: 100, shape: 'list', direction: 'deserialize', serializer: 'typia', baseline: 'typebox' },
  {
    workload: 'users',
    size: 10000,
    shape: 'list',
    direction: 'serialize',
    serializer: 'fast-json-stringify',
    baseline: 'json',
  },
  { workload: 'users', size: 1000, shape: 'list', direction: 'serialize', serializer: 'leafcache', baseline: 'json' },
];

/** An op over K input sets in turn (mode B): iteration i calls set i mod K. */
function rotatingOp(call: (input: unknown) => unknown, sets: readonly (readonly unknown[])[]): Op {
  const ops = sets.map((s) => makeOp(call, s, s));
  const n = ops.length;
  return (it) => ops[it % n](it);
}

console.log(`load average at start: ${load()}; ${LAUNCHES} launches per mode, K = ${K}`);
useClock('cpu');
for (const p of PAIRS) {
  const w = await workloads.load(p.workload);
  const texts = [42, 43, 44].map((seed) => renderPayload(w, p.size, seed));
  const side = async (id: string): Promise<PreparedCase> => {
    const adapter = id === 'leafcache' ? await leafcache() : await serializers.load(id);
    return prepareGated(p, adapter, p.direction === 'serialize' ? 'serialize' : adapter.deserializeClass!, texts);
  };
  const s = await side(p.serializer);
  const b = await side(p.baseline);
  const ops = (x: PreparedCase, mode: 'A' | 'B') => {
    if (mode === 'A') return makeOp(x.call, x.inputs(texts[0]), x.inputs(texts[0]));
    return rotatingOp(
      x.call,
      texts.map((t) => x.inputs(t)),
    );
  };
  const got: Record<'A' | 'B', { ratio: number; error: number }[]> = { A: [], B: [] };
  for (let l = 0; l < 2 * LAUNCHES; l++) {
    const mode = l % 2 === 0 ? 'A' : 'B';
    const sOp = ops(s, mode);
    const bOp = ops(b, mode);
    gc();
    warmup(sOp, policy);
    warmup(bOp, policy);
    const sOps = pilot(sOp, policy);
    const bOps = pilot(bOp, policy);
    const ratios: number[] = [];
    measureRounds({ op: sOp, opsPerSample: sOps }, { op: bOp, opsPerSample: bOps }, policy, gc, (r) =>
      ratios.push(medianOf(r.serializerNs) / medianOf(r.baselineNs)),
    );
    got[mode].push({ ratio: medianOf(ratios), error: medianRelativeError(ratios) });
  }
  const fmt = (xs: { ratio: number; error: number }[]) => {
    const r = xs.map((x) => x.ratio).sort((x, y) => x - y);
    return `${medianOf(r).toFixed(3)} [${r[0].toFixed(3)}–${r[r.length - 1].toFixed(3)}] ±${(100 * medianOf(xs.map((x) => x.error))).toFixed(1)}%`;
  };
  console.log(
    `${p.workload}/${p.size}/${p.shape} ${p.direction} ${p.serializer}÷${p.baseline}: A (2 copies) ${fmt(got.A)}; B (K=${K} inputs) ${fmt(got.B)}; B÷A ${(medianOf(got.B.map((x) => x.ratio)) / medianOf(got.A.map((x) => x.ratio))).toFixed(3)} (load ${loadavg()[0].toFixed(1)})`,
  );
}
console.log(`load average at end: ${load()}`);
