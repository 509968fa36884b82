import { isMeasured } from '../results/types.js';
import { medianOf } from '../stats/median.js';
import { formatNs, keptLaunches, roundRatios, type Analyser } from './analyser.js';

/**
 * The least difference between the ratio of a case's fastest-baseline launch and that of its
 * slowest-baseline launch (÷ the launches' median ratio) worth telling the reader about when the
 * machine's speed moved: 2%, the precision issue 13 asks of a ratio at load ≥ 8.
 */
export const DRIFT_RATIO_SPREAD = 0.02;

/**
 * How much slower the baseline must have run in one launch than in another: 1.25×, every
 * policy's `relaunchFactor` (config/policies.ts), the runner's own "this launch ran on a slower
 * machine" threshold.
 */
export const DRIFT_BASELINE_FACTOR = 1.25;

/** The fewest rounds (with both sides) a launch needs to count as seen in one machine state: 3 (the policies' minRounds are 5–6; fewer means a launch that was cut short). */
export const DRIFT_MIN_ROUNDS = 3;

/**
 * `machine-drift`: the machine ran at different speeds in this case's launches, and its ratio moved
 * with it. Fires on a paired case whose kept launches' baseline medians (the same code on the same
 * input) differ by more than {@link DRIFT_BASELINE_FACTOR}, while the ratio (each launch's median per-round ratio, as the runner's
 * `launchEstimate`) of the launch with the slowest baseline differs from that of the launch with the
 * fastest by {@link DRIFT_RATIO_SPREAD} or more of the launches' median; launches of fewer than
 * {@link DRIFT_MIN_ROUNDS} paired rounds are not counted.
 *
 * Why: on this project's shared 2-core host (2026-12-01, load 1.2–1.9, bench:precision), weather-
 * station serialize fast-json-stringify ÷ JSON.stringify ran in two states: JSON.stringify's op at
 * 1.41–1.52 µs with ratios 0.69–0.78, and at 2.37–2.55 µs with ratios 0.75–0.81, whole launches at
 * a time, the CPU clock (so not preemption); mitata's ratio moved the same way (0.439–0.446 against
 * 0.488–0.501). Six processes pinned to either core timed a register-only loop alike (1.73–1.84 s)
 * while their JSON.stringify took 570–1,130 ns per op: memory and cache traffic from other tenants
 * of the host slows memory-heavy code, not the core's arithmetic, and two serializers slow by
 * different amounts. The runner relaunches a launch whose baseline ran slow (once, in the default
 * policy); when the whole run is slow, or both states are kept, the ratio is the machine's state's.
 */
export const machineDrift: Analyser = Object.freeze<Analyser>({
  id: 'machine-drift',
  analyse(c) {
    if (!isMeasured(c) || c.ratio === null || c.serializer === c.baseline) return [];
    const launches = keptLaunches(c)
      .map((l) => {
        const ratios = roundRatios(l);
        // a launch's speed and ratio from fewer than MIN_ROUNDS rounds is one sample's story, not a state
        return ratios.length >= DRIFT_MIN_ROUNDS
          ? {
              baseline: medianOf(l.rounds.filter((r) => r.serializerNs.length).flatMap((r) => r.baselineNs)),
              ratio: medianOf(ratios),
            }
          : null;
      })
      .filter(
        (l): l is { baseline: number; ratio: number } =>
          l !== null && l.baseline > 0 && Number.isFinite(l.baseline) && l.ratio > 0 && Number.isFinite(l.ratio),
      );
    if (launches.length < 2) return [];
    const fast = launches.reduce((a, b) => (b.baseline < a.baseline ? b : a));
    const slow = launches.reduce((a, b) => (b.baseline > a.baseline ? b : a));
    // the ratio must differ between the fastest and the slowest launch, not merely spread among launches of one speed
    const moved = Math.abs(slow.ratio - fast.ratio) / medianOf(launches.map((l) => l.ratio));
    if (!(slow.baseline > DRIFT_BASELINE_FACTOR * fast.baseline) || !(moved >= DRIFT_RATIO_SPREAD)) return [];
    return [
      {
        code: 'machine-drift',
        message: `the machine changed speed between launches: the baseline ${c.baseline}'s own time per op (same code, same input) was ${formatNs(fast.baseline)} in one launch and ${formatNs(slow.baseline)} in another (${(slow.baseline / fast.baseline).toFixed(2)}×), and the ratio read ${fast.ratio.toFixed(3)} in the first and ${slow.ratio.toFixed(3)} in the second (${(100 * moved).toFixed(1)}% of the launches' median). Other processes' memory and cache traffic slows memory-heavy code more than the rest, so on a busy or shared machine a ratio holds for the state the machine was in; compare it with runs made in the same state, or rerun when the machine is quiet`,
      },
    ];
  },
});
