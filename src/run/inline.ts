/**
 * What `run()` (src/index.ts) takes as values and the run takes as files: a payload given as a
 * value or a text becomes a file, and serializers given as values become a config module the
 * workers can import (they are separate processes: a function cannot cross to them, so the
 * module that exports the serializers, `from`, is imported there). Kept out of request.ts: the
 * CLI never needs it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../config/usage-error.js';
import type { RunOptions } from './request.js';
import type { SerializerAdapter } from '../serializers/types.js';

/** The inline parts of run()'s options, before they are files. */
export interface InlineOptions {
  payload?: string | { value: unknown; name?: string } | { text: string; name?: string };
  serializers?: readonly SerializerAdapter[];
  from?: string | URL;
  serializer?: string[];
  config?: string;
  cwd?: string;
}

/** Options as the run takes them, and what to remove when it is over. */
export interface Staged {
  options: RunOptions;
  cleanup: () => void;
}

/**
 * Writes the inline payload and serializers of `opts` into a new temporary folder (removed by
 * `cleanup`) and returns options that name those files. Without inline parts the options pass
 * through and nothing is written.
 * @throws UsageError naming `payload` (neither a path, `{ value }` nor `{ text }`; a value JSON
 * cannot write), `serializers` (not adapters with ids; no `from`)
 */
export async function stageInline<T extends InlineOptions>(opts: T): Promise<Staged> {
  const { serializers, from, payload, ...rest } = opts;
  const needsFiles = (payload !== undefined && typeof payload !== 'string') || serializers !== undefined;
  if (!needsFiles) return { options: opts as RunOptions, cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-api-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const out: Record<string, unknown> = { ...rest };
    if (payload !== undefined) out.payload = typeof payload === 'string' ? payload : writePayload(dir, payload);
    if (serializers !== undefined) {
      if (
        !Array.isArray(serializers) ||
        serializers.some((s) => !s || typeof s !== 'object' || typeof s.id !== 'string')
      )
        throw new UsageError('serializers', 'give serializer adapters (defineSerializer values, each with an id)');
      if (from === undefined)
        throw new UsageError(
          'serializers',
          'workers load serializers from a module: give `from`, the URL of the module that exports them (import.meta.url of that module)',
        );
      const url =
        from instanceof URL
          ? from.href
          : /^[a-z]+:/.test(from)
            ? from
            : pathToFileURL(resolve(opts.cwd ?? process.cwd(), from)).href;
      const ids = serializers.map((s) => s.id);
      const userConfig = opts.config ? pathToFileURL(resolve(opts.cwd ?? process.cwd(), opts.config)).href : null;
      const module = [
        `import * as source from ${JSON.stringify(url)};`,
        userConfig
          ? `import user from ${JSON.stringify(userConfig)};`
          : 'const user = { serializers: [], workloads: [] };',
        `const ids = ${JSON.stringify(ids)};`,
        'const candidates = Object.values(source).flatMap((v) => (v && Array.isArray(v.serializers) ? v.serializers : [v]));',
        'const picked = ids.map((id) => candidates.find((a) => a && typeof a === "object" && a.id === id));',
        'const missing = ids.filter((id, i) => !picked[i]);',
        `if (missing.length) throw new Error(${JSON.stringify(`${url} exports no serializer with the id `)} + missing.join(", ") + " (run() was given it as a value; export it from that module)");`,
        'export default { ...user, serializers: [...(user.serializers ?? []), ...picked], workloads: user.workloads ?? [] };',
        '',
      ].join('\n');
      const configPath = join(dir, 'jsonbench.config.mjs');
      writeFileSync(configPath, module);
      out.config = configPath;
      if (opts.serializer !== undefined) out.serializer = [...opts.serializer, ...ids];
    }
    return { options: out as RunOptions, cleanup };
  } catch (e) {
    cleanup();
    throw e;
  }
}

function writePayload(
  dir: string,
  payload: { value: unknown; name?: string } | { text: string; name?: string },
): string {
  const name = (payload.name ?? 'payload').replace(/[^A-Za-z0-9._-]+/g, '-') || 'payload';
  let text: string;
  if ('text' in payload && typeof payload.text === 'string') text = payload.text;
  else if ('value' in payload) {
    const written = JSON.stringify(payload.value);
    if (written === undefined)
      throw new UsageError('payload', 'its value has no JSON text (undefined, a function or a symbol)');
    text = written;
  } else throw new UsageError('payload', 'give a path, { value } or { text }');
  const path = join(dir, `${name}.json`);
  writeFileSync(path, text);
  return path;
}
