import type { CaseClass, CaseCoordinates, CaseTarget, Direction, Family } from '../case/coordinates.js';
import type { Workload } from '../workloads/types.js';
import type { SerializerAdapter } from '../serializers/types.js';
import { unitView } from '../workloads/unit.js';
import { baselinePreference, type RunPolicy } from '../config/policies.js';
import { adapterVersion } from '../serializers/version.js';

/** What every planned case carries, whatever the plan decided about it. */
export interface PlannedHeader extends CaseCoordinates {
  /** `workload/size/shape/direction/serializer`, plus `@<target id>` when the run named targets */
  id: string;
  serializerVersion: string;
  family: Family;
  /** baseline of its group (same class); null when the group has none */
  baseline: string | null;
  /** key of the payload file: `<workload>-<size>` */
  payloadKey: string;
  /** the adapter's call for this direction, as written in its source (`adapter.code`) */
  code?: string;
}

/**
 * What the plan decided: launch it (`planned`), or never launch it: `unsupported` (the adapter
 * cannot do this pair, with its reason) or `failed` (the adapter misbehaved while planning:
 * supports() threw or gave no reason).
 */
export type PlanDecision =
  | { status: 'planned' }
  | { status: 'unsupported' | 'failed'; reason: string };

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
  serializers: SerializerAdapter[];
  /** explicit sizes, else the policy's choice per workload */
  sizes?: number[];
  directions: Direction[];
  policy: RunPolicy;
  /** the user's config file: its folder is where a user adapter's package (and so its version) is resolved from */
  resolveFrom?: string;
  /** the version matrix: row label (`fast-json-stringify@6.4.0`) → the version installed for it */
  versions?: ReadonlyMap<string, string>;
}

/** A group: the cases of one workload × size × shape × direction × class, baseline first. */
export type CaseGroup<C extends MatrixCase = PlannedCase> = C[];

/** Sizes of a workload under a policy or explicit `--size` (sizes the workload lacks are skipped). */
export function sizesFor(workload: Workload, policy: RunPolicy, explicit?: number[]): number[] {
  if (explicit?.length) return workload.sizes.filter((s) => explicit.includes(s));
  if (policy.sizes === 'all') return [...workload.sizes];
  if (policy.sizes === 'smallest') return [Math.min(...workload.sizes)];
  return [...workload.defaultSizes];
}

function versionOf(a: SerializerAdapter, req: PlanRequest): string {
  const matrix = req.versions?.get(a.id);
  if (matrix) return matrix;
  return adapterVersion(a, req.resolveFrom);
}

/**
 * Whether an adapter does a workload × direction (`view` is the unit view of the shape): `planned`,
 * or why not — `unsupported` for a direction it does not serve (its `missingDirection`) or a
 * workload its `supports()` refuses with a reason; `failed` when supports() itself misbehaves
 * (throws, or answers neither true nor a reason: a bug in the adapter).
 */
export function supportOf(a: SerializerAdapter, view: Workload, direction: Direction): PlanDecision {
  if (!classOf(a, direction)) return { status: 'unsupported', reason: a.missingDirection ?? `${a.id} has no ${direction === 'serialize' ? 'serializer' : 'deserializer'}` };
  let answer: unknown;
  try { answer = a.supports(view, direction); } catch (e) { return { status: 'failed', reason: `supports() threw: ${(e as Error)?.message ?? String(e)}` }; }
  if (answer === true) return { status: 'planned' };
  if (typeof answer === 'string' && answer.trim()) return { status: 'unsupported', reason: answer };
  return { status: 'failed', reason: `supports() returned ${typeof answer === 'string' ? '""' : String(answer)}; it must return true or a reason (a non-empty string)` };
}

function classOf(a: SerializerAdapter, direction: Direction): CaseClass | undefined {
  if (!a.directions.includes(direction)) return undefined;
  return direction === 'serialize' ? 'serialize' : a.deserializeClass;
}

/**
 * Expands workloads × sizes × shapes × directions × serializers into cases, grouped by class with
 * the group's baseline first. A pair an adapter cannot do becomes an `unsupported` case with its
 * reason. A class's baseline is added to its group even when `--serializer` left it out, so every
 * ratio has its reference row. Targets are placed afterwards (plan/targets.ts).
 * @param allSerializers every known adapter (baselines may come from here)
 */
export function planCases(req: PlanRequest, allSerializers: SerializerAdapter[]): CaseGroup<MatrixCase>[] {
  const groups: CaseGroup<MatrixCase>[] = [];
  for (const workload of req.workloads) {
    for (const size of sizesFor(workload, req.policy, req.sizes)) {
      for (const shape of workload.shapes) {
        const view = unitView(workload, shape);
        for (const direction of req.directions) {
          const byClass = new Map<CaseClass, MatrixCase[]>();
          const unsupported: MatrixCase[] = [];
          const support = (a: SerializerAdapter) => supportOf(a, view, direction);
          const make = (a: SerializerAdapter, decision: PlanDecision): MatrixCase => ({
            id: `${workload.id}/${size}/${shape}/${direction}/${a.id}`,
            workload: workload.id, size, shape, direction,
            caseClass: classOf(a, direction) ?? (direction === 'serialize' ? 'serialize' : 'parse'),
            serializer: a.id, serializerVersion: versionOf(a, req), family: a.family,
            baseline: null, payloadKey: `${workload.id}-${size}`,
            ...(a.code?.[direction] ? { code: a.code[direction] } : {}),
            ...decision,
          });
          for (const a of req.serializers) {
            const decision = support(a);
            if (decision.status !== 'planned') { unsupported.push(make(a, decision)); continue; }
            const c = make(a, decision);
            if (!byClass.has(c.caseClass)) byClass.set(c.caseClass, []);
            byClass.get(c.caseClass)!.push(c);
          }
          for (const [cls, cases] of byClass) {
            const preferred = baselinePreference[cls].map((id) => allSerializers.find((a) => a.id === id))
              .find((a) => a && classOf(a, direction) === cls && support(a).status === 'planned');
            const baselineId = preferred?.id ?? cases[0].serializer;
            if (!cases.some((c) => c.serializer === baselineId)) cases.unshift(make(preferred!, { status: 'planned' }));
            cases.sort((x, y) => Number(y.serializer === baselineId) - Number(x.serializer === baselineId));
            for (const c of cases) c.baseline = baselineId;
            groups.push(cases);
          }
          if (unsupported.length) groups.push(unsupported);
        }
      }
    }
  }
  return groups;
}
