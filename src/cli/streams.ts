import { maskBidi } from '../case/bidi.js';

/**
 * The CLI's two output streams, held at their edge:
 *
 * - {@link maskOutput}: every text written to stdout or stderr — tables, notes, warnings, errors,
 *   `--json`, anything a config prints — has its bidirectional formatting characters masked
 *   (case/bidi.ts: U+202E is written `\u202E`), so a payload key or a serializer id cannot make a
 *   terminal line read otherwise than it holds. In JSON text such a character can only stand inside
 *   a string, where the escape means the same character: `--json` output stays the same JSON value.
 * - {@link jsonStdout}: while a command writes JSON on stdout (`run --json`, `--print-schema`),
 *   whatever else is written there — a config's `console.log`, a `process.stdout.write` in
 *   supports() or notes(), a workload's build thread — goes to stderr instead, so stdout holds
 *   the JSON alone (hostile tester, hx1 1.6). What it cannot reach: a write straight to file
 *   descriptor 1 (`fs.writeSync(1, …)`), which no stream sees.
 *
 * Apart from cli/output.ts (the width: it loads the wrapper, which `--help` must not): main()
 * installs these on every command.
 */

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;
/** each stream's own write, masked */
const held = new Map<NodeJS.WriteStream, Write>();

/** Installs the mask on stdout and stderr (once per process; main() calls it on every command). */
export function maskOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (held.has(stream)) continue;
    const own = stream.write.bind(stream) as Write;
    const write: Write = (chunk, ...rest) => own(typeof chunk === 'string' ? maskBidi(chunk) : chunk, ...rest);
    held.set(stream, write);
    (stream as unknown as { write: Write }).write = write;
  }
}

/**
 * Sends what is written to stdout to stderr until `release()`, and returns the writer of stdout
 * itself (masked) for the JSON. Calls nest: the innermost release puts back what was there.
 */
export function jsonStdout(): { write(text: string): void; release(): void } {
  maskOutput();
  const out = held.get(process.stdout)!;
  const before = (process.stdout as unknown as { write: Write }).write;
  const toStderr: Write = (chunk, ...rest) => (process.stderr.write as unknown as Write)(chunk, ...rest);
  (process.stdout as unknown as { write: Write }).write = toStderr;
  return {
    write: (text) => {
      out(text);
    },
    release: () => {
      (process.stdout as unknown as { write: Write }).write = before;
    },
  };
}
