import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Test helper: compiles a typia source text with typia's own transformer, exactly as
 * `typia generate` does (typia/lib/transform on a TypeScript program), then imports it. The
 * direct typia reproductions use it so that no jsonbench code stands between the source a typia
 * user writes and the functions typia generates from it.
 */
const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

let previous: unknown;

export async function compileTypia<T>(source: string): Promise<T> {
  const ts = (await import('typescript')).default;
  const { transform } = require('typia/lib/transform') as {
    transform: (p: unknown, o: unknown, e: { addDiagnostic: (d: unknown) => number }) => unknown;
  };
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'typia-direct-'));
  try {
    const file = join(dir, 'source.ts');
    writeFileSync(file, source);
    // The previous program is handed in so TypeScript reuses the library files it already parsed (seconds per compile otherwise).
    const program = ts.createProgram(
      [file],
      {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true,
        skipLibCheck: true,
        noEmit: true,
      },
      undefined,
      previous as never,
    );
    previous = program;
    const diagnostics: unknown[] = [];
    const result = ts.transform(
      program.getSourceFile(file)!,
      [transform(program, {}, { addDiagnostic: (d) => diagnostics.push(d) }) as never],
      program.getCompilerOptions(),
    );
    if (diagnostics.length) throw new Error(`typia reported ${diagnostics.length} diagnostics`);
    const js = ts.transpileModule(ts.createPrinter().printFile(result.transformed[0]), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    writeFileSync(join(dir, 'source.mjs'), js);
    return (await import(pathToFileURL(join(dir, 'source.mjs')).href)) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
