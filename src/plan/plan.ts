import type { CaseCoordinates } from '../worker/protocol.js';
import type { Direction, Shape, Workload } from '../workloads/types.js';
import type { CaseClass, Family, SerializerAdapter } from '../serializers/types.js';
import { unitView } from '../workloads/unit.js';
import { baselinePreference, type RunPolicy } from '../config/policies.js';
import { adapterVersion } from '../serializers/version.js';
import type { CaseTarget } from '../results/types.js';

/** One case to run (or an `unsupported` case, decided here and never launched). */
export interface PlannedCase extends CaseCoordinates {
  id: string;
  serializerVersion: string;
  family: Family;
  /** baseline of its group (same class); null when the group has none */
  baseline: string | null;
  /** key of the payload file: `<workload>-<size>` */
  payloadKey: string;
  unsupported?: string;
  /** the adapter misbehaved while planning (supports() threw or gave no reason): the case is `failed` with this, never launched */
  fault?: string;
  /** the adapter's call for this direction, as written in its source (`adapter.code`) */
  code?: string;
  /** the runtime it runs on (`--target`); the id then ends in `@<target id>` */
  target?: CaseTarget;
}

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
}

/** A group: the cases of one workload × size × shape × direction × class, baseline first. */
export type CaseGroup = PlannedCase[];

/** Sizes of a workload under a policy or explicit `--size` (sizes the workload lacks are skipped). */
export function sizesFor(workload: Workload, policy: RunPolicy, explicit?: number[]): number[] {
  if (explicit?.length) return workload.sizes.filter((s) => explicit.includes(s));
  if (policy.sizes === 'all') return [...workload.sizes];
  if (policy.sizes === 'smallest') return [Math.min(...workload.sizes)];
  return [...workload.defaultSizes];
}

function classOf(a: SerializerAdapter, direction: Direction): CaseClass | undefined {
  return direction === 'serialize' ? 'serialize' : a.deserializeClass;
}

/**
 * Expands workloads × sizes × shapes × directions × serializers into cases, grouped by class with
 * the group's baseline first. A pair an adapter cannot do becomes an `unsupported` case with its
 * reason. A class's baseline is added to its group even when `--serializer` left it out, so every
 * ratio has its reference row.
 * @param allSerializers every known adapter (baselines may come from here)
 */
export function planCases(req: PlanRequest, allSerializers: SerializerAdapter[]): CaseGroup[] {
  const groups: CaseGroup[] = [];
  for (const workload of req.workloads) {
    for (const size of sizesFor(workload, req.policy, req.sizes)) {
      for (const shape of workload.shapes) {
        const view = unitView(workload, shape);
        for (const direction of req.directions) {
          const byClass = new Map<CaseClass, PlannedCase[]>();
          const unsupported: PlannedCase[] = [];
          // true, or why not: an `unsupported` reason, or a `fault` when supports() itself misbehaves (a bug in the adapter, reported as failed)
          const support = (a: SerializerAdapter): true | { reason: string; fault?: boolean } => {
            if (!classOf(a, direction)) return { reason: `${a.id} has no ${direction === 'serialize' ? 'serializer' : 'deserializer'}` };
            let answer: unknown;
            try { answer = a.supports(view, direction); } catch (e) { return { reason: `supports() threw: ${(e as Error)?.message ?? String(e)}`, fault: true }; }
            if (answer === true) return true;
            if (typeof answer === 'string' && answer.trim()) return { reason: answer };
            return { reason: `supports() returned ${typeof answer === 'string' ? '""' : String(answer)}; it must return true or a reason (a non-empty string)`, fault: true };
          };
          const make = (a: SerializerAdapter, why?: { reason: string; fault?: boolean }): PlannedCase => ({
            id: `${workload.id}/${size}/${shape}/${direction}/${a.id}`,
            workload: workload.id, size, shape, direction,
            caseClass: classOf(a, direction) ?? (direction === 'serialize' ? 'serialize' : 'parse'),
            serializer: a.id, serializerVersion: adapterVersion(a, req.resolveFrom), family: a.family,
            baseline: null, payloadKey: `${workload.id}-${size}`,
            ...(a.code?.[direction] ? { code: a.code[direction] } : {}),
            ...(why ? (why.fault ? { fault: why.reason } : { unsupported: why.reason }) : {}),
          });
          for (const a of req.serializers) {
            const ok = support(a);
            if (ok !== true) { unsupported.push(make(a, ok)); continue; }
            const c = make(a);
            if (!byClass.has(c.caseClass)) byClass.set(c.caseClass, []);
            byClass.get(c.caseClass)!.push(c);
          }
          for (const [cls, cases] of byClass) {
            const preferred = baselinePreference[cls].map((id) => allSerializers.find((a) => a.id === id))
              .find((a) => a && classOf(a, direction) === cls && support(a) === true);
            const baselineId = preferred?.id ?? cases[0].serializer;
            if (!cases.some((c) => c.serializer === baselineId)) cases.unshift(make(preferred!));
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
