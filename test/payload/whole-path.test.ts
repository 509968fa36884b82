import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolvePayload, payloadTexts, type ResolvedPayload } from '../../src/payload/workload.js';
import { serializers } from '../../src/serializers/index.js';
import { planCases } from '../../src/plan/plan.js';
import { userVariantText } from '../../src/plan/payloads.js';
import { policies, type RunPolicy } from '../../src/config/policies.js';
import { prepareCase } from '../../src/measure/prepare-case.js';
import { resolveRunRequest } from '../../src/run/request.js';
import { runSession } from '../../src/run/session.js';
import { recommend } from '../../src/report/recommend.js';
import { readResults } from '../../src/results/io.js';
import type { Direction } from '../../src/case/coordinates.js';

/**
 * Issue 10's whole path on payloads: file → inferred schema → every built-in serializer → gate →
 * results → recommendation.
 *
 * The gate matrix runs every planned case the way a worker does (planCases, the payload file's
 * own text and the generated variant from payloadTexts, prepareCase's check), in this process:
 * measuring adds nothing to "which serializers run on this payload, and which are unsupported for
 * what construct". One run goes through the session and real workers, under a tiny policy (its
 * numbers are not under test), to the results file and the recommendation.
 *
 * Fixtures: test/fixtures/payload (written by make-fixtures.mjs there: a nested API response with
 * optional keys, always-null fields, an always-empty array, objects used as a map, a string|number
 * union, a tagged union of attachments, integers beyond 2^53, date-times, dates and times; an NDJSON
 * log with an optional error object and a nullable user), and ../shared/data/corpus's
 * citm_catalog.json and canada.json when present (skipped with a message when absent).
 */

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/payload/', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../../../shared/data/corpus/', import.meta.url));
const SEED = 42;
const cache = mkdtempSync(join(tmpdir(), 'jsonbench-whole-path-'));
process.env.JSONBENCH_CACHE = cache;
after(() => rmSync(cache, { recursive: true, force: true }));
const adapters = await serializers.loadAll();

/**
 * The one-way libraries' own reasons (a library without a serializer or a parser), and
 * class-transformer's deserializer, which converts without validating (not measured in the transform class: hx1 1.2).
 */
const ONE_WAY: Record<string, string> = {
  'class-transformer/deserialize':
    'class-transformer converts but does not validate (a wrong type is passed through): the transform class checks types, so its deserializer is not measured there (class-validator would add the checks)',
  'typebox/serialize': 'TypeBox validates; it has no serializer',
  'zod/serialize': 'validator: deserialize only (zod does not write JSON)',
  'valibot/serialize': 'validator: deserialize only (valibot does not write JSON)',
  'arktype/serialize': 'validator: deserialize only (arktype does not write JSON)',
  'secure-json-parse/serialize': 'secure-json-parse parses only; it has no serializer',
  'fast-json-stringify/deserialize': 'fast-json-stringify serializes only; it has no parser',
  'safe-stable-stringify/deserialize': 'safe-stable-stringify serializes only; it has no parser',
};

/**
 * Every built-in × direction × shape of a payload, as `serializer/direction/shape` →
 * `passed (class)` (the gate passed on the payload file and on the generated variant),
 * `unsupported: reason`, `incorrect: reason` or `failed: message`.
 */
async function gateMatrix(payload: ResolvedPayload): Promise<Record<string, string>> {
  const directions: Direction[] = ['serialize', 'deserialize'];
  const groups = planCases(
    {
      workloads: payload.workloads,
      serializers: adapters,
      directions,
      policy: policies.quick,
      ...(payload.scaledSizes ? { sizes: payload.scaledSizes } : {}),
    },
    adapters,
  );
  const out: Record<string, string> = {};
  // the texts once per workload and size, as the session writes them once (generating the variant is the slow part)
  const texts = new Map<string, { text: string; variant: string }>();
  for (const c of groups.flat()) {
    const key = `${c.serializer}/${c.direction}/${c.shape}`;
    if (c.status !== 'planned') {
      out[key] = `${c.status}: ${c.reason}`;
      continue;
    }
    const workload = payload.workloads.find((w) => w.id === c.workload)!;
    const at = `${c.workload}/${c.size}`;
    if (!texts.has(at)) {
      // the variant as the session writes it: with hostile strings in its plain-string fields (run/session.ts)
      const t = payloadTexts(payload, workload, c.size, SEED);
      texts.set(at, { text: t.text, variant: t.variantNote ? t.variant : userVariantText(workload, t.variant) });
    }
    const { text, variant } = texts.get(at)!;
    try {
      const prepared = await prepareCase(
        adapters.find((a) => a.id === c.serializer)!,
        workload,
        c,
      );
      const failure = prepared.check(text) ?? prepared.check(variant);
      out[key] = failure ? `incorrect: ${failure.reason}` : `passed (${c.caseClass})`;
    } catch (e) {
      out[key] = `failed: ${(e as Error).message}`;
    }
  }
  return out;
}

