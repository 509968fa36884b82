import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtinModules } from 'node:module';
import type { Plugin } from 'esbuild';

/** The two worker bundles: `node` for Node, Bun, Deno (and ssh); `browser` for Chromium and QuickJS. */
export type BundleKind = 'node' | 'browser';

/** A bundled worker: one file with the job, the measure stages and every serializer adapter inside. */
export interface WorkerBundle {
  kind: BundleKind;
  path: string;
  sha256: string;
  bytes: number;
}

const entries: Record<BundleKind, string> = {
  node: fileURLToPath(new URL('../worker/main.js', import.meta.url)),
  browser: fileURLToPath(new URL('../worker/browser.js', import.meta.url)),
};

/**
 * ESM output still meets `require()` in CommonJS dependencies; give it Node's (Bun and Deno have it
 * too), rooted at the worker's compiled entry in this jsonbench, not at the bundle's folder (the
 * run's output folder, anywhere). `__jsonbenchResolve(from, specifier)` stands for
 * `import.meta.resolve(specifier)` of the module `from` (see {@link ownPaths}).
 */
const NODE_BANNER = [
  "import { createRequire as __jsonbenchCreateRequire } from 'node:module';",
  "import { pathToFileURL as __jsonbenchPathToFileURL } from 'node:url';",
  `const require = __jsonbenchCreateRequire(${JSON.stringify(pathToFileURL(entries.node).href)});`,
  'const __jsonbenchResolve = (from, specifier) => /^(\\.{1,2}\\/|\\/|file:)/.test(specifier) ? new URL(specifier, from).href : __jsonbenchPathToFileURL(__jsonbenchCreateRequire(from).resolve(specifier)).href;',
].join(' ');

/**
 * An esbuild plugin for the Node bundle: in every bundled module that says `import.meta`,
 * `import.meta.url` becomes that module's own file URL and `import.meta.resolve(x)` resolves `x`
 * from that file, so packages (typia, faker's locales, the adapters' versions) resolve from the
 * node_modules of jsonbench (or of a user's config) wherever the bundle is written (the run's
 * `--out`: a consumer repository, a CI runner's temporary folder), as they do on the host. Without
 * it, `import.meta` is the bundle's, and typia failed on node@22 and bun with
 * "Cannot find package 'typia' imported from <out>/worker/worker-node.mjs" whenever --out was
 * outside the jsonbench clone. `import.meta.resolve` becomes a `require.resolve` from the module's
 * file (the `require` condition of a package's exports; typia's install is found either way).
 */
const ownPaths: Plugin = {
  name: 'jsonbench-own-paths',
  setup(b) {
    b.onLoad({ filter: /\.(m|c)?js$/ }, async (a) => {
      const text = await readFile(a.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const url = JSON.stringify(pathToFileURL(a.path).href);
      return {
        contents: text
          .replaceAll('import.meta.url', url)
          .replaceAll('import.meta.resolve(', `__jsonbenchResolve(${url}, `),
        loader: 'js',
      };
    });
  },
};

/** In the browser bundle, a Node built-in is a stand-in that throws UnsupportedOnTarget when used. */
const STUB = (
  name: string,
) => `const fail = () => { const e = new Error('needs ${name}, which this runtime does not have'); e.name = 'UnsupportedOnTarget'; throw e; };
module.exports = new Proxy({}, { get: (_, k) => k === '__esModule' ? false : fail });`;

const made = new Map<string, Promise<WorkerBundle>>();

/**
 * Bundles the compiled worker (build/src/worker/{main,browser}.js) with esbuild into
 * `<dir>/worker-<kind>.{mjs,js}`, once per folder and kind in this process. Bundling from the
 * compiled JavaScript keeps tsc's decorator metadata (class-transformer needs it).
 * @throws Error when esbuild is not installed or the bundle fails
 */
export function bundleWorker(kind: BundleKind, dir: string): Promise<WorkerBundle> {
  const key = `${kind}:${dir}`;
  if (!made.has(key)) made.set(key, build(kind, dir));
  return made.get(key)!;
}

async function build(kind: BundleKind, dir: string): Promise<WorkerBundle> {
  const esbuild = await import('esbuild').catch(() => {
    throw new Error(
      'esbuild is not installed: run `npm install` in the jsonbench folder (it bundles the worker for other runtimes)',
    );
  });
  const outfile = join(dir, kind === 'node' ? 'worker-node.mjs' : 'worker-browser.js');
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  await esbuild.build({
    entryPoints: [entries[kind]],
    outfile,
    bundle: true,
    target: 'es2022',
    logLevel: 'error',
    legalComments: 'none',
    ...(kind === 'node'
      ? { platform: 'node', format: 'esm', banner: { js: NODE_BANNER }, plugins: [ownPaths] }
      : {
          platform: 'browser',
          format: 'iife',
          plugins: [
            {
              name: 'node-builtins-unsupported',
              setup(b) {
                b.onResolve({ filter: /.*/ }, (a) =>
                  builtins.has(a.path) ? { path: a.path, namespace: 'unsupported' } : undefined,
                );
                b.onLoad({ filter: /.*/, namespace: 'unsupported' }, (a) => ({ contents: STUB(a.path), loader: 'js' }));
              },
            },
          ],
        }),
  });
  const bytes = readFileSync(outfile);
  return { kind, path: outfile, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}
