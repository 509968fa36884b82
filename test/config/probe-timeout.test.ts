import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseProbeTimeout } from '../../src/config/policies.js';
import { UsageError } from '../../src/config/usage-error.js';

/**
 * `probe --timeout` takes a duration with its unit (hx3, issue 25: `--timeout 5` was 5 ms there,
 * `run --case-timeout 5` is 5 s, and 1,569 probes were then "hang"): a bare number is refused
 * naming both readings, and less than 1 s (no worker starts that fast) is refused too.
 */

test('probe --timeout: durations with units are read; a bare number and less than 1 s are refused, naming the flag', () => {
  assert.equal(parseProbeTimeout('120s'), 120_000);
  assert.equal(parseProbeTimeout('2m'), 120_000);
  assert.equal(parseProbeTimeout('1500ms'), 1500);
  const refused = (text: string, message: RegExp) =>
    assert.throws(
      () => parseProbeTimeout(text),
      (e: unknown) => e instanceof UsageError && e.message.includes('--timeout') && message.test(e.message),
      text,
    );
  refused('5', /"5" has no unit: give 5s or 5ms/);
  refused('120000', /"120000" has no unit: give 120000s or 120000ms/);
  refused('5ms', /"5ms" is less than 1s: a probe side's worker takes longer than that to start/);
  refused('soon', /"soon" is not a duration such as 120s, 2m or 1500ms/);
});
