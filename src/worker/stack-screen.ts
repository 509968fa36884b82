import { fileURLToPath } from 'node:url';

/**
 * Stack traces that code under measurement captures end at its own frames: jsonbench's frames (and the
 * built-in frames just above them) are cut off, in every phase alike, so a serializer cannot tell from
 * `new Error().stack` or `Error.captureStackTrace` whether it is called by the timed loop, the allocation
 * windows or a check. hx24 C01: a serializer that read `timeSample` in its stack used a cache there and
 * JSON.stringify elsewhere, "2.80× faster" in 3 of 3 quick runs; AL1/AL2: one that read `allocationWindow`
 * handed back strings it had made before, 232 B per op for an 11.7 KiB output.
 *
 * How: `Error.prepareStackTrace` (V8's hook, which Node calls when it is set) becomes an accessor for the
 * worker's life: reading it gives the screen, setting it keeps the user's function, which then gets the cut
 * call sites (the save-and-restore idiom of libraries such as depd keeps working). A trace whose first
 * frame is jsonbench's own (its own errors) is left whole. Node only: Bun and Deno format traces
 * otherwise. Left: a trace captured in another realm (`vm.runInNewContext`) is formatted by that realm's
 * Error and is not cut (docs/limits.md).
 */

/** A V8 call site, as much of it as the screen reads. */
interface CallSite {
  getFileName(): string | null | undefined;
  toString(): string;
}
type Prepare = (error: Error, frames: CallSite[]) => unknown;

/** Where jsonbench's own modules live (the folder above this module's), as a path and as a file URL. */
const OWN_URL = new URL('../', import.meta.url).href;
const OWN_PATH = fileURLToPath(OWN_URL);

function isOwn(f: CallSite): boolean {
  const name = f.getFileName();
  return typeof name === 'string' && (name.startsWith(OWN_URL) || name.startsWith(OWN_PATH));
}

/**
 * The frames code under measurement may see: `frames` up to jsonbench's first frame, less the frames
 * without a file just above it (a built-in such as `Array.map` between the caller and the callee); all of
 * them when the first frame is jsonbench's own.
 */
export function screenedFrames<T extends CallSite>(frames: readonly T[]): T[] {
  if (!frames.length || isOwn(frames[0])) return [...frames];
  let cut = frames.findIndex(isOwn);
  if (cut < 0) return [...frames];
  while (cut > 0 && !frames[cut - 1].getFileName()) cut--;
  return frames.slice(0, cut);
}

/** V8's own text of a trace: the error's `toString()`, then a line per frame. */
function formatted(error: unknown, frames: readonly CallSite[]): string {
  let head: string;
  try {
    head = Error.prototype.toString.call(error);
  } catch {
    head = 'Error';
  }
  return head + frames.map((f) => `\n    at ${String(f)}`).join('');
}

/** Installs the screen (once, Node only). */
export function screenStacks(): void {
  const g = globalThis as { Bun?: unknown; Deno?: unknown; process?: { release?: { name?: string } } };
  if (g.Bun !== undefined || g.Deno !== undefined || g.process?.release?.name !== 'node') return;
  const E = Error as unknown as { prepareStackTrace?: Prepare };
  let user: Prepare | undefined = typeof E.prepareStackTrace === 'function' ? E.prepareStackTrace : undefined;
  const screen: Prepare = (error, frames) => {
    const kept = screenedFrames(frames);
    return user ? user(error, kept) : formatted(error, kept);
  };
  Object.defineProperty(Error, 'prepareStackTrace', {
    configurable: false,
    enumerable: false,
    get: () => screen,
    set: (f: unknown) => {
      user = typeof f === 'function' && f !== screen ? (f as Prepare) : undefined;
    },
  });
}
