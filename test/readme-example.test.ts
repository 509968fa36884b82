import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The README's commands and examples, taken from README.md as written, and the docs pages it
 * hands the detail to:
 * - its first commands (the ```sh block after `<!-- first commands`): every `npx jsonbench` line of
 *   the README names a command and options jsonbench has, and the first one (the quick run on
 *   examples/response.json) and `list` run as written in a folder holding a copy of examples/;
 * - the `import { run } from 'jsonbench'` example (the ```js block after `<!-- example: run() -->`),
 *   run as a user's script would run: in a folder of its own whose node_modules/jsonbench is this
 *   package (build/ made by `npm run build`), with examples/response.json as its `response.json`;
 * - every relative link of README.md and docs/*.md reaches a file, and a `#anchor` a heading there.
 * Numbers are not under test; what the commands print, the results file and the recommendation are.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-readme-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The README's code block of `lang` after `marker`. @throws AssertionError when the README has none */
function exampleAfter(marker: string, lang = 'js'): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const at = readme.indexOf(marker);
  assert.ok(at >= 0, `README.md has no ${marker}`);
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(readme.slice(at));
  assert.ok(m, `no ${lang} block after ${marker}`);
  return m[1];
}

test("the README's run() example runs as written: it measures the payload and prints the recommendation", async () => {
  const code = exampleAfter('<!-- example: run() -->');
  assert.match(code, /import \{ run, recommend \} from 'jsonbench';/);
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(REPO, join(dir, 'node_modules', 'jsonbench'), 'dir');
  copyFileSync(join(REPO, 'examples', 'response.json'), join(dir, 'response.json'));
  writeFileSync(join(dir, 'bench-my-payload.mjs'), code);
  const env = { ...process.env, JSONBENCH_LEDGER: 'off', JSONBENCH_CACHE: join(dir, 'cache') };
  const {
    code: exit,
    stdout,
    stderr,
  } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['bench-my-payload.mjs'], { cwd: dir, env, timeout: 300_000 }, (error, out, err) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout: out, stderr: err });
    });
  });
  assert.equal(exit, 0, stderr);
  const lines = stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3, stdout);
  assert.match(lines[0], /^json measured \d+ ns\/op$/);
  assert.match(lines[1], /^fast-json-stringify measured \d+ ns\/op$/);
  assert.match(
    lines[2],
    /^For serializing response\.json \(11\.7 KiB document\) on node \S+, (use fast-json-stringify|keep the built-in JSON\.stringify: (the other serializer is|fast-json-stringify looks|borderline, fast-json-stringify|no clear winner, the other serializer is not clearly faster|too uncertain to call, fast-json-stringify|nothing is clearly faster))/,
  );
});

test("the docs say where the ledger is and where a custom serializer's Version comes from, and both hold", async () => {
  const readme = ['commands.md', 'extending.md'].map((f) => readFileSync(join(REPO, 'docs', f), 'utf8')).join('\n');
  const { resolveLedgerPath } = await import('../src/ledger/run-ledger.js');
  const { adapterVersion } = await import('../src/serializers/version.js');
  // the ledger: --ledger relative to the working directory, else $JSONBENCH_LEDGER, else .jsonbench/ledger.db under it (never the config's folder)
  assert.match(readme, /else `\.jsonbench\/ledger\.db` under the working directory \(not the config's folder\)/);
  assert.equal(resolveLedgerPath('/work/dir', undefined, {}), '/work/dir/.jsonbench/ledger.db');
  assert.equal(resolveLedgerPath('/work/dir', 'x.db', { JSONBENCH_LEDGER: '/elsewhere.db' }), '/work/dir/x.db');
  assert.equal(resolveLedgerPath('/work/dir', undefined, { JSONBENCH_LEDGER: 'l.db' }), '/work/dir/l.db');
  // Version: the adapter's packageName, resolved from the config file's folder; n/a without one
  assert.match(readme, /An adapter without `packageName` \(as above\) shows `n\/a`/);
  const adapter = {
    id: 'my-json',
    family: 'builtin',
    directions: ['serialize'],
    supports: () => true,
    prepare: () => ({}),
  } as unknown as Parameters<typeof adapterVersion>[0];
  const config = join(REPO, 'jsonbench.config.mjs');
  assert.equal(adapterVersion(adapter, config), 'n/a');
  const semverVersion = (
    JSON.parse(readFileSync(join(REPO, 'node_modules', 'semver', 'package.json'), 'utf8')) as { version: string }
  ).version;
  assert.equal(adapterVersion({ ...adapter, packageName: 'semver' }, config), semverVersion);
  assert.equal(
    adapterVersion({ ...adapter, packageName: 'semver' }, join(dir, 'no-modules', 'jsonbench.config.mjs')),
    'unknown',
  );
});

/** Every `npx jsonbench …` line of the README's ```sh blocks, its trailing comment cut. */
function readmeCommandLines(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1].split('\n'))
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith('npx jsonbench'));
}

