import { isMeasured } from '../results/types.js';
import { ratioIntervalOf, timeIntervalOf } from '../results/ratio.js';
import type { LaunchState } from '../stats/intervals.js';
import { formatNs, type Analyser } from './analyser.js';

/** A state as the message says it: its value and how many launches read it. */
function stateText(s: LaunchState, value: (v: number) => string): string {
  return `${value(s.value)} (${s.launches.length} launch${s.launches.length === 1 ? '' : 'es'})`;
}

/** What the message says of the interval: widened to cover the states, or already covering them. */
function coverText(widened: boolean): string {
  return widened ? 'is widened to cover them all' : 'already covers them all (not widened)';
}

const GAP = "the gap between them beyond what the group's launch-to-launch spread and their own errors predict";

/**
 * `launch-states`: a case's launches fell into distinct states — sorted, neighbouring launches
 * whose gap exceeds what the group's launch-to-launch spread (without this case) and their own
 * within-launch errors predict for two launches of one state (stats/intervals.ts launchStates, a
 * t quantile with the spread's df) — so no single centre describes the case. Ordinary launch-to-
 * launch spread is not a state. Issue 23's worst case: a launch pair read 3.49 and 4.44, a third
 * 4.44, and the median picked 4.44 while five other runs read 3.41–3.43. The states are the
 * assembly's (run/assemble.ts, passed in the context: the group's spread is not in a results file);
 * the run widens the interval to cover every launch where it did not already, and this finding
 * names each state with its launches, the ratio's first (it is what ranks), else the time's, and
 * says "widened" only when the interval was. Fires only with 2 or more launches in different
 * states; a state of one launch counts (with 2 launches that disagree, either may be the usual
 * one). The interval covers the states observed only.
 */
export const launchStatesAnalyser: Analyser = Object.freeze<Analyser>({
  id: 'launch-states',
  analyse(c, context) {
    if (!isMeasured(c)) return [];
    const ratio = c.ratio !== null && c.serializer !== c.baseline ? context.launchStates?.ratio : undefined;
    if (ratio && ratio.states.length >= 2) {
      const iv = ratioIntervalOf(c);
      const shown = iv ? ` [${iv[0].toFixed(2)}–${iv[1].toFixed(2)}]` : '';
      return [
        {
          code: 'launch-states',
          message: `the launches fell into ${ratio.states.length} distinct states, ${GAP}: ratio ${ratio.states.map((s) => stateText(s, (v) => v.toFixed(3))).join(', ')}. The reported ratio ${c.ratio!.toFixed(2)}${shown} ${coverText(ratio.widened)}, and describes no single state; rerun before relying on it, and read each state as the process or machine state it was measured in`,
        },
      ];
    }
    const time = context.launchStates?.time;
    if (!time || time.states.length < 2) return [];
    // the interval as recorded (log scale, asymmetric since branch stats5), never a symmetric ± error
    const tiv = timeIntervalOf(c.time);
    const interval = tiv ? ` [${formatNs(tiv[0])}–${formatNs(tiv[1])}]` : '';
    return [
      {
        code: 'launch-states',
        message: `the launches fell into ${time.states.length} distinct states, ${GAP}: mean time ${time.states.map((s) => stateText(s, formatNs)).join(', ')}. The reported mean ${formatNs(c.time.mean)}${interval} ${coverText(time.widened)}, and describes no single state`,
      },
    ];
  },
});
