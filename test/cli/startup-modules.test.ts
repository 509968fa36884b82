import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serializers } from '../../src/serializers/index.js';
import { dotnetSerializers } from '../../src/serializers/dotnet/index.js';

/**
 * What `jsonbench --version`, `--help` and each command's help load (issue 22: start-up well under
 * a second): no serializer adapter, no schema or build library, only commander among the packages.
 * The modules are listed by a module loader hook (`module.register`, `load`) that appends every URL
 * Node loads to a file; CommonJS files a package `require`s inside itself are not seen, its entry is.
 * `jsonbench list` is the positive control: it must load the adapters (so the hook does see an
 * adapter when one is imported) and still no build library. Timing lives in `npm run bench:startup`.
 */

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(REPO, 'bin', 'jsonbench.js');
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-startup-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const hooks = join(dir, 'hooks.mjs');
writeFileSync(
  hooks,
  `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.JSONBENCH_TEST_MODULE_LOG, url + '\\n');
  return next(url, context);
}
`,
);
const register = join(dir, 'register.mjs');
writeFileSync(
  register,
  `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
);

/** What one CLI invocation loaded: the packages (by name) and jsonbench's own modules (paths under build/src/). */
interface Loaded {
  stdout: string;
  packages: Set<string>;
  modules: string[];
}

let runs = 0;
/** Runs `node bin/jsonbench.js ...args` with the hook; asserts exit 0. */
function loadedBy(args: readonly string[]): Loaded {
  const log = join(dir, `modules-${++runs}.log`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', register, bin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, JSONBENCH_TEST_MODULE_LOG: log, JSONBENCH_LEDGER: join(dir, 'ledger.db') },
    timeout: 120_000,
  });
  assert.equal(r.status, 0, `jsonbench ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(
    urls.flatMap((u) => {
      const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u);
      return m ? [m[1]] : [];
    }),
  );
  const modules = urls.flatMap((u) => {
    const m = /\/build\/src\/(.+)$/.exec(u);
    return m ? [m[1]] : [];
  });
  return { stdout: r.stdout, packages, modules };
}

/** The adapters' files, from the registries' keys (each built-in adapter is `serializers/<id>.js`, a .NET one `serializers/dotnet/<id>.js`). */
const ADAPTER_FILES = new Set([
  ...serializers.ids.map((id) => `serializers/${id}.js`),
  ...dotnetSerializers.ids.map((id) => `serializers/dotnet/${id}.js`),
]);
/** The adapters among `modules`. */
const adapters = (modules: readonly string[]) => modules.filter((m) => ADAPTER_FILES.has(m));

/** The build and schema libraries `list` may not load either. */
const BUILD_LIBRARIES = ['esbuild', 'typescript', 'quicktype-core', 'json-schema-faker', 'better-sqlite3', 'echarts'];

test('jsonbench --version alone loads no package and no module of jsonbench: bin/jsonbench.js answers it', () => {
  const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
  for (const args of [['--version'], ['-V']]) {
    const { packages, modules, stdout } = loadedBy(args);
    assert.deepEqual([...packages], [], `jsonbench ${args.join(' ')} loaded ${[...packages].join(', ')}`);
    assert.deepEqual(modules, [], `jsonbench ${args.join(' ')}`);
    assert.equal(stdout, `${version}\n`);
  }
});

test('jsonbench --help and a --version commander reads load commander and a dozen of jsonbench modules: no adapter, no workload, no runtime, no schema', () => {
  for (const args of [['--version', '--help'], ['-V', '--help'], ['--help'], ['help']]) {
    const { packages, modules, stdout } = loadedBy(args);
    assert.deepEqual([...packages], ['commander'], `jsonbench ${args.join(' ')} loaded ${[...packages].join(', ')}`);
    assert.deepEqual(adapters(modules), [], `jsonbench ${args.join(' ')}`);
    const heavy = modules.filter((m) =>
      /^(workloads|runtimes|payload|measure|plan|run|worker|probes)\/|^results\/types\.js$/.test(m),
    );
    assert.deepEqual(heavy, [], `jsonbench ${args.join(' ')} loaded more than its help needs`);
    assert.ok(
      // 16: files/process-end.ts must load before any user code (hx5 exit-rewrite), so main imports it statically;
      // 17: case/frozen.ts (no imports of its own) freezes the policies and the tables help reads (hx8)
      modules.length <= 17,
      `jsonbench ${args.join(' ')} loaded ${modules.length} modules: ${modules.join(', ')}`,
    );
    if (args[0] === '--version' || args[0] === '-V') {
      const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
      assert.equal(stdout, `${version}\n`);
    } else {
      for (const command of ['run', 'probe', 'list', 'report', 'compare', 'history', 'ledger', 'runtimes'])
        assert.match(stdout, new RegExp(`^  ${command}\\b`, 'm'), `--help lists ${command}`);
    }
  }
});

test("each command's help loads no adapter and no library but commander, and still lists what the registries hold", () => {
  const cases: [string[], RegExp[]][] = [
    [
      ['run', '--help'],
      [
        /node@\d+\|/,
        /quick: /,
        /\.jsonbench\/ledger\.db/,
        /weather-station,/,
        /fast-json-stringify,/,
        /\bstj-sourcegen\b/,
      ],
    ],
    [['help', 'run'], [/node@\d+\|/]],
    [
      ['probe', '--help'],
      [/node@\d+\|/, /hostile/, /secure-json-parse/],
    ],
    [
      ['report', '--help'],
      [/github-action-benchmark:/, /md: GitHub/],
    ],
    [['list', '--help'], [/--config/]],
    [['compare', '--help'], [/--fail-on/]],
    [['history', '--help'], [/--ledger/]],
    [['ledger', 'import', '--help'], [/--ledger/]],
    [['runtimes', 'install', '--help'], [/into the cache \(from the npm registry[\s\S]*\bbun\b/]],
  ];
  for (const [args, shows] of cases) {
    const { packages, modules, stdout } = loadedBy(args);
    assert.deepEqual([...packages], ['commander'], `jsonbench ${args.join(' ')} loaded ${[...packages].join(', ')}`);
    assert.deepEqual(adapters(modules), [], `jsonbench ${args.join(' ')}`);
    for (const re of shows) assert.match(stdout, re, `jsonbench ${args.join(' ')}`);
  }
  assert.ok(ADAPTER_FILES.size >= 15 && ADAPTER_FILES.has('serializers/json.js'), [...ADAPTER_FILES].join(', '));
});

test('jsonbench list loads the adapters (the hook sees an adapter when one is imported) and no build library', () => {
  const { packages, modules, stdout } = loadedBy(['list', '--json']);
  const ids = (JSON.parse(stdout) as { serializers: { id: string }[] }).serializers.map((s) => s.id);
  assert.ok(ids.includes('zod') && ids.includes('fast-json-stringify'), ids.join(', '));
  assert.ok(adapters(modules).includes('serializers/zod.js'), modules.join(', '));
  assert.ok(adapters(modules).includes('serializers/fast-json-stringify.js'), modules.join(', '));
  assert.ok(packages.has('zod') && packages.has('fast-json-stringify'), [...packages].join(', '));
  assert.deepEqual(
    BUILD_LIBRARIES.filter((p) => packages.has(p)),
    [],
    `jsonbench list loaded ${[...packages].join(', ')}`,
  );
});
