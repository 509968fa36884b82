import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipedProgress, sleep } from './support.js';
import type { ProgressCounts } from '../../src/run/progress.js';
import { LARGE_PAYLOAD_BYTES, resolvePayload } from '../../src/payload/workload.js';

/**
 * A worker's steps named while they take seconds (hx7: a 23 MB payload's progress sat at "cases 0/5"
 * for 2 minutes while its workers read the payload, ran the gate and warmed up). Piped, a step that
 * lasts gets one plain line; the heartbeat names the step; timing itself gets no line of its own.
 */

const counts: ProgressCounts = {
  launchesDone: 1,
  launchesFinished: 0,
  launchesTotal: 3,
  casesDone: 0,
  casesTotal: 5,
  casesPlanned: 5,
};
const CASE = 'payload:huge/1/single/serialize/typia';

test('piped: a step of a launch that lasts gets a line naming it; timing gets none', async () => {
  const { view, lines } = pipedProgress(150);
  try {
    view.onEvent({ type: 'launch', index: 1, total: 3, caseId: CASE, mode: 'time', launch: 1, counts, elapsedMs: 0 });
    view.onEvent({ type: 'stage', caseId: CASE, stage: 'verify', side: 'serializer' });
    await sleep(700);
    const said = lines.filter((l) => l.startsWith(`jsonbench: ${CASE}:`));
    assert.equal(said[0], `jsonbench: ${CASE}: the correctness gate (serializer)…`, lines.join('\n'));
    // the heartbeat names the step too, before the case id (which the width cuts first)
    assert.ok(
      lines.some((l) =>
        new RegExp(
          `^jsonbench: cases 0/5 · launches 1/3 · ETA \\? · the correctness gate \\(serializer\\) \\(\\d+ s\\) · ${CASE}$`,
        ).test(l),
      ),
      lines.join('\n'),
    );
    lines.length = 0;
    view.onEvent({ type: 'stage', caseId: CASE, stage: 'rounds' });
    await sleep(700);
    assert.deepEqual(
      lines.filter((l) => l.endsWith('timing rounds…')),
      [],
      'timing is what a launch is for: no line of its own',
    );
  } finally {
    view.stop();
  }
});

test('a payload of LARGE_PAYLOAD_BYTES or more is announced before its reading and around its inference', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-large-payload-'));
  try {
    const file = join(dir, 'large.json');
    // few values (long strings), so inference is quick: the file's bytes are what decide
    const s = Array.from({ length: Math.ceil(LARGE_PAYLOAD_BYTES / 100_000) + 1 }, (_, i) =>
      String(i % 10).repeat(100_000),
    );
    writeFileSync(file, JSON.stringify({ s }));
    const lines: string[] = [];
    await resolvePayload(file, { onProgress: (l) => lines.push(l) });
    assert.match(lines[0], /large\.json: reading \d+\.\d MiB \(parsing it, checking it for duplicate keys\)…$/);
    assert.ok(
      lines.some((l) => /large\.json: inferring the schema of 1 unit…$/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /large\.json: schema inferred in \d+\.\d s$/.test(l)),
      lines.join('\n'),
    );
    // a small one says nothing
    const small = join(dir, 'small.json');
    writeFileSync(small, JSON.stringify({ n: [1, 2, 3] }));
    const none: string[] = [];
    await resolvePayload(small, { onProgress: (l) => none.push(l) });
    assert.deepEqual(none, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
