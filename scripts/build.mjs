// Build: typia's ahead-of-time code generation (typia@12 `generate`, see https://typia.io/docs/setup/#generation),
// then the TypeScript compiler. Run by `npm run build` and by `npm ci` through `prepare`.
//
// Two modes, chosen by what is installed:
// - with the devDependencies (`npm ci`): type-check and compile src/, test/ and bench/ (tsconfig.json);
// - without them (`npm ci --omit=dev`: no @types packages, no test tools): compile src/ only
//   (tsconfig.build.json) with `--noCheck`, i.e. emit without type-checking. The code was checked by
//   the full build in CI; typescript itself is a dependency (typia needs it at build and run time).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
rmSync('build', { recursive: true, force: true });
run(process.execPath, ['node_modules/typia/lib/executable/typia.js', 'generate',
  '--input', 'src/serializers/typia/templates', '--output', 'src/serializers/typia/generated',
  '--project', 'tsconfig.json']);
// every devDependency installed: the full, type-checked build (some @types arrive with production packages too, so test them all)
const dev = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).devDependencies ?? {});
const full = dev.every((name) => existsSync(`node_modules/${name}/package.json`));
if (!full) process.stderr.write('build: devDependencies absent: compiling src/ only, without type-checking (tsconfig.build.json --noCheck)\n');
run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', full ? 'tsconfig.json' : 'tsconfig.build.json', ...(full ? [] : ['--noCheck'])]);
