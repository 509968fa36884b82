#!/usr/bin/env node
// Entry point installed as `jsonbench`: the compiled CLI lives in build/ (made by `npm run build`,
// which `npm ci` runs through the `prepare` script; scripts/build.mjs writes build/.complete last).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(new URL('../build/.complete', import.meta.url))) {
  // a clone without `npm ci`, or a build killed half-way: say what to do instead of a module-loader stack
  process.stderr.write(`jsonbench: not built in ${root}: run \`npm ci\` there (or \`npm run build\` when the dependencies are installed)\n`);
  process.exit(2);
}
const { main } = await import('../build/src/cli/main.js');
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // The command is over: a timer or socket a user's config left open must not keep the process
  // alive (unref'd, so a process with nothing left to do exits at once, its output flushed).
  setTimeout(() => process.exit(code), 2000).unref();
});
