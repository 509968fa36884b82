import { parseBun } from './bun.js';
import { parseChromium } from './chromium.js';
import { parseDeno } from './deno.js';
import { parseNodeHost } from './node-host.js';
import { NODE_MAJORS, parseNodeVersion } from './node-version.js';
import { parseQuickjs } from './quickjs.js';
import { parseSsh } from './ssh.js';
import { TargetError, type Target } from './types.js';

/** One parser per runtime kind, tried in order; adding a runtime is adding its file and one line here. */
const parsers: ((id: string) => Target | undefined)[] = [parseNodeHost, parseNodeVersion, parseBun, parseDeno, parseChromium, parseQuickjs, parseSsh];

/** Every target `jsonbench runtimes list` shows (ssh targets are open-ended and listed as a form). */
export const KNOWN_TARGETS: readonly string[] = ['node', ...NODE_MAJORS.map((m) => `node@${m}`), 'bun', 'deno', 'chromium', 'quickjs'];

/** Parses one `--target` value. @throws TargetError naming the value and the known forms */
export function parseTarget(id: string): Target {
  const value = id.trim();
  for (const parse of parsers) {
    const t = parse(value);
    if (t) return t;
  }
  throw new TargetError(`unknown target "${value}" (known: ${KNOWN_TARGETS.join(', ')}, node@<major>, ssh://user@host[:port])`);
}

/** Parses a `--target` list (comma-separated or repeated); duplicates are dropped. @throws TargetError */
export function parseTargets(values: readonly string[]): Target[] {
  const ids = [...new Set(values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
  return ids.map(parseTarget);
}

export type { Target } from './types.js';
