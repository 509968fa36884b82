import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../../src/probes/index.js';
import { readConformanceFolder } from '../../src/probes/catalog/conformance-folder.js';
import { runProbe } from '../../src/probes/run-probe.js';
import { decideProbe } from '../../src/plan/probe-plan.js';
import { runProbeSession } from '../../src/run/probe-session.js';
import type { SerializerAdapter } from '../../src/serializers/types.js';
import type { Probe, ProbeDirection, Verdict } from '../../src/probes/types.js';

/**
 * The shelf of deliberately broken serializers (test/fixtures/probes/broken.mjs), one per probe
 * family: each is caught by the probe that targets its fault, with the right mark, fault and
 * path — and passes a probe it does not break, so the catch is the fault, not the fixture. Each
 * is judged here in-process (plan decision, then the probe side through prepareCase and the
 * judge) and again through `jsonbench probe`'s real workers, which must agree; the crash and the
 * hang can only be caught there.
 */

const configPath = fileURLToPath(new URL('../../../test/fixtures/probes/broken.mjs', import.meta.url));
const conformanceDir = fileURLToPath(new URL('../../../test/fixtures/probes/conformance', import.meta.url));
const shelf = new Map(
  ((await import(configPath)) as { default: { serializers: SerializerAdapter[] } }).default.serializers.map((a) => [
    a.id,
    a,
  ]),
);
const catalog = new Map(loadCatalog({ conformance: readConformanceFolder(conformanceDir).set }).map((p) => [p.id, p]));

function probe(id: string): Probe {
  const p = catalog.get(id);
  assert.ok(p, `no probe ${id} in the catalog`);
  return p;
}

async function verdict(serializer: string, id: string, direction: ProbeDirection): Promise<Verdict> {
  const adapter = shelf.get(serializer)!;
  const v = decideProbe(adapter, probe(id), direction) ?? (await runProbe(adapter, probe(id), direction));
  assert.ok(v, `${id} has no ${direction} side`);
  return v;
}

/** Each row: the fixture, the probe that catches it, the verdict expected, and a probe it passes. */
type Expected = { mark: Verdict['mark']; fault?: string; path?: string; expected?: string };
const caught: [string, string, ProbeDirection, Expected, string][] = [
  [
    'ignores-naming',
    'feature.naming.snake_case',
    'serialize',
    { mark: '✗', fault: 'silent-loss', path: '$.first_name' },
    'feature.nested',
  ],
  [
    'flat-indent',
    'feature.indent.2',
    'serialize',
    { mark: '✗', fault: 'wrong-value', expected: 'indented with 2 spaces' },
    'feature.nested',
  ],
  ['writes-infinity', 'edge.number.+Infinity', 'serialize', { mark: '✗', fault: 'invalid-json' }, 'edge.int.2^53-1'],
  [
    'no-escape',
    'string.value.plain.quote.U+0022.L1',
    'serialize',
    { mark: '✗', fault: 'invalid-json' },
    'string.value.plain.non-bmp.L41',
  ],
  [
    'long-unescaped',
    'string.value.plain.lone-high.L100',
    'serialize',
    { mark: '✗', fault: 'ill-formed' },
    'string.value.plain.lone-high.L41',
  ],
  [
    'leading-comma',
    'structure.nullable.-bc',
    'serialize',
    { mark: '✗', fault: 'invalid-json' },
    'structure.nullable.abc',
  ],
  [
    'merges-into-prototype',
    'safety.parse.undeclared.__proto__.plain',
    'deserialize',
    { mark: '✗', fault: 'pollution', path: 'Object.prototype' },
    'structure.nullable.abc',
  ],
  [
    'drops-dangerous-keys',
    'safety.declared.constructor',
    'serialize',
    { mark: '✗', fault: 'silent-loss', path: '$.constructor' },
    'feature.nested',
  ],
  [
    'lenient',
    'conformance.suite.n_array_extra_comma',
    'deserialize',
    { mark: '✗', fault: 'accepts-invalid' },
    'conformance.suite.y_object_nested',
  ],
  [
    'throws-on-backslash',
    'string.value.plain.backslash.U+005C.L1',
    'serialize',
    { mark: '⚠' },
    'string.value.plain.quote.U+0022.L1',
  ],
];

const pick = (v: Verdict | undefined, expected: Expected) =>
  Object.fromEntries(Object.keys(expected).map((k) => [k, (v as Record<string, unknown> | undefined)?.[k]]));

for (const [serializer, id, direction, expected, passes] of caught) {
  test(`the broken serializer ${serializer} is caught by ${id} (${expected.mark}${expected.fault ? ' ' + expected.fault : ''}) and passes ${passes}`, async () => {
    const v = await verdict(serializer, id, direction);
    assert.deepEqual(pick(v, expected), expected, JSON.stringify(v));
    assert.equal((await verdict(serializer, passes, direction)).mark, '✔');
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'the runner restored Object.prototype');
  });
}

