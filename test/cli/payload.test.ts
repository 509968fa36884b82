import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults } from '../../src/results/io.js';

/**
 * `jsonbench run --payload` from the command line (issue 10): `--print-schema` and `--schema`
 * (a JSON Schema file round trip, a zod module with what did not convert), usage errors naming
 * the flag or the file and position, and one real run on the project's API response fixture,
 * narrowed to one serializer and one direction under the quick policy (its numbers are not under
 * test). Spawns `node bin/jsonbench.js` (run `npm run build` first) in a temporary folder.
 */

const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/payload/', import.meta.url));
const API = join(FIXTURES, 'api-response.json');
const root = mkdtempSync(join(tmpdir(), 'jsonbench-cli-payload-'));
/**
 * `jsonbench run` of the API fixture at the quick policy, `serializer` serializing (default: the README's first
 * command's fast-json-stringify), with `more` arguments, into `out`.
 */
const payloadRun = (out: string, serializer = 'fast-json-stringify', ...more: string[]) => [
  'run',
  '--payload',
  API,
  '--policy',
  'quick',
  '--serializer',
  serializer,
  '--direction',
  'serialize',
  ...more,
  '--out',
  out,
];
after(() => rmSync(root, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with piped stdio, without colour and without a ledger; never rejects. */
function cli(args: string[]): Promise<Ran> {
  // COLUMNS: messages are matched whole, never wrapped (the widths: width.test.ts)
  const env = {
    ...process.env,
    JSONBENCH_LEDGER: 'off',
    NO_COLOR: '1',
    COLUMNS: '1000',
    JSONBENCH_CACHE: join(root, 'cache'),
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: root, env, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

test('--print-schema writes the inferred schema as JSON Schema 2020-12 and what inference found; passed back with --schema it prints the same schema', async () => {
  const first = await cli(['run', '--payload', API, '--print-schema']);
  assert.equal(first.code, 0, first.stderr);
  const schema = JSON.parse(first.stdout) as { $schema: string; properties: Record<string, unknown> };
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.deepEqual(Object.keys(schema.properties), ['page', 'statuses', 'accountsById']);
  assert.match(
    first.stderr,
    /^jsonbench: found: 12 integers beyond 2\^53 at \$\.statuses\[\]\.id: JSON\.parse rounds them/m,
  );
  const file = join(root, 'response.schema.json');
  writeFileSync(file, first.stdout);
  const again = await cli(['run', '--payload', API, '--schema', file, '--print-schema']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, first.stdout);
  assert.equal(again.stderr, '', "a user's schema has no inference findings, and everything converted");
});

test('--schema takes a module exporting a zod schema and says which constructs did not convert, with their paths', async () => {
  // a payload the schema fits (a --schema the payload does not fit is refused before anything runs)
  const doc = join(root, 'zod-doc.json');
  writeFileSync(
    doc,
    JSON.stringify({
      id: '3f0c2a4e-8b1d-4c6e-9f2a-1b2c3d4e5f60',
      count: 3,
      createdAt: '2024-01-01T00:00:00.000Z',
      tags: ['x'],
      kind: 'a',
      note: null,
    }),
  );
  const r = await cli([
    'run',
    '--payload',
    doc,
    '--schema',
    join(FIXTURES, 'schemas', 'zod-schema.mjs'),
    '--print-schema',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stderr,
    'jsonbench: not converted (2; every serializer here is built from the schema without them, so what they check or convert is not in the times): date at $.createdAt: Date cannot be represented in JSON Schema; pattern at $.id\n',
  );
  assert.deepEqual(Object.keys((JSON.parse(r.stdout) as { properties: object }).properties), [
    'id',
    'count',
    'createdAt',
    'tags',
    'kind',
    'note',
  ]);
});

test('usage errors exit 2 before anything runs, naming the flag, or the file and the position of bad JSON', async () => {
  const bad = join(root, 'bad.json');
  writeFileSync(bad, '{\n  "a": 1,\n  "b": tru\n}\n');
  const cases: [string[], RegExp][] = [
    [
      ['run', '--payload', API, '--workload', 'users'],
      /--workload: choose either built-in workloads \(--workload\) or your payload \(--payload\), not both/,
    ],
    [['run', '--payload', bad], new RegExp(`--payload: ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:8`)],
    [['run', '--print-schema'], /--print-schema: prints the schema of a payload: give --payload FILE too/],
    [['run', '--payload', API, '--size', '0'], /--size: "0" is not a positive integer/],
    // hx19 Q01: launched the baseline alone, then "nothing was measured", exit 1
    [
      ['run', '--payload', API, '--serializer', 'fast-json-stringify', '--direction', 'deserialize'],
      /--direction: deserialize: none of --serializer goes that way \(fast-json-stringify serializes only\), so there is nothing to measure/,
    ],
    // hx18 A25: accepted, then generated for 12 minutes at 4 GB
    [
      ['run', '--payload', API, '--size', '1e9'],
      /--size: 1,000,000,000 records of about [\d,]+ bytes each would be a payload of about [\d.]+ [KMGT]iB, over the 500 MiB a payload may be \(--max-payload raises it\)/,
    ],
  ];
  for (const [args, message] of cases) {
    const r = await cli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
});

test("the README's first command: run --payload FILE measures the user's bytes, says what inference found, and ends with the recommendation", async () => {
  const out = join(root, 'run');
  const r = await cli(payloadRun(out));
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /^jsonbench: payload .*api-response\.json: one document; schema inferred from it \(review it with --print-schema\)$/m,
  );
  assert.match(
    r.stderr,
    /^jsonbench: found: \$\.statuses\[\]\.mediaAttachments was empty in all 12 arrays: its item type is unknown$/m,
  );
  const at = r.stdout.indexOf('\nRecommendation\n');
  assert.ok(
    at > 0 && at > r.stdout.indexOf('payload:api-response · 1 · single · serialize'),
    'the recommendation comes after the tables',
  );
  // the sentence is wrapped to the width (100 when piped): its continuation lines joined back
  assert.match(
    r.stdout.slice(at).replace(/\n {2}(?=\S)/g, ' '),
    /\nserialize: For serializing api-response\.json \(12\.6 KiB document\) on node \S+, (use fast-json-stringify 7\.3\.10 \(faster by \S+×\): \S+× \(99\.9% CI \S+×\) the time|keep the built-in JSON\.stringify: (the other serializer is (clearly slower|not faster)|(borderline, )?fast-json-stringify looks \S+×|no clear winner, the other serializer is not clearly faster|too uncertain to call, fast-json-stringify takes \S+× its time))/,
  );
  const results = readResults(join(out, 'results.json'));
  assert.deepEqual(
    results.cases.map((c) => `${c.serializer} ${c.status}`),
    ['json measured', 'fast-json-stringify measured'],
  );
  // stdout and stderr apart (two pipes): each names results.json once, stderr before the probe pass
  const path = join(out, 'results.json');
  assert.equal(r.stderr.split(`results written to ${path}`).length - 1, 1, r.stderr);
  assert.equal(r.stdout.split(`results: ${path}`).length - 1, 1, r.stdout);
  assert.deepEqual(readFileSync(join(out, 'payloads', 'payload_api-response-1.json')), readFileSync(API));
});

test('stdout and stderr in one place (2>&1): results.json is named once, on the line a killed probe pass leaves (nu6: twice)', async () => {
  const out = join(root, 'run-together');
  const log = join(root, 'together.log');
  const fd = openSync(log, 'w');
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [bin, ...payloadRun(out)], {
      cwd: root,
      env: {
        ...process.env,
        JSONBENCH_LEDGER: 'off',
        NO_COLOR: '1',
        COLUMNS: '1000',
        JSONBENCH_CACHE: join(root, 'cache'),
      },
      stdio: ['ignore', fd, fd],
    });
    child.on('exit', (c) => resolve(c));
  });
  closeSync(fd);
  const text = readFileSync(log, 'utf8');
  assert.equal(code, 0, text);
  const path = join(out, 'results.json');
  assert.equal(text.split(path).length - 1, 1, `results.json named once:\n${text}`);
  // the one left is stderr's, said before the probe pass (it survives a pass that is killed)
  assert.ok(text.indexOf(`results written to ${path}`) < text.indexOf('\nRecommendation\n'), text);
  assert.match(text, /^report: .*report\.html$/m);
});

test("--metric cold-start on a payload run: each measured case gets its cold figures (the cold worker builds the payload's workload from its spec)", async () => {
  const out = join(root, 'cold');
  const r = await cli(payloadRun(out, 'json', '--metric', 'cold-start', '--no-probes', '--no-ledger'));
  assert.equal(r.code, 0, r.stderr);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
    cases: { status: string; coldStart?: { processes: number; firstCallNs: number[] } }[];
  };
  const measured = results.cases.filter((c) => c.status === 'measured');
  assert.ok(measured.length > 0);
  for (const c of measured) assert.equal(c.coldStart?.processes, 1, JSON.stringify(c.coldStart));
});

test('an ESC in a payload file name never reaches stderr raw: the error and the payload line show it as ␛', async () => {
  const bad = join(root, 'bad\u001b]0;pwned\u0007.json');
  writeFileSync(bad, '{"a":');
  const e = await cli(['run', '--payload', bad]);
  assert.equal(e.code, 2, e.stderr);
  assert.match(e.stderr, /--payload: .*bad␛\]0;pwned␇\.json:1:6/);
  assert.equal(/[\u0000-\u0008\u000b-\u001f\u007f]/.test(e.stderr), false, JSON.stringify(e.stderr));
  const good = join(root, 'p\u001b[31mred.json');
  writeFileSync(good, '{"a":1}');
  const r = await cli([
    'run',
    '--payload',
    good,
    '--policy',
    'quick',
    '--serializer',
    'json',
    '--direction',
    'serialize',
    '--no-probes',
    '--no-ledger',
    '--out',
    join(root, 'esc'),
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^jsonbench: payload .*p␛\[31mred\.json: one document/m);
  assert.equal(/[\u0000-\u0008\u000b-\u001f\u007f]/.test(r.stderr), false, JSON.stringify(r.stderr));
});

test(
  'a SIGTERM while records are generated ends the run at once, by the signal (hx18 A25: 12 minutes deaf to it)',
  { timeout: 120_000 },
  async () => {
    const tiny = join(root, 'tiny.json');
    writeFileSync(tiny, '{"id":1,"name":"abc","ok":true}\n');
    const child = spawn(
      process.execPath,
      [bin, 'run', '--payload', tiny, '--size', '5000000', '--serializer', 'json', '--policy', 'quick', '--no-probes'],
      { cwd: root, env: { ...process.env, JSONBENCH_LEDGER: 'off', NO_COLOR: '1', COLUMNS: '1000' } },
    );
    let stderr = '';
    let sent = 0;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      // the note said before the generation starts: the signal lands inside it (5,000,000 records take seconds)
      if (!sent && /generating 5,000,000 records/.test(stderr)) {
        sent = Date.now();
        child.kill('SIGTERM');
      }
    });
    // never left running: a run still generating 60 s on is killed (and the test fails below)
    const stop = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (c, s) => resolve([c, s])),
    );
    clearTimeout(stop);
    assert.ok(sent, stderr);
    // ended by the signal's default action (a listener would have waited for the generation, then exited 143)
    assert.deepEqual([code, signal], [null, 'SIGTERM'], stderr);
    assert.ok(Date.now() - sent < 5000, `ended ${Date.now() - sent} ms after the signal`);
  },
);
