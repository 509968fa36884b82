/**
 * `node build/bench/gate-rejects.js [--only ID,ID]`: the cost and the verdicts of the gate's reject texts
 * (src/measure/rejects.ts) for every built-in JavaScript `validate` and `transform` deserializer × the quick suite's
 * cases (each workload's smallest size, every shape), users · 1000 (list, many) and users · 10000 · list, and the
 * shared corpus documents canada.json and citm_catalog.json (../shared/data/corpus, schema inferred as a run infers
 * it; skipped when absent). Per case: how many texts were made, the time to make them and to deserialize them
 * (ms, wall), the whole gate's time on the payload (its first call, which makes the reject texts), and the verdict
 * (`ok`, or the gate's reason: a built-in that fails here is a false `incorrect`). Ends with the totals and the
 * load average.
 */
import { serializers } from '../src/serializers/index.js';
import { unitView } from '../src/workloads/unit.js';
import { prepareCase } from '../src/measure/prepare-case.js';
import { acceptsInvalid, invalidTexts } from '../src/measure/rejects.js';
import { arg, benchSubjects, load } from './subjects.js';

const only = arg('--only')?.split(',');
// users · 1000 in every shape, users · 10000 as a list only.
const subjects = await benchSubjects([1000, 10000], (size, shape) => size !== 10000 || shape === 'list');

console.log(`load average at start: ${load()}; ${subjects.length} payloads`);
let cases = 0;
let failed = 0;
let totalMs = 0;
for (const s of subjects)
  for (const sid of serializers.ids) {
    if (only && !only.includes(sid)) continue;
    const adapter = await serializers.load(sid);
    const caseClass = adapter.deserializeClass;
    if (!adapter.directions.includes('deserialize') || (caseClass !== 'validate' && caseClass !== 'transform'))
      continue;
    const view = unitView(s.workload, s.shape);
    if (adapter.supports(view, 'deserialize') !== true) continue;
    const id = `${sid} ${s.workload.id}/${s.size}/${s.shape}`;
    try {
      const side = await prepareCase(adapter, s.workload, { shape: s.shape, direction: 'deserialize', caseClass });
      const g0 = performance.now();
      const gate = side.check(s.text);
      const gateMs = performance.now() - g0;
      const prepared = await adapter.prepare(view, 'deserialize');
      const unit = side.inputs(s.text)[0] as string;
      const m0 = performance.now();
      const texts = invalidTexts(view, unit);
      const makeMs = performance.now() - m0;
      const c0 = performance.now();
      const accepted = acceptsInvalid((t) => prepared.deserialize!(t), texts);
      const callMs = performance.now() - c0;
      cases++;
      totalMs += gateMs;
      if (gate) failed++;
      console.log(
        `${id}: ${texts.length} texts, make ${makeMs.toFixed(1)} ms, deserialize ${callMs.toFixed(1)} ms, gate ${gateMs.toFixed(1)} ms: ${gate ? `GATE FAILED: ${gate.reason.slice(0, 160)}` : accepted ? `accepted ${accepted.reason.slice(0, 120)}` : 'ok'}`,
      );
    } catch (e) {
      console.log(`${id}: threw ${(e as Error)?.message?.slice(0, 200) ?? String(e)}`);
    }
  }
console.log(
  `${cases} cases, ${failed} gate failures, gate time ${totalMs.toFixed(0)} ms in all; load average at end: ${load()}`,
);
