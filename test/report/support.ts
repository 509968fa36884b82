import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { ResultsFile } from '../../src/results/types.js';
import { readResults } from '../../src/results/io.js';

/** test/report/ in the source tree (tests run from build/test/report/). */
export const SOURCE_DIR = fileURLToPath(new URL('../../../test/report/', import.meta.url));
/** test-output/report/ at the repository root (gitignored): screenshots and rendered pages. */
export const OUTPUT_DIR = fileURLToPath(new URL('../../../test-output/report/', import.meta.url));

/** A saved results fixture from test/report/fixtures/, read through the real reader. */
export function fixture(name: 'single' | 'two-targets' | 'scaling' | 'default-suite'): ResultsFile {
  return readResults(join(SOURCE_DIR, 'fixtures', `${name}.json`));
}

/**
 * Compares `actual` with test/report/__snapshots__/<name>. UPDATE_SNAPSHOTS=1 rewrites it; a
 * missing snapshot fails (so a fresh clone never passes by writing what it got).
 */
export function assertSnapshot(name: string, actual: string): void {
  const path = join(SOURCE_DIR, '__snapshots__', name);
  if (process.env.UPDATE_SNAPSHOTS === '1') {
    mkdirSync(join(SOURCE_DIR, '__snapshots__'), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  assert.ok(existsSync(path), `snapshot ${name} is missing: run UPDATE_SNAPSHOTS=1 npm test and review it`);
  const expected = readFileSync(path, 'utf8');
  if (actual !== expected) {
    const a = actual.split('\n');
    const e = expected.split('\n');
    const line = a.findIndex((l, i) => l !== e[i]);
    assert.fail(
      `snapshot ${name} differs at line ${line + 1}:\n  expected: ${(e[line] ?? '<end>').slice(0, 300)}\n  actual:   ${(a[line] ?? '<end>').slice(0, 300)}\n(UPDATE_SNAPSHOTS=1 rewrites it)`,
    );
  }
}

/** The single fixture with hostile strings wherever data reaches the page. */
export function hostileResults(): ResultsFile {
  const r = structuredClone(fixture('single'));
  const failed = r.cases.find((c) => c.status === 'failed')!;
  failed.reason = 'prepare() threw: </script><script>window.__pwned = 1</script>';
  const incorrect = r.cases.find((c) => c.status === 'incorrect')!;
  incorrect.mismatch = {
    side: 'serializer',
    path: '$["<img src=x onerror=window.__pwned=2>"]',
    expected: '<script>window.__pwned=3</script>',
    actual: '"\'&',
  };
  const measured = r.cases.find((c) => c.status === 'measured' && c.serializer !== c.baseline)!;
  measured.serializerVersion = '"><img src=x onerror=window.__pwned=4>';
  measured.code = '</code><script>window.__pwned=5</script>';
  r.environment.cpuModel = '<b onmouseover=window.__pwned=6>CPU</b>';
  return r;
}
