import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePayload, payloadTexts } from '../../src/payload/workload.js';
import { readPayload, minifyJsonText } from '../../src/payload/read.js';
import { serializers } from '../../src/serializers/index.js';
import { planCases } from '../../src/plan/plan.js';
import { policies, type RunPolicy } from '../../src/config/policies.js';
import { prepareCase } from '../../src/measure/prepare-case.js';
import { readUnits } from '../../src/workloads/unit.js';
import { resolveRunRequest } from '../../src/run/request.js';
import { runSession } from '../../src/run/session.js';
import { recommend } from '../../src/report/recommend.js';
import { readResults } from '../../src/results/io.js';
import { failedProbesBySerializer } from '../../src/results/probe-failures.js';
import type { ObjectSchema } from '../../src/workloads/schema.js';

/**
 * A folder of samples of one endpoint is one payload (issue 24, new-user tryout 2026-12-05: five
 * samples were measured as five workloads, 120 cases and 20 recommendations): one schema from every
 * sample, one workload of records (shape `many`: an op handles every sample once), so one case per
 * serializer × direction × class and one recommendation for each; the gate checks every sample. The
 * session run also checks what the probe pass records for such a payload: drift refusals are ✔
 * (not failures), NaN/Infinity and Invalid Date are asked for its numbers and date-times, the
 * transform class returns Dates, and the results file stays small.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-samples-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const folder = join(dir, 'user-samples');
mkdirSync(folder);
const sample = (i: number) => ({
  id: 5000 + i,
  handle: `user${i}`,
  email: `user${i}@example.com`,
  createdAt: `2025-01-1${i}T08:00:00Z`,
  score: 1.5 + i,
  roles: i % 2 ? ['admin'] : ['editor', 'viewer'],
  preferences: { theme: i % 2 ? 'dark' : 'light', locale: 'de-DE' },
  ...(i === 2 ? { avatarUrl: 'https://cdn.example.com/a.png' } : {}),
});
for (let i = 0; i < 3; i++) writeFileSync(join(folder, `user-${i}.json`), `${JSON.stringify(sample(i), null, 2)}\n`);

test('a folder is one payload of records: one schema from all samples, one workload of shape many, the samples minified one per line', async () => {
  const payload = await resolvePayload(folder);
  assert.equal(payload.source.kind, 'samples');
  assert.deepEqual(
    payload.workloads.map((w) => [w.id, [...w.sizes], [...w.shapes], w.payloadText]),
    [['payload:user-samples', [3], ['many'], 'ndjson']],
  );
  assert.deepEqual((payload.schema as ObjectSchema).optional, ['avatarUrl']);
  const texts = payloadTexts(payload, payload.workloads[0], 3, 42);
  assert.equal(texts.generated, false);
  const lines = texts.text.trimEnd().split('\n');
  assert.deepEqual(
    lines,
    [0, 1, 2].map((i) => JSON.stringify(sample(i))),
  );
  // whitespace outside strings goes, every other byte stays (escapes, number spelling)
  assert.equal(minifyJsonText('{\n  "a" : "x  y\\" z",\n\t"n": 1.50 }'), '{"a":"x  y\\" z","n":1.50}');
  assert.equal(readPayload(folder).units.length, 3);
});

test('one case per serializer × direction × class, and the gate checks every sample (a serializer that gets the last one wrong fails)', async () => {
  const payload = await resolvePayload(folder);
  const all = await serializers.loadAll();
  const [workload] = payload.workloads;
  const cases = planCases(
    {
      workloads: payload.workloads,
      serializers: all,
      policy: policies.quick,
      directions: ['serialize', 'deserialize'],
    },
    all,
  ).flat();
  const keys = cases.map((c) => `${c.serializer}/${c.direction}/${c.caseClass}`);
  assert.equal(new Set(keys).size, keys.length, 'no serializer has two cases in one direction');
  assert.deepEqual(
    [...new Set(cases.map((c) => `${c.workload} ${c.size} ${c.shape}`))],
    ['payload:user-samples 3 many'],
  );
  const { text } = payloadTexts(payload, workload, 3, 42);
  assert.equal(readUnits(workload, text, 'many').units.length, 3);
  const json = all.find((a) => a.id === 'json')!;
  const side = await prepareCase(json, workload, { shape: 'many', direction: 'serialize', caseClass: 'serialize' });
  assert.equal(side.check(text), null);
  // a serializer that writes every sample as the first one: the gate names the second
  const stuck = { ...json, prepare: async () => ({ serialize: () => JSON.stringify(sample(0)) }) };
  const bad = await prepareCase(stuck, workload, { shape: 'many', direction: 'serialize', caseClass: 'serialize' });
  assert.match(JSON.stringify(bad.check(text)), /record 1/);
});

/** quick, with a tiny measurement: the numbers are not under test here, the path is. */
const tiny: RunPolicy = {
  ...policies.quick,
  measure: {
    ...policies.quick.measure,
    warmupMinOps: 20,
    warmupMinMs: 20,
    warmupMaxMs: 200,
    timeCapMs: 200,
    minRounds: 2,
    samplesPerRound: 2,
    allocWindows: 2,
    allocWindowMinMs: 5,
  },
};

