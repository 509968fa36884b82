import type { Direction, Side } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import { checkOutput, type CaseIo, type GateFailure } from './gate.js';
import { firstMismatch } from './verify.js';
import { cpuNowNs, nowNs } from './clock.js';
import { changeWrites, type BackToBackChange } from './cache-checks.js';
import type { PickedResult } from './check-schedule.js';

/**
 * Checks made while timing, outside the timed loops. The gate calls a serializer a few times before
 * timing; one that is right for those calls and wrong afterwards, or that changes its input (which
 * also corrupts the baseline: both sides are timed on the same two input copies), would otherwise
 * be measured and ranked. So:
 *
 * - **outputs**: after every sample (warmup and pilot too) the result of its last op — the value the
 *   DCE sink holds anyway — gets a quick check that allocates nothing (its length, or its JSON type);
 *   after the last sample of warmup, of the pilot and of each side's round, the full check:
 *   serialize, one string comparison with the text the gate accepted (and, only when the text
 *   differs, the gate's check of the new text: a correct serializer whose text varies passes);
 *   deserialize, the gate's value comparison. Full checks after rounds stay within
 *   {@link CHECK_BUDGET} of the time sampled.
 * - **inputs** (serialize; deserialize inputs are strings, which cannot change): with each full
 *   check after a round, one of the two copies (alternating by round) is compared with the JSON text
 *   of a snapshot parsed from the payload and never given to a serializer; after warmup, both.
 *
 * The full checks run right before the other side's GC (or the next round's), so neither their
 * work nor their garbage falls inside a sample.
 *
 * - **calls drawn at random** (check-schedule.ts): in every timed sample (pilot and rounds), one call in
 *   `OPS_PER_PICK` (2; at least 1, at most `PICKS_PER_SAMPLE`, 16) at positions drawn at random per sample,
 *   from a generator seeded per launch out of the config's reach (and in an op over several units, a random unit),
 *   has its result kept and compared in full after the sample (`picked`), within {@link CHECK_BUDGET} of the time
 *   sampled. A serializer wrong on one call in N (every Nth, or any residue of its call count), or one right only on
 *   the last op of each sample, cannot tell a checked call from another: over C checked calls it is caught with
 *   probability 1 − (1 − 1/N)^C ≥ 1 − e^(−C/N) — 95% once C ≥ 3N (hx8 section 5: every 97th call was caught alone
 *   and measured beside typia, when the last ops of the rounds happened to miss the wrong calls).
 *
 * A difference throws {@link TimedCheckFailure}; the worker reports the case `incorrect` with the
 * stage, the path and both values. What this cannot see: a wrong result on fewer calls than the
 * checked ones can find (1 in N with N well over C/3), one of the right length on calls none of the
 * checks takes, and a change to a part of the input JSON does not carry (a
 * non-enumerable property, an accessor in place of a value). Prototypes and toJSON functions are
 * compared with the untouched inputs' (before the JSON text, which a toJSON could fake).
 */

/** A result or an input that changed after the gate accepted it. */
export class TimedCheckFailure extends Error {
  constructor(
    readonly side: Side,
    readonly failure: GateFailure,
  ) {
    super(failure.reason);
  }
}

