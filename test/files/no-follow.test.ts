import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendFileNamed, FileWriteError, writeFileAtomic, writeFileNamed } from '../../src/files/write-file.js';
import { writeResults } from '../../src/results/io.js';
import type { ResultsFile } from '../../src/results/types.js';

/**
 * A symbolic link planted in an output folder is never written through (hx3, issue 25: a
 * `results.partial.jsonl` link had its target overwritten by the run): a whole-file write replaces
 * the link, an append refuses it (ELOOP, named), a temp file planted as a link is not followed.
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-no-follow-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A victim file and a link to it named `name` in `dir`; returns both paths. */
function planted(name: string): { victim: string; link: string } {
  const victim = join(dir, `victim-${name}`);
  writeFileSync(victim, 'the victim\n');
  const link = join(dir, name);
  symlinkSync(victim, link);
  return { victim, link };
}

test('writeFileNamed replaces a symbolic link at its path with the file and leaves the target as it was', () => {
  const { victim, link } = planted('results.partial.jsonl');
  writeFileNamed(link, '');
  assert.equal(readFileSync(victim, 'utf8'), 'the victim\n');
  assert.equal(lstatSync(link).isSymbolicLink(), false);
  assert.equal(readFileSync(link, 'utf8'), '');
});

test('appendFileNamed refuses a symbolic link with a FileWriteError naming the path, never appending to its target', () => {
  const { victim, link } = planted('launches.partial.jsonl');
  assert.throws(
    () => appendFileNamed(link, '{"x":1}\n'),
    (e: unknown) =>
      e instanceof FileWriteError &&
      e.message === `cannot write ${link}: it is a symbolic link, and jsonbench never writes through one (ELOOP)`,
  );
  assert.equal(readFileSync(victim, 'utf8'), 'the victim\n');
});

test('writeFileAtomic and writeResults follow neither a link at the path nor one planted at their temp name', () => {
  for (const [name, write] of [
    ['report.md', (p: string) => writeFileAtomic(p, '# report\n')],
    ['results.json', (p: string) => writeResults(p, { cases: [] } as unknown as ResultsFile)],
  ] as const) {
    const { victim, link } = planted(name);
    const tmp = planted(`${name}.tmp-${process.pid}`);
    write(link);
    assert.equal(readFileSync(victim, 'utf8'), 'the victim\n', name);
    assert.equal(readFileSync(tmp.victim, 'utf8'), 'the victim\n', `${name}'s temp`);
    assert.equal(lstatSync(link).isSymbolicLink(), false, name);
  }
});
