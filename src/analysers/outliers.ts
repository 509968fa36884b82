import { isMeasured } from '../results/types.js';
import type { Analyser } from './analyser.js';

/** `outliers`: samples outside Tukey's fences, counted (kept in every statistic, as BenchmarkDotNet reports them). */
export const outliers: Analyser = Object.freeze<Analyser>({
  id: 'outliers',
  analyse(c) {
    if (!isMeasured(c)) return [];
    const { low, high } = c.time.outliers;
    if (low + high === 0) return [];
    return [
      {
        code: 'outliers',
        message: `${low + high} of ${c.time.n} samples outside Tukey's fences (${low} low, ${high} high); kept in every statistic`,
      },
    ];
  },
});
