import type { Analyser } from './analyser.js';

/** `baseline-unavailable`: the case was to be paired with its class baseline, which gave no ratio here (the runner says why). */
export const baselineUnavailable: Analyser = Object.freeze<Analyser>({
  id: 'baseline-unavailable',
  analyse: (_c, context) =>
    context.baselineProblem ? [{ code: 'baseline-unavailable', message: `no ratio: ${context.baselineProblem}` }] : [],
});
