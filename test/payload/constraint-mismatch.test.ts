import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePayload } from '../../src/payload/workload.js';
import { constraintMismatch } from '../../src/payload/conform.js';

/**
 * hx19 D07/D08: a `--schema` whose constraints jsonbench's own schema does not keep (maxLength, pattern) was taken
 * with only "not converted: maxLength at $.name", and a payload breaking them (a 36-character name under maxLength 3)
 * was measured, the validators recommended against a schema without the limit. The payload is now checked against the
 * schema as given, in a worker thread stopped after a timeout (a pattern that backtracks).
 */

const dir = mkdtempSync(join(tmpdir(), 'jsonbench-constraints-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};
const payload = file('p.json', { name: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', n: 1 });

test('a payload that breaks its --schema’s maxLength or pattern is refused naming the path and the constraint', async () => {
  for (const [name, constraint, problem] of [
    ['maxlen.json', { maxLength: 3 }, /at \$\.name: must NOT have more than 3 characters/],
    ['pattern.json', { pattern: '^a+$' }, /at \$\.name: must match pattern "\^a\+\$"/],
  ] as const) {
    const schema = file(name, { type: 'object', properties: { name: { type: 'string', ...constraint }, n: {} } });
    await assert.rejects(resolvePayload(payload, { schemaFile: schema }), (e: Error) => {
      assert.match(e.message, /the payload does not meet the schema's own constraints, /);
      assert.match(e.message, problem);
      assert.match(e.message, /not converted: (maxLength|pattern) at \$\.name/);
      return true;
    });
  }
  // met: taken as before
  const fits = file('fits.json', { type: 'object', properties: { name: { type: 'string', maxLength: 100 }, n: {} } });
  const ok = await resolvePayload(payload, { schemaFile: fits });
  assert.deepEqual(ok.origin.unconverted, ['maxLength at $.name']);
});

test('a pattern that backtracks on the payload is stopped at the timeout, not left to hang', async () => {
  const t0 = Date.now();
  const r = await constraintMismatch(
    [{ name: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' }],
    { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } },
    500,
  );
  assert.equal(r, 'timeout');
  assert.ok(Date.now() - t0 < 5000, `${Date.now() - t0} ms`);
});

test('multipleOf is read as JSON Schema means it: 0.3 is a multiple of 0.1 (hx35 s4: refused as a double divides)', async () => {
  const schema = { type: 'object', properties: { v: { type: 'number', multipleOf: 0.1 } } };
  assert.equal(await constraintMismatch([{ v: 0.3 }, { v: 0.7 }], schema), null);
  const broken = await constraintMismatch([{ v: 0.35 }], schema);
  assert.ok(broken && broken !== 'timeout', 'a real non-multiple is still refused');
  assert.equal(broken.path, '$.v');
});
