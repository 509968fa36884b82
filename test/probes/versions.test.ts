import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureVersion } from '../../src/versions/install.js';
import { runProbeSession } from '../../src/run/probe-session.js';
import { versionChanges } from '../../src/report/probes.js';
import { renderProbesTerminal } from '../../src/report/probes-text.js';

/**
 * Probes on every version of a version matrix (issue 11): fast-json-stringify before 7 wrote a
 * `format: date-time` string between quotes without escaping it (lib/serializer.js `asDateTime`:
 * `'"' + date + '"'`); 7 escapes it (`asString`). `jsonbench probe --serializer
 * fast-json-stringify,fast-json-stringify@6.0.1` shows the fix as a changed verdict. 6.0.1 is
 * installed from the npm registry into the real cache (shared with test/versions/); skips when
 * npm cannot reach it.
 */

let skip: string | false = false;
try {
  ensureVersion('fast-json-stringify', '6.0.1');
} catch (e) {
  skip = `cannot install fast-json-stringify@6.0.1 from npm: ${(e as Error).message}`;
}

test(
  'a verdict that changes between versions shows: fast-json-stringify 6.0.1 writes a date-time string holding a quote as invalid JSON, 7 escapes it',
  { skip, timeout: 120_000 },
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'jsonbench-probe-versions-'));
    try {
      const run = await runProbeSession({
        serializer: ['fast-json-stringify', 'fast-json-stringify@6.0.1'],
        filter: '^string\\.value\\.(date-time|plain)\\.quote\\.U\\+0022\\.L1$',
        out,
        cwd: out,
      });
      const section = run.results.probes!;
      const own = section.verdicts.find((v) => v.serializer === 'fast-json-stringify')!;
      assert.match(own.serializerVersion, /^7\./, 'the built-in row is version 7');
      const changes = versionChanges(section);
      assert.deepEqual(
        changes.map((c) => [
          c.probe,
          c.direction,
          c.verdicts.map((v) => `${v.version} ${v.verdict.mark === '✗' ? `✗ ${v.verdict.fault}` : v.verdict.mark}`),
        ]),
        [
          [
            'string.value.date-time.quote.U+0022.L1',
            'serialize',
            [`${own.serializerVersion} ✔`, '6.0.1 ✗ invalid-json'],
          ],
        ],
        'the plain-string probe passes on both versions; only the date-time one changed',
      );
      assert.equal(
        section.failing?.['fast-json-stringify@6.0.1']?.[0]?.probe,
        'string.value.date-time.quote.U+0022.L1',
      );
      assert.equal(section.failing?.['fast-json-stringify'], undefined);
      const text = renderProbesTerminal(run.results);
      assert.match(text, /Verdicts that change between versions \(1\)/);
      assert.match(text, /string\.value\.date-time\.quote\.U\+0022\.L1 .*✔ .*✗ invalid-json/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
);
