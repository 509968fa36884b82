import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePayload } from '../../src/payload/workload.js';
import { payloadProbeSets } from '../../src/run/session.js';
import { coveringSamples, payloadProbesOf } from '../../src/probes/catalog/payload.js';
import { serializers } from '../../src/serializers/index.js';
import { runProbe } from '../../src/probes/run-probe.js';
import type { Verdict } from '../../src/probes/types.js';
import { payloadCosts } from '../../src/report/costs.js';
import type { MeasuredCase, ResultsFile } from '../../src/results/types.js';

/**
 * A folder of samples is one payload (its `many` op cycles the samples), so its probes are built
 * from every sample, not the first only (issue 24, new-user tryout: a cost seen only in sample 3
 * was never reported): each sample that holds a (path, kind of value) no earlier sample held gets
 * a probe of its own, and the drifts are found across them.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-samples-probes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const folder = join(dir, 'orders');
mkdirSync(folder);
// samples 1 and 2 are alike; only sample 3 holds a note, and its note holds a lone surrogate (escaped, valid JSON)
writeFileSync(join(folder, '1.json'), '{"id":1,"item":"pen","qty":2}');
writeFileSync(join(folder, '2.json'), '{"id":2,"item":"ink","qty":3}');
writeFileSync(join(folder, '3.json'), '{"id":3,"item":"cap","qty":1,"note":"gift \\ud800 wrap"}');

const payload = await resolvePayload(folder);
const [set] = payloadProbeSets(payload);
const probes = payloadProbesOf(set, 0);

test('every sample of a folder reaches the probe sets, named by its file', () => {
  assert.equal(set.file, '1.json');
  assert.deepEqual(
    set.more?.map((m) => m.name),
    ['2.json', '3.json'],
  );
});

test('sample 3, which alone holds a key and a lone surrogate, gets a probe; sample 2, which adds nothing, does not', () => {
  assert.deepEqual(
    coveringSamples(set.schema, [{ name: set.file, value: set.sample }, ...set.more!]).map((k) => k.name),
    ['1.json', '3.json'],
  );
  assert.deepEqual(
    probes.filter((p) => p.id.includes('.sample')).map((p) => [p.id, p.title]),
    [
      ['payload.0.sample', '1.json: your payload (one element per array)'],
      ['payload.0.sample.3', '3.json: your payload (one element per array)'],
    ],
  );
  // the optional key only sample 3 has is where a missing optional key is tried
  assert.equal(
    probes.find((p) => p.id === 'payload.0.missing-optional')?.title,
    '3.json: an optional key left out at $.note',
  );
});

test('a cost seen only in sample 3 is reported: ajv-jtd writes its lone surrogate raw, JSON.stringify escapes it', async () => {
  const verdicts: { probe: string; direction: 'serialize'; serializer: string; target: string; verdict: Verdict }[] =
    [];
  for (const serializer of ['ajv-jtd', 'json']) {
    const adapter = await serializers.load(serializer);
    for (const p of probes.filter((x) => x.id.includes('.sample'))) {
      const verdict = await runProbe(adapter, p, 'serialize', new Map());
      if (verdict) verdicts.push({ probe: p.id, direction: 'serialize', serializer, target: 'node', verdict });
    }
  }
  const mark = (serializer: string, probe: string) =>
    verdicts.find((v) => v.serializer === serializer && v.probe === probe)?.verdict.mark;
  assert.equal(mark('ajv-jtd', 'payload.0.sample'), '✔');
  assert.equal(mark('ajv-jtd', 'payload.0.sample.3'), '✗');
  assert.equal(mark('json', 'payload.0.sample.3'), '✔');
  const results = {
    probes: { probes: probes.map((p) => ({ id: p.id, title: p.title })), verdicts },
  } as unknown as ResultsFile;
  const c = {
    serializer: 'ajv-jtd',
    direction: 'serialize',
    baseline: 'json',
    workload: set.workload,
    target: { id: 'node' },
  } as unknown as MeasuredCase;
  const costs = payloadCosts(c, results).map((k) => k.text);
  assert.equal(costs.length, 1, costs.join('\n'));
  assert.match(costs[0], /^on your payload 3\.json: /);
});

test('an NDJSON record is named by its place among the records, its line said when a blank line moved it (hx37 p03)', async () => {
  const file = join(dir, 'recs.ndjson');
  writeFileSync(file, '{"a":1,"b":null}\r\n\r\n{"a":2,"b":null}\n{"a":3,"b":null}\n');
  const [ndjson] = payloadProbeSets(await resolvePayload(file));
  assert.deepEqual(
    ndjson.more?.map((m) => [m.name, (m.value as { a: number }).a]),
    [
      ['recs.ndjson record 2 (line 3)', 2],
      ['recs.ndjson record 3 (line 4)', 3],
    ],
  );
  writeFileSync(file, '{"a":1}\n{"a":2}\n');
  const [plain] = payloadProbeSets(await resolvePayload(file));
  assert.deepEqual(
    plain.more?.map((m) => m.name),
    ['recs.ndjson record 2'],
  );
});
