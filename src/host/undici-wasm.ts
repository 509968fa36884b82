/**
 * Node 20's bundled undici (fetch, Request, Headers, FormData) compiles and instantiates its HTTP parser,
 * llhttp, as WebAssembly when the module loads, and leaves the promise without a handler
 * (`llhttpPromise.catch()`, node:internal/deps/undici/undici). Under an address-space limit (`ulimit -v
 * 6000000`: V8 reserves guard regions for every Wasm memory) that promise rejects with "WebAssembly.instantiate():
 * Out of memory", and the unhandled rejection ended every command with Node's raw stack (hx5 C2). Nothing
 * in jsonbench uses fetch: undici is loaded only because a dependency reads the globals when it loads
 * (arktype's @ark/util lists FormData, Headers, Request and Response as built-in object kinds).
 *
 * {@link tolerateUndiciWasm} installs one 'unhandledRejection' listener that drops exactly that rejection
 * (a RangeError from WebAssembly whose stack names `lazyllhttp`) and throws anything else on, as Node does
 * without a listener (the process ends with the error).
 */

let installed = false;

/** Whether `reason` is undici's llhttp WebAssembly instance failing for want of address space. */
function isUndiciWasmFailure(reason: unknown): boolean {
  if (!(reason instanceof RangeError)) return false;
  return /WebAssembly/.test(reason.message) && /\blazyllhttp\b/.test(reason.stack ?? '');
}

/** Installs the listener (once per process). */
export function tolerateUndiciWasm(): void {
  // a worker may run on a runtime without Node's process events (QuickJS, a browser page)
  if (installed || typeof process === 'undefined' || typeof process.on !== 'function') return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    if (isUndiciWasmFailure(reason)) return;
    throw reason;
  });
}
