import type { CaseClass, Direction, Shape, Side } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import type { SerializerAdapter } from '../serializers/types.js';
import { unitView, unitsOf } from '../workloads/unit.js';
import { caseIo, checkCase, type GateFailure } from './gate.js';
import { sideChecks, type SideChecks } from './timed-check.js';
import { firstMismatch } from './verify.js';

/** JSON.parse as it was when this module loaded, before any adapter code ran (see verify.ts). */
const { parse } = JSON;

/** Where a case sits, as far as preparing one side of it is concerned; `serializeTo` as in the measure policy (absent: `string`). */
export interface CaseShape { shape: Shape; direction: Direction; caseClass: CaseClass; serializeTo?: 'bytes' | 'string' }

/**
 * The UTF-8 encoder of serialize ops that produce bytes, taken when this module loads (before any
 * adapter code): `Buffer.from(s, 'utf8')` where there is a Buffer (Node, Bun, Deno), else a
 * TextEncoder's `encode` (browsers, QuickJS with one); undefined where neither exists.
 */
export const encodeUtf8: ((s: string) => Uint8Array) | undefined = (() => {
  const B = (globalThis as { Buffer?: { from(s: string, enc: string): Uint8Array } }).Buffer;
  if (B && typeof B.from === 'function') { const from = B.from.bind(B); return (s: string) => from(s, 'utf8'); }
  const TE = (globalThis as { TextEncoder?: new () => { encode(s: string): Uint8Array } }).TextEncoder;
  if (typeof TE === 'function') { const te = new TE(); return (s: string) => te.encode(s); }
  return undefined;
})();
const { decode } = ((): { decode: (b: Uint8Array) => string } => {
  const TD = (globalThis as { TextDecoder?: new () => { decode(b: Uint8Array): string } }).TextDecoder;
  if (typeof TD === 'function') { const td = new TD(); return { decode: (b) => td.decode(b) }; }
  return { decode: () => { throw new Error('no TextDecoder on this runtime'); } };
})();

/**
 * The timed checks of a bytes op: a result is UTF-8 bytes of the text the string checks expect. The
 * quick check compares byte lengths (allocation-free); the full check decodes and runs the string's.
 */
function bytesChecks(strings: SideChecks, gatedText: string): SideChecks {
  const lengths = new Set<number>([encodeUtf8!(gatedText).length]);
  const asText = (out: unknown) => (out instanceof Uint8Array ? decode(out) : out);
  const full = (out: unknown, where: string) => { const text = asText(out); strings.full(text, where); if (typeof text === 'string' && out instanceof Uint8Array) lengths.add(out.length); };
  return {
    quick: (out, where) => { if (out instanceof Uint8Array && lengths.has(out.length)) return; full(out, where); },
    full,
    roundEnd: (out, round, ms, where) => strings.roundEnd(asText(out), round, ms, where),
    inputs: strings.inputs,
  };
}

/** One side of a case, prepared: the call to time, its inputs, and the correctness gate. */
export interface PreparedCase {
  /** the adapter's function for the case's direction, bound to its prepared object */
  call(input: unknown): unknown;
  /** a fresh copy of one op's inputs (one per unit: the value to serialize, or the text to deserialize) built from a payload text */
  inputs(payloadText: string): unknown[];
  /**
   * The correctness gate on a payload text: the first failure, or null. For serialize it also
   * fails when the serializer changed the inputs it was handed. Errors the serializer throws
   * propagate.
   */
  check(payloadText: string): GateFailure | null;
  /**
   * The checks made while timing (measure/timed-check.ts) against what the gate accepted for
   * `payloadText`, for the two input copies the timed ops alternate between.
   * @throws Error when `payloadText` did not pass {@link check} first
   */
  timedChecks(side: Side, payloadText: string, copies: readonly [readonly unknown[], readonly unknown[]]): SideChecks;
}

/**
 * Prepares one side of a case the one way the lab does it: the workload's unit view for the shape,
 * `adapter.prepare(view, direction)` (awaited; untimed), a check that it returned the direction's
 * function, and the gate and inputs built from the payload text (parsed with the JSON.parse taken
 * before adapter code loaded). The worker, the instruction counter, the precision bench and the
 * adapter tests all call this.
 * @throws whatever `adapter.prepare` throws; Error when it returned no object or no function for the direction
 */
export async function prepareCase(adapter: SerializerAdapter, workload: Workload, c: CaseShape): Promise<PreparedCase> {
  const view = unitView(workload, c.shape);
  const prepared = await adapter.prepare(view, c.direction);
  if (prepared === null || typeof prepared !== 'object') throw new Error(`prepare() returned ${prepared === null ? 'null' : typeof prepared}; it must return { serialize?, deserialize? }`);
  const fn = c.direction === 'serialize' ? prepared.serialize : prepared.deserialize;
  if (typeof fn !== 'function') throw new Error(`prepare() returned no ${c.direction} function`);
  const io = (text: string) => caseIo(view, c.direction, c.caseClass, unitsOf(parse(text), c.shape));
  /** per payload text that passed the gate: the result accepted for its last unit, and the unit count */
  const gated = new Map<string, { last: unknown; units: number }>();
  const bytes = c.direction === 'serialize' && c.serializeTo === 'bytes';
  if (bytes && !encodeUtf8) throw new Error('serialize to bytes needs Buffer or TextEncoder, which this runtime lacks (use --serialize-to string)');
  const encode = encodeUtf8!;
  return {
    call: bytes ? (input) => encode(fn.call(prepared, input as never) as string) : (input) => fn.call(prepared, input as never),
    inputs: (text) => io(text).inputs,
    check(text) {
      const given = io(text);
      const outputs: unknown[] = [];
      const failure = checkCase(prepared, view, c.direction, given, outputs);
      if (failure) return failure;
      if (c.direction === 'serialize') {
        const fresh = io(text).inputs;
        for (let i = 0; i < fresh.length; i++) {
          const changed = firstMismatch(fresh[i], given.inputs[i]);
          if (changed) return { ...changed, reason: `input changed during the correctness gate: differs from the payload at ${changed.path}${fresh.length > 1 ? ` (record ${i})` : ''}` };
        }
      }
      gated.set(text, { last: outputs[outputs.length - 1], units: outputs.length });
      return null;
    },
    timedChecks(side, text, copies) {
      const g = gated.get(text);
      if (!g) throw new Error('timedChecks: the payload text has not passed the gate');
      const strings = sideChecks(side, view, c.direction, {
        expected: () => io(text).expected[g.units - 1],
        gated: g.last, units: g.units, copies, snapshot: () => io(text).inputs,
      });
      return bytes && typeof g.last === 'string' ? bytesChecks(strings, g.last) : strings;
    },
  };
}
