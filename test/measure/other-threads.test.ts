import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { cpuNowNs, threadCpuNowNs } from '../../src/measure/clock.js';
import { costClock, prepareCase } from '../../src/measure/prepare-case.js';
import { measureRounds, useClock, useThreadClock, type Round } from '../../src/measure/timing.js';
import { policies } from '../../src/config/policies.js';
import { workloads } from '../../src/workloads/index.js';
import { renderPayload } from '../../src/plan/payloads.js';
import type { SerializerAdapter } from '../../src/serializers/types.js';
import type { Direction } from '../../src/case/coordinates.js';

/**
 * CPU other threads burn (hx8 spinner: a `worker_threads` helper that burns while the baseline runs): the measuring
 * thread's own clock (measure/clock.ts threadCpuNowNs) leaves it out, the process clock counts it; the rounds carry
 * both per side (timing.ts CpuSpan), and the cache cost checks time on the thread's clock.
 */

const linux = process.platform === 'linux';
const noThreadClock = threadCpuNowNs ? false : 'no thread CPU clock here (not Linux, or Node before 20.16)';

/**
 * A helper thread that burns `ms` of CPU each time it is asked (by the process CPU clock, while the caller sleeps until
 * it is done: so every ns it burns is another thread's, none the caller's, however loaded the machine). It leaves the CPU before it answers, so
 * the kernel has counted its time by then (the process CPU clock reads it at once).
 */
async function helper(ms: number) {
  const sab = new SharedArrayBuffer(8);
  const cell = new Int32Array(sab);
  const w = new Worker(
    `const { workerData } = require('node:worker_threads');
     const c = new Int32Array(workerData.sab);
     for (;;) {
       Atomics.wait(c, 0, 0);
       if (Atomics.load(c, 0) === 2) break;
       const u0 = process.cpuUsage(); for (let u = { user: 0, system: 0 }; u.user + u.system < workerData.ms * 1000; ) u = process.cpuUsage(u0);
       Atomics.wait(c, 1, 0, 0.001);
       Atomics.store(c, 0, 0);
       Atomics.notify(c, 0);
     }`,
    { eval: true, workerData: { sab, ms } },
  );
  await new Promise((resolve) => w.once('online', resolve));
  return {
    burn() {
      Atomics.store(cell, 0, 1);
      Atomics.notify(cell, 0);
      while (Atomics.load(cell, 0) === 1) Atomics.wait(cell, 0, 1, 50);
    },
    async stop() {
      Atomics.store(cell, 0, 2);
      Atomics.notify(cell, 0);
      await w.terminate();
    },
  };
}

test(
  'the thread clock exists on Linux under Node 20.16+ (the host this lab runs on)',
  { skip: !linux && 'not Linux' },
  () => {
    const [major, minor] = process.versions.node.split('.').map(Number);
    if (major > 20 || (major === 20 && minor >= 16)) assert.equal(typeof threadCpuNowNs, 'function');
  },
);

test('CPU another thread burns moves the process clock, not the thread clock', { skip: noThreadClock }, async () => {
  const h = await helper(30);
  try {
    const t0 = threadCpuNowNs!();
    const c0 = cpuNowNs!();
    for (let i = 0; i < 3; i++) h.burn();
    const c1 = cpuNowNs!();
    const t1 = threadCpuNowNs!();
    // the helper burnt 90 ms of CPU; the caller slept meanwhile
    assert.ok(c1 - c0 > 80e6, `process clock moved ${(c1 - c0) / 1e6} ms`);
    assert.ok(t1 - t0 < 5e6, `thread clock moved ${(t1 - t0) / 1e6} ms`);
    assert.ok(t1 - t0 < (c1 - c0) / 4);
  } finally {
    await h.stop();
  }
});

test('the thread clock follows the thread’s own work to within a few %', { skip: noThreadClock }, () => {
  const t0 = threadCpuNowNs!();
  const c0 = cpuNowNs!();
  let x = 0;
  const until = cpuNowNs!() + 30e6;
  while (cpuNowNs!() < until) x += Math.sqrt(x + 1);
  const c1 = cpuNowNs!();
  const t1 = threadCpuNowNs!();
  assert.ok(x > 0);
  const share = (t1 - t0) / (c1 - c0);
  assert.ok(share > 0.8 && share < 1.1, `thread/process over 30 ms of work: ${share}`);
});

