import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serializers } from '../../src/serializers/index.js';
import { inferSchema } from '../../src/payload/infer.js';
import { payloadProbesOf } from '../../src/probes/catalog/payload.js';
import { loadCatalog } from '../../src/probes/index.js';
import { runProbe } from '../../src/probes/run-probe.js';
import type { Probe, Verdict } from '../../src/probes/types.js';
import type { Direction } from '../../src/case/coordinates.js';
import type { MeasuredCase, ResultsFile } from '../../src/results/types.js';
import { payloadCosts } from '../../src/report/costs.js';

/**
 * Issue 24: each cost line of a recommendation is justified by a check on this payload. The
 * payload probes (probes/catalog/payload.ts) are built from a small API response and run, in this
 * process, through the real adapters and the probe judge; `payloadCosts` turns their verdicts into
 * the pick's cost lines. One test per kind of cost: a dropped key, a coerced number, a rounded
 * integer, enum drift; and a failure the baseline shares is no cost.
 */

const WORKLOAD = 'payload:geocode';
const response = { status: 'OK', count: 7, results: [{ id: 3, name: 'pen', score: 1.5 }] };
// with --enums, quicktype's rule types a string enum once enough samples repeat its values (12 here; 6 were not): all "OK"
const samples = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((id) => ({
  ...response,
  results: [{ id, name: `item ${id}`, score: id / 4 }],
}));
const sampled = samples.map((value) => ({ value, text: JSON.stringify(value) }));
const { schema } = await inferSchema(sampled, { enums: true });
const probes = payloadProbesOf({ workload: WORKLOAD, file: 'geocode.json', schema, sample: response }, 0);
const byKind = (kind: string) => probes.find((p) => p.id === `payload.0.${kind}`)!;

/** Verdict records of `serializer` on the probes, as a probe pass writes them. */
async function verdictsOf(serializer: string, direction: Direction, on: readonly Probe[] = probes) {
  const adapter = await serializers.load(serializer);
  const out: { probe: string; direction: Direction; serializer: string; target: string; verdict: Verdict }[] = [];
  for (const p of on) {
    const verdict = await runProbe(adapter, p, direction, new Map());
    if (verdict) out.push({ probe: p.id, direction, serializer, target: 'node', verdict });
  }
  return out;
}

/** A results file holding only what payloadCosts reads, and the pick's case. */
function picked(serializer: string, direction: Direction, baseline: string, verdicts: unknown[], on = probes) {
  const results = {
    probes: {
      probes: on.map((p) => ({ id: p.id, title: p.title })),
      verdicts,
      relevantTo: Object.fromEntries(on.map((p) => [p.id, [WORKLOAD]])),
    },
  } as unknown as ResultsFile;
  const c = { serializer, direction, baseline, workload: WORKLOAD, target: { id: 'node' } } as unknown as MeasuredCase;
  return payloadCosts(c, results).map((k) => k.text);
}

test('the payload probes are the sample and its drifts, each at the first place the schema allows it', () => {
  assert.deepEqual(
    probes.map((p) => p.title),
    [
      'geocode.json: your payload (one element per array)',
      'geocode.json: an extra key at $',
      'geocode.json: a key the samples always held, left out at $.status',
      'geocode.json: a number sent as a string at $.count',
      'geocode.json: a fraction in an integer field at $.count',
      'geocode.json: an enum value the samples never held at $.status',
      'geocode.json: a null where the samples held none at $.status',
    ],
  );
});

test('a dropped key: fast-json-stringify drops an extra key the samples never held, where JSON.stringify writes it', async () => {
  const verdicts = [
    ...(await verdictsOf('fast-json-stringify', 'serialize')),
    ...(await verdictsOf('json', 'serialize')),
  ];
  const costs = picked('fast-json-stringify', 'serialize', 'json', verdicts);
  assert.ok(
    costs.includes(
      'on geocode.json: an extra key at $: silent-loss at $.jsonbench_extra_key (JSON.stringify writes "added", it gives undefined (absent))',
    ),
    costs.join('\n'),
  );
});

