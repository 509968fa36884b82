import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../../src/probes/index.js';
import { conformanceKind, conformanceProbes, exactValue } from '../../src/probes/catalog/conformance.js';
import { readConformanceFolder } from '../../src/probes/catalog/conformance-folder.js';
import {
  HOSTILE_CLASSES,
  HOSTILE_LENGTHS,
  hostileSamples,
  hostileString,
  ALL_HOSTILE_CHARS,
} from '../../src/probes/hostile-strings.js';
import { AVAILABLE, inexpressibleReason } from '../../src/probes/constructs.js';

/** The catalog: every family of issue 11 present, ids unique, hostile strings exactly as long as named. */

const fixtures = fileURLToPath(new URL('../../../test/fixtures/probes/conformance', import.meta.url));
const probes = loadCatalog({ conformance: readConformanceFolder(fixtures).set });

test('probe ids are unique across the catalog', () => {
  const seen = new Set<string>();
  for (const p of probes) {
    assert.ok(!seen.has(p.id), `duplicate probe id ${p.id}`);
    seen.add(p.id);
  }
});

test('every family of issue 11 has probes, and each probe has at least one side', () => {
  for (const f of ['feature', 'edge', 'string', 'structure', 'safety', 'conformance'])
    assert.ok(
      probes.some((p) => p.family === f),
      f,
    );
  for (const p of probes) assert.ok(p.serialize || p.deserialize, p.id);
});

test('the feature probes of the .NET studies are all there', () => {
  for (const id of [
    'feature.names.property',
    'feature.naming.snake_case',
    'feature.naming.kebab-case',
    'feature.naming.camelCase',
    'feature.indent.2',
    'feature.nested',
    'feature.converter.date-format',
    'feature.polymorphism',
    'feature.additional.default',
    'feature.additional.reject',
    'feature.additional.keep',
    'feature.required.missing',
    'feature.default',
  ]) {
    assert.ok(
      probes.some((p) => p.id === id),
      id,
    );
  }
});

test('structure probes hold every permutation of absent optional properties and both depths', () => {
  const optional = probes.filter((p) => p.id.startsWith('structure.optional.')).map((p) => p.id.split('.').pop());
  assert.deepEqual(optional.sort(), ['---', '--c', '-b-', '-bc', 'a--', 'a-c', 'ab-', 'abc']);
  for (const id of [
    'structure.depth.array.1000',
    'structure.depth.array.100000',
    'structure.depth.object.100000',
    'structure.large.50MB',
  ])
    assert.ok(
      probes.some((p) => p.id === id),
      id,
    );
});

test('hostile strings are exactly the length they are named with and hold every character of their class', () => {
  for (const cls of HOSTILE_CLASSES) {
    for (const length of HOSTILE_LENGTHS.filter((l) => l >= 40)) {
      const s = hostileString(cls, length)!;
      assert.equal(s.length, length, `${cls} at ${length}`);
    }
  }
  assert.ok(hostileString('controls', 41)!.includes('\u0000\u0001\u001f'.slice(0, 1)));
  assert.equal(
    hostileSamples().filter((s) => s.name.startsWith('controls.') && s.name.endsWith('.L1')).length,
    32,
    'every control character alone at length 1',
  );
  assert.equal(ALL_HOSTILE_CHARS.length, 47);
  for (const s of hostileSamples()) assert.equal(s.value.length, Number(/L(\d+)$/.exec(s.name)![1]), s.name);
});

test('a probe needing a construct the schema lacks is – for schema-reading adapters and runs on schema-free ones, unless only a schema could carry it', () => {
  // issue 24: the probe schemas state optional members and the date / time formats
  assert.deepEqual([...AVAILABLE].sort(), ['format-date', 'format-time', 'optional']);
  for (const id of ['structure.optional.a--', 'edge.undefined.member', 'string.value.date.controls.L41']) {
    const p = probes.find((x) => x.id === id);
    assert.ok(p, id);
    assert.equal(inexpressibleReason(p, { id: 'zod' }, p.serialize ? 'serialize' : 'deserialize'), null, id);
  }
  assert.deepEqual(probes.find((p) => p.id === 'structure.optional.a--')!.schema, {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'number' }, c: { type: 'boolean' } },
    optional: ['a', 'b', 'c'],
  });
  assert.deepEqual(probes.find((p) => p.id === 'string.value.date.controls.L41')!.schema, {
    type: 'object',
    properties: { s: { type: 'string', format: 'date' } },
  });
  const record = probes.find((p) => p.id === 'string.key.record.quote.L41')!;
  assert.match(inexpressibleReason(record, { id: 'zod' }, 'deserialize')!, /needs record/);
  assert.equal(inexpressibleReason(record, { id: 'json', readsSchema: false }, 'serialize'), null);
  const reject = probes.find((p) => p.id === 'feature.additional.reject')!;
  assert.match(
    inexpressibleReason(reject, { id: 'json', readsSchema: false }, 'serialize')!,
    /additional-properties-policy/,
  );
  assert.equal(
    inexpressibleReason(record, { id: 'mine', readsSchema: false }, 'serialize'),
    null,
    'an adapter may declare itself schema-free',
  );
});

