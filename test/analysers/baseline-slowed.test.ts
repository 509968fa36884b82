import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  baselineSlowed,
  BASELINE_SLOWED_FACTOR,
  BASELINE_SLOWED_FACTOR_DOTNET,
  OTHER_THREADS_EXCESS,
  otherThreadsShare,
} from '../../src/analysers/baseline-slowed.js';
import { launch, measuredPair } from './support.js';

test('baseline-slowed: a baseline over 1.2× slower beside the case than in its own carries the finding', () => {
  // json's own case: 1,000 ns median; beside fast-json-stringify: 2,500 ns
  const { c, context } = measuredPair([launch(1, 500, 2500)]);
  c.ratio = 0.2;
  assert.equal(BASELINE_SLOWED_FACTOR, 1.2);
  const [f, ...more] = baselineSlowed.analyse(c, context);
  assert.equal(more.length, 0);
  assert.equal(f?.code, 'baseline-slowed');
  assert.match(
    f.message,
    /^its paired baseline json ran 2\.50× slower beside it: median 2\.50 µs per op in its process against 1\.00 µs in json's own case \(more than 1\.2×\), so its ratio 0\.20 measures/,
  );
});

test('baseline-slowed: hx11’s slowed library (1.35–1.56× beside a config) carries the finding; 1.15× does not', () => {
  // a config wrapped typebox's TypeCompiler.Compile: the baseline beside it 1.35× its own case's median
  const slowed = measuredPair([launch(1, 700, 1350)]);
  slowed.c.ratio = 0.79;
  const [f] = baselineSlowed.analyse(slowed.c, slowed.context);
  assert.match(f?.message ?? '', /^its paired baseline json ran 1\.35× slower beside it: .*\(more than 1\.2×\)/);
  // honest configs read 0.94–1.08 on node, node@22, bun and deno
  const honest = measuredPair([launch(1, 700, 1150)]);
  assert.deepEqual(baselineSlowed.analyse(honest.c, honest.context), []);
});

test('baseline-slowed: a case clearly slower than its slowed baseline keeps its call (its own heap slowed it)', () => {
  // ajv-jtd on response.json: 17× typebox, typebox 2.2× slower beside it (V8 marking its heap on the process clock)
  const heavy = measuredPair([launch(1, 17_000, 2200)]);
  heavy.c.ratio = 17;
  heavy.c.ratioInterval = [7.2, 91];
  assert.deepEqual(baselineSlowed.analyse(heavy.c, heavy.context), []);
  heavy.c.ratioInterval = [0.98, 1.3];
  assert.equal(baselineSlowed.analyse(heavy.c, heavy.context)[0]?.code, 'baseline-slowed', 'could be called the same');
});

test('baseline-slowed: on .NET (no config runs there) the factor stays 2', () => {
  assert.equal(BASELINE_SLOWED_FACTOR_DOTNET, 2);
  const dotnet = measuredPair([launch(1, 700, 1500)]);
  dotnet.c.target = { ...dotnet.c.target!, id: 'dotnet', runtime: 'dotnet' };
  assert.deepEqual(baselineSlowed.analyse(dotnet.c, dotnet.context), [], '1.5× on dotnet');
  const far = measuredPair([launch(1, 700, 2100)]);
  far.c.target = { ...far.c.target!, id: 'dotnet', runtime: 'dotnet' };
  assert.match(baselineSlowed.analyse(far.c, far.context)[0]?.message ?? '', /\(more than 2×\)/);
});

test('baseline-slowed: a baseline 1.2× slower or less beside the case does not, nor does the baseline itself', () => {
  const { c, base, context } = measuredPair([launch(1, 500, 1200)]);
  assert.deepEqual(baselineSlowed.analyse(c, context), []);
  const slow = measuredPair([launch(1, 500, 5000)]);
  assert.deepEqual(baselineSlowed.analyse(slow.base, { ...slow.context, baseline: slow.base }), []);
  assert.ok(base.serializer === base.baseline);
});

/** A launch on the process CPU clock whose rounds carry CPU spans: each side's span 10 ms of process CPU, of which `other` (a fraction) went to other threads. */
function spanLaunch(n: number, serializerOther: number, baselineOther: number, rounds = 10) {
  const l = launch(n, 700, 1000, { clock: 'cpu' }, rounds);
  const span = (other: number) => ({ cpuNs: 10e6, threadNs: 10e6 * (1 - other) });
  l.rounds = l.rounds.map((r) => ({ ...r, serializerSpan: span(serializerOther), baselineSpan: span(baselineOther) }));
  return l;
}

