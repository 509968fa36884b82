import { isMeasured } from '../results/types.js';
import { keptLaunches, type Analyser } from './analyser.js';

/** `no-gc`: the runtime exposed no way to force a GC, so rounds did not start from a collected heap (a GC may fall inside a sample of either side). */
export const noGc: Analyser = Object.freeze<Analyser>({
  id: 'no-gc',
  analyse(c) {
    if (!isMeasured(c)) return [];
    const without = keptLaunches(c).filter((l) => l.gc === false).length;
    return without
      ? [
          {
            code: 'no-gc',
            message: `${without} launch(es) ran without a forced GC before each round (the runtime exposes none): a collection can fall inside a sample of either side`,
          },
        ]
      : [];
  },
});
