import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pipedProgress, sleep } from './support.js';

/**
 * The plain view's heartbeat names the phase the run is in (issue 24, new-user tryout: "jsonbench:
 * still at: typia: generating code … (22 s)" was printed after "typia: probe code ready in 11.7 s"):
 * a note with the same leading word as an announced phase ends it, and the heartbeat falls back to
 * the phase around it.
 */

test('after "typia: … ready", the heartbeat says the run is still in the probe pass, not generating typia code', async () => {
  const { view, lines } = pipedProgress(120);
  try {
    view.note('probes: 402 relevant to the payloads × 12 serializers (untimed)…');
    view.note('typia: generating code for 3 probe schemas with its own transformer (kept for the next runs)…');
    await sleep(400);
    const during = lines.filter((l) => l.startsWith('jsonbench: still at:'));
    assert.ok(during.length > 0 && during.every((l) => l.includes('typia: generating code')), lines.join('\n'));
    view.note('typia: probe code ready in 0.3 s');
    lines.length = 0;
    await sleep(400);
    const after = lines.filter((l) => l.startsWith('jsonbench: still at:'));
    assert.ok(after.length > 0, lines.join('\n'));
    for (const l of after)
      assert.match(
        l,
        /^jsonbench: still at: probes: 402 relevant to the payloads × 12 serializers \(untimed\)… \(\d+ s\)$/,
      );
    view.note('probes: 5000 verdicts (3 failing) in 2.0 s');
    lines.length = 0;
    await sleep(400);
    assert.deepEqual(
      lines.filter((l) => l.startsWith('jsonbench: still at:')),
      [],
      'no phase is open once the probe pass said it ended',
    );
  } finally {
    view.stop();
  }
});
