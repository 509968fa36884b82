import { serializers } from '../serializers/index.js';
import { workloads } from '../workloads/index.js';
import { unitView, unitsOf } from '../workloads/unit.js';
import { caseIo, checkCase } from '../measure/gate.js';
import { variantSeed } from '../plan/payloads.js';
import type { Direction, Shape } from '../workloads/types.js';
import { hostileVariant } from './hostile-variant.js';
import { loneSurrogateAt } from './judge.js';

/**
 * Prototype of the gate with a hostile variant (phase 1, untimed): every built-in workload at its
 * smallest size × shape × direction × serializer, gated as a worker gates a case today
 * (`caseIo` + `checkCase` from measure/gate.ts) but on the hostile variant of the seed variant,
 * plus the one rule the gate lacks today: serialize output must be well-formed (no raw lone
 * surrogate), since `JSON.parse` accepts one that no UTF-8 encoder can carry.
 */
export interface HostileGateRow {
  workload: string; shape: Shape; direction: Direction; serializer: string;
  status: 'passes' | 'unsupported' | 'incorrect' | 'ill-formed' | 'failed';
  detail?: string;
  /** hostile samples placed in the payload */
  placed: number;
}

/** The seed the gate's variant payload is made with (plan/payloads.ts), for the default --seed 42. */
const SEED = variantSeed(42);

export async function checkHostileGate(options: { serializers?: readonly string[]; workloads?: readonly string[] } = {}): Promise<HostileGateRow[]> {
  const rows: HostileGateRow[] = [];
  const adapters = (await serializers.loadAll()).filter((a) => !options.serializers || options.serializers.includes(a.id));
  for (const workload of (await workloads.loadAll()).filter((w) => !options.workloads || options.workloads.includes(w.id))) {
    const size = Math.min(...workload.sizes);
    const wire = JSON.parse(JSON.stringify(workload.build(size, SEED)));
    const { value, placed } = hostileVariant(workload.schema, workload.wire?.naming, wire);
    const parsed = JSON.parse(JSON.stringify(value, null, workload.wire?.indent));
    for (const shape of workload.shapes) {
      const view = unitView(workload, shape);
      for (const direction of ['serialize', 'deserialize'] as Direction[]) {
        for (const adapter of adapters) {
          const row = { workload: workload.id, shape, direction, serializer: adapter.id, placed: placed.length };
          const supported = adapter.supports(view, direction);
          if (supported !== true) { rows.push({ ...row, status: 'unsupported', detail: supported }); continue; }
          try {
            const prepared = await adapter.prepare(view, direction);
            const io = caseIo(view, direction, direction === 'serialize' ? 'serialize' : adapter.deserializeClass ?? 'parse', unitsOf(parsed, shape));
            const failure = checkCase(prepared, view, direction, io);
            if (failure) { rows.push({ ...row, status: 'incorrect', detail: `${failure.reason}: expected ${failure.expected}, got ${failure.actual}` }); continue; }
            if (direction === 'serialize') {
              const bad = io.inputs.map((input) => prepared.serialize!(input)).map((out) => [out, loneSurrogateAt(out)] as const).find(([, at]) => at >= 0);
              if (bad) { rows.push({ ...row, status: 'ill-formed', detail: `raw lone surrogate U+${bad[0].charCodeAt(bad[1]).toString(16).toUpperCase()} at char ${bad[1]}` }); continue; }
            }
            rows.push({ ...row, status: 'passes' });
          } catch (e) {
            rows.push({ ...row, status: 'failed', detail: `${(e as Error).name}: ${(e as Error).message}`.slice(0, 200) });
          }
        }
      }
    }
  }
  return rows;
}
