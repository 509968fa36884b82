/** The signals jsonbench's commands listen for to stop cleanly (cli/run.ts: the bar restored, where the data is said). */
const STOPS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `fn`, one long synchronous step (generating millions of records, writing a large payload's files), with the
 * process's SIGINT, SIGTERM and SIGHUP listeners taken off and put back after (whether it returned or threw), so a
 * stop during the step ends the process at once, by the signal's default action (exit 128 + its number). A listener
 * runs only when the event loop turns, which a synchronous step does not let it do: hx18 A25's `timeout 60` sent
 * SIGTERM to a run generating records and it went on for 12 minutes. What the listeners would have said (where the
 * measured data is) does not apply here: the step comes before any case runs.
 */
export function withDefaultStops<T>(fn: () => T): T {
  const taken = STOPS.map((signal) => [signal, process.rawListeners(signal)] as const);
  for (const [signal] of taken) process.removeAllListeners(signal);
  try {
    return fn();
  } finally {
    for (const [signal, listeners] of taken)
      for (const l of listeners) process.on(signal, l as (...args: unknown[]) => void);
  }
}
