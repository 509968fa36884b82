import { estimate } from '../stats/estimate.js';
import { isMeasured } from '../results/types.js';
import { keptLaunches, type Analyser } from './analyser.js';

/** `noisy`: a launch reached the time cap before the error target; says how wide the pooled error is. */
export const noisy: Analyser = {
  id: 'noisy',
  analyse(c, context) {
    if (!isMeasured(c)) return [];
    const kept = keptLaunches(c);
    const capped = kept.filter((l) => l.noisy).length;
    if (!capped) return [];
    const pooled = estimate(
      kept.flatMap((l) => l.rounds.flatMap((r) => r.serializerNs)),
      context.policy.confidence,
    );
    return [
      {
        code: 'noisy',
        message: `${capped} of ${kept.length} launch(es) reached the time cap before the error target; error of all samples together: ${((100 * pooled.error) / pooled.mean).toFixed(1)}% of the mean`,
      },
    ];
  },
};
