import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * jsonbench's cache folder, shared by every layer that keeps files between runs (installed
 * runtimes under `runtimes/`, typia code generated at run time under `typia/`):
 * `$JSONBENCH_CACHE`, else `$XDG_CACHE_HOME/jsonbench`, else `~/.cache/jsonbench`.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.JSONBENCH_CACHE) return env.JSONBENCH_CACHE;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'jsonbench');
  return join(homedir(), '.cache', 'jsonbench');
}
