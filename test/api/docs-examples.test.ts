import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * docs/api.md's examples, as written: each `<!-- example: <name>/<file> -->` code block is a file of
 * example <name>. Each example becomes a project of its own (a temporary folder whose
 * node_modules/jsonbench is this package, with examples/response.json as its response.json): its
 * files type-check against the shipped types (tsc, checkJs: the first example once passed
 * `recommend(results)` where `renderRecommendations` takes the results and a dialect, and printed
 * an empty line), and its `bench.mjs` runs with exit 0 and prints what the page says it prints.
 */

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jsonbench-api-docs-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The examples of docs/api.md: name → file name → text. */
function examples(): Map<string, Map<string, string>> {
  const page = readFileSync(join(REPO, 'docs/api.md'), 'utf8');
  const out = new Map<string, Map<string, string>>();
  for (const m of page.matchAll(/<!-- example: ([\w-]+)\/([\w.-]+) -->\n```(?:js|ts)\n([\s\S]*?)```/g)) {
    if (!out.has(m[1])) out.set(m[1], new Map());
    out.get(m[1])!.set(m[2], m[3]);
  }
  return out;
}

/** What each example's bench.mjs prints on stdout, checked line by line. */
const PRINTS: Record<string, RegExp> = {
  first: /^serialize: For serializing response\.json \(11\.7 KiB document\) on node \S+, /m,
  inline: /^json measured\nours measured\n$/,
  typescript: /^json measured\nours measured\n$/,
};

const all = examples();

test('docs/api.md has the examples this test knows, each with a bench.mjs', () => {
  assert.deepEqual([...all.keys()].sort(), Object.keys(PRINTS).sort());
  for (const [name, files] of all) assert.ok(files.has('bench.mjs'), `${name} has a bench.mjs`);
});

for (const [name, files] of all)
  test(`docs/api.md's example "${name}" type-checks and runs as written`, async () => {
    const dir = join(root, name);
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    symlinkSync(REPO, join(dir, 'node_modules', 'jsonbench'), 'dir');
    copyFileSync(join(REPO, 'examples', 'response.json'), join(dir, 'response.json'));
    for (const [file, text] of files) writeFileSync(join(dir, file), text);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          allowJs: true,
          checkJs: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022'],
          // the examples print (console) and build URLs: a Node project's types, from this repository
          types: ['node'],
          typeRoots: [join(REPO, 'node_modules/@types')],
        },
        files: [...files.keys()],
      }),
    );
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    let tsc = '';
    try {
      execFileSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    } catch (e) {
      tsc = (e as { stdout?: string }).stdout ?? String(e);
    }
    assert.equal(tsc, '', `tsc on the example "${name}"`);
    const ran = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['bench.mjs'],
        {
          cwd: dir,
          env: { ...process.env, JSONBENCH_LEDGER: 'off', NO_COLOR: '1' },
          timeout: 300_000,
          maxBuffer: 64 << 20,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
      ),
    );
    assert.equal(ran.code, 0, ran.stderr.slice(-2000));
    assert.match(ran.stdout, PRINTS[name], `what "${name}" prints`);
  });