/** The checks of one side of a case. */
export interface SideChecks {
  /**
   * After any sample: a check that allocates nothing (serialize: a string of a length the gate or a
   * full check accepted; deserialize: the same JSON type, and array length). @throws TimedCheckFailure
   */
  quick(last: unknown, where: string): void;
  /**
   * After any timed sample of two ops or more: deserialize, `last` and `previous` (the sample's last two results,
   * both from its timed loop) must be different objects — one object twice is a cache of results, even one that
   * answers only calls from the timed loop (hx6 callsite-cache). @throws TimedCheckFailure
   */
  distinct?(last: unknown, previous: unknown, where: string): void;
  /**
   * After any timed sample (pilot and rounds), after its other checks: the results of the calls drawn at random in it
   * (check-schedule.ts; `sampleMs`: that sample's time), each compared in full with what the gate accepted for its
   * unit (serialize: one string comparison, the gate's check only when the text differs; deserialize: the gate's
   * value comparison), while these checks' cost stays within {@link CHECK_BUDGET} of the time sampled (the first
   * always). Returns how many of `results` were checked (the rest were over the budget). @throws TimedCheckFailure
   */
  picked?(results: readonly PickedResult[], sampleMs: number, where: string): number;
  /**
   * After a side's timed rounds: every result of a run of calls made back to back ({@link runStreak}) compared in
   * full, as {@link picked} compares one, with no budget (the run is bounded by its own). @throws TimedCheckFailure
   */
  streak?(results: readonly PickedResult[], where: string): void;
  /** After the last sample of the pilot and of warmup: the gate's check (`what` starts the reason: by default, the result changed after the gate). @throws TimedCheckFailure */
  full(last: unknown, where: string, what?: string): void;
  /**
   * After the last sample of a side's round (`sampledMs`: that round's sample time): the full check
   * and the inputs' while their cost stays within {@link CHECK_BUDGET} of the time sampled (always
   * in the first round), else the quick check. Deserialize, first: `again` (the sample's last op once
   * more, back to back with the timed calls, outside them) must give another object than `last`.
   * @throws TimedCheckFailure
   */
  roundEnd(
    last: unknown,
    round: number,
    sampledMs: number,
    where: string,
    again?: () => unknown,
    changed?: BackToBackChange,
  ): void;
  /**
   * Serialize: the change of the input's last unit ({@link BackToBackChange}) the last op of round
   * `round`'s last sample runs on — applied by the timed sample itself just before that op and undone
   * after its clocks are read (measure/timing.ts), so no pause comes between it and the timed calls
   * before it; {@link roundEnd} then checks that op's output against it (`changed`). Undefined when
   * there is none, or the checks are over {@link CHECK_BUDGET} (then the round gets the quick check).
   */
  roundChange?(round: number): RoundChange | undefined;
  /** After the side's samples of a round (and after warmup: `round` -1 checks both copies). @throws TimedCheckFailure */
  inputs(round: number, where: string): void;
  /** That none of `units` (timed inputs) was frozen, sealed or made non-extensible ({@link integrityChange}). @throws TimedCheckFailure */
  unlocked?(units: readonly unknown[], where: string): void;
}

/** A change to run a round's last op on ({@link SideChecks.roundChange}): `apply` makes it on both input copies and returns its undo. */
export interface RoundChange {
  change: BackToBackChange;
  apply(): () => void;
}

/** At most this many calls in the run of {@link runStreak}. */
export const STREAK_CALLS = 2000;
/** The run of {@link runStreak} stops once it has taken this long (ms)… */
export const STREAK_MS = 50;
/** …or once its results would hold about this many characters (serialize: the text; deserialize: the text parsed × 16, its value's size and the cost of comparing it). */
export const STREAK_CHARS = 32 * 2 ** 20;

/**
 * A run of calls made back to back after a side's timed rounds, each result kept (then compared by
 * {@link SideChecks.streak}): on the two input copies the timed ops alternate between, unit after unit, up to
 * {@link STREAK_CALLS} calls, {@link STREAK_MS} or {@link STREAK_CHARS}. Why (hx7 RW-97, hx12 RW-997: a serializer
 * wrong on every 997th call was measured and ranked: the calls drawn at random while timing catch one wrong on one
 * call in N with probability 1 − (1 − 1/N)^C, and a quick case checks a few hundred): a serializer wrong on any
 * N-th call of its count with N up to the run's length is caught whatever it can see of the schedule, and one wrong
 * on a fraction p of its calls with a further 1 − (1 − p)^calls. The calls are untimed; their results are compared
 * only after the run, so no check comes between two of them.
 * @param charsPerCall about the size of one call's result in characters (the gate's text, or the text parsed)
 */
export function runStreak(
  call: (input: unknown) => unknown,
  copies: readonly [readonly unknown[], readonly unknown[]],
  charsPerCall: number,
): PickedResult[] {
  const results: PickedResult[] = [];
  const most = Math.max(1, Math.min(STREAK_CALLS, Math.floor(STREAK_CHARS / Math.max(1, charsPerCall))));
  const t0 = nowNs();
  for (let i = 0; results.length < most; i++) {
    const xs = copies[i & 1];
    for (let u = 0; u < xs.length && results.length < most; u++)
      results[results.length] = { value: call(xs[u]), unit: u };
    if ((nowNs() - t0) / 1e6 > STREAK_MS) break;
  }
  return results;
}

