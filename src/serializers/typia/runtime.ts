import { createHash } from 'node:crypto';
import { maskBidi } from '../../case/bidi.js';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { makeFolder } from '../../files/make-folder.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defaultCacheDir } from '../../case/cache.js';
import { integrityKey, macOf } from '../../case/integrity-key.js';

/**
 * typia at run time, for a payload no template was written for (issue 10, "typia on any
 * payload"): the template text (typescript.ts) is compiled in memory by TypeScript with typia's
 * own transformer — the function `typia generate` and the ts-patch plugin run
 * (`typia/lib/transform`, `transform(program, options, { addDiagnostic })`) — and emitted as
 * CommonJS. The JavaScript is cached in `<jsonbench cache>/typia/<typia version>/<sha256>.cjs`
 * (the hash covers the template text, the typia and TypeScript versions), so a schema is
 * generated once per machine; loading evaluates it with a `require` rooted at that typia, so its
 * `typia/lib/internal/…` helpers come from the version that generated it.
 *
 * A cache file is signed: its first line holds the HMAC-SHA256 of the code under this user's
 * jsonbench key (case/integrity-key.ts), and a file whose code does not match it (changed after it
 * was written, or written by another key) is generated again, never run (hx30 cache-poison: a
 * config prepended a line to every cached file, and every later run, without that config, ran it
 * in jsonbench's own process). Without a key (a read-only home) nothing is cached or read from the
 * cache. Code that can read the key can still sign what it likes (docs/limits.md).
 *
 * A typia of another version (the version matrix) is given by its install folder: its own
 * transformer and its own TypeScript (typia's peer dependency, installed beside it) generate the
 * code, and the cache keeps versions apart: one version's code is never labelled with another's
 * number.
 */

/** Where a typia is installed: the folder of its package.json. */
export interface TypiaInstall {
  root: string;
  version: string;
}

/** The typia that `from` (a file path or URL) resolves. @throws Error when typia cannot be resolved from there */
export function typiaInstall(from: string): TypiaInstall {
  return typiaInstallAt(createRequire(from).resolve('typia'));
}

/** The typia install a resolved typia file belongs to (walks up to typia's package.json). @throws Error when there is none */
export function typiaInstallAt(entry: string): TypiaInstall {
  let dir = dirname(entry);
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'typia') return { root: dir, version: pkg.version ?? 'unknown' };
    }
    dir = dirname(dir);
  }
  throw new Error(`typia: no typia package.json above ${entry}`);
}

/** typia refused a type (its own diagnostics, e.g. a construct it has no code for): the pair is `unsupported`, not failed. */
export class TypiaRefusal extends Error {
  readonly code = 'E_TYPIA_REFUSAL';
}

/** A generated module: its cache file, how long generation took (0 when it came from the cache), and its exports. */
export interface GeneratedTypia {
  file: string;
  generatedMs: number;
  fromCache: boolean;
  exports: Record<string, unknown>;
}

/** Cache file of a template for a typia install. Pure apart from reading the TypeScript version. */
export function typiaCacheFile(template: string, install: TypiaInstall, cacheDir = defaultCacheDir()): string {
  const ts = tsVersion(install);
  const hash = createHash('sha256').update(`${install.version}\n${ts}\n${template}`).digest('hex').slice(0, 32);
  return join(cacheDir, 'typia', install.version, `${hash}.cjs`);
}

function tsVersion(install: TypiaInstall): string {
  try {
    return (createRequire(join(install.root, 'package.json'))('typescript/package.json') as { version: string })
      .version;
  } catch {
    return 'none';
  }
}

/** Parsed declaration files, by typia install and file name (they never change while a process runs). */
const declarations = new Map<string, import('typescript').SourceFile>();

/** The in-memory file name the template is compiled as: beside typia's node_modules folder, so `import 'typia'` resolves to this install. */
function virtualFile(install: TypiaInstall): string {
  return join(dirname(dirname(install.root)), '__jsonbench_typia_template__.ts');
}

/**
 * Compiles a template with typia's transformer and returns the CommonJS text.
 * @throws Error with typia's diagnostics (file-relative line:column) when typia rejects the type, or when TypeScript is missing
 */
