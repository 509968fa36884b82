#!/usr/bin/env node
// Entry point installed as `jsonbench`: the compiled CLI lives in build/ (made by `npm run build`,
// which `npm ci` runs through the `prepare` script).
import { main } from '../build/src/cli/main.js';
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // The command is over: a timer or socket a user's config left open must not keep the process
  // alive (unref'd, so a process with nothing left to do exits at once, its output flushed).
  setTimeout(() => process.exit(code), 2000).unref();
});
