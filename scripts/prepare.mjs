// npm's `prepare` hook: builds (scripts/build.mjs) after `npm ci` / `npm install`, except when the
// project is already built and npm runs the hook only because `npx jsonbench` (npm exec) linked
// this folder into npx's cache as a `file:` package. npm 11 does that on the first `npx jsonbench`
// in each folder (npm_command=exec, seen here 2026-12-02): the rebuild took 1 min 40 s at load 14
// before the command itself started, and `npm run build` first deletes build/, so it broke any run
// in progress in that folder. A changed source still needs `npm run build`, as before. "Built" means
// build/.complete exists: scripts/build.mjs writes it last, so a build killed half-way is redone.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const built = existsSync('build/.complete');
if (process.env.npm_command === 'exec' && built) process.exit(0);
execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
