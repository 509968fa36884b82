import { describeThrown } from './describe-thrown.js';
import { guardedAsync, guardedCall } from './watchdog.js';

/**
 * Every call into a user's code in jsonbench's own process (the host) goes through here (issue 25,
 * "hang" and "crash"): a config's top level, an adapter's `supports()` and `notes()`, a `--schema`
 * module's top level. Each call gets
 *
 * - a watchdog (./watchdog.ts): a call that does not return (or settle) within its bound ends the
 *   process with exit 2 and one line naming the hook and the file;
 * - an attribution of what it leaves running: while it runs, `setTimeout`, `setInterval`,
 *   `setImmediate`, `queueMicrotask` and `process.nextTick` bind the callbacks it schedules to its
 *   scope, so an exception one throws later, outside any call, is a {@link HostFault} naming the
 *   file and the hook, never a raw Node stack trace from the host. One while an async call is still
 *   running (a config's import) fails that call; one after it goes to the {@link onHostFault}
 *   listeners (the run session fails the serializer's cases). What escapes the binding (a Promise
 *   rejected later, a timer from `node:timers`) is caught by a process-level handler and
 *   attributed by the user's file on its stack.
 *
 * AsyncLocalStorage would bind more, but it turns on async hooks, and the watchdog's stop of a
 * looping call (V8's terminateExecution) then leaves Node's async id stack unbalanced: the next
 * callback aborts the process (`Assertion failed: (env_->execution_async_id()) == (0)`, Node 20).
 *
 * The other hostile-input work (the host guard: built-ins put back after user code) may wrap its
 * own checks around these two functions; they are the one place user code is entered.
 */

/** What user code runs in the host: its file and the hook, as messages name them. */
export interface UserCodeScope {
  /** the user's file (a config, a `--schema` module), as the user gave it */
  file: string;
  /** the hook: `notes() of serializer "x" (workload w, serialize)`, `the top level` */
  hook: string;
  /** the serializer whose hook it is, when an adapter's */
  serializer?: string;
}

/** An exception thrown (or a rejection left unhandled) by code a hook left running, after the hook returned. */
export interface HostFault {
  scope: UserCodeScope;
  /** `an exception` or `a Promise rejection` */
  kind: string;
  /** the thrown value, described without trusting it (`Error: boom`) */
  message: string;
}

/** A call into user code failed because code it started threw while it was still running. */
export class UserCodeError extends Error {
  override readonly name = 'UserCodeError';
  constructor(
    readonly scope: UserCodeScope,
    message: string,
  ) {
    super(message);
  }
}

/** the scopes of the calls now running, innermost last (an async call stays until it settles) */
const stack: UserCodeScope[] = [];
/** async calls still running: a late exception in their scope fails them */
const running = new Map<UserCodeScope, (e: Error) => void>();
const listeners = new Set<(f: HostFault) => void>();
/** the user's files (and the modules compiled from them), for exceptions no scope was bound to */
const files = new Map<string, string>();
const origins = new WeakMap<object, string>();
let installed = false;

/** `scope` as one phrase: `notes() of serializer "x" (…) in /path/jsonbench.config.mjs`. */
export function describeScope(scope: UserCodeScope): string {
  return `${scope.hook} in ${scope.file}`;
}

/**
 * Runs `fn`, a synchronous call into user code, under a watchdog of `timeoutMs` and in `scope`.
 * Returns what `fn` returns; its exceptions pass through.
 */
export function callUserCode<T>(scope: UserCodeScope, timeoutMs: number, fn: () => T): T {
  install();
  return guardedCall(describeScope(scope), timeoutMs, () => {
    enter(scope);
    try {
      return fn();
    } finally {
      leave(scope);
    }
  });
}

/**
 * Runs `fn`, an async call into user code (an import), under a watchdog of `timeoutMs` (a loop
 * anywhere in it is stopped) and in `scope` until it settles; an exception thrown by a callback it
 * scheduled, before it settles, rejects it with a {@link UserCodeError}.
 */
export function callUserCodeAsync<T>(scope: UserCodeScope, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  install();
  return guardedAsync(describeScope(scope), timeoutMs, async () => {
    enter(scope);
    try {
      return await new Promise<T>((resolve, reject) => {
        running.set(scope, reject);
        fn().then(resolve, reject);
      });
    } finally {
      running.delete(scope);
      leave(scope);
    }
  });
}

type Scheduler = (callback: unknown, ...rest: unknown[]) => unknown;
/** The schedulers bound while user code runs: the global object's, and process.nextTick. */
const SCHEDULERS: [Record<string, unknown>, string][] = [
  [globalThis as unknown as Record<string, unknown>, 'setTimeout'],
  [globalThis as unknown as Record<string, unknown>, 'setInterval'],
  [globalThis as unknown as Record<string, unknown>, 'setImmediate'],
  [globalThis as unknown as Record<string, unknown>, 'queueMicrotask'],
  [process as unknown as Record<string, unknown>, 'nextTick'],
];
/** the schedulers as they were before the outermost call replaced them */
let originals: unknown[] | undefined;

/** Pushes `scope`; the outermost call replaces the schedulers with ones binding callbacks to the innermost scope. */
function enter(scope: UserCodeScope): void {
  stack.push(scope);
  if (originals) return;
  originals = SCHEDULERS.map(([o, k]) => o[k]);
  SCHEDULERS.forEach(([o, k], i) => {
    const original = originals![i] as Scheduler;
    const bound = function (this: unknown, callback: unknown, ...rest: unknown[]) {
      const at = stack.at(-1);
      return original.call(
        this,
        typeof callback === 'function' && at ? bind(at, callback as (...args: unknown[]) => unknown) : callback,
        ...rest,
      );
    };
    // what the original carries (util.promisify.custom, name, length) stays visible
    Object.defineProperties(bound, Object.getOwnPropertyDescriptors(original));
    o[k] = bound;
  });
}

