import type { CaseClass, CaseCoordinates, CaseTarget, Direction, Family, Platform } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import { platformOf, type SerializerAdapter, type SerializerInfo } from '../serializers/types.js';
import { unitView } from '../workloads/unit.js';
import { describeDotnetShape } from '../workloads/dotnet-shape.js';
import { baselinePreference, type RunPolicy } from '../config/policies.js';
import { adapterVersion } from '../serializers/version.js';
import { payloadKeyOf } from './payloads.js';
import { adapterIdOf } from '../versions/spec.js';
import { BUILTIN_SUPPORTS_TIMEOUT_MS, SUPPORTS_TIMEOUT_MS } from '../host/watchdog.js';
import { callUserCode, originOf, type UserCodeScope } from '../host/user-code.js';
import { hostSnapshot } from '../config/user-config.js';
import { hostCall, HostPatched } from '../config/host-guard.js';
import { messageOfThrown } from '../host/describe-thrown.js';
import { userWorkloadView } from '../workloads/user-view.js';
import { serializers as builtinSerializers } from '../serializers/index.js';

/** What every planned case carries, whatever the plan decided about it. */
export interface PlannedHeader extends CaseCoordinates {
  /** `workload/size/shape/direction/serializer`, plus `@<target id>` when the run named targets */
  id: string;
  serializerVersion: string;
  family: Family;
  /** the platform of its serializer: it is placed only on targets of this platform */
  platform: Platform;
  /** baseline of its group (same platform and class); null when the group has none */
  baseline: string | null;
  /** key of the payload file: `<workload>-<size>` */
  payloadKey: string;
  /** the adapter's call for this direction, as written in its source (`adapter.code`) */
  code?: string;
  /** what the adapter's translation of the schema checks more loosely than the schema says (`adapter.notes`), for a planned case */
  notes?: string[];
}

/**
 * What the plan decided: launch it (`planned`), or never launch it: `unsupported` (the adapter
 * cannot do this pair, with its reason) or `failed` (the adapter misbehaved while planning:
 * supports() threw or gave no reason).
 */
export type PlanDecision = { status: 'planned' } | { status: 'unsupported' | 'failed'; reason: string };

/** A case of the matrix before it is placed on a target. */
export type MatrixCase = PlannedHeader & PlanDecision;

/** One case to run on one target (or an `unsupported`/`failed` one, decided here and never launched). */
export type PlannedCase = MatrixCase & {
  /** the runtime it runs on */
  target: CaseTarget;
};

/** What to run: the matrix after filters. */
export interface PlanRequest {
  workloads: Workload[];
  serializers: SerializerInfo[];
  /** explicit sizes, else the policy's choice per workload */
  sizes?: number[];
  directions: Direction[];
  policy: RunPolicy;
  /** the user's config file: its folder is where a user adapter's package (and so its version) is resolved from */
  resolveFrom?: string;
  /** the version matrix: row label (`fast-json-stringify@6.4.0`) → the version installed for it */
  versions?: ReadonlyMap<string, string>;
}

/** A group: the cases of one workload × size × shape × direction × platform × class, baseline first. */
export type CaseGroup<C extends MatrixCase = PlannedCase> = C[];

/** Sizes of a workload under a policy or explicit `--size` (sizes the workload lacks are skipped). */
export function sizesFor(workload: Workload, policy: RunPolicy, explicit?: number[]): number[] {
  if (explicit?.length) return workload.sizes.filter((s) => explicit.includes(s));
  if (policy.sizes === 'all') return [...workload.sizes];
  if (policy.sizes === 'smallest') return [Math.min(...workload.sizes)];
  return [...workload.defaultSizes];
}

/**
 * What a .NET serializer's version reads as before its target is prepared: the assembly version
 * comes from the worker that loads it (plan/targets.ts fills it from the target's probe, and the
 * runner from the launch's `library` message).
 */
export const LOADED_BY_TARGET = 'as loaded by the target';

/** The version a serializer row records: its version-matrix version, its package's installed version, the host's JSON, or `n/a`. */
export function serializerVersion(
  a: SerializerAdapter,
  versions?: ReadonlyMap<string, string>,
  resolveFrom?: string,
): string {
  const matrix = versions?.get(a.id);
  if (matrix) return matrix;
  return adapterVersion(a, resolveFrom);
}

function versionOf(a: SerializerInfo, req: PlanRequest): string {
  if (platformOf(a) === 'dotnet' && !req.versions?.get(a.id)) return LOADED_BY_TARGET;
  return serializerVersion(a as SerializerAdapter, req.versions, req.resolveFrom);
}