test('the session on a folder: one recommendation per direction × class, drift refusals ✔ not failures, edge values for its kinds, Dates from transform, a small results file', async () => {
  const out = mkdtempSync(join(tmpdir(), 'jsonbench-samples-run-'));
  try {
    const { request, release } = await resolveRunRequest({
      payload: folder,
      serializer: ['fast-json-stringify', 'arktype'],
      out,
      ledger: false,
    });
    let run;
    try {
      run = await runSession({ ...request, policy: tiny });
    } finally {
      release();
    }
    const results = readResults(run.resultsPath);
    assert.deepEqual(
      results.cases
        .map((c) => `${c.workload}/${c.size}/${c.shape} ${c.serializer}/${c.direction}/${c.class} ${c.status}`)
        .sort(),
      [
        'payload:user-samples/3/many arktype/deserialize/transform measured',
        'payload:user-samples/3/many arktype/serialize/serialize unsupported',
        'payload:user-samples/3/many fast-json-stringify/deserialize/parse unsupported',
        'payload:user-samples/3/many fast-json-stringify/serialize/serialize measured',
        'payload:user-samples/3/many json/serialize/serialize measured',
        'payload:user-samples/3/many zod/deserialize/transform measured',
      ],
    );
    assert.deepEqual(
      recommend(results).map((r) => `${r.direction}/${r.caseClass}`),
      ['serialize/serialize', 'deserialize/transform'],
    );
    const [p] = results.payloads!;
    assert.deepEqual([p.workload, p.file, p.kind, p.units], ['payload:user-samples', 'user-samples', 'samples', 3]);
    const probes = results.probes!;
    // the validators did what the inferred schema says: ✔ with what the drift means, never counted as failing
    const drift = probes.verdicts.filter((v) => v.probe.endsWith('.missing-required') && v.serializer === 'zod');
    assert.deepEqual(
      drift.map((v) => v.verdict),
      [
        {
          mark: '✔',
          label: 'rejects a response without $.id, which all your samples had: the inferred schema makes it required',
        },
      ],
    );
    const failing = failedProbesBySerializer(probes);
    for (const [row, list] of Object.entries(failing))
      assert.equal(
        list.filter((f) => f.probe.endsWith('.missing-required')).length,
        0,
        `${row} is not failing a refusal its schema asks for`,
      );
    // numbers and a date-time: NaN, ±Infinity and an Invalid Date are asked (a service makes them before writing)
    for (const id of ['edge.number.NaN', 'edge.number.+Infinity', 'edge.date.invalid'])
      assert.ok(probes.relevantTo?.[id]?.includes('payload:user-samples'), id);
    // one-way libraries are not asked in the direction they lack (they were a third of the verdicts)
    assert.equal(
      probes.verdicts.filter((v) => v.serializer === 'fast-json-stringify' && v.direction === 'deserialize').length,
      0,
    );
    // size: 6 cases (a few KiB of raw samples each) and ~350 probes × ~8 cells of one line (~150 B) each:
    // well under 1 MiB; the new user's 2.6 KiB payload wrote 3.6 MB before
    const bytes = statSync(run.resultsPath).size;
    assert.ok(bytes < 768 * 1024, `results.json is ${bytes} bytes`);
    assert.ok(readFileSync(run.resultsPath, 'utf8').split('\n').length > 100, 'one line per case field and verdict');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
