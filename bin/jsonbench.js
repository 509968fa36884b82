#!/usr/bin/env node
// Entry point installed as `jsonbench`: the compiled CLI lives in build/ (made by `npm run build`,
// which `npm ci` runs through the `prepare` script).
import { main } from '../build/src/cli/main.js';
main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
