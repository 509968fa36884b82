import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './support.js';
import type { ResultsFile } from '../../src/results/types.js';
import { escapeHtml, jsonForScript } from '../../src/report/html/escape.js';

/**
 * What reaches the user's screen and files (hostile tester hx1): `run --json` stdout holds the JSON
 * alone while config code prints (1.6), and bidirectional formatting characters from the data are
 * shown as escapes everywhere (3.2: U+202E and U+2066 reached the terminal, report.md and report.html).
 */

const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/hostile/hx1/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-output-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

test("run --json writes only JSON on stdout while a serializer's supports() prints: its output goes to stderr (hx1 1.6)", async () => {
  const ran = await cli([
    'run',
    '--json',
    '--config',
    fixture('hostspam.config.mjs'),
    '--serializer',
    'host-spam',
    '--workload',
    'weather-station',
    '--direction',
    'serialize',
    '--policy',
    'quick',
    '--no-probes',
    '--no-ledger',
    '--out',
    join(dir, 'spam'),
  ]);
  assert.equal(ran.code, 0, ran.stderr);
  const results = JSON.parse(ran.stdout) as ResultsFile;
  assert.equal(results.cases.find((c) => c.serializer === 'host-spam')?.status, 'measured');
  assert.match(ran.stderr, /noise from supports\(\)\nmore noise\n/);
});

test('bidi controls in payload keys are shown as escapes on the terminal, stderr, report.md and report.html (hx1 3.2)', async () => {
  const out = join(dir, 'bidi');
  const ran = await cli([
    'run',
    '--payload',
    fixture('bidi-keys.json'),
    '--serializer',
    'json',
    '--direction',
    'serialize',
    '--policy',
    'quick',
    '--no-probes',
    '--no-ledger',
    '--out',
    out,
  ]);
  assert.equal(ran.code, 0, ran.stderr);
  const md = readFileSync(join(out, 'report.md'), 'utf8');
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  for (const [where, text] of [
    ['stdout', ran.stdout],
    ['stderr', ran.stderr],
    ['report.md', md],
    ['report.html', html],
  ])
    assert.doesNotMatch(text, BIDI, `a raw bidi control in ${where}`);
  assert.match(ran.stderr, /found: \$\["user\\u202ENAME"\] was null/);
  // Markdown escapes the backslash (`\\u202E` renders as `\u202E`)
  assert.match(md, /\$\["user\\\\u202ENAME"\]/);
  assert.match(md, /\$\["\\\\u2066evil\\\\u2069"\]/);
  assert.match(html, /\$\[&quot;user\\u202ENAME&quot;\]/);
  // results.json keeps the data as it is: only what is shown is masked
  assert.match(readFileSync(join(out, 'results.json'), 'utf8'), /user\\u202eNAME|user\u202eNAME/);
});

test("the HTML report's escaper and its data block mask bidi controls: the page's script (tables, charts) gets the escape text, never the character", () => {
  assert.equal(escapeHtml('a\u202Eb<\u061c'), 'a\\u202Eb&lt;\\u061C');
  const data = jsonForScript({ id: 'evil\u2066x\u2069', [`k\u202E`]: 1 });
  assert.doesNotMatch(data, BIDI);
  assert.deepEqual(JSON.parse(data), { id: 'evil\\u2066x\\u2069', 'k\\u202E': 1 });
});

test('a line break in the --config file name or the --out folder shows as ␊: no line of its own that reads as jsonbench’s (hx15 CP-newline, OUT-newline)', async () => {
  const fake = 'jsonbench: verified: use evil-json (faster by 9.00x)';
  const config = join(dir, `y\n${fake}.config.mjs`);
  writeFileSync(config, 'export default {};\n');
  const ran = await cli(
    ['run', '--config', config, '--workload', 'weather-station', '--serializer', 'json', '--policy', 'quick'].concat([
      '--no-probes',
      '--no-ledger',
      '--out',
      join(dir, `x\n${fake}`),
    ]),
  );
  assert.equal(ran.code, 0, ran.stderr);
  const lines = `${ran.stdout}\n${ran.stderr}`.split('\n');
  assert.deepEqual(
    lines.filter((l) => l.startsWith('jsonbench: verified')),
    [],
  );
  assert.ok(lines.some((l) => l.startsWith('config: ') && l.includes(`y␊${fake}.config.mjs`)));
  assert.ok(lines.some((l) => l.startsWith('results: ') && l.includes(`x␊${fake}/results.json`)));
});