/** Pops `scope` (wherever it is: async calls may end out of order); the last one out puts the schedulers back. */
function leave(scope: UserCodeScope): void {
  const i = stack.lastIndexOf(scope);
  if (i >= 0) stack.splice(i, 1);
  if (stack.length || !originals) return;
  SCHEDULERS.forEach(([o, k], j) => (o[k] = originals![j]));
  originals = undefined;
}

/** `callback` run in `scope` (what it schedules is bound too); what it throws is a fault of `scope`, not a crash. */
function bind(scope: UserCodeScope, callback: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  return function (this: unknown, ...args: unknown[]) {
    enter(scope);
    try {
      return callback.apply(this, args);
    } catch (e) {
      late(scope, 'an exception', e);
      return undefined;
    } finally {
      leave(scope);
    }
  };
}

/** Reports what code of `scope` threw outside any call: it fails the call still running, else it is a fault. */
function late(scope: UserCodeScope, kind: string, e: unknown): void {
  // nothing here may throw: a throw here would end the process with a raw trace
  try {
    const message = describeThrown(e).slice(0, 500);
    const reject = running.get(scope);
    if (reject) {
      reject(
        new UserCodeError(
          scope,
          `${kind} from code ${scope.hook} started (a timer or callback), while it ran: ${message}`,
        ),
      );
      return;
    }
    const fault: HostFault = { scope, kind, message };
    if (listeners.size) for (const l of listeners) l(fault);
    else {
      // hx17: a getter of the user's (process.stderr.isTTY, process.env) threw inside jsonbench's own callback; the
      // command waiting on that callback never went on, and the process ended with exit 0 and nothing written
      process.exitCode ||= 2;
      const from = scope.hook === LEFT_RUNNING ? LEFT_RUNNING : `code ${scope.hook} left running`;
      process.stderr.write(
        `jsonbench: warning: ${scope.file}: ${kind} from ${from} (a timer, a callback or a getter) in jsonbench's own process, after it returned: ${message}; if the command stops here it exits 2\n`,
      );
    }
  } catch {
    /* reported as well as it could be */
  }
}

/**
 * Says that `path` (a module jsonbench imports: a config, its compiled `.mjs`, a `--schema` module)
 * is the user's file `file`: an exception whose stack runs through it is the user's.
 */
export function registerUserFile(path: string, file: string = path): void {
  files.set(path, file);
}

/** Records that `value` (an adapter, a workload) comes from the user's `file`. */
export function markOrigin(value: object, file: string): void {
  origins.set(value, file);
}

/** The user's file `value` came from ({@link markOrigin}), or undefined for a built-in. */
export function originOf(value: object): string | undefined {
  return origins.get(value);
}

/** Calls `listener` with each {@link HostFault} from now on; returns the function that stops it. */
export function onHostFault(listener: (f: HostFault) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The scope of an exception no binding caught: the call running now, else a user file on its stack. */
function scopeOf(e: unknown): UserCodeScope | undefined {
  const now = stack.at(-1);
  if (now) return now;
  let trace: string;
  try {
    trace = e instanceof Error && typeof e.stack === 'string' ? e.stack : '';
  } catch {
    return undefined;
  }
  const file = userFileOnStack(e, trace);
  return file === undefined ? undefined : { file, hook: LEFT_RUNNING };
}

/** The hook of an exception attributed to a user file by its stack alone. */
const LEFT_RUNNING = 'code it left running';

/**
 * The user's file (a config, a `--schema` module) whose code is on `e`'s stack, or undefined: an
 * error of jsonbench's own that went through it (a getter of the user's on `process`: hx17's
 * `process.platform` read "an internal error" not naming the config).
 */
export function userFileOnStack(e: unknown, trace?: string): string | undefined {
  let text = trace;
  if (text === undefined)
    try {
      text = e instanceof Error && typeof e.stack === 'string' ? e.stack : '';
    } catch {
      return undefined;
    }
  for (const [path, file] of files) if (text.includes(path)) return file;
  return undefined;
}

/** The process-level handlers, once: what no binding caught, attributed by {@link scopeOf}. */
function install(): void {
  if (installed) return;
  installed = true;
  const handler = (kind: string, event: 'uncaughtException' | 'unhandledRejection') => (e: unknown) => {
    let scope: UserCodeScope | undefined;
    try {
      scope = scopeOf(e);
    } catch {
      scope = undefined;
    }
    if (scope) late(scope, kind, e);
    else notOurs(e, event);
  };
  process.on('uncaughtException', handler('an exception', 'uncaughtException'));
  process.on('unhandledRejection', handler('a Promise rejection', 'unhandledRejection'));
}

/**
 * An exception of jsonbench's own (no user scope): left to another listener when there is one (a
 * test runner's), else reported as the CLI reports an internal error, exit 1 (what Node would do).
 */
function notOurs(e: unknown, event: 'uncaughtException' | 'unhandledRejection'): void {
  if (process.listenerCount(event) > 1) return;
  const debug = Boolean(process.env.JSONBENCH_DEBUG);
  let detail = describeThrown(e);
  if (debug)
    try {
      detail = (e as Error).stack ?? detail;
    } catch {
      /* keep the description */
    }
  process.stderr.write(
    `jsonbench: error: ${detail}\n${debug ? '' : '(an internal error: rerun with JSONBENCH_DEBUG=1 for the stack, and please report it)\n'}`,
  );
  process.exit(1);
}