/**
 * Share of a side's sampled time its full checks may add (outside the samples). Comparing a
 * 1.8 MB text made of many concatenated pieces (fast-json-stringify, users/10000) first flattens
 * it: about 30 ms, twice the op itself, so a full check after every round would lengthen such a
 * case by half; at 10% it runs every few rounds there, and after every round of small payloads.
 */
export const CHECK_BUDGET = 0.1;
/**
 * Time (ms) a side's checks (the calls drawn at random; the round checks, apart) may take beyond {@link CHECK_BUDGET}
 * of its sampled time: the first checks
 * run cold (compiled on first use: 0.3–0.5 ms for the first few here), which at 10% of a short side's samples (40
 * rounds of 30 µs samples: 3.6 ms) left 35 of 800 drawn calls checked, and hx7 F3's every-97th-call fault unchecked
 * in 1 run of 3 under load (CI, 2026-12-07). One millisecond a side costs any run nothing it would notice.
 */
const CHECK_ALLOWANCE_MS = 1;

/** The clocks' readings where a check starts ({@link spentMs} reads what it cost). */
function startCheck(): { wall: number; cpu: number | undefined } {
  return { wall: nowNs(), cpu: cpuNowNs?.() };
}

/** What a check started at `t0` cost (ms): the lesser of its wall and CPU time, as a sample's length is (timing.ts pilot). */
function spentMs(t0: { wall: number; cpu: number | undefined }): number {
  const wall = (nowNs() - t0.wall) / 1e6;
  return t0.cpu !== undefined ? Math.min(wall, (cpuNowNs!() - t0.cpu) / 1e6) : wall;
}

/** What the checks of one side compare with. */
export interface CheckReference {
  /** the value the last unit's result must equal (the gate's expected value); called once for deserialize, only on a changed text for serialize */
  expected(): unknown;
  /** the result the gate accepted for the last unit (serialize: its text) */
  gated: unknown;
  /** the results the gate accepted for every unit, in order (absent: the last unit's only, `gated`; a call drawn at random on another unit is then not checked) */
  gatedUnits?: readonly unknown[];
  /** the values every unit's result must equal (called once, on the first call drawn at random on a unit other than the last) */
  expectedUnits?(): unknown[];
  /** units per op (the last one's result is what the sink holds) */
  units: number;
  /** the two input copies the timed ops alternate between */
  copies: readonly [readonly unknown[], readonly unknown[]];
  /** inputs parsed from the payload text and never handed to a serializer (called on a difference, to name its path) */
  snapshot(): unknown[];
  /**
   * Serialize: changes of a leaf of the last unit ({@link BackToBackChange}, cache-checks.ts), one
   * made on both copies at each checked round's end, right after the timed calls, for one more call.
   */
  changes?: readonly BackToBackChange[];
}

/** Built-ins taken before adapter code runs (see verify.ts). */
const { stringify } = JSON;
const { isArray } = Array;
const { getPrototypeOf, getOwnPropertyDescriptor, keys: ownKeys, isExtensible, isFrozen, isSealed } = Object;

/** The prototypes and the toJSON functions the untouched inputs have (plain JSON: Object.prototype, Array.prototype, none). */
interface InputShapes {
  prototypes: Set<unknown>;
  toJSON: Set<unknown>;
}

