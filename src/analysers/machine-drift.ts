import { isMeasured } from '../results/types.js';
import { medianOf } from '../stats/median.js';
import { formatNs, keptLaunches, type Analyser } from './analyser.js';

/**
 * The least spread of a case's launch ratios ((max − min) ÷ median) worth telling the reader about
 * when the machine's speed moved: 2%, the precision issue 13 asks of a ratio at load ≥ 8.
 */
export const DRIFT_RATIO_SPREAD = 0.02;

/**
 * How much slower the baseline must have run in one launch than in another: 1.25×, every
 * policy's `relaunchFactor` (config/policies.ts), the runner's own "this launch ran on a slower
 * machine" threshold.
 */
export const DRIFT_BASELINE_FACTOR = 1.25;

/**
 * `machine-drift`: the machine ran at different speeds in this case's launches, and its ratio moved
 * with it. Fires on a paired case whose kept launches' baseline medians (the same code on the same
 * input) differ by more than {@link DRIFT_BASELINE_FACTOR}, while the launches' ratios (each the median of its per-round ratios,
 * as the runner's `launchEstimate`) spread by {@link DRIFT_RATIO_SPREAD} or more.
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
export const machineDrift: Analyser = {
  id: 'machine-drift',
  analyse(c) {
    if (!isMeasured(c) || c.ratio === null || c.serializer === c.baseline) return [];
    const launches = keptLaunches(c).map((l) => {
      const rounds = l.rounds.filter((r) => r.serializerNs.length && r.baselineNs.length);
      return rounds.length ? { baseline: medianOf(rounds.flatMap((r) => r.baselineNs)), ratio: medianOf(rounds.map((r) => medianOf(r.serializerNs) / medianOf(r.baselineNs))) } : null;
    }).filter((l) => l !== null);
    if (launches.length < 2) return [];
    const base = launches.map((l) => l.baseline);
    const ratios = launches.map((l) => l.ratio);
    const [bMin, bMax] = [Math.min(...base), Math.max(...base)];
    const [rMin, rMax] = [Math.min(...ratios), Math.max(...ratios)];
    const spread = (rMax - rMin) / medianOf(ratios);
    if (!(bMin > 0) || !(bMax > DRIFT_BASELINE_FACTOR * bMin) || !(spread >= DRIFT_RATIO_SPREAD)) return [];
    return [{
      code: 'machine-drift',
      message: `the machine changed speed between launches: the baseline ${c.baseline}'s own time per op (same code, same input) was ${formatNs(bMin)} in one launch and ${formatNs(bMax)} in another (${(bMax / bMin).toFixed(2)}×), and the launches' ratios ranged ${rMin.toFixed(3)}–${rMax.toFixed(3)} (${(100 * spread).toFixed(1)}% of their median). Other processes' memory and cache traffic slows memory-heavy code more than the rest, so on a busy or shared machine a ratio holds for the state the machine was in; compare it with runs made in the same state, or rerun when the machine is quiet`,
    }];
  },
};
