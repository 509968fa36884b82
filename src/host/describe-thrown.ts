/**
 * A thrown value described without trusting it: an Error's name and message, a primitive as
 * `String` gives it, anything else by its type (a null-prototype object, a Proxy whose traps
 * throw, an Error whose `message` getter throws, a value whose `toString` throws). Never throws
 * (issue 25: `String(e)` on a null-prototype object threw inside the uncaught-exception handler,
 * so the launch ended without its error and its numbers were kept).
 */
export function describeThrown(e: unknown): string {
  try {
    if (e === null || (typeof e !== 'object' && typeof e !== 'function')) return String(e);
    let isError = false;
    try {
      isError = e instanceof Error;
    } catch {
      isError = false;
    }
    if (isError) {
      const name = (e as Error).name;
      const message = (e as Error).message;
      return `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : '(a message that is not a string)'}`;
    }
    const proto = Object.getPrototypeOf(e) as unknown;
    return proto === null ? 'a value of no prototype (not an Error)' : `a value of type ${typeof e} (not an Error)`;
  } catch {
    return 'a value that cannot be described (its properties throw)';
  }
}

/** A thrown value's message: an Error's (or any object's string `message`), else {@link describeThrown}'s description; never throws. */
export function messageOfThrown(e: unknown): string {
  try {
    const message = (e as { message?: unknown } | null)?.message;
    if (typeof message === 'string') return message;
  } catch {
    // a message getter that throws: described below
  }
  return describeThrown(e);
}