/** What a payload of `shapes` gives when every built-in passes, with `unsupported` reasons per `serializer/direction`. */
function expectedMatrix(shapes: string[], unsupported: Record<string, string> = {}): Record<string, string> {
  const cls: Record<string, string> = {
    json: 'parse',
    'secure-json-parse': 'parse',
    superjson: 'parse',
    typia: 'validate',
    typebox: 'validate',
    'ajv-jtd': 'validate',
    zod: 'transform',
    valibot: 'transform',
    arktype: 'transform',
    'class-transformer': 'transform',
  };
  const out: Record<string, string> = {};
  for (const a of adapters)
    for (const d of ['serialize', 'deserialize'])
      for (const shape of shapes) {
        const why = unsupported[`${a.id}/${d}`] ?? ONE_WAY[`${a.id}/${d}`];
        out[`${a.id}/${d}/${shape}`] = why
          ? `unsupported: ${why}`
          : `passed (${d === 'serialize' ? 'serialize' : cls[a.id]})`;
      }
  return out;
}

const sorted = (r: Record<string, string>) =>
  Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));
const serializersThat = (m: Record<string, string>, prefix: string) =>
  [
    ...new Set(
      Object.entries(m)
        .filter(([, v]) => v.startsWith(prefix))
        .map(([k]) => k.split('/')[0]),
    ),
  ].sort();

/**
 * ajv JTD's serializer writes a lone surrogate raw (not well-formed Unicode): the gate's variant of a
 * user's payload carries hostile strings as the built-in workloads' do, so it is incorrect on every
 * payload with a plain string field. Checks that and writes the reason into `expected`.
 */
function ajvJtdIncorrect(got: Record<string, string>, expected: Record<string, string>, shapes: string[]) {
  for (const shape of shapes) {
    const key = `ajv-jtd/serialize/${shape}`;
    assert.match(got[key] ?? '', /^incorrect: output is not well-formed Unicode.*a lone surrogate U\+D800/, key);
    expected[key] = got[key];
  }
  return expected;
}

test('a nested API response: 11 of 12 built-ins pass the gate; ajv JTD is unsupported for the string|number union, naming the path', async () => {
  const payload = await resolvePayload(join(FIXTURES, 'api-response.json'));
  assert.deepEqual(
    payload.findings.map((f) => `${f.kind} ${f.path}`),
    [
      'integer beyond 2^53 $.statuses[].id',
      'always null $.statuses[].inReplyToId',
      'always null $.statuses[].editedAt',
      'always empty $.statuses[].mediaAttachments',
      'discriminated union $.statuses[].attachments[]',
    ],
  );
  const got = await gateMatrix(payload);
  assert.deepEqual(
    sorted(got),
    sorted(
      expectedMatrix(['single'], {
        'ajv-jtd/serialize':
          'ajv JTD has no union of integer and string (only discriminated unions of objects) at $.statuses[].score',
        'ajv-jtd/deserialize':
          'ajv JTD has no union of integer and string (only discriminated unions of objects) at $.statuses[].score',
      }),
    ),
  );
  assert.deepEqual(
    serializersThat(got, 'passed'),
    adapters
      .map((a) => a.id)
      .filter((id) => id !== 'ajv-jtd')
      .sort(),
  );
});

test('an NDJSON log, as one array (list) and record by record (many): all 12 built-ins pass the gate but ajv JTD serialize (lone surrogates raw)', async () => {
  // both shapes asked (--shape list,many); without --shape an NDJSON file is measured as many (issue 24)
  const payload = await resolvePayload(join(FIXTURES, 'log.ndjson'), { shapes: ['list', 'many'] });
  assert.deepEqual(
    payload.workloads.map((w) => `${w.id} ${w.sizes.join(',')} ${w.shapes.join(',')}`),
    ['payload:log 40 list,many'],
  );
  const got = await gateMatrix(payload);
  assert.deepEqual(sorted(got), sorted(ajvJtdIncorrect(got, expectedMatrix(['list', 'many']), ['list', 'many'])));
  assert.equal(serializersThat(got, 'passed').length, 12);
});

