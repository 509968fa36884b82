import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findingsForTargets, resolveRunRequest } from '../../src/run/request.js';
import { resolvePayload } from '../../src/payload/workload.js';
import { payloadFacts } from '../../src/cli/run.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/payload/', import.meta.url));

/** The inference findings a run on `target` states, before measuring (stderr) and in its request (results.json, reports). */
async function factsOn(target: string[] | undefined): Promise<string[]> {
  const out = mkdtempSync(join(tmpdir(), 'jsonbench-finding-platforms-'));
  try {
    const { request, release } = await resolveRunRequest({
      payload: join(FIXTURES, 'api-response.json'),
      ...(target ? { target } : {}),
      out: join(out, 'run'),
      ledger: false,
    });
    release();
    return payloadFacts(request.payload!).filter((l) => l.includes('beyond 2^53'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

test('a .NET-only payload run does not speak of JavaScript serializers in its findings; a run measuring JavaScript does (attack session: `--payload F --target dotnet`)', async () => {
  assert.deepEqual(await factsOn(['dotnet']), [
    'jsonbench: found: 12 integers beyond 2^53 at $.statuses[].id (the first: 113456789012345678)',
  ]);
  for (const target of [undefined, ['node', 'dotnet']]) {
    const [line] = await factsOn(target);
    assert.match(
      line,
      /^jsonbench: found: 12 integers beyond 2\^53 at \$\.statuses\[\]\.id: JSON\.parse rounds them \(113456789012345678 reads as 113456789012345680\), so every JavaScript serializer here reads and writes the rounded value$/,
      String(target),
    );
  }
});

test("--print-schema's findings follow --target too; a number beyond a double says where it stands without JSON.parse on .NET", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-finding-platforms-'));
  try {
    writeFileSync(join(dir, 'p.json'), '{"big": 1e400, "id": 9007199254740993}');
    const payload = await resolvePayload(join(dir, 'p.json'));
    assert.deepEqual(
      findingsForTargets(payload, ['dotnet']).map((f) => f.text),
      [
        '1 number at $.big overflows a double: 1e400 (p.json:1:9)',
        '1 integer beyond 2^53 at $.id (the first: 9007199254740993)',
      ],
    );
    assert.ok(findingsForTargets(payload, undefined).every((f) => /every JavaScript serializer here/.test(f.text)));
    assert.ok(
      findingsForTargets(payload, ['dotnet']).every((f) => !('fact' in f)),
      'the scoped finding carries one sentence',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
