import type { CaseClass, Direction } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import type { PreparedSerializer } from '../serializers/types.js';
import { renderUnit } from '../workloads/unit.js';
import { firstMismatch, loneSurrogateAt, renderValue, type Mismatch } from './verify.js';
import { duplicateKeys } from '../case/duplicate-keys.js';
import { unmaterialised } from './materialised.js';

/** JSON.parse as it was when this module loaded, before any adapter code ran (see verify.ts). */
const { parse } = JSON;

/** Why a case failed the correctness gate: the first difference and a one-line reason. */
export interface GateFailure extends Mismatch {
  reason: string;
}

/**
 * The inputs of one op for a case: what `serialize` is given (wire value or model) or what
 * `deserialize` is given (payload text), one entry per unit, plus the value each must produce.
 */
export interface CaseIo {
  inputs: unknown[];
  expected: unknown[];
}

/**
 * Builds inputs and expected outputs for a case from the wire units (already flat: parsed from
 * the payload text). `workload` is the unit view ({@link unitView}). `texts`, when given (a user's
 * payload: see readUnits in workloads/unit.ts), are the exact texts deserialize cases parse, one
 * per unit; otherwise each unit is rendered with the workload's wire options.
 */
export function caseIo(
  workload: Workload,
  direction: Direction,
  caseClass: CaseClass,
  units: unknown[],
  texts?: readonly string[],
): CaseIo {
  const toModel = workload.toModel ?? ((u: unknown) => u);
  if (direction === 'serialize') {
    const inputs = workload.serializeFrom === 'model' ? units.map(toModel) : units;
    return { inputs, expected: units };
  }
  return {
    inputs: texts ? [...texts] : units.map((u) => renderUnit(workload, u)),
    expected: caseClass === 'transform' ? units.map(toModel) : units,
  };
}

/**
 * Runs the prepared function once per unit and compares with the expected value.
 * Serialize: the output must be well-formed Unicode (no lone surrogate), `JSON.parse(output)` must
 * equal the wire unit, and the text must pass the workload's `checkText`.
 * Deserialize: the result must equal the wire unit (`parse`, `validate`) or the model (`transform`),
 * and be materialised: no Proxy, no getter where a value belongs (./materialised.ts).
 * Returns the first failure, or null when every unit passes. Errors thrown by the serializer
 * propagate (the caller reports them as `failed`). Each result is pushed to `outputs` when given
 * (the timed run compares later results with these; see timed-check.ts).
 */
export function checkCase(
  prepared: PreparedSerializer,
  workload: Workload,
  direction: Direction,
  io: CaseIo,
  outputs?: unknown[],
): GateFailure | null {
  for (let i = 0; i < io.inputs.length; i++) {
    const where = io.inputs.length > 1 ? ` (record ${i})` : '';
    const out =
      direction === 'serialize' ? prepared.serialize!(io.inputs[i]) : prepared.deserialize!(io.inputs[i] as string);
    outputs?.push(out);
    const failure = checkOutput(workload, direction, io.expected[i], out, where);
    if (failure) return failure;
  }
  return null;
}

/**
 * The gate's check of one result against the value it must equal (see {@link checkCase});
 * `where` ends the reason (e.g. " (record 3)"). Returns the failure, or null when it passes.
 */
export function checkOutput(
  workload: Workload,
  direction: Direction,
  expected: unknown,
  out: unknown,
  where = '',
): GateFailure | null {
  if (direction === 'deserialize') {
    if ((out as unknown) instanceof Promise)
      return {
        path: '$',
        expected: 'a value',
        actual: 'a Promise',
        reason: `deserialize returned a Promise (it must be synchronous)${where}`,
      };
    // -0 read as 0 is a value lost (hx27 c13: a parser doing so "passed the correctness gate" on a payload holding -0,
    // while its edge.number.-0 probe said silent-loss); a serializer's "0" for -0 is JSON.stringify's own spelling
    const m = firstMismatch(expected, out, { negativeZero: 'strict' });
    // equal when read is not enough: a lazy Proxy or getters parse when read, outside the timed op (hx2)
    return m ? { ...m, reason: `result differs at ${m.path}${where}` } : unmaterialised(expected, out, where);
  }
  if (typeof out !== 'string') {
    const what =
      (out as unknown) instanceof Promise
        ? 'a Promise (serialize must be synchronous)'
        : out === null
          ? 'null'
          : typeof out;
    return {
      path: '$',
      expected: 'a string',
      actual: renderValue(out),
      reason: `serialize returned ${what}, not a string${where}`,
    };
  }
  let parsed: unknown;
  try {
    parsed = parse(out);
  } catch (e) {
    return {
      path: '$',
      expected: 'valid JSON',
      actual: renderValue(out),
      reason: `output is not valid JSON${where}: ${(e as Error).message}`,
    };
  }
  const lone = loneSurrogateAt(out);
  if (lone >= 0) {
    const unit = out.charCodeAt(lone).toString(16).toUpperCase();
    return {
      path: '$',
      expected: 'well-formed Unicode text',
      actual: renderValue(out.slice(Math.max(0, lone - 20), lone + 20)),
      reason: `output is not well-formed Unicode${where}: a lone surrogate U+${unit} at index ${lone} (a UTF-8 encoder writes U+FFFD there; escape it as \\u${unit.toLowerCase()})`,
    };
  }
  const m = firstMismatch(expected, parsed);
  if (m) return { ...m, reason: `output differs at ${m.path}${where}` };
  // JSON.parse keeps a duplicate's last value, so a text holding another first value compares equal (a hostile tester's
  // {"areaNames":"EVIL","areaNames":{…}}): a reader that keeps the first (RFC 8259 §4 leaves it open) gets something else
  const dup = duplicateKeys(out, 1)[0];
  if (dup)
    return {
      path: '$',
      expected: 'each name once in an object (RFC 8259 §4)',
      actual: renderValue(out.slice(Math.max(0, dup.offset - 30), dup.offset + 30)),
      reason: `output has the key ${JSON.stringify(dup.key)} twice in one object${where} (at index ${dup.offset}): JSON.parse keeps the last value, a reader that keeps the first gets another`,
    };
  const textProblem = workload.checkText?.(out);
  if (textProblem)
    return { path: '$', expected: textProblem, actual: renderValue(out), reason: `${textProblem}${where}` };
  return null;
}
