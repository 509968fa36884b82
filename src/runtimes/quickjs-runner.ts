/**
 * The QuickJS worker process: a Node process that hosts QuickJS-ng (quickjs-emscripten, in
 * WebAssembly; see quickjs-host.ts) and runs the browser bundle inside it. Speaks the same
 * protocol as worker/main.ts — a start message on stdin, protocol lines on fd 3 — so the host
 * launches, times out and judges it like any worker.
 * Usage: `node quickjs-runner.js <quickjs cache folder> <worker-browser.js>`.
 *
 * Inside QuickJS: `__jsonbenchSend(line)` writes to fd 3; see {@link PRELUDE} for the globals
 * added. Pending jobs (promise reactions)
 * run until the job's promise settles.
 */
import { readFileSync, writeSync } from 'node:fs';
import { variantPathOf } from '../case/coordinates.js';
import { encodeMessage, PROTOCOL_VERSION, sealLine, type MessageMac, type StartMessage } from '../worker/protocol.js';
import { channelMac } from '../worker/channel-key.js';
import { openQuickJS } from './quickjs-host.js';
import { quickjsEngineVersion } from './quickjs.js';

/**
 * Globals set up before the worker bundle: a clock when QuickJS has none, `console` to stderr, and
 * a `structuredClone` stand-in that copies plain JSON values only (the lab's workloads clone wire
 * values with it to build their models) and throws on anything else, so a library that needs the
 * real algorithm fails loudly instead of getting a wrong copy.
 */
const PRELUDE = `if (typeof performance === 'undefined') globalThis.performance = { now: __jsonbenchNow };
globalThis.console = { log: __jsonbenchLog, info: __jsonbenchLog, warn: __jsonbenchLog, error: __jsonbenchLog, debug: __jsonbenchLog };
if (typeof structuredClone === 'undefined') globalThis.structuredClone = function structuredClone(value) {
  const copy = (v) => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && isFinite(v))) return v;
    if (Array.isArray(v)) return v.map(copy);
    if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) { const o = {}; for (const k of Object.keys(v)) o[k] = copy(v[k]); return o; }
    throw new TypeError('structuredClone on QuickJS (jsonbench stand-in) copies plain JSON values only');
  };
  return copy(value);
};`;

/** Signs each line (protocol.ts) with the start message's key once it is read; only built-in adapters run inside QuickJS. */
let mac: MessageMac | undefined;
let seq = 0;
const send = (line: string) => {
  const b = Buffer.from(mac ? sealLine(line, seq++, mac) : line);
  let o = 0;
  while (o < b.length) o += writeSync(3, b, o);
};

/** Why allocation has no figure on QuickJS (recorded with every QuickJS case). */
export const QUICKJS_NO_ALLOCATION =
  'QuickJS frees by reference counting as it goes and its WebAssembly build exposes no allocation counter';

async function main(): Promise<void> {
  const [dir, bundlePath] = process.argv.slice(2);
  const start = JSON.parse(readFileSync(0, 'utf8').split('\n')[0]) as StartMessage;
  if (start.protocol !== PROTOCOL_VERSION || start.type !== 'start')
    throw new Error('quickjs runner: expected a start message');
  if (typeof start.key === 'string') mac = channelMac(start.key);
  const job = start.job;
  const qjs = await openQuickJS(dir);
  const { ctx } = qjs;
  qjs.defineFunction('__jsonbenchSend', (h) => {
    send(ctx.getString(h));
  });
  qjs.defineFunction('__jsonbenchNow', () => ctx.newNumber(performance.now()));
  qjs.defineFunction('__jsonbenchLog', (...hs) => {
    process.stderr.write(hs.map((h) => String(ctx.dump(h))).join(' ') + '\n');
  });
  qjs.evalOrThrow(PRELUDE, 'jsonbench-prelude').dispose();
  qjs.evalOrThrow(readFileSync(bundlePath, 'utf8'), 'worker-browser').dispose();
  const texts = {
    [job.payloadPath]: readFileSync(job.payloadPath, 'utf8'),
    [variantPathOf(job.payloadPath)]: readFileSync(variantPathOf(job.payloadPath), 'utf8'),
  };
  const bridge = `{ send: __jsonbenchSend, texts: ${JSON.stringify(texts)}, runtime: 'quickjs', version: ${JSON.stringify(quickjsEngineVersion(dir))}, noAllocationReason: ${JSON.stringify(QUICKJS_NO_ALLOCATION)} }`;
  const promise = qjs.evalOrThrow(`__jsonbenchRun(${JSON.stringify(job)}, ${bridge})`, 'jsonbench-run');
  for (;;) {
    const ran = qjs.runPendingJobs();
    const state = ctx.getPromiseState(promise);
    if (state.type === 'fulfilled') return;
    if (state.type === 'rejected') throw new Error(`job rejected: ${JSON.stringify(ctx.dump(state.error!))}`);
    if (!ran) throw new Error('the job is waiting on something QuickJS has no way to deliver (a timer or I/O)');
  }
}

main().then(
  () => process.exit(0),
  (e: Error) => {
    send(encodeMessage({ type: 'error', stage: 'load', message: `quickjs: ${e.message}` }));
    process.exit(1);
  },
);
