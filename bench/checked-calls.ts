/**
 * `node --expose-gc build/bench/checked-calls.js`: how many calls drawn at random are checked in full in one quick
 * launch side (src/measure/check-schedule.ts, timed-check.ts `picked`), as a launch runs a case: prepareCase, gate,
 * warmup, pilot and rounds with the side's timed checks, for a few cases of each direction and size. The C of the
 * detection probability 1 − (1 − 1/N)^C a serializer wrong on one call in N is caught with (docs/limits.md "Calls
 * checked at random while timing"). Prints ops per sample, rounds, samples and C per case, then the run of calls made
 * back to back after the rounds (timed-check.ts runStreak): its calls, its time and its checks' time, with the load
 * average.
 */
import { loadavg } from 'node:os';
import { workloads } from '../src/workloads/index.js';
import { serializers } from '../src/serializers/index.js';
import { prepareCase } from '../src/measure/prepare-case.js';
import { makeOp } from '../src/measure/sink.js';
import { measureRounds, pilot, useClock, warmup } from '../src/measure/timing.js';
import { policies } from '../src/config/policies.js';
import { renderPayload } from '../src/plan/payloads.js';
import type { Direction, Shape } from '../src/case/coordinates.js';
import { runStreak, type SideChecks } from '../src/measure/timed-check.js';
import { nowNs } from '../src/measure/clock.js';

useClock('cpu');
const policy = policies.quick.measure;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const cases: [string, number, Shape, Direction, string][] = [
  ['weather-station', 1, 'single', 'serialize', 'json'],
  ['weather-station', 1, 'single', 'deserialize', 'json'],
  ['users', 100, 'list', 'serialize', 'json'],
  ['users', 100, 'list', 'deserialize', 'typebox'],
  ['users', 1000, 'list', 'serialize', 'json'],
  ['users', 1000, 'list', 'deserialize', 'json'],
  ['users', 1000, 'many', 'serialize', 'json'],
  ['users', 10000, 'list', 'serialize', 'fast-json-stringify'],
];
for (const [wid, size, shape, direction, sid] of cases) {
  const w = await workloads.load(wid);
  const adapter = await serializers.load(sid);
  const caseClass = direction === 'serialize' ? 'serialize' : adapter.deserializeClass!;
  const p = await prepareCase(adapter, w, { shape, direction, caseClass });
  const text = renderPayload(w, size, 42);
  if (p.check(text)) throw new Error(`${sid} fails the gate`);
  const a = p.inputs(text);
  const b = p.inputs(text);
  const checks = p.timedChecks('serializer', text, [a, b]);
  let checked = 0;
  let samples = 0;
  const counted: SideChecks = {
    ...checks,
    picked: (...x) => {
      samples++;
      const k = checks.picked!(...x);
      checked += k;
      return k;
    },
  };
  const op = makeOp(p.call, a, b);
  warmup(op, policy, counted);
  const ops = pilot(op, policy, counted);
  const r = measureRounds({ op, opsPerSample: ops, checks: counted }, undefined, policy, gc, () => {});
  // the run of calls back to back after the rounds (timed-check.ts runStreak), as worker/job.ts streakCheck makes it
  const t0 = nowNs();
  const results = runStreak(p.call, [a, b], (text.length / a.length) * (direction === 'serialize' ? 1 : 16));
  const t1 = nowNs();
  checks.streak!(results, 'after the rounds');
  const t2 = nowNs();
  console.log(
    `${direction} ${sid} ${wid}/${size}/${shape}: ${ops} ops/sample, ${r.rounds} rounds, ${samples} samples (pilot included), C = ${checked} calls drawn at random and checked; then ${results.length} calls back to back in ${((t1 - t0) / 1e6).toFixed(1)} ms, checked in ${((t2 - t1) / 1e6).toFixed(1)} ms (load ${loadavg()[0].toFixed(1)})`,
  );
}
