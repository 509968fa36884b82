/**
 * Bounds a step that runs a user's code asynchronously (importing a config, awaiting a Promise it
 * returned): the step fails with a message naming it when it takes longer than `timeoutMs`, or at
 * once when the process runs out of work while waiting — a Promise that never settles (a
 * top-level `await` on nothing) would otherwise let Node exit 0 with nothing done, which a CI job
 * reads as a pass.
 */

/** Why a bounded step did not finish: `timeout` (ran out of time) or `idle` (nothing left that could settle it). */
export class StepTimeout extends Error {
  constructor(
    readonly kind: 'timeout' | 'idle',
    message: string,
  ) {
    super(message);
  }
}

interface ProcessLike {
  once(event: 'beforeExit', fn: () => void): unknown;
  off(event: 'beforeExit', fn: () => void): unknown;
}

/**
 * Resolves as `promise` does, unless it has not settled after `timeoutMs` or the event loop
 * empties first; then rejects with a {@link StepTimeout} whose message starts with `step`.
 */
export function settleWithin<T>(promise: Promise<T>, timeoutMs: number, step: string): Promise<T> {
  const proc = (globalThis as { process?: ProcessLike }).process;
  return new Promise<T>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      proc?.off('beforeExit', onIdle);
    };
    const onIdle = () => {
      done();
      reject(
        new StepTimeout(
          'idle',
          `${step} never settled: the process ran out of work while waiting (a top-level await or a Promise that never resolves?)`,
        ),
      );
    };
    const timer = setTimeout(() => {
      done();
      reject(new StepTimeout('timeout', `${step} did not finish within ${(timeoutMs / 1000).toFixed(0)} s`));
    }, timeoutMs);
    // unref'd, so a Promise that nothing can settle shows as `idle` at once instead of after the timeout
    (timer as { unref?: () => void }).unref?.();
    proc?.once('beforeExit', onIdle);
    promise.then(
      (v) => {
        done();
        resolve(v);
      },
      (e) => {
        done();
        reject(e);
      },
    );
  });
}
