import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analysers } from '../../src/analysers/index.js';
import { FINDING_CODES } from '../../src/results/types.js';
import { sentenceMark } from '../../src/report/rows.js';

const here = fileURLToPath(new URL('../../../test/analysers/', import.meta.url));

test('every analyser in the registry has its code in FINDING_CODES and the reports know it', () => {
  assert.ok(analysers.length >= 9, `${analysers.length} analysers`);
  for (const a of analysers) {
    assert.ok(
      (FINDING_CODES as readonly string[]).includes(a.id),
      `${a.id}: add it to FINDING_CODES (results/types.ts)`,
    );
    assert.notEqual(sentenceMark(a.id), '?', `${a.id}: add it to sentenceMark's known list (report/rows.ts)`);
  }
  assert.equal(new Set(analysers.map((a) => a.id)).size, analysers.length, 'one analyser per code');
});

test('every analyser has its own test file in test/analysers/ (one case with the finding, one without)', () => {
  for (const a of analysers)
    assert.ok(existsSync(`${here}${a.id}.test.ts`), `test/analysers/${a.id}.test.ts is missing`);
});
