import type { CaseClass, Direction } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import type { PreparedSerializer } from '../serializers/types.js';
import { renderUnit } from '../workloads/unit.js';
import { firstMismatch, renderValue, type Mismatch } from './verify.js';

/** Why a case failed the correctness gate: the first difference and a one-line reason. */
export interface GateFailure extends Mismatch { reason: string }

/**
 * The inputs of one op for a case: what `serialize` is given (wire value or model) or what
 * `deserialize` is given (payload text), one entry per unit, plus the value each must produce.
 */
export interface CaseIo { inputs: unknown[]; expected: unknown[] }

/**
 * Builds inputs and expected outputs for a case from the wire units (already flat: parsed from
 * the payload text). `workload` is the unit view ({@link unitView}).
 */
export function caseIo(workload: Workload, direction: Direction, caseClass: CaseClass, units: unknown[]): CaseIo {
  const toModel = workload.toModel ?? ((u: unknown) => u);
  if (direction === 'serialize') {
    const inputs = workload.serializeFrom === 'model' ? units.map(toModel) : units;
    return { inputs, expected: units };
  }
  return {
    inputs: units.map((u) => renderUnit(workload, u)),
    expected: caseClass === 'transform' ? units.map(toModel) : units,
  };
}

/**
 * Runs the prepared function once per unit and compares with the expected value.
 * Serialize: `JSON.parse(output)` must equal the wire unit and pass the workload's `checkText`.
 * Deserialize: the result must equal the wire unit (`parse`, `validate`) or the model (`transform`).
 * Returns the first failure, or null when every unit passes. Errors thrown by the serializer
 * propagate (the caller reports them as `failed`).
 */
export function checkCase(prepared: PreparedSerializer, workload: Workload, direction: Direction, io: CaseIo): GateFailure | null {
  for (let i = 0; i < io.inputs.length; i++) {
    const where = io.inputs.length > 1 ? ` (record ${i})` : '';
    if (direction === 'serialize') {
      const out = prepared.serialize!(io.inputs[i]);
      if (typeof out !== 'string') {
        const what = (out as unknown) instanceof Promise ? 'a Promise (serialize must be synchronous)' : out === null ? 'null' : typeof out;
        return { path: '$', expected: 'a string', actual: renderValue(out), reason: `serialize returned ${what}, not a string${where}` };
      }
      let parsed: unknown;
      try { parsed = JSON.parse(out); } catch (e) {
        return { path: '$', expected: 'valid JSON', actual: renderValue(out), reason: `output is not valid JSON${where}: ${(e as Error).message}` };
      }
      const m = firstMismatch(io.expected[i], parsed);
      if (m) return { ...m, reason: `output differs at ${m.path}${where}` };
      const textProblem = workload.checkText?.(out);
      if (textProblem) return { path: '$', expected: textProblem, actual: renderValue(out), reason: `${textProblem}${where}` };
    } else {
      const out = prepared.deserialize!(io.inputs[i] as string);
      if ((out as unknown) instanceof Promise) return { path: '$', expected: 'a value', actual: 'a Promise', reason: `deserialize returned a Promise (it must be synchronous)${where}` };
      const m = firstMismatch(io.expected[i], out);
      if (m) return { ...m, reason: `result differs at ${m.path}${where}` };
    }
  }
  return null;
}
