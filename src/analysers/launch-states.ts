import { isMeasured } from '../results/types.js';
import { ratioIntervalOf, timeIntervalOf } from '../results/ratio.js';
import type { LaunchState } from '../stats/intervals.js';
import { formatNs, type Analyser } from './analyser.js';

/** A state as the message says it: its value, how many launches read it and their share of the launches (`of`). */
function stateText(s: LaunchState, value: (v: number) => string, of: number): string {
  const n = s.launches.length;
  return `${value(s.value)} (${n} launch${n === 1 ? '' : 'es'}, ${Math.round((100 * n) / of)}%)`;
}

/**
 * What the message says of the interval: with two states, that the value is the mean over every
 * launch (each state by its share) and its interval counts how uncertain the shares are
 * (run/assemble.ts withStates, stats/intervals.ts mixtureInterval); with more, widened to cover
 * every launch, or already covering them.
 */
function coverText(states: number, widened: boolean): string {
  if (states === 2)
    return `is the mean over all the launches, each state by its share; its interval counts how uncertain the shares are and ${widened ? 'is widened for them' : 'was already wide enough (not widened)'}`;
  return widened ? 'is widened to cover them all' : 'already covers them all (not widened)';
}

/** How many launches the states hold. */
const launchCount = (states: readonly LaunchState[]) => states.reduce((n, s) => n + s.launches.length, 0);

const GAP = "the gap between them beyond what the group's launch-to-launch spread and their own errors predict";

/**
 * `launch-states`: a case's launches fell into distinct states — sorted, neighbouring launches
 * whose gap exceeds what the group's launch-to-launch spread (without this case) and their own
 * within-launch errors predict for two launches of one state (stats/intervals.ts launchStates, a
 * t quantile with the spread's df) — so no single centre describes the case. Ordinary launch-to-
 * launch spread is not a state. Issue 23's worst case: a launch pair read 3.49 and 4.44, a third
 * 4.44, and the median picked 4.44 while five other runs read 3.41–3.43. The states are the
 * assembly's (run/assemble.ts, passed in the context: the group's spread is not in a results file).
 * The reported value is the mean over every launch (each state by its share), never a median, which
 * flips between the states from run to run; with two states its interval also holds the mixture's
 * (stats/intervals.ts mixtureInterval: the shares' Wilson interval), with more it is widened to
 * cover every launch. This finding names each state with its launches and their share, the
 * ratio's first (it is what ranks), else the time's, and says "widened" only when the interval was. Fires only with 2 or more launches in different
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
          message: `the launches fell into ${ratio.states.length} distinct states, ${GAP}: ratio ${ratio.states.map((s) => stateText(s, (v) => v.toFixed(3), launchCount(ratio.states))).join(', ')}. The reported ratio ${c.ratio!.toFixed(2)}${shown} ${coverText(ratio.states.length, ratio.widened)}, and describes no single state; rerun before relying on it, and read each state as the process or machine state it was measured in`,
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
        message: `the launches fell into ${time.states.length} distinct states, ${GAP}: mean time ${time.states.map((s) => stateText(s, formatNs, launchCount(time.states))).join(', ')}. The reported mean ${formatNs(c.time.mean)}${interval} ${coverText(time.states.length, time.widened)}, and describes no single state`,
      },
    ];
  },
});
