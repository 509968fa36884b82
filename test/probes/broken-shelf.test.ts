import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../../src/probes/index.js';
import { runProbe } from '../../src/probes/run-probe.js';
import { runProbes } from '../../src/probes/runner.js';
import { configSerializers } from '../../src/probes/child.js';
import type { Probe, ProbeDirection, Verdict } from '../../src/probes/types.js';

/**
 * The shelf of deliberately broken serializers (test/fixtures/probes/broken.mjs), one per probe
 * family: each is caught by the probe that targets its fault, with the right mark, fault and
 * path — and passes a probe it does not break, so the catch is the fault, not the fixture.
 * The crash and hang fixtures run through the child-process runner.
 */

const configPath = fileURLToPath(new URL('../../../test/fixtures/probes/broken.mjs', import.meta.url));
const conformanceDir = fileURLToPath(new URL('../../../test/fixtures/probes/conformance', import.meta.url));
const shelf = new Map((await configSerializers(configPath)).map((a) => [a.id, a]));
const catalog = new Map(loadCatalog({ conformanceDir }).probes.map((p) => [p.id, p]));

function probe(id: string): Probe {
  const p = catalog.get(id);
  assert.ok(p, `no probe ${id} in the catalog`);
  return p;
}

async function verdict(serializer: string, id: string, direction: ProbeDirection): Promise<Verdict> {
  const v = await runProbe(shelf.get(serializer)!, probe(id), direction);
  assert.ok(v, `${id} has no ${direction} side`);
  return v;
}

/** Each row: the fixture, the probe that catches it, the verdict expected, and a probe it passes. */
type Expected = { mark: Verdict['mark']; fault?: string; path?: string; expected?: string };
const caught: [string, string, ProbeDirection, Expected, string][] = [
  ['ignores-naming', 'feature.naming.snake_case', 'serialize', { mark: '✗', fault: 'silent-loss', path: '$.first_name' }, 'feature.nested'],
  ['flat-indent', 'feature.indent.2', 'serialize', { mark: '✗', fault: 'wrong-value', expected: 'indented with 2 spaces' }, 'feature.nested'],
  ['writes-infinity', 'edge.number.+Infinity', 'serialize', { mark: '✗', fault: 'invalid-json' }, 'edge.int.2^53-1'],
  ['no-escape', 'string.value.plain.quote.U+0022.L1', 'serialize', { mark: '✗', fault: 'invalid-json' }, 'string.value.plain.non-bmp.L41'],
  ['long-unescaped', 'string.value.plain.lone-high.L100', 'serialize', { mark: '✗', fault: 'ill-formed' }, 'string.value.plain.lone-high.L41'],
  ['leading-comma', 'structure.nullable.-bc', 'serialize', { mark: '✗', fault: 'invalid-json' }, 'structure.nullable.abc'],
  ['merges-into-prototype', 'safety.parse.undeclared.__proto__.plain', 'deserialize', { mark: '✗', fault: 'pollution', path: 'Object.prototype' }, 'structure.nullable.abc'],
  ['drops-dangerous-keys', 'safety.declared.constructor', 'serialize', { mark: '✗', fault: 'silent-loss', path: '$.constructor' }, 'feature.nested'],
  ['lenient', 'conformance.suite.n_array_extra_comma', 'deserialize', { mark: '✗', fault: 'accepts-invalid' }, 'conformance.suite.y_object_nested'],
  ['throws-on-backslash', 'string.value.plain.backslash.U+005C.L1', 'serialize', { mark: '⚠' }, 'string.value.plain.quote.U+0022.L1'],
];

for (const [serializer, id, direction, expected, passes] of caught) {
  test(`the broken serializer ${serializer} is caught by ${id} (${expected.mark}${expected.fault ? ' ' + expected.fault : ''}) and passes ${passes}`, async () => {
    const v = await verdict(serializer, id, direction);
    assert.deepEqual(Object.fromEntries(Object.keys(expected).map((k) => [k, (v as Record<string, unknown>)[k]])), expected, JSON.stringify(v));
    assert.equal((await verdict(serializer, passes, direction)).mark, '✔');
    assert.equal(({}as Record<string, unknown>).polluted, undefined, 'the runner restored Object.prototype');
  });
}

test('a serializer that declares it cannot is ✘ with its own reason, never run', async () => {
  const v = await verdict('declares-cannot', 'feature.nested', 'serialize');
  assert.deepEqual(v, { mark: '✘', reason: 'declares-cannot handles nothing (fixture)' });
});

test('a process that exits on deep input is ✗ crash for that probe only; a hang is ✗ hang; the rest still run', async () => {
  const run = await runProbes({
    configPath, serializers: ['exits-when-deep', 'hangs-when-large'], families: ['structure'],
    filter: /^structure\.(depth\.array\.1000|large\.50MB|empty\.member-array)$/, timeoutMs: 20_000,
  });
  const get = (s: string, p: string, d: ProbeDirection) => run.results.find((r) => r.serializer === s && r.probe === p && r.direction === d)?.verdict;
  const crash = get('exits-when-deep', 'structure.depth.array.1000', 'serialize');
  assert.equal(crash?.mark, '✗');
  assert.equal((crash as { fault: string }).fault, 'crash');
  assert.match((crash as { actual: string }).actual, /exit 3/);
  const hang = get('hangs-when-large', 'structure.large.50MB', 'serialize');
  assert.equal((hang as { fault: string }).fault, 'hang');
  assert.equal(get('exits-when-deep', 'structure.empty.member-array', 'serialize')?.mark, '✔', 'a fresh child ran the probes after the crash');
  assert.equal(get('hangs-when-large', 'structure.empty.member-array', 'serialize')?.mark, '✔', 'a fresh child ran the probes after the hang');
});