test('the built-in adapters that never read the schema say so themselves (readsSchema: false), the others read it', async () => {
  const { serializers } = await import('../../src/serializers/index.js');
  const free = (await serializers.loadAll())
    .filter((a) => a.readsSchema === false)
    .map((a) => a.id)
    .sort();
  assert.deepEqual(free, ['json', 'safe-stable-stringify', 'secure-json-parse', 'superjson']);
});

test("conformance files are classified by the suites' naming, and any folder of them loads", () => {
  assert.equal(conformanceKind('y_array_empty.json'), 'accept');
  assert.equal(conformanceKind('n_array_extra_comma.json'), 'reject');
  assert.equal(conformanceKind('i_number_huge_exp.json'), 'either');
  assert.equal(conformanceKind('pass01.json'), 'accept');
  assert.equal(conformanceKind('fail18_EXCLUDE.json'), 'either');
  assert.equal(conformanceKind('fail02.json'), 'reject');
  assert.equal(conformanceKind('roundtrip27.json'), 'roundtrip');
  assert.equal(conformanceKind('README.txt'), null);
  const { set, skipped } = readConformanceFolder(fixtures);
  const loaded = conformanceProbes(set);
  assert.deepEqual(loaded.map((p) => p.id).sort(), [
    'conformance.roundtrip.roundtrip01',
    'conformance.roundtrip.roundtrip02',
    'conformance.suite.i_number_huge_exp',
    'conformance.suite.n_array_extra_comma',
    'conformance.suite.n_object_trailing_comma',
    'conformance.suite.y_array_empty',
    'conformance.suite.y_object_nested',
  ]);
  assert.deepEqual(
    skipped.map((s) => s.file),
    ['suite/n_string_invalid_utf8.json'],
  );
  assert.throws(() => readConformanceFolder(fileURLToPath(new URL('.', import.meta.url))), /no y_\/n_\/i_/);
  assert.throws(() => readConformanceFolder('/no/such/folder'), /conformance folder \/no\/such\/folder/);
  assert.ok(
    set.files.every((f) => !f.path.includes('\\') && conformanceKind(f.path.split('/').pop()!)),
    'paths are written with / and name conformance files only',
  );
});

test('a roundtrip file is read exactly: an integer a double cannot hold is expected as a BigInt', () => {
  assert.deepEqual(exactValue('[9223372036854775807]'), { value: [9223372036854775807n], exactInt64: true });
  assert.deepEqual(
    exactValue('[-9223372036854775808]'),
    { value: [-9223372036854775808], exactInt64: false },
    '-2^63 is exact as a double',
  );
  assert.deepEqual(exactValue('[1.2345]'), { value: [1.2345], exactInt64: false });
});

test('string probe titles say in words what the string holds and where it stands, never the id (issue 24: "a lone-high.L40 string as a plain value")', () => {
  const title = (id: string) => probes.find((p) => p.id === id)?.title;
  assert.equal(
    title('string.value.plain.lone-high.L40'),
    'a 40-character string holding unpaired high surrogates U+D800, U+DBFF (half an emoji, the other half missing) (one at its start, all at its end), as a plain string value',
  );
  assert.equal(
    title('string.value.date-time.controls.U+0000.L1'),
    'the single character U+0000 (NUL), as a date-time string value',
  );
  assert.equal(title('string.key.declared.empty.L0'), 'an empty string, as a property name the schema declares');
  assert.equal(
    title('string.key.record.non-bmp.L5000'),
    'a 5,000-character string holding characters beyond U+FFFF (the emoji U+1F600, the musical symbol U+1D11E) (one at its start, all at its end), as a key of an object used as a map',
  );
  for (const p of probes.filter((x) => x.family === 'string'))
    assert.doesNotMatch(p.title, /\.L\d|\bL\d+\b|lone-high|non-bmp|reversed-pair/, `${p.id}: ${p.title}`);
});
