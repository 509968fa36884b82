import { parseBun } from './bun.js';
import { parseChromium } from './chromium.js';
import { parseDeno } from './deno.js';
import { DOTNET_MAJORS, parseDotnet, parseDotnetVersion, parseMono } from './dotnet.js';
import { parseNodeHost } from './node-host.js';
import { NODE_MAJORS, parseNodeVersion } from './node-version.js';
import { parseQuickjs } from './quickjs.js';
import { parseSsh } from './ssh.js';
import { TargetError, type Target } from './types.js';
import { deepFreeze } from '../case/frozen.js';

/** One kind of runtime: how a `--target` value of this kind is read, the values it knows, and how help shows it. */
interface RuntimeKind {
  /** the target, or undefined when `id` is not of this kind. @throws TargetError on a malformed value of this kind */
  parse(id: string): Target | undefined;
  /** the values `jsonbench runtimes list` shows (none for open-ended kinds such as ssh) */
  known: readonly string[];
  /** how `--target` help writes this kind */
  form: string;
}

/**
 * Every kind of runtime, keyed by kind, in the order `--target` values are tried. Adding a runtime
 * is adding its file and one entry here: the kinds, the known targets and the help text derive
 * from this map.
 */
export const runtimes = deepFreeze({
  'node-host': { parse: parseNodeHost, known: ['node'], form: 'node (the Node running jsonbench; the default)' },
  'node-version': {
    parse: parseNodeVersion,
    known: NODE_MAJORS.map((m) => `node@${m}`),
    form: `node@${NODE_MAJORS.join('|')}`,
  },
  bun: { parse: parseBun, known: ['bun'], form: 'bun' },
  deno: { parse: parseDeno, known: ['deno'], form: 'deno' },
  chromium: { parse: parseChromium, known: ['chromium'], form: 'chromium' },
  quickjs: { parse: parseQuickjs, known: ['quickjs'], form: 'quickjs' },
  dotnet: { parse: parseDotnet, known: ['dotnet'], form: "dotnet (the .NET SDK's runtime: .NET serializers)" },
  'dotnet-version': {
    parse: parseDotnetVersion,
    known: DOTNET_MAJORS.map((m) => `dotnet@${m}`),
    form: `dotnet@${DOTNET_MAJORS.join('|')} (the worker published self-contained for that .NET major)`,
  },
  mono: { parse: parseMono, known: ['mono'], form: "mono (Debian's Mono: .NET serializers)" },
  ssh: {
    parse: parseSsh,
    known: [],
    form: 'ssh://user@host[:port][?node=/path/to/node | ?dotnet=/path/to/dotnet | ?mono=/path/to/mono]',
  },
} satisfies Record<string, RuntimeKind>);

/** A kind of target (a key of {@link runtimes}). */
export type TargetKind = keyof typeof runtimes;

/** Every target `jsonbench runtimes list` shows (open-ended kinds such as ssh are listed as a form). */
export const KNOWN_TARGETS: readonly string[] = deepFreeze(Object.values(runtimes).flatMap((r) => r.known));

/** The known targets jsonbench installs itself (from the npm registry). */
export const INSTALLABLE_TARGETS: readonly string[] = deepFreeze(KNOWN_TARGETS.filter((id) => parseTarget(id).install));

/** The `--target` forms, for help text: `node (…), node@20|22|24|26, bun, …`. */
export const TARGET_FORMS: string = Object.values(runtimes)
  .map((r) => r.form)
  .join(', ');

/** The target a run uses when it names none: the Node running jsonbench. */
export const DEFAULT_TARGET = 'node';

/** Parses one `--target` value. @throws TargetError naming the value and the known forms */
export function parseTarget(id: string): Target {
  const value = id.trim();
  for (const r of Object.values(runtimes)) {
    const t = r.parse(value);
    if (t) return t;
  }
  throw new TargetError(
    `unknown target "${value}" (known: ${KNOWN_TARGETS.join(', ')}, node@<major> (18 or later), dotnet@<major>, ssh://user@host[:port])`,
  );
}

/** Parses a `--target` list (comma-separated or repeated); duplicates are dropped. @throws TargetError */
export function parseTargets(values: readonly string[]): Target[] {
  const ids = [
    ...new Set(
      values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  return ids.map(parseTarget);
}
