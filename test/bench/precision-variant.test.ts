import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseVariant } from '../../bench/jsonbench-run.js';
import { bdnEnv } from '../../bench/bdn.js';
import { policies } from '../../src/config/policies.js';

test('bench:precision --variant changes named settings of the default policy and nothing else', () => {
  const { label, policy } = parseVariant('L6=launches:6,maxLaunches:6,timeCapMs:300');
  assert.equal(label, 'L6');
  assert.equal(policy.launches, 6);
  assert.equal(policy.maxLaunches, 6);
  assert.equal(policy.measure.timeCapMs, 300);
  assert.equal(policy.measure.minRounds, policies.default.measure.minRounds);
  assert.equal(policies.default.launches, 2, 'the default policy itself is untouched');
  assert.equal(policies.default.measure.timeCapMs, 1000);
});

test('bench:precision --variant refuses unknown settings, non-numbers and bad labels', () => {
  assert.throws(() => parseVariant('x=lunches:6'), /unknown setting "lunches"/);
  assert.throws(() => parseVariant('x=launches:many'), /launches needs a finite number, got "many"/);
  assert.throws(() => parseVariant('x=serializeTo:1'), /unknown setting "serializeTo"/);
  assert.throws(() => parseVariant('<b>=launches:3'), /label of letters/);
  assert.throws(() => parseVariant('launches:3'), /label of letters/);
});

test('bench:precision --variant keeps the profile of the policy it changes', () => {
  const { policy } = parseVariant('S=launches:3', { ...policies.default, profile: 'steady' });
  assert.equal(policy.profile, 'steady');
  assert.equal(policy.launches, 3);
  assert.equal(parseVariant('D=launches:3').policy.profile, 'default');
});

test('bench:precision gives BenchmarkDotNet the GC variables of the profile jsonbench runs in', () => {
  assert.deepEqual(bdnEnv('default'), {}, "the default profile: the runtime's own GC, no DOTNET_GC variable");
  assert.deepEqual(bdnEnv('steady'), {
    DOTNET_GCLOHThreshold: '5F5E100',
    DOTNET_GCRegionSize: '2000000',
    DOTNET_GCgen0size: '10000000',
  });
});