test('baseline-slowed: a baseline charged other threads’ CPU beside the case (hx8 spinner) carries the finding', () => {
  // json's own case: 3% of its CPU on other threads; beside the case: 33% (a helper thread burning while it ran)
  const { c, context } = measuredPair([spanLaunch(1, 0.02, 0.33), spanLaunch(2, 0.02, 0.35)], [spanLaunch(1, 0.03, 0)]);
  c.ratio = 0.69;
  assert.equal(OTHER_THREADS_EXCESS, 0.05);
  const [f, ...more] = baselineSlowed.analyse(c, context);
  assert.equal(more.length, 0);
  assert.equal(f?.code, 'baseline-slowed');
  assert.match(
    f.message,
    /^its paired baseline json was charged CPU other threads burnt beside it: 34\.0% of the process CPU its samples were timed on went to threads started after the worker \(median of 20 rounds\), against 3\.0% in json's own case \(more than 5 points over\), so its ratio 0\.69 measures work another thread did/,
  );
});

test('baseline-slowed: other threads’ share within 5 points of the own case’s, spans too short, or none, say nothing', () => {
  const close = measuredPair([spanLaunch(1, 0.3, 0.08)], [spanLaunch(1, 0.04, 0)]);
  assert.deepEqual(
    baselineSlowed.analyse(close.c, close.context),
    [],
    'a serializer whose own side burns on other threads (class-transformer) is its own cost',
  );
  const short = measuredPair([spanLaunch(1, 0, 0.4, 1)], [spanLaunch(1, 0.03, 0, 1)]);
  assert.deepEqual(baselineSlowed.analyse(short.c, short.context), [], 'one round of spans is too few to read');
  const none = measuredPair([launch(1, 700, 1000, { clock: 'cpu' })]);
  assert.deepEqual(baselineSlowed.analyse(none.c, none.context), [], 'no spans (not Linux, or an older file)');
  const wall = measuredPair([{ ...spanLaunch(1, 0, 0.4), clock: 'wall' }], [spanLaunch(1, 0.03, 0)]);
  assert.deepEqual(baselineSlowed.analyse(wall.c, wall.context), [], 'spans of a launch timed on wall time');
});

test('baseline-slowed: V8’s own threads (helpersNs) are left out: a burst of GC work beside the case says nothing', () => {
  const gc = spanLaunch(1, 0.02, 0.4);
  gc.rounds = gc.rounds.map((r) => ({ ...r, baselineSpan: { ...r.baselineSpan!, helpersNs: 4e6 } }));
  const { c, context } = measuredPair([gc], [spanLaunch(1, 0.03, 0)]);
  assert.deepEqual(baselineSlowed.analyse(c, context), []);
});

test('otherThreadsShare: the median of the spans’ shares, none when empty', () => {
  assert.deepEqual(
    otherThreadsShare([{ cpuNs: 10, threadNs: 9 }, undefined, { cpuNs: 30, threadNs: 21 }, { cpuNs: 10, threadNs: 2 }]),
    { share: 0.3, rounds: 3 },
  );
  assert.deepEqual(otherThreadsShare([{ cpuNs: 10, threadNs: 5, helpersNs: 4 }]), { share: 0.1, rounds: 1 });
  assert.equal(otherThreadsShare([undefined]), undefined);
});

test('baseline-slowed makes the findings about the ratio’s spread moot: a row carries ⊘, not ⚠ ≠ ⇅ ⇉ beside it', async () => {
  const { analysers, analyseCase } = await import('../../src/analysers/index.js');
  // json slowed 2.5× beside the case in both launches, whose ratios disagree (0.2 and 0.6)
  const { c, context } = measuredPair([launch(1, 500, 2500), launch(2, 1500, 2500)]);
  c.ratio = 0.35;
  c.ratioInterval = [0.2, 0.6];
  const each = analysers.flatMap((a) => a.analyse(c, context)).map((f) => f.code);
  assert.ok(each.includes('baseline-slowed') && each.includes('noisy'), `the analysers alone: ${each.join(', ')}`);
  const kept = analyseCase(c, context).map((f) => f.code);
  assert.ok(kept.includes('baseline-slowed'));
  assert.deepEqual(
    kept.filter((k) => ['noisy', 'mean-ratio', 'machine-drift', 'launch-states'].includes(k)),
    [],
  );
  // without the baseline slowed, the same spread keeps its finding
  const calm = measuredPair([launch(1, 500, 1000), launch(2, 1500, 1000)]);
  calm.c.ratio = 0.9;
  calm.c.ratioInterval = [0.5, 1.5];
  assert.ok(analyseCase(calm.c, calm.context).some((f) => f.code === 'noisy'));
});
