import { isMeasured } from '../results/types.js';
import { keptLaunches, type Analyser } from './analyser.js';

/** A case is "too fast to be real" when its mean is under this many times the empty op's (a DCE symptom). */
export const TOO_FAST_FACTOR = 3;

/** `too-fast`: the mean is under {@link TOO_FAST_FACTOR}× an empty op measured the same way: the work may have been optimised away. */
export const tooFast: Analyser = {
  id: 'too-fast',
  analyse(c) {
    if (!isMeasured(c)) return [];
    const emptyNs = Math.min(...keptLaunches(c).map((l) => l.emptyNsPerOp));
    if (!(c.time.mean < TOO_FAST_FACTOR * emptyNs)) return [];
    return [
      {
        code: 'too-fast',
        message: `mean ${c.time.mean.toFixed(1)} ns/op is under ${TOO_FAST_FACTOR}× an empty op (${emptyNs.toFixed(1)} ns/op): the work may have been optimised away`,
      },
    ];
  },
};
