import { createRequire } from 'node:module';
import { join } from 'node:path';
import { QUICKJS_MEMORY_LIMIT_BYTES, QUICKJS_STACK_BYTES, QUICKJS_VARIANT } from './quickjs.js';

/** A value inside QuickJS (must be disposed). */
export interface QjsHandle {
  dispose(): void;
}

/** The parts of a quickjs-emscripten context the runner uses. */
export interface QjsContext {
  newFunction(name: string, fn: (...args: QjsHandle[]) => QjsHandle | void): QjsHandle;
  getString(h: QjsHandle): string;
  newNumber(n: number): QjsHandle;
  setProp(obj: QjsHandle, key: string, value: QjsHandle): void;
  global: QjsHandle;
  evalCode(code: string, filename?: string): { error?: QjsHandle; value?: QjsHandle };
  getPromiseState(h: QjsHandle): { type: 'pending' | 'fulfilled' | 'rejected'; error?: QjsHandle };
  dump(h: QjsHandle): unknown;
}

/** A QuickJS-ng runtime and context with jsonbench's limits applied. */
export interface QuickJS {
  ctx: QjsContext;
  /** runs queued promise jobs; returns how many ran. @throws Error when one threw */
  runPendingJobs(): number;
  /** evaluates code; returns its handle. @throws Error `<what>: <name>: <message>` when it threw inside QuickJS */
  evalOrThrow(code: string, what: string): QjsHandle;
  /** defines a global function backed by the host */
  defineFunction(name: string, fn: (...args: QjsHandle[]) => QjsHandle | void): void;
}

/**
 * Loads QuickJS-ng from the cache folder `dir` (`<cache>/runtimes/quickjs`) and opens a context
 * whose stack is capped at {@link QUICKJS_STACK_BYTES}, so deeply nested input ends in a clean
 * `InternalError: stack overflow` inside QuickJS instead of trapping the WebAssembly instance.
 */
export async function openQuickJS(dir: string): Promise<QuickJS> {
  const require = createRequire(join(dir, 'package.json'));
  const core = require('quickjs-emscripten-core') as {
    newQuickJSWASMModuleFromVariant(v: unknown): Promise<{
      newRuntime(): {
        setMaxStackSize(n: number): void;
        setMemoryLimit(n: number): void;
        newContext(): QjsContext;
        executePendingJobs(n?: number): { error?: QjsHandle; value?: number };
      };
    }>;
  };
  const variant = require(QUICKJS_VARIANT) as { default?: unknown };
  const mod = await core.newQuickJSWASMModuleFromVariant(variant.default ?? variant);
  const rt = mod.newRuntime();
  rt.setMaxStackSize(QUICKJS_STACK_BYTES);
  rt.setMemoryLimit(QUICKJS_MEMORY_LIMIT_BYTES);
  const ctx = rt.newContext();
  const describe = (h: QjsHandle) => {
    const e = ctx.dump(h) as { name?: string; message?: string };
    h.dispose();
    return e && typeof e === 'object' && e.message ? `${e.name ?? 'Error'}: ${e.message}` : JSON.stringify(e);
  };
  return {
    ctx,
    runPendingJobs() {
      const r = rt.executePendingJobs(-1);
      if (r.error) throw new Error(`pending job: ${describe(r.error)}`);
      return r.value ?? 0;
    },
    evalOrThrow(code, what) {
      const r = ctx.evalCode(code, `${what}.js`);
      if (r.error) throw new Error(`${what}: ${describe(r.error)}`);
      return r.value!;
    },
    defineFunction(name, fn) {
      const h = ctx.newFunction(name, fn);
      ctx.setProp(ctx.global, name, h);
      h.dispose();
    },
  };
}
