import type { CaseClass, Direction, Shape } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import type { SerializerAdapter } from '../serializers/types.js';
import { unitView, unitsOf } from '../workloads/unit.js';
import { caseIo, checkCase, type GateFailure } from './gate.js';

/** Where a case sits, as far as preparing one side of it is concerned. */
export interface CaseShape { shape: Shape; direction: Direction; caseClass: CaseClass }

/** One side of a case, prepared: the call to time, its inputs, and the correctness gate. */
export interface PreparedCase {
  /** the adapter's function for the case's direction, bound to its prepared object */
  call(input: unknown): unknown;
  /** a fresh copy of one op's inputs (one per unit: the value to serialize, or the text to deserialize) built from a payload text */
  inputs(payloadText: string): unknown[];
  /** the correctness gate on a payload text: the first failure, or null; errors the serializer throws propagate */
  check(payloadText: string): GateFailure | null;
}

/**
 * Prepares one side of a case the one way the lab does it: the workload's unit view for the shape,
 * `adapter.prepare(view, direction)` (awaited; untimed), a check that it returned the direction's
 * function, and the gate and inputs built from the payload text. The worker, the instruction
 * counter, the precision bench and the adapter tests all call this.
 * @throws whatever `adapter.prepare` throws; Error when it returned no object or no function for the direction
 */
export async function prepareCase(adapter: SerializerAdapter, workload: Workload, c: CaseShape): Promise<PreparedCase> {
  const view = unitView(workload, c.shape);
  const prepared = await adapter.prepare(view, c.direction);
  if (prepared === null || typeof prepared !== 'object') throw new Error(`prepare() returned ${prepared === null ? 'null' : typeof prepared}; it must return { serialize?, deserialize? }`);
  const fn = c.direction === 'serialize' ? prepared.serialize : prepared.deserialize;
  if (typeof fn !== 'function') throw new Error(`prepare() returned no ${c.direction} function`);
  const io = (text: string) => caseIo(view, c.direction, c.caseClass, unitsOf(JSON.parse(text), c.shape));
  return {
    call: (input) => fn.call(prepared, input as never),
    inputs: (text) => io(text).inputs,
    check: (text) => checkCase(prepared, view, c.direction, io(text)),
  };
}
