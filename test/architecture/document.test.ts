import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * ARCHITECTURE.md's "What may import what" table says what test/architecture/layers.test.ts's
 * ALLOWED map enforces: the same folders, each with the same imports, and every folder of src/.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The ALLOWED map, read from the layering test's source (a plain object literal of string arrays). */
function allowedMap(): Record<string, string[]> {
  const text = readFileSync(`${root}test/architecture/layers.test.ts`, 'utf8');
  const start = text.indexOf('const ALLOWED');
  const open = text.indexOf('{', start);
  const close = text.indexOf('\n};', open);
  assert.ok(start >= 0 && open > start && close > open, 'layers.test.ts has no `const ALLOWED = { … };`');
  const literal = text.slice(open, close + 2).replace(/\/\/.*$/gm, '');
  return new Function(`return (${literal});`)() as Record<string, string[]>;
}

/** The table between the layers markers of ARCHITECTURE.md: folder → its "may import" list. */
function documentedMap(): Record<string, string[]> {
  const text = readFileSync(`${root}ARCHITECTURE.md`, 'utf8');
  const block = /<!-- layers:start[^>]*-->([\s\S]*?)<!-- layers:end -->/.exec(text);
  assert.ok(block, 'ARCHITECTURE.md has no layers:start … layers:end table');
  const rows = block[1].split('\n').filter((l) => /^\| `/.test(l));
  return Object.fromEntries(
    rows.map((row) => {
      const cells = row.split('|').map((c) => c.trim());
      const folder = cells[1].replace(/`/g, '');
      const imports = cells[3] === '—' ? [] : cells[3].split(',').map((c) => c.trim().replace(/`/g, ''));
      return [folder, imports];
    }),
  );
}

test('ARCHITECTURE.md and the layering test agree on what each folder of src/ may import', () => {
  const allowed = allowedMap();
  const documented = documentedMap();
  assert.ok(Object.keys(allowed).length >= 20, `ALLOWED has ${Object.keys(allowed).length} folders`);
  assert.deepEqual(Object.keys(documented).sort(), Object.keys(allowed).sort(), 'the same folders');
  for (const [folder, imports] of Object.entries(allowed))
    assert.deepEqual([...documented[folder]].sort(), [...imports].sort(), `${folder}: ARCHITECTURE.md vs ALLOWED`);
});

test('every folder of src/ is in ARCHITECTURE.md', () => {
  const documented = documentedMap();
  const folders = readdirSync(`${root}src`, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  for (const f of folders) assert.ok(f in documented, `src/${f} is not in ARCHITECTURE.md`);
});

test("ARCHITECTURE.md's floors are the map's: one above the highest folder a folder may import", () => {
  const allowed = allowedMap();
  const floor = new Map<string, number>();
  const floorOf = (f: string): number => {
    if (!floor.has(f)) floor.set(f, allowed[f].length ? 1 + Math.max(...allowed[f].map(floorOf)) : 0);
    return floor.get(f)!;
  };
  const text = readFileSync(`${root}ARCHITECTURE.md`, 'utf8');
  const section = text.slice(text.indexOf('## The floors'), text.indexOf('## What may import what'));
  const documented = new Map<string, number>();
  for (const m of section.matchAll(/^\| (\d+) \| (.*) \|$/gm))
    for (const name of m[2].matchAll(/`([^`]+)`/g)) documented.set(name[1], Number(m[1]));
  assert.deepEqual(
    Object.fromEntries([...documented].sort()),
    Object.fromEntries(
      Object.keys(allowed)
        .map((f) => [f, floorOf(f)])
        .sort(),
    ),
  );
});
