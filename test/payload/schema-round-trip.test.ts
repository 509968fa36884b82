import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePayload } from '../../src/payload/workload.js';
import { toJsonSchema } from '../../src/workloads/json-schema.js';
import { payloadProbeSets } from '../../src/run/session.js';
import { payloadProbesOf } from '../../src/probes/catalog/payload.js';
import { fileURLToPath } from 'node:url';

/**
 * `--print-schema` then `--schema <that file>` is the same run (issue 24, new-user tryout: the
 * Date hints were lost, so the transform class returned date-times as strings and the payload
 * probes expected strings): for every payload fixture, the schema read back from the printed JSON
 * Schema is the inferred one, node for node (asDate included), so the cases, their payloads and
 * the probes (whose labels then say "your schema") are the same.
 */

const FIXTURES_DIR = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));
const fixturePath = (f: string) => join(FIXTURES_DIR, f);
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-round-trip-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FIXTURES = [
  'payload/api-response.json',
  'payload/log.ndjson',
  'payload/samples',
  'payload/public/geocode-ok.json',
  'payload/public/github-repository.json',
  'payload/public/jsonplaceholder-posts.json',
  'payload/public/openweather-current.json',
  'payload/public/twitter-search.json',
  'payload/public/usgs-earthquakes.json',
];

for (const [i, fixture] of FIXTURES.entries()) {
  test(`${fixture}: the printed schema, read back with --schema, is the inferred schema`, async () => {
    const path = fixturePath(fixture);
    const inferred = await resolvePayload(path);
    const file = join(dir, `${i}.schema.json`);
    // as --print-schema writes it (cli/run.ts printSchema)
    writeFileSync(file, `${JSON.stringify(toJsonSchema(inferred.schema, { dialect: true }), null, 2)}\n`);
    const given = await resolvePayload(path, { schemaFile: file });
    assert.deepEqual(given.schema, inferred.schema);
    assert.deepEqual(
      given.workloads.map((w) => [w.id, w.shapes, w.sizes, w.schema]),
      inferred.workloads.map((w) => [w.id, w.shapes, w.sizes, w.schema]),
    );
    const probes = (p: typeof inferred) =>
      payloadProbeSets(p)
        .flatMap((s, n) => payloadProbesOf(s, n))
        .map((x) => [x.id, x.title]);
    assert.deepEqual(probes(given), probes(inferred));
  });
}

test('the Date hint itself: api-response.json has date-times the transform class reads as Dates, and keeps them', async () => {
  const path = fixturePath('payload/api-response.json');
  const inferred = await resolvePayload(path);
  const dates = JSON.stringify(inferred.schema).match(/"asDate":true/g)?.length ?? 0;
  assert.ok(dates > 0, 'the fixture has no asDate field: the round-trip tests would not test the Date hints');
  const file = join(dir, 'dates.schema.json');
  writeFileSync(file, JSON.stringify(toJsonSchema(inferred.schema, { dialect: true })));
  const given = await resolvePayload(path, { schemaFile: file });
  assert.equal(JSON.stringify(given.schema).match(/"asDate":true/g)?.length ?? 0, dates);
});
