import { syncBuiltinESMExports } from 'node:module';
import { hostSnapshot } from './user-config.js';
import { callUserCode, callUserCodeAsync, markOrigin, originOf, type UserCodeScope } from '../host/user-code.js';

/**
 * The host guard: every call into user code in jsonbench's own process (the host) runs under it
 * (hostile tester, hx1 3.1: a serializer's notes() and a --schema module replaced the host's
 * JSON.stringify, and results.json said `measured` for an incorrect case). The calls, each with
 * where it is guarded:
 *
 * | user code in the host | guarded by |
 * |---|---|
 * | a config's top level, and every property of its adapters and workloads read by the host (getters, a Proxy) | config/user-config.ts loadUserConfig (the values are copied while the import is guarded), under compile-config.ts's watchdog |
 * | `supports()` | plan/plan.ts supportOf (the snapshot around host/user-code.ts callUserCode) |
 * | `notes()` | plan/plan.ts notesOf ({@link hostCall}) |
 * | a `--schema` module: its top level and its schema library's conversion | run/request.ts ({@link hostCallAsync}), around payload/user-schema.ts's own callUserCodeAsync of its import |
 * | a workload's `toModel`, `checkText` and `build` (the .NET gate checks .NET output in the host; `renderPayload`) | {@link guardWorkloadHooks}, applied to a config loaded by the host |
 * | a timer or a promise armed by any of them, firing later | the seal: {@link sealHost} at the start, {@link checkHostSeal} before results are recorded and written |
 *
 * A guarded call runs through host/user-code.ts (callUserCode: the watchdog of host/watchdog.ts, a
 * call that does not return within its limit ends the process with exit 2 naming its hook and file;
 * what it leaves running is attributed to that scope) and between a snapshot and its check
 * (user-config.ts hostSnapshot): what it changed is put back at once, and the call counts as
 * failed ({@link HostPatched}) — the case fails, the config or schema is refused. A worker
 * process or a build thread is not the host: there a serializer's prepare() or a workload's
 * build() may patch what it needs.
 */

/** A guarded call changed jsonbench's own process (it was put back). */
export class HostPatched extends Error {
  constructor(
    /** what was called (`notes() of serializer "x"`: the scope's hook) */
    readonly step: string,
    /** what it changed (`JSON.stringify, Object.prototype.toJSON (added)`) */
    readonly changed: string,
    /** what jsonbench did about it, ending the message */
    consequence = '',
  ) {
    super(`${step} changed jsonbench's own process: ${changed} (put back)${consequence}`);
  }
}

/**
 * Runs `fn`, a synchronous call into user code, in the host: through host/user-code.ts callUserCode
 * in `scope` (the watchdog: `timeoutMs`, then exit 2 naming the scope's hook and file) and under the
 * host snapshot. Returns what `fn` returns; what it throws passes through, after the check.
 * @throws HostPatched naming `scope.hook` when it changed what the guard watches (put back first), whether it returned or threw
 */
export function hostCall<T>(scope: UserCodeScope, timeoutMs: number, fn: () => T): T {
  const restore = hostSnapshot();
  let out: { value: T } | { thrown: unknown };
  try {
    out = { value: callUserCode(scope, timeoutMs, fn) };
  } catch (e) {
    out = { thrown: e };
  }
  const changed = restore();
  if (changed) throw new HostPatched(scope.hook, changed);
  if ('thrown' in out) throw out.thrown;
  return out.value;
}

/**
 * {@link hostCall} for an asynchronous step (loading a --schema module), through callUserCodeAsync:
 * the deadline, the scope and the snapshot hold until its Promise settles (a step guarded inside
 * it, the module's import, holds the deadline while it runs: host/watchdog.ts).
 * @throws HostPatched as {@link hostCall}
 */
export async function hostCallAsync<T>(scope: UserCodeScope, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const restore = hostSnapshot();
  let out: { value: T } | { thrown: unknown };
  try {
    out = { value: await callUserCodeAsync(scope, timeoutMs, fn) };
  } catch (e) {
    out = { thrown: e };
  }
  const changed = restore();
  if (changed) throw new HostPatched(scope.hook, changed);
  if ('thrown' in out) throw out.thrown;
  return out.value;
}

