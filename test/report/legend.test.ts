import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legendSentences } from '../../src/report/legend.js';
import { results } from '../hostile/support.js';

test('the legend says what a serialize op produced: UTF-8 bytes (the default) or the string alone (--serialize-to string)', () => {
  const r = results();
  const of = (serializeTo: 'bytes' | 'string') =>
    legendSentences({ ...r, policy: { ...r.policy, measure: { ...r.policy.measure, serializeTo } } }).filter((s) =>
      s.startsWith('A serialize op is'),
    );
  assert.deepEqual(of('bytes'), [
    'A serialize op is value → JSON text → UTF-8 bytes (what a server writing it to a socket pays; --serialize-to string times the string alone).',
  ]);
  assert.equal(of('string').length, 1);
  assert.match(of('string')[0], /^A serialize op is value → JSON text, the string alone \(--serialize-to string\)/);
});

test('with .NET cases the legend says their serialize op returns the string and their times are CPU time where the clock answers, not wall time', () => {
  const r = results();
  const dotnet = {
    ...r,
    cases: r.cases.map((c) => ({
      ...c,
      platform: 'dotnet',
      ...(c.status === 'measured' ? { time: { ...c.time, clock: 'cpu' } } : {}),
    })) as typeof r.cases,
  };
  const lines = legendSentences({
    ...dotnet,
    policy: { ...r.policy, measure: { ...r.policy.measure, serializeTo: 'bytes' } },
  });
  const op = lines.filter((s) => s.startsWith('A serialize op is'));
  assert.equal(op.length, 1);
  assert.match(op[0], /on \.NET and Mono a serialize op returns the string/);
  const clock = lines.find((s) => s.startsWith('Times and ratios are'));
  assert.ok(clock, 'a CPU-clock file names its clock');
  assert.match(clock!, /\.NET and Mono through clock_gettime/);
  assert.doesNotMatch(clock!, /wall time elsewhere \([^)]*\.NET/);
  // JavaScript-only files keep the plain sentence
  assert.doesNotMatch(
    legendSentences({ ...r, policy: { ...r.policy, measure: { ...r.policy.measure, serializeTo: 'bytes' } } }).join(
      ' ',
    ),
    /\.NET and Mono a serialize op/,
  );
});
