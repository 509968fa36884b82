// Build: typia's ahead-of-time code generation (typia@12 `generate`, see https://typia.io/docs/setup/#generation),
// then the TypeScript compiler. Run by `npm run build` and by `npm ci` through `prepare`.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
rmSync('build', { recursive: true, force: true });
run(process.execPath, ['node_modules/typia/lib/executable/typia.js', 'generate',
  '--input', 'src/serializers/typia/templates', '--output', 'src/serializers/typia/generated',
  '--project', 'tsconfig.json']);
run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
