import type { SchemaNode, WireOptions } from '../../workloads/schema.js';
import { wireName } from '../../workloads/schema.js';
import type { Shape } from '../../case/coordinates.js';
import type { Workload } from '../../workloads/types.js';
import { readUnits, renderUnit, unitView } from '../../workloads/unit.js';
import { firstMismatch, renderValue, type Mismatch } from '../../measure/verify.js';
import type { GateMessage } from './protocol.js';

/**
 * The correctness gate on .NET output, run by the host on the worker's {@link GateMessage}s,
 * with the same comparison as the JavaScript gate (src/measure/gate.ts, `firstMismatch`):
 * - serialize: `JSON.parse(output)` must equal the wire unit, then pass the workload's
 *   `checkText`;
 * - deserialize: the model the worker wrote back canonically must equal the workload's model
 *   (`toModel`, the `transform` class: .NET deserializers are typed, they produce the model).
 * Two rules make "equal by value" mean the same across languages, both documented in the report:
 * - date-time fields (`asDate`) compare as instants, on both sides: .NET writes
 *   "…:56.78Z" where JavaScript's toISOString writes "…:56.780Z";
 * - `checkText` (the indentation rule of users-settings) sees each JSON string literal written
 *   as JSON.stringify writes it: System.Text.Json's default encoder writes "O'Kon" as
 *   "O\u0027Kon", which is the same string and no matter of layout.
 */

/** Why a .NET case failed the gate: the first difference and a one-line reason. */
export interface DotnetGateFailure extends Mismatch {
  reason: string;
}

/** Values at `asDate` fields turned into Dates along the schema (wire names under `naming`); everything else as it is. */
export function reviveDates(node: SchemaNode, value: unknown, naming: WireOptions['naming']): unknown {
  if (value === null || value === undefined) return value;
  switch (node.type) {
    case 'string': {
      if (!node.asDate || typeof value !== 'string') return value;
      const d = new Date(value);
      return Number.isNaN(d.getTime()) ? value : d;
    }
    case 'array':
      return Array.isArray(value) ? value.map((v) => reviveDates(node.items, v, naming)) : value;
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return value;
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const [key, child] of Object.entries(node.properties)) {
        const k = wireName(key, naming);
        if (k in out) out[k] = reviveDates(child, out[k], naming);
      }
      return out;
    }
    default:
      return value;
  }
}

/** Every JSON string literal in `text` re-written as JSON.stringify writes it (layout untouched). */
export function canonicalEscapes(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, (s) => JSON.stringify(JSON.parse(s)));
}

/** The expected value of each unit (read as JavaScript workers read the payload: readUnits, so a user's NDJSON too): wire units for serialize, models for deserialize. */
export function expectedUnits(
  workload: Workload,
  shape: Shape,
  direction: 'serialize' | 'deserialize',
  payloadText: string,
): unknown[] {
  const view = unitView(workload, shape);
  const { units } = readUnits(workload, payloadText, shape);
  if (direction === 'serialize') return units;
  const toModel = view.toModel ?? ((u: unknown) => u);
  return units.map((u) => toModel(u));
}

/**
 * UTF-8 bytes of the deserialize inputs JavaScript workers get: a user's payload's own texts
 * (readUnits), else renderUnit of each unit. The worker's `inputBytes` must match.
 */
export function expectedInputBytes(workload: Workload, shape: Shape, payloadText: string): number {
  const view = unitView(workload, shape);
  const { units, texts } = readUnits(workload, payloadText, shape);
  return (texts ?? units.map((u) => renderUnit(view, u))).reduce((n: number, t) => n + Buffer.byteLength(t), 0);
}

/**
 * Checks one gate message against the payload it was made from. Returns the first failure, or
 * null. @throws Error when the message has no `outputs` (it came from a launch not in `verify` mode).
 */
export function checkGate(
  workload: Workload,
  shape: Shape,
  message: GateMessage,
  payloadText: string,
): DotnetGateFailure | null {
  if (!message.outputs)
    throw new Error(
      `gate message of ${message.side} (${message.payload}) has no outputs: run the worker in verify mode`,
    );
  const view = unitView(workload, shape);
  const expected = expectedUnits(workload, shape, message.direction, payloadText);
  // the payload (main or variant) is the message's own field, which the caller sends as the failure's `on`
  const where = (i: number) => (expected.length > 1 ? ` (record ${i})` : '');
  if (message.outputs.length !== expected.length) {
    return {
      path: '$',
      expected: `${expected.length} outputs`,
      actual: `${message.outputs.length}`,
      reason: `the worker sent ${message.outputs.length} outputs for ${expected.length} units`,
    };
  }
  const naming = message.direction === 'serialize' ? workload.wire?.naming : undefined;
  for (let i = 0; i < expected.length; i++) {
    const text = message.outputs[i];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      return {
        path: '$',
        expected: 'valid JSON',
        actual: renderValue(text),
        reason: `output is not valid JSON${where(i)}: ${(e as Error).message}`,
      };
    }
    const m = firstMismatch(reviveDates(view.schema, expected[i], naming), reviveDates(view.schema, parsed, naming));
    if (m)
      return {
        ...m,
        reason: `${message.direction === 'serialize' ? 'output' : 'result'} differs at ${m.path}${where(i)}`,
      };
    if (message.direction === 'serialize') {
      const problem = workload.checkText?.(canonicalEscapes(text));
      if (problem) return { path: '$', expected: problem, actual: renderValue(text), reason: `${problem}${where(i)}` };
    }
  }
  return null;
}

/**
 * A timed launch's gate digests against those of the verify launch that passed: a serializer
 * whose output changed between processes (nondeterminism, a cache keyed on the process) fails.
 * Returns the reason, or null when every side and payload matches.
 */
export function checkDigests(verified: readonly GateMessage[], timed: readonly GateMessage[]): string | null {
  for (const t of timed) {
    const v = verified.find((g) => g.side === t.side && g.payload === t.payload);
    if (!v) return `no verified output for ${t.side} (${t.payload})`;
    if (v.digest !== t.digest)
      return `${t.side} wrote other output (${t.payload} payload) in the timed launch than in the verified one`;
  }
  return null;
}
