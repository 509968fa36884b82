import type { CaseJob } from './protocol.js';
import { builtinsChanged, sealBuiltins } from '../measure/builtin-seal.js';
import { TimedCheckFailure } from '../measure/timed-check.js';

/**
 * A pair launch's seal of the built-ins its baseline calls (measure/builtin-seal.ts), taken by
 * runJob before it loads the user's config. `check(when)` throws a {@link TimedCheckFailure} of the
 * serializer's side (reported `incorrect`, when: timing) naming what changed; a no-op for a launch
 * without a baseline beside its serializer.
 */
export function pairSeal(job: CaseJob): { check(when: string): void } {
  if (!job.baseline || job.baseline === job.serializer) return { check() {} };
  const changed = sealBuiltins();
  return {
    check(when) {
      const what = changed();
      if (what) throw new TimedCheckFailure('serializer', builtinsChanged(what, when));
    },
  };
}
