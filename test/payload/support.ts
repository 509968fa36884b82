import { checkCase, type GateFailure } from '../../src/measure/gate.js';
import type { SerializerAdapter } from '../../src/serializers/types.js';
import type { SchemaNode } from '../../src/workloads/schema.js';
import type { Direction, Shape } from '../../src/case/coordinates.js';
import type { Workload } from '../../src/workloads/types.js';
import { unitView, unitsOf } from '../../src/workloads/unit.js';
import { unitTexts, type PayloadSource } from '../../src/payload/read.js';
import { payloadWorkloads } from '../../src/payload/workload.js';
import { supportOf } from '../../src/plan/plan.js';

/**
 * Test helpers for payloads: run one adapter on a payload (its exact texts for deserialize, its
 * parsed values for serialize) through the correctness gate, as the run will.
 */

export type PayloadOutcome =
  | { status: 'ok' }
  | { status: 'unsupported'; reason: string }
  | { status: 'incorrect'; failure: GateFailure }
  | { status: 'failed'; error: string };

/** A payload source made from one document text (as readPayload would make it from a file). */
export function documentSource(text: string, path = 'inline.json'): PayloadSource {
  return { kind: 'document', path, units: [{ text, value: JSON.parse(text), source: path }], shapes: ['single'] };
}

/** Runs `adapter` on the payload's first workload for `shape` and `direction`. */
export async function runPayloadCase(
  adapter: SerializerAdapter,
  source: PayloadSource,
  schema: SchemaNode,
  shape: Shape,
  direction: Direction,
): Promise<PayloadOutcome> {
  const workload: Workload = payloadWorkloads(source, schema)[0];
  const view = unitView(workload, shape);
  const decision = supportOf(adapter, view, direction);
  if (decision.status === 'unsupported') return { status: 'unsupported', reason: decision.reason };
  if (decision.status === 'failed') return { status: 'failed', error: decision.reason };
  try {
    const prepared = await adapter.prepare(view, direction);
    const units = unitsOf(workload.build(1, 0), shape);
    const io =
      direction === 'serialize'
        ? { inputs: units, expected: units }
        : {
            inputs: unitTexts(source, shape),
            // the transform class returns the model: date-times as Dates where the schema says so (workloads/payload.ts)
            expected: adapter.deserializeClass === 'transform' && view.toModel ? units.map(view.toModel) : units,
          };
    const failure = checkCase(prepared, view, direction, io);
    return failure ? { status: 'incorrect', failure } : { status: 'ok' };
  } catch (e) {
    return { status: 'failed', error: (e as Error).message };
  }
}
