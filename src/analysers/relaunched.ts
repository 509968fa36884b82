import type { Analyser } from './analyser.js';

/** `relaunched`: launches were repeated because the baseline ran over the relaunch threshold; names each. */
export const relaunched: Analyser = Object.freeze<Analyser>({
  id: 'relaunched',
  analyse(c) {
    if (c.samples.relaunches === 0) return [];
    const why = c.samples.launches
      .filter((l) => l.discarded)
      .map((l) => l.discarded)
      .join('; ');
    return [
      {
        code: 'relaunched',
        message: `${c.samples.relaunches} launch(es) repeated because the baseline ran over the relaunch threshold: ${why}`,
      },
    ];
  },
});