/**
 * Whether an adapter does a workload × direction (`view` is the unit view of the shape): `planned`,
 * or why not — `unsupported` for a direction it does not serve (its `missingDirection`) or a
 * workload its `supports()` refuses with a reason; `failed` when supports() itself misbehaves
 * (throws, or answers neither true nor a reason: a bug in the adapter). A supports() that does not
 * return within SUPPORTS_TIMEOUT_MS (a built-in's: BUILTIN_SUPPORTS_TIMEOUT_MS) ends the process
 * with exit 2 naming it (host/watchdog.ts).
 */
export function supportOf(a: SerializerInfo, view: Workload, direction: Direction): PlanDecision {
  if (view.variantOf && platformOf(a) !== 'dotnet')
    return {
      status: 'unsupported',
      reason: `${view.id} is ${view.variantOf}'s payload measured with another .NET code shape (${describeDotnetShape(view)}); JavaScript serializers: measure ${view.variantOf}`,
    };
  if (!classOf(a, direction))
    return {
      status: 'unsupported',
      reason: a.missingDirection ?? `${a.id} has no ${direction === 'serialize' ? 'serializer' : 'deserializer'}`,
    };
  let answer: unknown;
  // a built-in's supports() may do real work (typia generates its code there: seconds, more on a loaded machine);
  // a version row (`typia@11.0.3`, always a built-in adapter) too, and its generation must finish to be cached (issue 24)
  const builtin = builtinSerializers.ids.includes(adapterIdOf(a.id));
  const limit = builtin ? BUILTIN_SUPPORTS_TIMEOUT_MS : SUPPORTS_TIMEOUT_MS;
  // supports() runs in jsonbench's own process: what it changes there (JSON.stringify, a toJSON on
  // Object.prototype) would change the numbers the host writes, so it is put back and the case fails
  const restore = hostSnapshot();
  let threw: unknown;
  try {
    const handed = builtin ? view : userView(view);
    answer = callUserCode(hookOf(a, 'supports', view, direction), limit, () => a.supports(handed, direction));
  } catch (e) {
    threw = e ?? 'nothing';
  }
  const changed = restore();
  if (changed)
    return {
      status: 'failed',
      reason: `supports() changed jsonbench's own process: ${changed} (put back; patch built-ins inside prepare(), which runs in the worker)`,
    };
  // described without running the user's code again (hx19 T04: an answer whose toString threw "boom" outside the
  // guarded call refused the whole run naming neither supports() nor the serializer)
  if (threw !== undefined) return { status: 'failed', reason: `supports() threw: ${messageOfThrown(threw)}` };
  if (answer === true) return { status: 'planned' };
  if (typeof answer === 'string' && answer.trim()) return { status: 'unsupported', reason: answer };
  const said =
    typeof answer === 'string'
      ? '""'
      : answer === null || (typeof answer !== 'object' && typeof answer !== 'function')
        ? String(answer)
        : thenable(answer)
          ? 'a Promise (supports() must answer at once, not async)'
          : `a value of type ${typeof answer}`;
  return {
    status: 'failed',
    reason: `supports() returned ${said}; it must return true or a reason (a non-empty string)`,
  };
}

/** Whether `v` has a `then` function, asked without letting a getter or a Proxy trap throw out of it. */
function thenable(v: unknown): boolean {
  try {
    return typeof (v as { then?: unknown }).then === 'function';
  } catch {
    return false;
  }
}

/** Per workload view, the frozen copy a config's supports() is handed ({@link userView}). */
const userViews = new WeakMap<Workload, Workload>();

/**
 * The copy of `view` a config's supports() is handed in jsonbench's own process (workloads/user-view.ts), one per
 * view. Built-in adapters get the view itself (typia keys the code it generates on it).
 */
function userView(view: Workload): Workload {
  let copy = userViews.get(view);
  if (!copy) {
    copy = userWorkloadView(view);
    userViews.set(view, copy);
  }
  return copy;
}

/**
 * A hook of adapter `a` as host/user-code.ts names it: `supports() of serializer "x" (workload w,
 * serialize)` in the config file the adapter came from (a built-in's: jsonbench's own).
 */
function hookOf(a: SerializerInfo, hook: 'supports' | 'notes', view: Workload, direction: Direction): UserCodeScope {
  return {
    file: originOf(a) ?? "jsonbench's built-in serializers",
    hook: `${hook}() of serializer "${a.id}" (workload ${view.id}, ${direction})`,
    serializer: a.id,
  };
}

/**
 * An adapter's translation notes for a pair it supports; a notes() that throws gives none (it is
 * informative only). It runs in jsonbench's own process, under the host guard (config/host-guard.ts
 * hostCall, through host/user-code.ts callUserCode): the watchdog of supports() (one that does not
 * return within SUPPORTS_TIMEOUT_MS ends the process with exit 2 naming it and its file; issue 25: a
 * notes() that looped hung `run` silently), and what it changes there is put back: one that
 * changed the process gives `changed`, and its case fails.
 */
