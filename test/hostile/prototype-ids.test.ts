import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadUserConfig } from '../../src/config/user-config.js';
import { failedProbesBySerializer } from '../../src/results/probe-failures.js';
import { renderHtml } from '../../src/report/html/page.js';
import { scalingOptionFor } from '../../src/report/html/chart-data.js';
import { defaultState } from '../../src/report/html/rebase.js';
import { fixture } from '../report/support.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * hx23 A03, A03b, A03d, A10 (crash): a serializer id `__proto__`, `constructor` or `hasOwnProperty` was a key of
 * plain objects: `probe` threw away 1,583 verdicts ("out[r.serializer].push is not a function"), a run's probe pass
 * failed, report.html drew none of its charts and left the serializer out of its code table. A config refuses such
 * ids; a results file that holds one (forged, or older) is reported like any other name.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-prototype-ids-'));
after(() => rmSync(dir, { recursive: true, force: true }));

for (const id of ['__proto__', 'constructor', 'hasOwnProperty'])
  test(`a config serializer with the id ${id} is refused, naming it`, async () => {
    const file = join(dir, `${id}.config.mjs`);
    writeFileSync(
      file,
      `export default { serializers: [{ id: ${JSON.stringify(id)}, family: 'builtin', directions: ['serialize'], supports: () => true, prepare: () => ({ serialize: (v) => JSON.stringify(v) }) }] };\n`,
    );
    await assert.rejects(
      loadUserConfig(file, `${id}.config.mjs`),
      (e: Error) =>
        e instanceof ConfigError &&
        e.message.includes(`serializers[0].id: "${id}" is the name of a property every JavaScript object has`),
    );
  });

test('probe failures keyed by a serializer named __proto__ or constructor are kept', () => {
  const verdict = { mark: '✗' as const, fault: 'silent-loss' as const, expected: 'a', actual: 'b' };
  const out = failedProbesBySerializer({
    probes: [{ id: 'p1', title: 'a probe' }],
    verdicts: ['__proto__', 'constructor'].map((serializer) => ({
      probe: 'p1',
      direction: 'serialize' as const,
      serializer,
      target: 'node',
      verdict,
    })),
  } as unknown as Parameters<typeof failedProbesBySerializer>[0]);
  assert.deepEqual(Object.keys(out).sort(), ['__proto__', 'constructor']);
  assert.equal(out.constructor.length, 1);
});

test('report.html of results naming a serializer constructor draws its scaling chart and lists its code', () => {
  const r = JSON.parse(
    JSON.stringify(fixture('scaling')).replaceAll('fast-json-stringify', 'constructor'),
  ) as ResultsFile;
  const html = renderHtml(r, { chartLibrary: { name: 'stub', version: '0', license: 'MIT', source: '' }, script: '' });
  const data = JSON.parse(/<script type="application\/json" id="jb-data">([\s\S]*?)<\/script>/.exec(html)![1]);
  assert.ok(data.scaling.length > 0);
  const option = scalingOptionFor(data, 0, defaultState()) as { series: { name: string }[] };
  assert.ok(
    option.series.some((s) => s.name === 'constructor'),
    JSON.stringify(option.series.map((s) => s.name)),
  );
  assert.match(html, /<tr><th>constructor<\/th><td>/);
});