test('rounds carry each side’s CPU span by both clocks on the CPU clock, none on wall time', () => {
  const policy = { ...policies.quick.measure, minRounds: 2, maxRounds: 2, samplesPerRound: 2, sampleTargetMs: 0.1 };
  let fake = 0;
  let helpers = 0;
  const was = useThreadClock(
    () => (fake += 1000),
    () => (helpers += 300),
  );
  const clock = useClock('cpu');
  try {
    const rounds: Round[] = [];
    const op = () => {};
    measureRounds(
      { op, opsPerSample: 10 },
      { op, opsPerSample: 10 },
      policy,
      () => {},
      (r) => rounds.push(r),
    );
    assert.equal(rounds.length, 2);
    for (const r of rounds)
      for (const span of [r.serializerSpan, r.baselineSpan]) {
        assert.ok(span, 'a span per side');
        // the fake thread clock moves 1000 ns per read, read twice per side
        assert.equal(span.threadNs, 1000);
        assert.equal(span.helpersNs, 300);
        assert.ok(span.cpuNs >= 0);
      }
    if (clock === 'cpu') {
      useClock('wall');
      const wallRounds: Round[] = [];
      measureRounds(
        { op, opsPerSample: 10 },
        undefined,
        policy,
        () => {},
        (r) => wallRounds.push(r),
      );
      assert.equal(wallRounds[0].serializerSpan, undefined);
    }
  } finally {
    useThreadClock(was.clock, was.helpers);
    useClock(clock);
  }
});

test('the cache cost checks time on the thread clock where there is one', () => {
  assert.equal(costClock, threadCpuNowNs ?? cpuNowNs);
});

/**
 * JSON.parse / JSON.stringify whose calls on anything but the first input they see wait for a helper thread that
 * burns 4 ms meanwhile: the work of the call itself is the built-in's, the CPU the helper burns is another thread's
 * (hx8 SPINP-50-default: a spinner burning while the built-in JSON.parse's new texts were timed made it fail the
 * text cost check, "a text it had never seen cost 4.7×").
 */
function burningAdapter(burn: () => void, direction: Direction): SerializerAdapter & { arm(): void } {
  const known = new Set<unknown>();
  let armed = false;
  const seen = (x: unknown) => {
    if (!armed) known.add(x);
    else if (!known.has(x)) burn();
  };
  return {
    arm: () => {
      armed = true;
    },
    id: 'json-beside-a-burner',
    family: 'builtin',
    directions: [direction],
    ...(direction === 'deserialize' ? { deserializeClass: 'parse' as const } : {}),
    supports: () => true,
    prepare: () =>
      direction === 'serialize'
        ? {
            serialize: (v: unknown) => {
              seen(v);
              return JSON.stringify(v);
            },
          }
        : {
            deserialize: (t: string) => {
              seen(t);
              return JSON.parse(t) as unknown;
            },
          },
  } as unknown as SerializerAdapter & { arm(): void };
}

for (const direction of ['deserialize', 'serialize'] as Direction[])
  test(
    `a built-in ${direction === 'serialize' ? 'JSON.stringify' : 'JSON.parse'} passes its cache cost check while another thread burns during its new inputs`,
    {
      skip: noThreadClock,
    },
    async () => {
      const h = await helper(4);
      try {
        const w = await workloads.load('users');
        const text = renderPayload(w, 1000, 42);
        const adapter = burningAdapter(() => h.burn(), direction);
        const side = await prepareCase(adapter, w, {
          shape: 'list',
          direction,
          caseClass: direction === 'serialize' ? 'serialize' : 'parse',
          serializeTo: 'string',
        });
        assert.equal(side.check(text), null, 'the gate passes');
        const copy = side.inputs(text);
        for (let i = 0; i < 50; i++) for (const unit of copy) side.call(unit);
        // from here on, an input it was not timed on waits for the helper's 4 ms
        adapter.arm();
        assert.equal(side.cacheChecks(text, copy), null);
      } finally {
        await h.stop();
      }
    },
  );
