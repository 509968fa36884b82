import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveRunRequest } from '../../src/run/request.js';
import { GENERATION_NOTE_RECORDS, writeRunPayloads, type SessionEvent } from '../../src/run/session.js';

test('generating a large --size of a payload is announced before (what, how many) and after (bytes, seconds); a small one stays quiet', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-generation-note-'));
  try {
    const file = join(dir, 'records.ndjson');
    writeFileSync(file, '{"id":1,"name":"a"}\n{"id":2,"name":"b"}\n');
    const notesAt = async (size: number) => {
      const { request, release } = await resolveRunRequest({
        cwd: dir,
        payload: file,
        size: [size],
        serializer: ['json'],
        out: join(dir, `out-${size}`),
        ledger: false,
      });
      const events: SessionEvent[] = [];
      try {
        await writeRunPayloads(request, join(dir, `out-${size}`, 'payloads'), (e) => events.push(e));
      } finally {
        release();
      }
      return events.filter((e) => e.type === 'note').map((e) => (e as { message: string }).message);
    };
    const notes = await notesAt(GENERATION_NOTE_RECORDS);
    assert.equal(notes.length, 2, notes.join('\n'));
    assert.match(
      notes[0],
      /^generating 10,000 records of payload:records from its schema \(the payload and the gate's second one, seeded\)…$/,
    );
    assert.match(notes[1], /^generated payload:records at 10,000 records: \d+(\.\d+)? (KiB|MiB) in \d+\.\d s$/);
    assert.deepEqual(await notesAt(100), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
