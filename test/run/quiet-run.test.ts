import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { MeasurePolicy } from '../../src/case/policy.js';
import type { MeasuredCase } from '../../src/results/types.js';
import { reassembleGroups, recordedGroups, type RecordedCase } from '../../src/run/recorded.js';

/**
 * A real default run on a quiet machine (2026-12-06 04:48 UTC, load 1.3, the default suite, node
 * only): its measured cases' launches with their rounds, slimmed from results.json
 * (test/fixtures/stats/quiet-default-run.json.gz, ~80 KB). Its users/100/many deserialize group
 * printed secure-json-parse 1.30 [0.0006–3091] and superjson 1.64 [0.0009–2930]: the group's
 * launches spread beyond the run's prior by more than F(1.1, 4)'s 95% point, and the F screen that
 * stood there kept its own 1.1-df variance (t ≈ 500).
 */
const fixture = JSON.parse(
  gunzipSync(
    readFileSync(fileURLToPath(new URL('../../../test/fixtures/stats/quiet-default-run.json.gz', import.meta.url))),
  ).toString('utf8'),
) as { policy: { measure: MeasurePolicy }; cases: (RecordedCase & { ratioInterval: [number, number] | null })[] };

/** The fixture's cases re-assembled as the runner does: by group, with the run's prior as runPriorsInOrder lends it. */
function reassembled(): Map<string, MeasuredCase> {
  const out = new Map<string, MeasuredCase>();
  for (const g of reassembleGroups(recordedGroups(fixture.cases), fixture.policy.measure))
    for (const c of g) out.set(c.id, c as MeasuredCase);
  return out;
}

test('quiet default run: the users/100/many parse ratios are no longer t(1)-wide', () => {
  const out = reassembled();
  // as recorded: 1.30 [0.00055–3091] and 1.64 [0.00092–2930]
  const recorded = fixture.cases.find((c) => c.id === 'users/100/many/deserialize/secure-json-parse')!;
  assert.ok(
    recorded.ratioInterval![1] / recorded.ratioInterval![0] > 1e6,
    'the fixture holds the recorded t(1) interval',
  );
  for (const [id, centre] of [
    ['users/100/many/deserialize/secure-json-parse', 1.3047],
    ['users/100/many/deserialize/superjson', 1.6422],
  ] as const) {
    const c = out.get(id)!;
    assert.ok(Math.abs(c.ratio! - centre) < 1e-3, `${id}: ${c.ratio}`);
    const [low, high] = c.ratioInterval!;
    // the launches disagree by about 2–4%, the run's parse groups by under 1%: a few per cent either way, not ×2000
    assert.ok(low > centre / 1.25 && high < centre * 1.25, `${id}: [${low}–${high}]`);
    assert.ok(low < centre && centre < high);
  }
});

test('quiet default run: no interval of the run rests on a t with 1 degree of freedom or spans more than ×2.5', () => {
  const out = reassembled();
  assert.equal(out.size, fixture.cases.length);
  let paired = 0;
  for (const c of out.values()) {
    assert.ok((c.time.df ?? 0) >= 2, `${c.id}: time df ${c.time.df}`);
    if (c.ratio === null || c.serializer === c.baseline) continue;
    paired++;
    const [low, high] = c.ratioInterval!;
    // as recorded the widest was ×5.6 million (ln 7.8 either way); the widest here ±23% (ln)
    assert.ok(Math.log(high / low) / 2 < Math.log(2.5), `${c.id}: ${c.ratio} [${low}–${high}]`);
  }
  assert.ok(paired >= 80, `paired ${paired}`);
});

test('quiet default run: every time interval is built on the log scale, above 0, and its error reads it back', () => {
  const out = reassembled();
  for (const c of out.values()) {
    const t = c.time;
    assert.ok(t.interval, `${c.id}: no time interval recorded`);
    const [low, high] = t.interval;
    assert.ok(low > 0 && low < t.mean && t.mean < high, `${c.id}: ${t.mean} [${low}–${high}]`);
    // error = mean × the larger log half-width: [mean·e^(−e/m), mean·e^(e/m)] covers the interval
    const h = t.error / t.mean;
    assert.ok(t.mean * Math.exp(-h) <= low * (1 + 1e-12) && high <= t.mean * Math.exp(h) * (1 + 1e-12), c.id);
  }
  // zod: launches 82 and 49 µs. On the linear scale (before branch stats5) its t(2) interval ran
  // 5.8× the mean below the mean, cut at 0; on the log scale it is ×e^h either way of the
  // launches' geometric mean (63.2 µs), wide as two launches that far apart at t(2) must be
  const zod = out.get('users-settings/100/list/deserialize/zod')!.time;
  assert.ok(Math.abs(zod.mean - 63_213) < 1, `zod mean ${zod.mean}`);
  const [low, high] = zod.interval!;
  assert.ok(Math.abs(Math.log(zod.mean / low) - Math.log(high / zod.mean)) < 1e-9, 'symmetric in log');
  assert.ok(low > 100, `low ${low}`);
});
