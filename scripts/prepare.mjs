// npm's `prepare` hook: builds (scripts/build.mjs) after `npm ci` / `npm install`, and never when npm
// runs the hook only because `npx jsonbench` (npm exec) links this folder into npx's cache as a
// `file:` package. npm 11 does that on the first `npx jsonbench` in each folder (npm_command=exec,
// seen here 2026-12-02): the rebuild took 1 min 40 s at load 14 before the command started, deleted
// build/ under any run in progress, and in a clone without `npm ci` it failed (no esbuild) with its
// output hidden, leaving npx's cache entry broken for that folder. Under exec, bin/jsonbench.js says
// instead when the folder is not built (build/.complete, written last by the build, is missing).
import { execFileSync } from 'node:child_process';

if (process.env.npm_command === 'exec') process.exit(0);
execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
