/**
 * Node module-resolution hook (registered with `node:module`'s `register()`) that lets one process
 * hold several versions of a library. An adapter module imported with
 * `?jsonbench-pkg=<name>&jsonbench-prefix=<dir>` on its URL is a separate module instance, and
 * its imports of `<name>` (or `<name>/…`) resolve from `<dir>/node_modules` instead of
 * jsonbench's own. Everything else resolves as usual; the library's own dependencies come from
 * `<dir>` because that is where its files are.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The query key naming the versioned package on an adapter's URL. */
export const PKG_PARAM = 'jsonbench-pkg';
/** The query key giving that version's install prefix. */
export const PREFIX_PARAM = 'jsonbench-prefix';

interface ResolveContext {
  parentURL?: string;
  conditions?: string[];
  importAttributes?: Record<string, string>;
}
type NextResolve = (specifier: string, context?: ResolveContext) => unknown;

/** The `resolve` hook: redirects the versioned package's imports from a tagged adapter module. */
export async function resolve(specifier: string, context: ResolveContext, nextResolve: NextResolve): Promise<unknown> {
  const parent = context.parentURL;
  if (parent && parent.includes(PKG_PARAM)) {
    const params = new URL(parent).searchParams;
    const pkg = params.get(PKG_PARAM);
    const prefix = params.get(PREFIX_PARAM);
    if (pkg && prefix && (specifier === pkg || specifier.startsWith(`${pkg}/`))) {
      return nextResolve(specifier, { ...context, parentURL: pathToFileURL(join(prefix, 'package.json')).href });
    }
  }
  return nextResolve(specifier, context);
}

/** The URL to import an adapter module from so that its `packageName` comes from `prefix`. */
export function taggedAdapterUrl(adapterUrl: string, packageName: string, prefix: string): string {
  const url = new URL(adapterUrl);
  url.searchParams.set(PKG_PARAM, packageName);
  url.searchParams.set(PREFIX_PARAM, prefix);
  return url.href;
}