test('a serializer that declares it cannot is ✘ with its own reason, never run; a direction it lacks is ✘ with its missingDirection', async () => {
  assert.deepEqual(await verdict('declares-cannot', 'feature.nested', 'serialize'), {
    mark: '✘',
    reason: 'declares-cannot handles nothing (fixture)',
  });
  assert.deepEqual(await verdict('lenient', 'feature.nested', 'serialize'), {
    mark: '✘',
    reason: 'lenient only deserializes',
  });
});

test(
  "through jsonbench probe's workers: every fixture gets the same verdict as in-process, a process that exits is ✗ crash for that probe only and a fresh worker runs the rest; a hang is ✗ hang and the serializer's probes left are skipped naming it",
  { timeout: 300_000 },
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'jsonbench-shelf-'));
    try {
      const ids = [...new Set(caught.flatMap(([s, id, , , passes]) => [id, passes]))];
      const extra = ['structure.depth.array.1000', 'structure.empty.member-array', 'structure.empty.root-object'];
      const run = await runProbeSession({
        config: configPath,
        out,
        conformance: conformanceDir,
        timeout: 10_000,
        cwd: out,
        serializer: [...caught.map(([s]) => s), 'exits-when-deep', 'hangs-when-empty', 'declares-cannot'],
        filter: `^(${[...ids, ...extra].map((i) => i.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`,
      });
      const section = run.results.probes!;
      const get = (s: string, p: string, d: ProbeDirection) =>
        section.verdicts.find((r) => r.serializer === s && r.probe === p && r.direction === d)?.verdict;
      for (const [serializer, id, direction, expected, passes] of caught) {
        assert.deepEqual(
          pick(get(serializer, id, direction), expected),
          expected,
          `${serializer} ${id} in a worker: ${JSON.stringify(get(serializer, id, direction))}`,
        );
        assert.equal(get(serializer, passes, direction)?.mark, '✔', `${serializer} ${passes} in a worker`);
      }
      const crash = get('exits-when-deep', 'structure.depth.array.1000', 'serialize');
      assert.equal(crash?.mark, '✗');
      assert.equal((crash as { fault: string }).fault, 'crash');
      assert.match((crash as { actual: string }).actual, /exit 3/);
      const hang = get('hangs-when-empty', 'structure.empty.member-array', 'serialize');
      assert.equal((hang as { fault: string }).fault, 'hang');
      assert.match((hang as { actual: string }).actual, /no answer within 10000 ms \(process killed\)/);
      assert.equal(
        get('exits-when-deep', 'structure.empty.member-array', 'serialize')?.mark,
        '✔',
        'a fresh worker ran the probes after the crash',
      );
      // as in a timed run's probe pass (issue 25): after a hang, each probe left would most likely cost a full timeout too
      const afterHang = section.verdicts.filter(
        (r) => r.serializer === 'hangs-when-empty' && 'reason' in r.verdict && r.verdict.reason.startsWith('skipped: '),
      );
      for (const r of afterHang)
        assert.equal(
          (r.verdict as { reason: string }).reason,
          'skipped: it hung on probe structure.empty.member-array (serialize)',
        );
      assert.equal(
        get('hangs-when-empty', 'structure.empty.root-object', 'serialize')?.mark,
        '✔',
        'judged before the hang',
      );
      assert.ok(section.launches >= caught.length + 2 + 1, `the crash cost a relaunch (${section.launches} launches)`);
      assert.deepEqual(get('declares-cannot', 'feature.nested', 'serialize'), {
        mark: '✘',
        reason: 'declares-cannot handles nothing (fixture)',
      });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);

test('a thrown value whose message never stops stringifying is described without calling it (hx37 a08: the probe side hung 120 s)', async () => {
  const endless = {
    id: 'endless-message',
    family: 'builtin',
    directions: ['serialize', 'deserialize'],
    deserializeClass: 'parse',
    supports: () => true,
    prepare: () => ({
      serialize: () => {
        throw {
          name: { toString: () => 'x' },
          message: {
            toString() {
              for (;;);
            },
          },
        };
      },
      deserialize: () => {
        throw new Proxy(
          {},
          {
            get: () => {
              throw new Error('trap');
            },
            getPrototypeOf: () => {
              throw new Error('trap');
            },
          },
        );
      },
    }),
  } as unknown as SerializerAdapter;
  const s = await runProbe(endless, probe('feature.nested'), 'serialize');
  assert.equal(s?.mark, '⚠');
  assert.match(s?.message ?? '', /a value of type object \(not an Error\)/);
  const d = await runProbe(endless, probe('feature.nested'), 'deserialize');
  assert.equal(d?.mark, '⚠');
});