function shapesOf(inputs: readonly unknown[]): InputShapes {
  const shapes: InputShapes = { prototypes: new Set(), toJSON: new Set() };
  const stack: unknown[] = [...inputs];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    shapes.prototypes.add(getPrototypeOf(v));
    const t = (v as { toJSON?: unknown }).toJSON;
    if (typeof t === 'function') shapes.toJSON.add(t);
    if (isArray(v)) for (let i = 0; i < v.length; i++) stack.push(v[i]);
    else for (const k of ownKeys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
  return shapes;
}

/**
 * The first object or array of `inputs` whose prototype is not one the untouched inputs have, or
 * that now finds a toJSON function they do not (own, or anywhere along its prototype chain): a
 * change JSON text cannot show, yet JSON.stringify (the baseline) would call it (issue 9: a
 * serializer set a prototype whose toJSON slowed the baseline down after the gate), or that can no
 * longer be changed ({@link locked}). Iterative;
 * the path is built only for the node found.
 */
function prototypeChange(inputs: readonly unknown[], shapes: InputShapes): GateFailure | undefined {
  const nodes: unknown[] = [];
  const parents: number[] = [];
  const names: string[] = [];
  const stack: number[] = [];
  for (let i = 0; i < inputs.length; i++) {
    nodes.push(inputs[i]);
    parents.push(-1);
    names.push(`[${i}]`);
    stack.push(nodes.length - 1);
  }
  const pathOf = (n: number): string => {
    let p = '';
    for (let j = n; j >= 0; j = parents[j]) p = names[j] + p;
    return '$' + p;
  };
  while (stack.length) {
    const n = stack.pop()!;
    const v = nodes[n];
    if (v === null || typeof v !== 'object') continue;
    if (!shapes.prototypes.has(getPrototypeOf(v)))
      return {
        path: pathOf(n),
        expected: "the prototype the payload's objects have",
        actual: 'another prototype',
        reason: `its prototype was replaced at ${pathOf(n)}`,
      };
    if (!isExtensible(v)) return locked(v, pathOf(n));
    const t = (v as { toJSON?: unknown }).toJSON;
    if (typeof t === 'function' && !shapes.toJSON.has(t))
      return {
        path: pathOf(n),
        expected: 'no toJSON',
        actual: 'a toJSON function',
        reason: `a toJSON function was added at ${pathOf(n)} (own or along its prototype chain)`,
      };
    if (isArray(v))
      for (let i = 0; i < v.length; i++) {
        nodes.push(v[i]);
        parents.push(n);
        names.push(`[${i}]`);
        stack.push(nodes.length - 1);
      }
    else
      for (const k of ownKeys(v)) {
        nodes.push((v as Record<string, unknown>)[k]);
        parents.push(n);
        names.push(`.${k}`);
        stack.push(nodes.length - 1);
      }
  }
  return undefined;
}

/**
 * Why `v` (at `path`) can no longer be changed (frozen, sealed or made non-extensible: Object.freeze,
 * seal, preventExtensions), or undefined. The inputs are parsed from the payload text, so every one
 * of their objects starts extensible: one that is not was changed by the serializer, which must
 * leave the caller's objects as they were (issue 25: m-freeze froze its input, and the
 * changed-in-place check broke on it with "Cannot delete property").
 */
function locked(v: object, path: string): GateFailure | undefined {
  if (isExtensible(v)) return undefined;
  const what = isFrozen(v) ? 'frozen' : isSealed(v) ? 'sealed' : 'made non-extensible';
  return {
    path,
    expected: 'an object the caller can still change',
    actual: what,
    reason: `it was ${what} at ${path}: the serializer ${what === 'frozen' ? 'freezes' : what === 'sealed' ? 'seals' : 'locks'} its input (a serializer must leave the caller's objects as they were)`,
  };
}

/** The first object or array of `inputs` that was {@link locked}, or whose property was turned into an accessor, or undefined (the gate's check). */
export function integrityChange(inputs: readonly unknown[]): GateFailure | undefined {
  const stack: [unknown, string][] = inputs.map((v, i) => [v, inputs.length > 1 ? `$[${i}]` : '$']);
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const f = locked(v, path);
    if (f) return f;
    const keys = isArray(v) ? [...v.keys()].map(String) : ownKeys(v);
    for (const k of keys) {
      const at = isArray(v)
        ? `${path}[${k}]`
        : /^[A-Za-z_$][\w$]*$/.test(k)
          ? `${path}.${k}`
          : `${path}[${stringify(k)}]`;
      // a data property turned into a getter/setter: the input still reads the same, but a cache can now see
      // every write the caller makes (hx6 dirty-cache: "faster by 6.54×" with the JSON text unchanged)
      const d = getOwnPropertyDescriptor(v, k);
      if (d && (d.get || d.set))
        return {
          path: at,
          expected: 'a data property',
          actual: 'an accessor (getter/setter)',
          reason: `it turned the property at ${at} into an accessor (a getter/setter): the serializer changes its input (a serializer must leave the caller's objects as they were)`,
        };
      stack.push([(v as Record<string, unknown>)[k], at]);
    }
  }
  return undefined;
}