test('--size on a single document: records of its shape are generated from its schema, the same text for the same seed', async () => {
  const payload = await resolvePayload(join(FIXTURES, 'samples', 'page-1.json'), { sizes: [3] });
  const [w] = payload.workloads;
  // records generated for --size are one response of that many (list) unless --shape says otherwise (issue 24)
  assert.deepEqual([w.sizes, w.shapes, w.payloadText], [[3], ['list'], 'ndjson']);
  const a = payloadTexts(payload, w, 3, SEED);
  assert.equal(a.generated, true);
  assert.equal(a.text.trimEnd().split('\n').length, 3);
  assert.equal(payloadTexts(payload, w, 3, SEED).text, a.text, 'deterministic under the seed');
  assert.notEqual(payloadTexts(payload, w, 3, SEED + 7).text, a.text, 'another seed, other records');
  assert.notEqual(a.variant, a.text, "the gate's second payload differs from the first");
});

for (const name of ['citm_catalog', 'canada']) {
  const file = `${CORPUS}${name}.json`;
  const skip = existsSync(file) ? false : `${file} is absent (the shared corpus lives beside the project, not in it)`;
  test(
    `${name}.json: all 12 built-ins pass the gate through the inferred schema but ajv JTD serialize (lone surrogates raw); only the one-way libraries are unsupported`,
    { skip },
    async () => {
      const got = await gateMatrix(await resolvePayload(file));
      assert.deepEqual(sorted(got), sorted(ajvJtdIncorrect(got, expectedMatrix(['single']), ['single'])));
      assert.equal(serializersThat(got, 'passed').length, 12);
    },
  );
}

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

test('the session on a payload file: workers measure what the gate passed, the results file records the payload, and every direction × class gets a recommendation', async () => {
  const out = mkdtempSync(join(tmpdir(), 'jsonbench-payload-run-'));
  try {
    const { request, release } = await resolveRunRequest({
      payload: join(FIXTURES, 'api-response.json'),
      serializer: ['fast-json-stringify', 'ajv-jtd', 'typia'],
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
      Object.fromEntries(
        results.cases.map((c) => [
          `${c.serializer}/${c.direction}/${c.class}`,
          c.status === 'unsupported' || c.status === 'failed' ? `${c.status}: ${c.reason}` : c.status,
        ]),
      ),
      {
        'json/serialize/serialize': 'measured',
        'fast-json-stringify/serialize/serialize': 'measured',
        'typia/serialize/serialize': 'measured',
        'ajv-jtd/serialize/serialize':
          'unsupported: ajv JTD has no union of integer and string (only discriminated unions of objects) at $.statuses[].score',
        'typebox/deserialize/validate': 'measured',
        'typia/deserialize/validate': 'measured',
        'fast-json-stringify/deserialize/parse': 'unsupported: fast-json-stringify serializes only; it has no parser',
        'ajv-jtd/deserialize/validate':
          'unsupported: ajv JTD has no union of integer and string (only discriminated unions of objects) at $.statuses[].score',
      },
    );
    const bytes = readFileSync(join(FIXTURES, 'api-response.json'));
    const [p] = results.payloads!;
    assert.deepEqual(
      [p.workload, p.file, p.kind, p.bytes, p.units, p.schema.source],
      ['payload:api-response', 'api-response.json', 'document', bytes.length, 1, 'inferred'],
    );
    assert.ok(
      results.cases.every((c) => c.payload.bytes === bytes.length),
      "every case measured the user's bytes, not a re-written text",
    );
    assert.deepEqual(
      readFileSync(join(out, 'payloads', 'payload_api-response-1.json')),
      bytes,
      "the payload file is the user's file, byte for byte",
    );
    const recs = recommend(results);
    assert.deepEqual(
      recs.map((r) => `${r.direction}/${r.caseClass} against ${r.baseline}`),
      ['serialize/serialize against json', 'deserialize/validate against typebox'],
    );
    for (const r of recs)
      assert.match(
        r.sentence,
        /^For (serializing|parsing .*) api-response\.json \(12\.6 KiB document\) on node \S+, (use|only|keep the built-in JSON\.(stringify|parse): |keep the baseline, \S+: )/,
      );
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    assert.ok(
      md.indexOf('## Recommendation') < md.indexOf('## payload:api-response'),
      'report.md opens with the recommendation',
    );
    assert.ok(readFileSync(join(out, 'report.html'), 'utf8').includes('<section class="recommendation">'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