test('a coerced number: fast-json-stringify writes the string "7" in an integer field as the number 7', async () => {
  const verdicts = [
    ...(await verdictsOf('fast-json-stringify', 'serialize')),
    ...(await verdictsOf('json', 'serialize')),
  ];
  const costs = picked('fast-json-stringify', 'serialize', 'json', verdicts);
  assert.ok(
    costs.includes(
      'on geocode.json: a number sent as a string at $.count: wrong-value at $.count (JSON.stringify writes "7", it gives 7)',
    ),
    costs.join('\n'),
  );
});

test('a rounded integer: fast-json-stringify writes 7.5 in an integer field as an integer', async () => {
  const verdicts = await verdictsOf('fast-json-stringify', 'serialize', [byKind('fraction-in-integer')]);
  const costs = picked('fast-json-stringify', 'serialize', 'json', verdicts, [byKind('fraction-in-integer')]);
  assert.equal(costs.length, 1);
  assert.match(
    costs[0],
    /^on geocode\.json: a fraction in an integer field at \$\.count: wrong-value at \$\.count \(JSON\.stringify writes 7\.5, it gives (7|8)\)$/,
  );
});

test('enum drift: zod, compiled from a schema that saw only "OK", rejects an unseen status where JSON.parse reads it: a cost, no failure', async () => {
  const on = [byKind('unseen-enum')];
  const verdicts = [...(await verdictsOf('zod', 'deserialize', on)), ...(await verdictsOf('json', 'deserialize', on))];
  assert.deepEqual(verdicts.find((v) => v.serializer === 'json')!.verdict, {
    mark: '✔',
    label: 'as JSON.parse reads it',
  });
  assert.deepEqual(verdicts.find((v) => v.serializer === 'zod')!.verdict, {
    mark: '✔',
    label: 'rejects a value of $.status that no sample held: the inferred schema makes it an enum of the values seen',
  });
  const costs = picked('zod', 'deserialize', 'json', verdicts, on);
  assert.deepEqual(costs, [
    'on geocode.json: an enum value the samples never held at $.status: it rejects a value of $.status that no sample held: the inferred schema makes it an enum of the values seen (JSON.parse reads it)',
  ]);
});

test('no enum in the schema, no enum-drift cost: by default inference keeps $.status a string, so no probe asks for an unseen value', async () => {
  const open = (await inferSchema(sampled)).schema;
  const ids = payloadProbesOf({ workload: WORKLOAD, file: 'geocode.json', schema: open, sample: response }, 0).map(
    (p) => p.id,
  );
  assert.equal(ids.includes('payload.0.unseen-enum'), false, ids.join(', '));
  assert.equal(ids.includes('payload.0.missing-required'), true);
});

test('a loss the baseline shares is no cost: -0 is written as 0 by JSON.stringify too', async () => {
  const minusZero = loadCatalog({ families: ['edge'] }).filter((p) => p.id === 'edge.number.-0');
  assert.equal(minusZero.length, 1);
  const verdicts = [
    ...(await verdictsOf('fast-json-stringify', 'serialize', minusZero)),
    ...(await verdictsOf('json', 'serialize', minusZero)),
  ];
  assert.deepEqual(
    verdicts.map((v) => [v.serializer, v.verdict.mark]),
    [
      ['fast-json-stringify', '✗'],
      ['json', '✗'],
    ],
  );
  assert.deepEqual(picked('fast-json-stringify', 'serialize', 'json', verdicts, minusZero), []);
  // against a baseline that keeps it, the same verdict is a cost
  const kept = verdicts.map((v) => (v.serializer === 'json' ? { ...v, verdict: { mark: '✔' } } : v));
  assert.equal(picked('fast-json-stringify', 'serialize', 'json', kept, minusZero).length, 1);
});
