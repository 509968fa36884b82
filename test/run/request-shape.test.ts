import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveRunRequest } from '../../src/run/request.js';
import { UsageError } from '../../src/config/usage-error.js';
import { workloads } from '../../src/workloads/index.js';

/** `--shape` on built-in workloads (hx7's hostile-cost test ran `--workload users --shape list` and got list and many). */
const base = { ledger: false, serializer: ['json'], direction: ['serialize'] };

/** The request's workloads as [id, shapes] pairs (what resolving made is released). */
async function chosen(opts: Parameters<typeof resolveRunRequest>[0]): Promise<[string, string[]][]> {
  const { request, release } = await resolveRunRequest(opts);
  release();
  return request.workloads.map((w) => [w.id, [...w.shapes]]);
}

test('--shape list keeps only the list shape of a built-in workload, and leaves the registry alone', async () => {
  assert.deepEqual(await chosen({ ...base, workload: ['users'], shape: ['list'] }), [['users', ['list']]]);
  const users = (await workloads.loadAll([])).find((w) => w.id === 'users')!;
  assert.deepEqual([...users.shapes], ['list', 'many']);
});

test('--shape single,many over every built-in keeps the workloads that have one of them, each with those', async () => {
  const ws = new Map(await chosen({ ...base, shape: ['single', 'many'] }));
  assert.ok(ws.size > 1);
  for (const [id, shapes] of ws)
    assert.ok(
      shapes.every((s) => s === 'single' || s === 'many'),
      `${id}: ${shapes}`,
    );
  assert.deepEqual(ws.get('weather-station'), ['single']);
  assert.deepEqual(ws.get('users'), ['many']);
});

test('--shape list on a single-document workload, or an unknown shape, is a usage error naming --shape', async () => {
  await assert.rejects(
    resolveRunRequest({ ...base, workload: ['weather-station'], shape: ['list'] }),
    (e: unknown) =>
      e instanceof UsageError &&
      e.flag === '--shape' &&
      /no chosen workload has shape list \(shapes: weather-station single\)/.test(e.message),
  );
  await assert.rejects(
    resolveRunRequest({ ...base, workload: ['users'], shape: ['lists'] }),
    (e: unknown) => e instanceof UsageError && e.flag === '--shape' && /"lists" is not a shape: single/.test(e.message),
  );
});