export function compileTypiaTemplate(template: string, install: TypiaInstall): string {
  const require = createRequire(join(install.root, 'package.json'));
  let ts: typeof import('typescript');
  try {
    ts = require('typescript') as typeof import('typescript');
  } catch {
    throw new Error(
      `typia ${install.version}: TypeScript (its peer dependency) is not installed beside it in ${dirname(dirname(install.root))}`,
    );
  }
  const transformModule = require('typia/lib/transform') as { transform?: unknown; default?: unknown };
  const transform = (transformModule.transform ?? transformModule.default) as (
    p: unknown,
    o: unknown,
    e: unknown,
  ) => unknown;
  if (typeof transform !== 'function')
    throw new Error(`typia ${install.version}: typia/lib/transform exports no transform function`);
  const file = virtualFile(install);
  const options: import('typescript').CompilerOptions = {
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: [],
    noEmitOnError: false,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  // the library declarations (lib.*.d.ts, typia's own .d.ts) are parsed once per process and typia install
  host.getSourceFile = (name, lang, ...rest) => {
    if (name === file) return ts.createSourceFile(name, template, lang);
    const key = `${install.root}\0${name}`;
    let parsed = declarations.get(key);
    if (!parsed) {
      parsed = getSourceFile(name, lang, ...rest);
      if (parsed) declarations.set(key, parsed);
    }
    return parsed;
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (name === file ? template : readFile(name));
  const program = ts.createProgram([file], options, host);
  const diagnostics: import('typescript').Diagnostic[] = [];
  let output = '';
  const result = program.emit(
    program.getSourceFile(file),
    (name, text) => {
      if (name.endsWith('.js')) output = text;
    },
    undefined,
    false,
    {
      before: [
        transform(
          program,
          {},
          { addDiagnostic: (d: import('typescript').Diagnostic) => diagnostics.push(d) },
        ) as import('typescript').TransformerFactory<import('typescript').SourceFile>,
      ],
    },
  );
  const errors = [
    ...diagnostics,
    ...ts.getPreEmitDiagnostics(program, program.getSourceFile(file)),
    ...result.diagnostics,
  ].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length) {
    const text = errors
      .slice(0, 3)
      .map((d) => {
        const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
        return `${at ? `template ${at.line + 1}:${at.character + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      })
      .join('; ');
    throw new TypiaRefusal(`typia ${install.version} could not generate code: ${text}`);
  }
  if (!output) throw new Error(`typia ${install.version}: TypeScript emitted no JavaScript`);
  return output;
}

/** Evaluates CommonJS text with a `require` rooted at the typia install; returns its exports. */
export function loadCommonJs(code: string, install: TypiaInstall, filename: string): Record<string, unknown> {
  const require = createRequire(join(install.root, 'package.json'));
  const module = { exports: {} as Record<string, unknown> };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('exports', 'require', 'module', '__filename', '__dirname', code)(
    module.exports,
    require,
    module,
    filename,
    dirname(filename),
  );
  return module.exports;
}

/**
 * The generated module for a template: from the cache, or compiled now and cached (written to a
 * temporary name and renamed, so concurrent workers never read half a file).
 */
export function generateTypia(template: string, install: TypiaInstall, cacheDir = defaultCacheDir()): GeneratedTypia {
  const file = typiaCacheFile(template, install, cacheDir);
  const key = integrityKey(true);
  const cached = Buffer.isBuffer(key) ? signedCode(file, key) : undefined;
  if (cached !== undefined)
    return { file, generatedMs: 0, fromCache: true, exports: loadCommonJs(cached, install, file) };
  const t0 = performance.now();
  // a payload key's bidirectional formatting characters as escapes (case/bidi.ts): the same strings, code that reads as it runs
  const code = maskBidi(compileTypiaTemplate(template, install));
  const generatedMs = performance.now() - t0;
  if (Buffer.isBuffer(key)) {
    makeFolder(dirname(file));
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${SIGNED_PREFIX}${macOf(key, code)} (typia ${install.version})\n${code}`);
    renameSync(tmp, file);
  }
  return { file, generatedMs, fromCache: false, exports: loadCommonJs(code, install, file) };
}

/** The first line of a cache file, before the HMAC of the code below it. */
const SIGNED_PREFIX = '// generated by jsonbench, hmac-sha256 ';

/** The code of the cache file at `file` when its first line signs it under `key`; undefined when absent, unreadable or not signed so. */
function signedCode(file: string, key: Buffer): string | undefined {
  if (!existsSync(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const newline = text.indexOf('\n');
  const mac =
    newline < 0
      ? undefined
      : /^\/\/ generated by jsonbench, hmac-sha256 ([0-9a-f]{64}) /.exec(text.slice(0, newline))?.[1];
  const code = text.slice(newline + 1);
  return mac !== undefined && mac === macOf(key, code) ? code : undefined;
}
