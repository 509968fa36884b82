import { medianOf } from '../stats/median.js';
import type { CaseClass, Direction, Shape, Side } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import type { SerializerAdapter } from '../serializers/types.js';
import { readUnits, unitView } from '../workloads/unit.js';
import { userWorkloadView } from '../workloads/user-view.js';
import { serializers as builtinSerializers } from '../serializers/index.js';
import { caseIo, checkCase, checkOutput, type GateFailure } from './gate.js';
import {
  inputCacheCost,
  inputCacheRatios,
  leafChanges,
  sameLengthText,
  sharedResult,
  textCacheCost,
  textCacheRatios,
  type CostClocks,
  type CostRatios,
  type DeserializeCheck,
  type InputCostCheck,
} from './cache-checks.js';
import { integrityChange, sideChecks, type SideChecks } from './timed-check.js';
import { firstMismatch } from './verify.js';
import { cpuNowNs, fineWallNowNs, nowNs, threadCpuNowNs } from './clock.js';
import { acceptsInvalid, invalidTexts } from './rejects.js';
import { roundChanges } from './in-place.js';
import type { PickedResult } from './check-schedule.js';

/** JSON.parse as it was when this module loaded, before any adapter code ran (see verify.ts). */
const { parse } = JSON;
/**
 * The cost checks' clock (cache-checks.ts): the measuring thread's own CPU clock where there is one (Linux:
 * clock.ts threadCpuNowNs), else the process CPU clock, else wall time. CPU, not wall: preemption adds wall time,
 * not CPU time. The thread's, not the process's: the checks are checks, not reported numbers, and a thread a config
 * starts that burns while the baseline's new inputs are timed made the built-in JSON.parse fail its text check
 * ("a text it had never seen cost 4.7×", hx8 SPINP-50-default).
 */
export const costClock: () => number = threadCpuNowNs ?? cpuNowNs ?? nowNs;

/** The cost checks' clocks ({@link costClock}; a block too short for it on clock.ts fineWallNowNs), with the time per call its timed rounds read when known (ns). */
const costClocks = (perCallNs?: number): CostClocks => ({
  cpu: costClock,
  ...(fineWallNowNs ? { wall: fineWallNowNs } : {}),
  ...(perCallNs !== undefined ? { perCallNs } : {}),
});

/** Where a case sits, as far as preparing one side of it is concerned; `serializeTo` as in the measure policy (absent: `string`). */
export interface CaseShape {
  shape: Shape;
  direction: Direction;
  caseClass: CaseClass;
  serializeTo?: 'bytes' | 'string';
}

/**
 * UTF-8 bytes of a string in plain JavaScript (two passes: length, then bytes; a lone surrogate
 * becomes U+FFFD as TextEncoder does): the encoder of a runtime with neither Buffer nor
 * TextEncoder (QuickJS).
 */
export function utf8Bytes(s: string): Uint8Array {
  const n = s.length;
  let len = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) len += 1;
    else if (c < 0x800) len += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      len += 4;
      i++;
    } else len += 3;
  }
  const out = new Uint8Array(len);
  let k = 0;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[k++] = c;
      continue;
    }
    if (c < 0x800) {
      out[k++] = 0xc0 | (c >> 6);
      out[k++] = 0x80 | (c & 63);
      continue;
    }
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[k++] = 0xf0 | (cp >> 18);
      out[k++] = 0x80 | ((cp >> 12) & 63);
      out[k++] = 0x80 | ((cp >> 6) & 63);
      out[k++] = 0x80 | (cp & 63);
      continue;
    }
    if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
    out[k++] = 0xe0 | (c >> 12);
    out[k++] = 0x80 | ((c >> 6) & 63);
    out[k++] = 0x80 | (c & 63);
  }
  return out;
}

/** UTF-8 text of bytes made by {@link utf8Bytes} or a native encoder (the full timed check's decoder where there is no TextDecoder). */
function utf8Text(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length;) {
    const c = b[i];
    let cp: number;
    if (c < 0x80) {
      cp = c;
      i += 1;
    } else if (c < 0xe0) {
      cp = ((c & 31) << 6) | (b[i + 1] & 63);
      i += 2;
    } else if (c < 0xf0) {
      cp = ((c & 15) << 12) | ((b[i + 1] & 63) << 6) | (b[i + 2] & 63);
      i += 3;
    } else {
      cp = ((c & 7) << 18) | ((b[i + 1] & 63) << 12) | ((b[i + 2] & 63) << 6) | (b[i + 3] & 63);
      i += 4;
    }
    s += String.fromCodePoint(cp);
  }
  return s;
}

/**
 * The UTF-8 encoder of serialize ops that produce bytes, taken when this module loads (before any
 * adapter code): `Buffer.from(s, 'utf8')` where there is a Buffer (Node, Bun, Deno), else a
 * TextEncoder's `encode` (browsers), else {@link utf8Bytes} (QuickJS).
 */