/** How long one call of a workload's toModel, checkText or build may take in the host (ms): a largest payload's build is about 1 s. */
export const WORKLOAD_HOOK_TIMEOUT_MS = 60_000;

/**
 * A copy of a user's workload whose functions the host may call (`toModel`, `checkText`, `build`)
 * run under {@link hostCall}, in the scope of the config file the workload came from
 * (host/user-code.ts originOf; the copy is marked as that file's too). For a config loaded by the
 * host only (compile-config.ts prepareConfig): a worker's own load keeps them as they are.
 */
export function guardWorkloadHooks<W extends object>(w: W & { id: string }): W {
  const out: Record<string, unknown> = { ...w };
  const file = originOf(w) ?? "jsonbench's built-in workloads";
  for (const k of ['toModel', 'checkText', 'build'] as const) {
    const f = (w as Record<string, unknown>)[k];
    if (typeof f !== 'function') continue;
    out[k] = (...args: unknown[]) =>
      hostCall({ file, hook: `${k}() of workload "${w.id}"` }, WORKLOAD_HOOK_TIMEOUT_MS, () =>
        (f as (...a: unknown[]) => unknown).apply(w, args),
      );
  }
  if (originOf(w)) markOrigin(out, file);
  return out as W;
}

let seal: (() => string) | undefined;

/**
 * Takes the host's seal (once per process): a snapshot of what the guard watches, taken before any
 * user code runs (cli/main.ts, and a programmatic run's session). {@link checkHostSeal} compares
 * with it: a change made by a timer or a promise that user code armed, after its guarded call
 * returned, is seen there.
 */
export function sealHost(): void {
  seal ??= hostSnapshot();
}

/**
 * What changed since {@link sealHost} (put back), `''` when nothing did (or no seal was taken).
 * The run session calls it before it records a case in the ledger and before it writes
 * results.json: a change means numbers the host handled after it cannot be trusted.
 */
export function checkHostSeal(): string {
  const now = seal ? seal() : '';
  return [sealBroken, now].filter(Boolean).join(', ');
}

/** What user code changed before an {@link ownImport} re-took the seal (put back then), `''` when nothing did. */
let sealBroken = '';

/**
 * Runs `load`, jsonbench's own lazy import of a dependency that changes what the seal watches as it
 * loads, and takes exactly the changes `expected` into the seal; returns what `load` returns. The
 * one such dependency: playwright-core (the chromium target) bundles graceful-fs, which wraps
 * `fs.close` and `fs.closeSync` when it loads, and every chromium run was refused as "user code
 * changed jsonbench's own process: fs.close, fs.closeSync" (found 2026-12-06; the seal came in
 * 07695bf). Anything else changed before or during the import (a timer user code armed) is put
 * back and reported by {@link checkHostSeal} as before; an `expected` key user code had already
 * replaced is put back before the import, so its change is reported, never taken in. Without a
 * seal (no run) it only calls `load`.
 * @param expected `[object, key, name]`: each key the import may change and its name as the seal gives it (`fs.close`)
 */
export async function ownImport<T>(
  load: () => Promise<T>,
  expected: readonly (readonly [object, string, string])[],
): Promise<T> {
  if (!seal) return load();
  const note = (changed: string) => {
    if (changed) sealBroken = sealBroken ? `${sealBroken}, ${changed}` : changed;
  };
  note(seal());
  try {
    return await load();
  } finally {
    const loaded = expected.map(([o, k]) => Reflect.getOwnPropertyDescriptor(o, k));
    const changed = seal();
    if (changed) {
      const names = expected.map((e) => e[2]);
      note(
        changed
          .split(', ')
          .filter((n) => !names.includes(n))
          .join(', '),
      );
      expected.forEach(([o, k], i) => {
        const d = loaded[i];
        if (d) Reflect.defineProperty(o, k, d);
      });
      syncBuiltinESMExports();
    }
    seal = hostSnapshot();
  }
}
