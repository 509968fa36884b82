import { basename, dirname, extname, join, resolve } from 'node:path';

/** Where esbuild could not compile a module: `file:line:column` (or the file alone) and esbuild's first message. */
export class BundleError extends Error {
  constructor(
    /** `file:line:column` of esbuild's first error, or the file when it gave no location */
    readonly at: string,
    /** esbuild's first error text (or the thrown message) */
    readonly text: string,
  ) {
    super(`${at}: ${text}`);
    this.name = 'BundleError';
  }
}

/**
 * Bundles a user's module (a `.ts` config, `from` module or `--schema` module) to ESM in a hidden
 * file beside it, `.<name>.<pid>-<time>.<tag>.mjs`, so its packages resolve from the user's folder
 * (esbuild, packages external, node20); returns that file's path. esbuild is imported only here,
 * when a module needs it. The caller removes the file when done.
 * @throws BundleError with esbuild's first error and its location
 */
export async function bundleBeside(file: string, tag: string): Promise<string> {
  const path = resolve(file);
  const out = join(
    dirname(path),
    `.${basename(path, extname(path))}.${process.pid}-${Date.now().toString(36)}.${tag}.mjs`,
  );
  const { build } = await import('esbuild');
  try {
    await build({
      entryPoints: [file],
      outfile: out,
      bundle: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      logLevel: 'silent',
      target: 'node20',
    });
  } catch (e) {
    const first = (e as { errors?: { text: string; location?: { line: number; column: number } }[] }).errors?.[0];
    throw new BundleError(
      first?.location ? `${file}:${first.location.line}:${first.location.column}` : file,
      first?.text ?? (e as Error).message,
    );
  }
  return out;
}
