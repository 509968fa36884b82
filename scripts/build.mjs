// Build: the typia templates of the built-in workloads, written from their schemas
// (src/serializers/typia/write-templates.ts, bundled on the fly with esbuild since nothing is compiled
// yet), then typia's ahead-of-time code generation (typia@12 `generate`, see
// https://typia.io/docs/setup/#generation), then the TypeScript compiler. Run by `npm run build` and
// by `npm ci` through `prepare`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
rmSync('build', { recursive: true, force: true });
const scratch = 'node_modules/.cache/jsonbench-build';
mkdirSync(scratch, { recursive: true });
await build({
  entryPoints: ['src/serializers/typia/write-templates.ts'], bundle: true, platform: 'node', format: 'esm',
  packages: 'external', outfile: `${scratch}/write-templates.mjs`, logLevel: 'warning',
});
const { writeTemplates } = await import(pathToFileURL(`${scratch}/write-templates.mjs`).href);
await writeTemplates('src/serializers/typia/templates');
run(process.execPath, ['node_modules/typia/lib/executable/typia.js', 'generate',
  '--input', 'src/serializers/typia/templates', '--output', 'src/serializers/typia/generated',
  '--project', 'tsconfig.json']);
run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
