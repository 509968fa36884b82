import { maskBidi } from '../case/bidi.js';

/**
 * The CLI's two output streams, held at their edge:
 *
 * - {@link maskOutput}: every text written to stdout or stderr — tables, notes, warnings, errors,
 *   `--json`, anything a config prints — has its bidirectional formatting characters masked
 *   (case/bidi.ts: U+202E is written `\u202E`), so a payload key or a serializer id cannot make a
 *   terminal line read otherwise than it holds. In JSON text such a character can only stand inside
 *   a string, where the escape means the same character: `--json` output stays the same JSON value.
 *   No line starts as a GitHub Actions workflow command ({@link noWorkflowCommands}).
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
    // whether the next chunk starts a line (a line may come in several writes)
    let lineStart = true;
    const write: Write = (chunk, ...rest) => {
      if (typeof chunk !== 'string') return own(chunk, ...rest);
      const text = noWorkflowCommands(maskBidi(chunk), lineStart);
      if (chunk.length) lineStart = chunk.endsWith('\n');
      return own(text, ...rest);
    };
    held.set(stream, write);
    (stream as unknown as { write: Write }).write = write;
  }
}

/**
 * `text` with no line that GitHub Actions would run as a workflow command: the runner trims a line's
 * leading white space and runs `::name …::value` (`::error`, `::add-mask::`, `::stop-commands::`) and
 * the older `##[name]`. A zero-width space goes between the two signs of such a line start, so it
 * shows the same and commands nothing (hx5 I-ghcmd: a payload file name with line breaks put
 * `::error` lines on stderr; a long name wrapped at a space can put one at a line start too). Azure
 * Pipelines' logging commands (`##vso[task.prependpath]…`) are broken the same way wherever they sit
 * in a line (hx6: a payload named `##vso[task.prependpath]pwned.json`).
 * `atStart`: whether `text` begins a line.
 */
export function noWorkflowCommands(text: string, atStart: boolean): string {
  return text
    .replace(/(^|\n)([ \t\r]*)(::|##\[)/g, (all, nl: string, ws: string, sign: string, at: number) =>
      at === 0 && !atStart && !nl ? all : `${nl}${ws}${sign[0]}\u200b${sign.slice(1)}`,
    )
    .replace(/##vso\[/gi, (m) => `#\u200b${m.slice(1)}`);
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