function notesOf(a: SerializerInfo, view: Workload, direction: Direction): { notes: string[]; changed?: string } {
  const limit = builtinSerializers.ids.includes(adapterIdOf(a.id)) ? BUILTIN_SUPPORTS_TIMEOUT_MS : SUPPORTS_TIMEOUT_MS;
  try {
    // reading the answer runs the user's code too (a getter, a Proxy), so it is inside the guarded call
    const notes = hostCall(hookOf(a, 'notes', view, direction), limit, () => {
      const out = (a as SerializerAdapter).notes?.(view, direction);
      return Array.isArray(out) ? out.filter((n): n is string => typeof n === 'string' && n.trim() !== '') : [];
    });
    return { notes };
  } catch (e) {
    return e instanceof HostPatched ? { notes: [], changed: e.changed } : { notes: [] };
  }
}

function classOf(a: SerializerInfo, direction: Direction): CaseClass | undefined {
  if (!a.directions.includes(direction)) return undefined;
  return direction === 'serialize' ? 'serialize' : a.deserializeClass;
}

/**
 * Expands workloads × sizes × shapes × directions × serializers into cases, grouped by platform
 * and class with the group's baseline first (the platform's preferred baseline: `json` for
 * JavaScript, `stj` for .NET). A pair a serializer cannot do becomes an `unsupported` case with
 * its reason. A group's baseline is added to it even when `--serializer` left it out, so every
 * ratio has its reference row. Targets are placed afterwards (plan/targets.ts), each group on the
 * targets of its platform.
 * @param allSerializers every known serializer of every platform (baselines may come from here)
 */
export function planCases(req: PlanRequest, allSerializers: readonly SerializerInfo[]): CaseGroup<MatrixCase>[] {
  const groups: CaseGroup<MatrixCase>[] = [];
  for (const workload of req.workloads) {
    for (const size of sizesFor(workload, req.policy, req.sizes)) {
      for (const shape of workload.shapes) {
        const view = unitView(workload, shape);
        for (const direction of req.directions) {
          const byClass = new Map<string, MatrixCase[]>();
          const unsupported: MatrixCase[] = [];
          const support = (a: SerializerInfo) => supportOf(a, view, direction);
          const make = (a: SerializerInfo, decision: PlanDecision): MatrixCase => ({
            id: `${workload.id}/${size}/${shape}/${direction}/${a.id}`,
            workload: workload.id,
            size,
            shape,
            direction,
            caseClass: classOf(a, direction) ?? (direction === 'serialize' ? 'serialize' : 'parse'),
            serializer: a.id,
            serializerVersion: versionOf(a, req),
            family: a.family,
            platform: platformOf(a),
            baseline: null,
            payloadKey: payloadKeyOf(workload.id, size),
            ...(a.code?.[direction] ? { code: a.code[direction] } : {}),
            ...decision,
          });
          for (const a of req.serializers) {
            const decision = support(a);
            if (decision.status !== 'planned') {
              unsupported.push(make(a, decision));
              continue;
            }
            const { notes, changed } = notesOf(a, view, direction);
            if (changed) {
              unsupported.push(
                make(a, {
                  status: 'failed',
                  reason: `notes() changed jsonbench's own process: ${changed} (put back; patch built-ins inside prepare(), which runs in the worker)`,
                }),
              );
              continue;
            }
            const c = make(a, decision);
            if (notes.length) c.notes = notes;
            const key = `${c.platform}\u0000${c.caseClass}`;
            if (!byClass.has(key)) byClass.set(key, []);
            byClass.get(key)!.push(c);
          }
          for (const cases of byClass.values()) {
            const { platform, caseClass: cls } = cases[0];
            const preferred = baselinePreference[platform][cls]
              .map((id) => allSerializers.find((a) => a.id === id && platformOf(a) === platform))
              .find((a) => a && classOf(a, direction) === cls && support(a).status === 'planned');
            const baselineId = preferred?.id ?? cases[0].serializer;
            if (!cases.some((c) => c.serializer === baselineId)) cases.unshift(make(preferred!, { status: 'planned' }));
            cases.sort((x, y) => Number(y.serializer === baselineId) - Number(x.serializer === baselineId));
            for (const c of cases) c.baseline = baselineId;
            groups.push(cases);
          }
          for (const platform of new Set(unsupported.map((c) => c.platform)))
            groups.push(unsupported.filter((c) => c.platform === platform));
        }
      }
    }
  }
  return groups;
}
