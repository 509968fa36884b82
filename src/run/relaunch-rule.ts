/**
 * The relaunch rule (pure, written once): a launch whose baseline ran slower than `relaunchFactor`
 * × the best baseline mean seen for that payload (same shape, direction, baseline and target) is
 * discarded and taken again, while every case it carried has relaunches left (`maxRelaunches`).
 * The machine slowed down under it (another process, a frequency step): its ratio may still hold,
 * but its time does not. The case launch and the group launch both ask {@link BaselineBests.judge}.
 */
import type { PlannedCase } from '../plan/plan.js';
import type { LaunchRecord } from '../results/types.js';
import { meanOf } from '../stats/estimate.js';

/** The payload, shape, direction, baseline and target whose baseline means are compared. */
export function baselineKey(p: PlannedCase): string {
  return `${p.payloadKey}/${p.shape}/${p.direction}/${p.baseline}@${p.target.id}`;
}

/**
 * The baseline's samples (ns/op) in a launch of one case: the baseline side's when the case is
 * paired, the serializer's own when the case is the baseline's (it is the baseline), else none.
 */
export function baselineSamplesOf(record: LaunchRecord, paired: boolean, isBaselineCase: boolean): number[] {
  if (paired) return record.rounds.flatMap((r) => r.baselineNs);
  return isBaselineCase ? record.rounds.flatMap((r) => r.serializerNs) : [];
}

/** The best (lowest) baseline mean seen per {@link baselineKey} in a run, and the rule on it. */
export class BaselineBests {
  private readonly best = new Map<string, number>();

  /**
   * Records launch `launch`'s baseline samples under `key` and says whether to discard it: the
   * note to record on the discarded launch (`launch 2: baseline 1.40× slower than the best seen for
   * this payload`), or undefined to keep it. A launch without baseline samples is kept.
   * @param relaunches relaunches so far of every case the launch carried
   * @param policy `relaunchFactor` (> 1) and `maxRelaunches` per case
   */
  judge(
    key: string,
    baselineNs: readonly number[],
    launch: number,
    relaunches: readonly number[],
    policy: { relaunchFactor: number; maxRelaunches: number },
  ): string | undefined {
    if (!baselineNs.length) return undefined;
    const m = meanOf(baselineNs);
    const best = this.best.get(key) ?? m;
    this.best.set(key, Math.min(best, m));
    if (m > policy.relaunchFactor * best && relaunches.every((n) => n < policy.maxRelaunches))
      return `launch ${launch}: baseline ${(m / best).toFixed(2)}× slower than the best seen for this payload`;
    return undefined;
  }
}