export const encodeUtf8: (s: string) => Uint8Array = (() => {
  const B = (globalThis as { Buffer?: { from(s: string, enc: string): Uint8Array } }).Buffer;
  if (B && typeof B.from === 'function') {
    const from = B.from.bind(B);
    return (s: string) => from(s, 'utf8');
  }
  const TE = (globalThis as { TextEncoder?: new () => { encode(s: string): Uint8Array } }).TextEncoder;
  if (typeof TE === 'function') {
    const te = new TE();
    return (s: string) => te.encode(s);
  }
  return utf8Bytes;
})();
const { decode } = ((): { decode: (b: Uint8Array) => string } => {
  const TD = (globalThis as { TextDecoder?: new () => { decode(b: Uint8Array): string } }).TextDecoder;
  if (typeof TD === 'function') {
    const td = new TD();
    return { decode: (b) => td.decode(b) };
  }
  return { decode: utf8Text };
})();

/**
 * The timed checks of a bytes op: a result is UTF-8 bytes of the text the string checks expect. The
 * quick check compares byte lengths (allocation-free); the full check decodes and runs the string's.
 */
function bytesChecks(strings: SideChecks, gatedText: string): SideChecks {
  const lengths = new Set<number>([encodeUtf8(gatedText).length]);
  const asText = (out: unknown) => (out instanceof Uint8Array ? decode(out) : out);
  const full = (out: unknown, where: string, what?: string) => {
    const text = asText(out);
    strings.full(text, where, what);
    if (typeof text === 'string' && out instanceof Uint8Array) lengths.add(out.length);
  };
  return {
    quick: (out, where) => {
      if (out instanceof Uint8Array && lengths.has(out.length)) return;
      full(out, where);
    },
    full,
    roundEnd: (out, round, ms, where, again, changed) =>
      strings.roundEnd(asText(out), round, ms, where, again && (() => asText(again())), changed),
    ...(strings.roundChange ? { roundChange: strings.roundChange } : {}),
    inputs: strings.inputs,
    ...(strings.unlocked ? { unlocked: strings.unlocked } : {}),
    ...(strings.distinct ? { distinct: strings.distinct } : {}),
    ...(strings.streak
      ? {
          streak: (results: readonly PickedResult[], where: string) =>
            strings.streak!(
              results.map((r) => ({ value: asText(r.value), unit: r.unit })),
              where,
            ),
        }
      : {}),
    ...(strings.picked
      ? {
          picked: (results: readonly PickedResult[], ms: number, where: string) =>
            strings.picked!(
              results.map((r) => ({ value: asText(r.value), unit: r.unit })),
              ms,
              where,
            ),
        }
      : {}),
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
   * fails when the serializer changed the inputs it was handed; for a `validate` or `transform`
   * deserializer, the first time, when it accepts a text its schema rejects (measure/rejects.ts).
   * Errors the serializer throws on the valid text propagate.
   */
  check(payloadText: string): GateFailure | null;
  /**
   * The checks made while timing (measure/timed-check.ts) against what the gate accepted for
   * `payloadText`, for the two input copies the timed ops alternate between.
   * @throws Error when `payloadText` did not pass {@link check} first
   */
  timedChecks(side: Side, payloadText: string, copies: readonly [readonly unknown[], readonly unknown[]]): SideChecks;
  /**
   * The cache checks, once after the timed rounds (measure/cache-checks.ts): serialize first compares
   * the cost of new input objects (every changeable value changed) with that of `copy`'s last unit (the
   * input object the op was timed on: inputCacheCost), then changes leaves of that unit in place and
   * checks each output (leafChanges); deserialize checks that two calls on `copy`'s last unit text do
   * not share their result, that a text of its length with other digits and letters gets its own
   * value, and that new texts cost about what the repeated one does (textCacheCost). Returns the
   * first failure, or null. `timedNsPerOp`: the ns per op of every sample of the case's timed rounds; with one unit
   * per op a call on the timed input in the cost check may not cost over cache-checks.ts SLOWER_THAN_TIMED× their
   * median (with more
   * units an op's units differ in size from the unit checked: not compared). `baselineNsPerOp`: its baseline's in the
   * same rounds, which the comparison's floor also reads (cache-checks.ts slowerThanTimed). Errors the serializer
   * throws propagate.
   */
  cacheChecks(
    payloadText: string,
    copy: readonly unknown[],
    timedNsPerOp?: readonly number[],
    baselineNsPerOp?: readonly number[],
  ): GateFailure | null;
  /**
   * The ratios the cost check of {@link cacheChecks} reads (serialize: cache-checks.ts inputCacheRatios; deserialize:
   * textCacheRatios), both passes always, on `copy`'s last unit: what bench/timed-check.ts calibrates the
   * thresholds on. Null when the check cannot be made. Errors the serializer throws propagate.
   */
  cacheCost(payloadText: string, copy: readonly unknown[]): CostRatios | null;
}

/**
 * Prepares one side of a case the one way the lab does it: the workload's unit view for the shape,
 * `adapter.prepare(view, direction)` (awaited; untimed), a check that it returned the direction's
 * function, and the gate and inputs built from the payload text (parsed with the JSON.parse taken
 * before adapter code loaded, in workloads/unit.ts; for a user's payload, deserialize inputs are the file's own bytes:
 * readUnits in workloads/unit.ts). The worker, the instruction counter, the precision bench and the
 * adapter tests all call this.
 * @throws whatever `adapter.prepare` throws; Error when it returned no object or no function for the direction
 */
export async function prepareCase(adapter: SerializerAdapter, workload: Workload, c: CaseShape): Promise<PreparedCase> {
  const view = unitView(workload, c.shape);
  // a config's prepare() gets a frozen copy: the baseline's adapter and the gate keep the view (hx34 s17)
  const builtin = builtinSerializers.ids.includes(adapter.id.split('@')[0]);
  const prepared = await adapter.prepare(builtin ? view : userWorkloadView(view), c.direction);
  if (prepared === null || typeof prepared !== 'object')
    throw new Error(
      `prepare() returned ${prepared === null ? 'null' : typeof prepared}; it must return { serialize?, deserialize? }`,
    );
  const fn = c.direction === 'serialize' ? prepared.serialize : prepared.deserialize;
  if (typeof fn !== 'function') throw new Error(`prepare() returned no ${c.direction} function`);
  const io = (text: string) => {
    const { units, texts } = readUnits(workload, text, c.shape);
    return caseIo(view, c.direction, c.caseClass, units, texts);
  };
  /** per payload text that passed the gate: the result accepted for its last unit, the unit count, and (serialize) every unit's text */
  const gated = new Map<string, { last: unknown; units: number; all: unknown[] }>();
  const bytes = c.direction === 'serialize' && c.serializeTo === 'bytes';
  const validates = c.direction === 'deserialize' && (c.caseClass === 'validate' || c.caseClass === 'transform');
  let rejectsChecked = false;
  const encode = encodeUtf8;
  const call = bytes
    ? (input: unknown) => encode(fn.call(prepared, input as never) as string)
    : (input: unknown) => fn.call(prepared, input as never) as unknown;
  const { inputCost, leafCheck, deserializeCheck } = cacheCheckCases(workload, view, c, call, (t) =>
    fn.call(prepared, t as never),
  );
  return {
    call,
    inputs: (text) => io(text).inputs,
    check(text) {
      const given = io(text);
      const outputs: unknown[] = [];
      const failure = checkCase(prepared, view, c.direction, given, outputs);
      // a serializer that changed its input is said to, before (or instead of) the output's difference from the
      // changed value (hx31 a12: "output differs at $.tags (expected null, got ["a","b"])" for the payload's own tags)
      if (c.direction === 'serialize') {
        const locked = integrityChange(given.inputs);
        if (locked) return { ...locked, reason: `input changed during the correctness gate: ${locked.reason}` };
        const fresh = io(text).inputs;
        for (let i = 0; i < fresh.length; i++) {
          const changed = firstMismatch(fresh[i], given.inputs[i]);
          if (changed)
            return {
              ...changed,
              reason: `input changed during the correctness gate: differs from the payload at ${changed.path}${fresh.length > 1 ? ` (record ${i})` : ''}: the serializer changes the value it is handed (a serializer must leave the caller's objects as they were)`,
            };
        }
      }
      if (failure) return failure;
      // a validate or transform deserializer must also reject what its schema rejects (measure/rejects.ts), once per case
      if (validates && !rejectsChecked) {
        rejectsChecked = true;
        const refused = acceptsInvalid(
          (t) => fn.call(prepared, t as never),
          invalidTexts(view, given.inputs[0] as string),
          given.inputs.length > 1 ? ' (record 0)' : '',
        );
        if (refused) return refused;
      }
      // serialize: every unit's text, which the calls drawn at random compare with (a deserializer's objects are not kept)
      const all = c.direction === 'serialize' ? outputs : [];
      gated.set(text, { last: outputs[outputs.length - 1], units: outputs.length, all });
      return null;
    },
    cacheChecks(text, copy, timedNsPerOp, baselineNsPerOp) {
      // one unit per op: the op is one call on the unit the check calls
      const timedNs = copy.length === 1 && timedNsPerOp?.length ? medianOf(timedNsPerOp) : undefined;
      const baselineNs = copy.length === 1 && baselineNsPerOp?.length ? medianOf(baselineNsPerOp) : undefined;
      const clocks = costClocks(timedNsPerOp?.length ? medianOf(timedNsPerOp) / Math.max(1, copy.length) : undefined);
      if (c.direction === 'serialize')
        return inputCacheCost(inputCost(text, copy), clocks, timedNs, baselineNs) ?? leafChanges(leafCheck(text, copy));
      // a validator must still reject what its schema rejects after the rounds, not only at the gate (hx10 lazyajv:
      // ajv compiled from the lab's own schema validated its first 200 calls, then was JSON.parse: "use lazyajv
      // (faster by 1.27×)" than typebox)
      if (validates) {
        const last = copy[copy.length - 1] as string;
        const lazy = acceptsInvalid(
          (t) => fn.call(prepared, t as never),
          invalidTexts(view, last),
          copy.length > 1 ? ` (record ${copy.length - 1})` : '',
        );
        if (lazy)
          return {
            ...lazy,
            reason: `after the timed rounds, ${lazy.reason} (it rejected such payloads at the gate: it stopped validating once timed)`,
          };
      }
      const d = deserializeCheck(copy);
      return sharedResult(d) ?? sameLengthText(d) ?? textCacheCost(d, clocks, timedNs, baselineNs);
    },
    cacheCost(text, copy) {
      return c.direction === 'serialize'
        ? inputCacheRatios(inputCost(text, copy), costClocks())
        : textCacheRatios(deserializeCheck(copy), costClocks());
    },
    timedChecks(side, text, copies) {
      const g = gated.get(text);
      if (!g) throw new Error('timedChecks: the payload text has not passed the gate');
      const strings = sideChecks(side, view, c.direction, {
        expected: () => io(text).expected[g.units - 1],
        gated: g.last,
        units: g.units,
        // the gate's texts (it calls the adapter's serialize, so strings even for a bytes op); deserialize results are
        // compared by value with the expected units, never with the gate's objects (which the parser could change later)
        ...(c.direction === 'serialize' ? { gatedUnits: g.all } : {}),
        expectedUnits: () => io(text).expected,
        copies,
        snapshot: () => io(text).inputs,
        ...(c.direction === 'serialize'
          ? {
              changes: roundChanges({
                view,
                wire: readUnits(workload, text, c.shape).units[g.units - 1],
                wireInput: view.serializeFrom !== 'model',
                inputOf: (wire) => caseIo(view, 'serialize', c.caseClass, [wire]).inputs[0],
              }),
            }
          : {}),
      });
      return bytes && typeof g.last === 'string' ? bytesChecks(strings, g.last) : strings;
    },
  };
}

/**
 * What the cache checks (cache-checks.ts) are handed for a case, on `copy`'s last unit (the input, or the text,
 * the rounds were timed on): the serialize cost check's (`call` as timed: bytes not decoded), the serialize
 * changes in place', and the deserialize checks' (`deserialize`: the adapter's function).
 */
function cacheCheckCases(
  workload: Workload,
  view: Workload,
  c: CaseShape,
  call: (input: unknown) => unknown,
  deserialize: (text: string) => unknown,
) {
  const asText = (out: unknown) => (out instanceof Uint8Array ? decode(out) : out);
  const whereOf = (copy: readonly unknown[]) => (copy.length > 1 ? ` (record ${copy.length - 1})` : '');
  const inputOf = (wire: unknown) => caseIo(view, 'serialize', c.caseClass, [wire]).inputs[0];
  const wireOf = (text: string, copy: readonly unknown[]) => readUnits(workload, text, c.shape).units[copy.length - 1];
  return {
    inputCost: (text: string, copy: readonly unknown[]): InputCostCheck => ({
      view,
      wire: wireOf(text, copy),
      inputOf,
      input: copy[copy.length - 1],
      call,
      check: (wire, out) => checkOutput(view, 'serialize', wire, asText(out), whereOf(copy)),
    }),
    leafCheck: (text: string, copy: readonly unknown[]) => ({
      view,
      wire: wireOf(text, copy),
      wireInput: view.serializeFrom !== 'model',
      inputOf,
      input: copy[copy.length - 1],
      call: (input: unknown) => asText(call(input)),
      check: (wire: unknown, out: unknown) => checkOutput(view, 'serialize', wire, out, whereOf(copy)),
    }),
    deserializeCheck: (copy: readonly unknown[]): DeserializeCheck => ({
      view,
      text: copy[copy.length - 1] as string,
      expectedOf: (t: string) => caseIo(view, 'deserialize', c.caseClass, [parse(t)]).expected[0],
      call: deserialize,
      check: (expected: unknown, out: unknown) => checkOutput(view, 'deserialize', expected, out, whereOf(copy)),
    }),
  };
}