/** Runs `node bin/jsonbench.js args` in `cwd` (the README's `npx jsonbench` inside the clone); never rejects. */
function cli(args: readonly string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, JSONBENCH_LEDGER: join(cwd, 'ledger.db'), JSONBENCH_CACHE: join(dir, 'cache') };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(REPO, 'bin', 'jsonbench.js'), ...args],
      { cwd, env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

test('every `npx jsonbench` line of the README names a command and options jsonbench has, and its files exist', async () => {
  const { program } = await import('../src/cli/main.js');
  const lines = readmeCommandLines();
  assert.ok(lines.length >= 5, lines.join('\n'));
  for (const line of lines) {
    const words = line.split(/\s+/).slice(2);
    let cmd = program({ code: 0 });
    const path = [];
    while (words.length > 0 && !words[0].startsWith('-')) {
      const sub = cmd.commands.find((c) => c.name() === words[0]);
      if (!sub) break;
      cmd = sub;
      path.push(words.shift());
    }
    assert.ok(path.length > 0, `${line}: no command`);
    const longs = new Set(cmd.options.map((o) => o.long));
    for (const [i, w] of words.entries()) {
      if (!w.startsWith('--')) continue;
      const name = w.split('=')[0];
      assert.ok(longs.has(name), `${line}: jsonbench ${path.join(' ')} has no option ${name}`);
      if (name === '--payload' || name === '--schema') {
        const file = words[i + 1];
        assert.ok(existsSync(join(REPO, file)), `${line}: ${file} is not in the repository`);
      }
    }
  }
});

test("the README's first command and `list` run as written: the quick run measures examples/response.json and recommends", async () => {
  const block = exampleAfter('<!-- first commands', 'sh');
  const first = block.split('\n')[0].replace(/\s+#.*$/, '');
  assert.equal(first, 'npx jsonbench run --payload examples/response.json --policy quick');
  const cwd = join(dir, 'clone');
  mkdirSync(join(cwd, 'examples'), { recursive: true });
  copyFileSync(join(REPO, 'examples', 'response.json'), join(cwd, 'examples', 'response.json'));

  const listed = await cli(['list'], cwd);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /fast-json-stringify/);
  assert.match(listed.stdout, /weather-station/);

  const ran = await cli(first.split(' ').slice(2), cwd);
  assert.equal(ran.code, 0, ran.stderr);
  const out = `${ran.stderr}\n${ran.stdout}`;
  assert.match(out, /payload examples\/response\.json: one document; schema inferred from it/);
  assert.match(ran.stdout, /For serializing response\.json \(11\.7 KiB document\) on node \S+, /);
  assert.match(ran.stdout, /For parsing \(no type checks\) response\.json \(11\.7 KiB document\)/);
  const folders = readdirSync(join(cwd, 'jsonbench-results'));
  assert.equal(folders.length, 1, folders.join(', '));
  const results = JSON.parse(readFileSync(join(cwd, 'jsonbench-results', folders[0], 'results.json'), 'utf8')) as {
    cases: { serializer: string; status: string }[];
  };
  const measured = results.cases.filter((c) => c.status === 'measured').map((c) => c.serializer);
  for (const s of ['json', 'fast-json-stringify', 'zod', 'typebox'])
    assert.ok(measured.includes(s), measured.join(', '));
  assert.ok(existsSync(join(cwd, 'jsonbench-results', folders[0], 'report.html')));
  // the README's sample output is this command's: each inference finding it shows is one this run found
  const sample = exampleAfter('<!-- output of the first command', 'text');
  const found = [...sample.matchAll(/^(?:jsonbench: | +)found: (.+)$/gm)].map((m) => m[1]);
  assert.ok(found.length >= 2, sample);
  // stderr wraps at the width (two-space hanging indent): read its lines whole
  const unwrapped = out.replace(/\n {2}(?=\S)/g, ' ');
  for (const f of found) assert.ok(unwrapped.includes(f), `the README's sample says "found: ${f}", this run did not`);
});

test('every relative link in README.md and docs/*.md reaches a file, and each #anchor a heading of it', () => {
  const pages = [
    'README.md',
    ...readdirSync(join(REPO, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
  const slug = (h: string) =>
    h
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
  const anchors = (file: string) =>
    new Set(
      [
        ...readFileSync(file, 'utf8')
          .replace(/```[\s\S]*?```/g, '')
          .matchAll(/^#{1,6} (.+)$/gm),
      ].map((m) => slug(m[1])),
    );
  let links = 0;
  for (const page of pages) {
    const text = readFileSync(join(REPO, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#');
      const resolved = file ? join(REPO, dirname(page), file) : join(REPO, page);
      assert.ok(existsSync(resolved), `${page}: link ${target}: no ${resolved}`);
      if (anchor)
        assert.ok(anchors(resolved).has(anchor), `${page}: link ${target}: no heading #${anchor} in ${file || page}`);
      links++;
    }
  }
  assert.ok(links > 40, `${links} links checked`);
});

test("the README's CI section is a front door: at most 25 lines, pointing to docs/ci.md", () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const m = /\n## CI\n([\s\S]*?)\n## /.exec(readme);
  assert.ok(m, 'README.md has a ## CI section');
  const lines = m[1].trim().split('\n');
  assert.ok(lines.length <= 25, `${lines.length} lines`);
  assert.match(m[1], /\(docs\/ci\.md\)/);
});
