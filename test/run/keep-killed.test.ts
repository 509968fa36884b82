import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepKilledRun, RUN_PARTIAL } from '../../src/run/recover.js';

test("a new run into the folder of a killed run moves that run's kept files aside instead of overwriting them (hostile tester: a rerun deleted 6 measured cases)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-killed-'));
  try {
    assert.equal(keepKilledRun(dir), undefined, 'a folder without a killed run: nothing moved');
    writeFileSync(join(dir, RUN_PARTIAL.header), '{"header":1}');
    writeFileSync(join(dir, RUN_PARTIAL.cases), '{"case":1}\n');
    writeFileSync(join(dir, RUN_PARTIAL.launches), '{"launch":1}\n');
    // the payloads it measured go with it (hx38: they went to previous-<time>/, the rest to killed-<time>/)
    mkdirSync(join(dir, 'payloads'));
    writeFileSync(join(dir, 'payloads', 'p.json'), '{"a":1}');
    const to = keepKilledRun(dir)!;
    assert.equal(readFileSync(join(to, 'payloads', 'p.json'), 'utf8'), '{"a":1}');
    assert.equal(existsSync(join(dir, 'payloads')), false);
    assert.match(to, /killed-\d{4}-\d\d-\d\dT/);
    for (const f of Object.values(RUN_PARTIAL))
      assert.equal(existsSync(join(dir, f)), false, `${f} left in the folder`);
    assert.equal(readFileSync(join(to, RUN_PARTIAL.cases), 'utf8'), '{"case":1}\n');
    assert.equal(readFileSync(join(to, RUN_PARTIAL.header), 'utf8'), '{"header":1}');
    assert.equal(keepKilledRun(dir), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