/** Same JSON type as the gate's result (and array length): the deserialize quick check. */
function sameShape(gated: unknown, out: unknown): boolean {
  if (gated === null || out === null) return gated === out;
  if (typeof gated !== typeof out) return false;
  if (isArray(gated)) return isArray(out) && out.length === gated.length;
  return !isArray(out);
}

/**
 * Builds the checks of one side. Inputs are compared as their JSON text with the snapshot's
 * (computed once), so no third copy of the payload stays alive while timing; a difference is then
 * located with the gate's value comparison.
 */
export function sideChecks(side: Side, workload: Workload, direction: Direction, ref: CheckReference): SideChecks {
  const record = ref.units > 1 ? ` (record ${ref.units - 1})` : '';
  let reference = ref.gated;
  let expected: { value: unknown } | undefined;
  const expectedValue = () => (expected ??= { value: ref.expected() }).value;
  const untouched = direction === 'serialize' ? ref.snapshot() : [];
  const snapshotText = direction === 'serialize' ? stringify(untouched) : '';
  const shapes = shapesOf(untouched);
  const fail = (f: GateFailure, prefix: string): never => {
    throw new TimedCheckFailure(side, { ...f, reason: `${prefix}: ${f.reason}` });
  };
  const lengths = new Set<number>(typeof ref.gated === 'string' ? [ref.gated.length] : []);
  const full = (out: unknown, where: string, what = 'result changed after the gate') => {
    if (direction === 'serialize' && out === reference) return;
    const f = checkOutput(workload, direction, expectedValue(), out, record);
    if (f) fail(f, `${what} (${where})`);
    if (direction === 'serialize' && typeof out === 'string') {
      reference = out;
      lengths.add(out.length);
    }
  };
  const quick = (out: unknown, where: string) => {
    if (direction === 'serialize' ? typeof out === 'string' && lengths.has(out.length) : sameShape(ref.gated, out))
      return;
    full(out, where);
  };
  let sampledMs = 0;
  let checkMs = 0;
  // the round checks' cost as the picked calls' is charged (below): the lesser of wall and CPU time, with
  // CHECK_ALLOWANCE_MS beyond the budget (a cold first check or a preemption ate it: hx4 gap2-cache went unchecked
  // under load, 2026-12-07)
  const overBudget = () => checkMs > CHECK_BUDGET * sampledMs + CHECK_ALLOWANCE_MS;
  // the calls drawn at random (check-schedule.ts): each unit's accepted result, and their own budget
  const unitRefs: unknown[] = ref.gatedUnits ? [...ref.gatedUnits] : [];
  let unitsExpected: unknown[] | undefined;
  const expectedOfUnit = (u: number): unknown =>
    u === ref.units - 1 ? expectedValue() : (unitsExpected ??= ref.expectedUnits?.() ?? [])[u];
  let pickedSampledMs = 0;
  let pickedMs = 0;
  const checkPicked = (r: PickedResult, where: string, which = 'a timed call drawn at random') => {
    const u = ref.units > 1 ? r.unit : 0;
    if (u !== ref.units - 1 && !ref.expectedUnits) return;
    const out = r.value;
    if (direction === 'serialize' && typeof out === 'string' && out === (u === ref.units - 1 ? reference : unitRefs[u]))
      return;
    const f = checkOutput(workload, direction, expectedOfUnit(u), out, ref.units > 1 ? ` (record ${u})` : '');
    if (f) fail(f, `result changed after the gate (${which ? `${where}, ${which}` : where})`);
    if (direction === 'serialize' && typeof out === 'string') {
      if (u === ref.units - 1) reference = out;
      else unitRefs[u] = out;
    }
  };
  const checks: SideChecks = {
    quick,
    picked(results, ms, where) {
      pickedSampledMs += ms;
      let n = 0;
      // the checks' cost is the lesser of their wall and CPU time, as a sample's length is (timing.ts pilot): by wall
      // time alone one preemption inside a check (a 4 ms tick at load 6) was charged as its cost and ate the budget of
      // a run of small samples, so hx7 F3's every-97th-call fault went unchecked (CI, 2026-12-07)
      const t0 = startCheck();
      for (const r of results) {
        if (pickedMs + (nowNs() - t0.wall) / 1e6 > CHECK_BUDGET * pickedSampledMs + CHECK_ALLOWANCE_MS) break;
        checkPicked(r, where);
        n++;
      }
      pickedMs += spentMs(t0);
      return n;
    },
    streak(results, where) {
      for (let i = 0; i < results.length; i++)
        checkPicked(results[i], `${where}: call ${i + 1} of ${results.length}`, '');
    },
    distinct(out, previous, where) {
      if (direction === 'deserialize' && out !== null && typeof out === 'object' && out === previous)
        fail(
          {
            path: '$',
            expected: 'a new object from each call',
            actual: 'the object the call before it returned',
            reason: 'two timed calls in a row returned the same object (a cache of results)',
          },
          `result shared between calls (${where})`,
        );
    },
    full,
    roundChange(round) {
      if (direction !== 'serialize' || !ref.changes?.length || (round >= 1 && overBudget())) return undefined;
      const change = ref.changes[round % ref.changes.length];
      const writes = changeWrites(
        ref.copies.map((copy) => copy[copy.length - 1]),
        change,
      );
      return {
        change,
        apply: () => {
          writes.apply();
          return writes.undo;
        },
      };
    },
    roundEnd(out, round, ms, where, again, changed) {
      // first, back to back with the timed calls: a parser that hands the same object out twice caches its results,
      // even one that forgets them when calls are spaced out (hx3: 20 µs apart, past the cache checks after the rounds)
      if (direction === 'deserialize' && again && out !== null && typeof out === 'object' && again() === out)
        fail(
          {
            path: '$',
            expected: 'a new object from each call',
            actual: 'the object the previous call returned',
            reason: 'two calls in a row on the same text returned the same object (a cache of results)',
          },
          `result shared between calls (${where})`,
        );
      sampledMs += ms;
      if (changed) {
        // the sample's last op ran on an input changed in place between two timed calls (roundChange; hx4
        // gap2-cache: a cache of the two input copies that forgets itself after any 5 µs pause answered every
        // timed call and none the checks made after them): its output must follow the change
        const t0 = startCheck();
        const f = checkOutput(workload, 'serialize', changed.wire, out, record);
        if (f)
          fail(
            {
              ...f,
              reason: `the output did not follow a change made in place to its input (${changed.path}) between two timed calls: ${f.reason} — what a result cached by the input object, or by part of its contents, gives`,
            },
            `result cached between calls (${where})`,
          );
        checks.inputs(round, `after round ${round + 1}`);
        checkMs += spentMs(t0);
        return;
      }
      if (round >= 1 && overBudget()) {
        quick(out, where);
        return;
      }
      const t0 = startCheck();
      full(out, where);
      checks.inputs(round, `after round ${round + 1}`);
      checkMs += spentMs(t0);
    },
    unlocked(units, where) {
      const f = integrityChange(units);
      if (f) fail(f, `input changed (${where})`);
    },
    inputs(round, where) {
      if (direction !== 'serialize') return;
      for (const k of round < 0 ? [0, 1] : [round % 2]) {
        const changed = prototypeChange(ref.copies[k], shapes);
        if (changed) fail(changed, `input changed (${where})`);
        if (stringify(ref.copies[k]) === snapshotText) continue;
        const snapshot = ref.snapshot();
        for (let i = 0; i < snapshot.length; i++) {
          const m = firstMismatch(snapshot[i], ref.copies[k][i]);
          if (m)
            fail(
              { ...m, reason: `differs from the payload at ${m.path}${snapshot.length > 1 ? ` (record ${i})` : ''}` },
              `input changed (${where})`,
            );
        }
        fail(
          {
            path: '$',
            expected: "the payload's key order",
            actual: 'keys reordered',
            reason: 'its keys were reordered',
          },
          `input changed (${where})`,
        );
      }
    },
  };
  return checks;
}
