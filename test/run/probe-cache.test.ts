import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProbePass, type ProbePassInput } from '../../src/run/probe-pass.js';
import { ProbeVerdictCache, codeHash, packageFilesHash } from '../../src/run/probe-cache.js';
import { loadCatalog } from '../../src/probes/index.js';
import { serializers } from '../../src/serializers/index.js';
import type { ProbeJob, WorkerJob } from '../../src/worker/protocol.js';
import type { LaunchOutcome } from '../../src/runtimes/launch.js';
import type { CaseTarget } from '../../src/case/coordinates.js';
import type { ProbeRow } from '../../src/plan/probe-plan.js';
import { summaryLine } from '../../src/report/probes.js';

const P = { protocol: 1 } as const;
const node20: CaseTarget = { id: 'node', runtime: 'node', version: '20.19.0' };

/** A fake probe worker: judges every cell ✔ (or crashes on `crashOn`), recording the cells each launch carried. */
function fakeLaunch(crashOn?: string) {
  const launched: string[] = [];
  const launch = async (job: WorkerJob): Promise<LaunchOutcome> => {
    const cells = (job as ProbeJob).cells;
    const messages = [];
    for (const c of cells) {
      launched.push(`${c.direction} ${c.probe}`);
      messages.push({ ...P, type: 'probe-start' as const, ...c });
      if (c.probe === crashOn)
        return {
          messages,
          exitCode: null,
          signal: 'SIGSEGV',
          timedOut: false,
          stderrTail: '',
          stdoutTail: '',
          elapsedMs: 1,
        };
      messages.push({ ...P, type: 'probe' as const, ...c, verdict: { mark: '✔' as const } });
    }
    messages.push({ ...P, type: 'done' as const, noisy: false, elapsedMs: 1, checksum: 0 });
    return {
      messages,
      exitCode: 0,
      signal: null,
      timedOut: false,
      stderrTail: '',
      stdoutTail: '',
      elapsedMs: 1,
    } as LaunchOutcome;
  };
  return { launched, launch };
}

const probes = loadCatalog({ families: ['edge'] }).slice(0, 4);

async function pass(
  cache: ProbeVerdictCache | undefined,
  rows: ProbeRow[],
  launch: ReturnType<typeof fakeLaunch>['launch'],
  target = node20,
) {
  const input: ProbePassInput = {
    selection: 'relevant',
    families: ['edge'],
    probes,
    rows,
    directions: ['deserialize'],
    targets: [target],
    launchFor: () => launch,
    faultOf: () => undefined,
    payloadPath: '/nonexistent/probes.json',
    timeoutMs: 10_000,
    ...(cache ? { cache: { store: cache, cacheable: (r: ProbeRow) => r.label === 'json' } } : {}),
  };
  return runProbePass(input, false);
}

test('probe-verdict cache: a second pass reads the worker-judged verdicts instead of launching, and says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-probe-cache-'));
  const json = await serializers.load('json');
  const rows: ProbeRow[] = [{ adapter: json, label: 'json', version: '20.19.0' }];
  const first = fakeLaunch();
  const a = await pass(new ProbeVerdictCache(dir, 'code-1'), rows, first.launch);
  assert.ok(first.launched.length > 0, 'the first pass launches its cells');
  assert.equal(a.verdicts.filter((v) => v.cached).length, 0);
  assert.deepEqual(a.cache, { folder: dir, hits: 0, stored: first.launched.length });
  assert.equal(readdirSync(dir).length, 1);

  const second = fakeLaunch();
  const b = await pass(new ProbeVerdictCache(dir, 'code-1'), rows, second.launch);
  assert.deepEqual(second.launched, [], 'every launched cell is a cache hit');
  assert.equal(b.verdicts.filter((v) => v.cached).length, first.launched.length);
  assert.equal(b.cache?.hits, first.launched.length);
  // the same verdicts, in the same order, but for the cached flag
  assert.deepEqual(
    b.verdicts.map(({ cached: _, ...v }) => v),
    a.verdicts,
  );
  // the reports' summary line says how many verdicts came from the cache
  assert.doesNotMatch(summaryLine(a), /cache/);
  assert.match(summaryLine(b), new RegExp(`; ${first.launched.length} read from the probe-verdict cache`));
});

test('probe-verdict cache: another code hash, serializer version or runtime version misses; a non-cacheable row never reads or stores', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-probe-cache-'));
  const json = await serializers.load('json');
  const rows: ProbeRow[] = [{ adapter: json, label: 'json', version: '20.19.0' }];
  const seed = fakeLaunch();
  await pass(new ProbeVerdictCache(dir, 'code-1'), rows, seed.launch);
  for (const [what, cache, r, target] of [
    ['code', new ProbeVerdictCache(dir, 'code-2'), rows, node20],
    ['serializer version', new ProbeVerdictCache(dir, 'code-1'), [{ ...rows[0], version: '22.0.0' }], node20],
    ['runtime version', new ProbeVerdictCache(dir, 'code-1'), rows, { ...node20, version: '22.11.0' }],
  ] as const) {
    const l = fakeLaunch();
    const out = await pass(cache, [...r], l.launch, target);
    assert.deepEqual(l.launched, seed.launched, `another ${what}: every cell launched again`);
    assert.equal(out.cache?.hits, 0);
  }
  const userRow: ProbeRow[] = [{ adapter: { ...json, id: 'mine' }, label: 'mine', version: '1.0.0' }];
  const cache = new ProbeVerdictCache(dir, 'code-1');
  const before = readdirSync(dir).length;
  const u1 = fakeLaunch();
  await pass(cache, userRow, u1.launch);
  const u2 = fakeLaunch();
  const out = await pass(cache, userRow, u2.launch);
  assert.deepEqual(u2.launched, u1.launched, 'a row the caller does not allow is judged every time');
  assert.deepEqual(out.cache, { folder: dir, hits: 0, stored: 0 });
  assert.equal(readdirSync(dir).length, before);
});

test('probe-verdict cache: a verdict the host made up for a crash is not stored; an unreadable file reads as empty', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-probe-cache-'));
  const json = await serializers.load('json');
  const rows: ProbeRow[] = [{ adapter: json, label: 'json', version: '20.19.0' }];
  const all = fakeLaunch();
  await pass(new ProbeVerdictCache(join(dir, 'x'), 'c'), rows, all.launch);
  const crashOn = all.launched[1].split(' ')[1];
  const crashing = fakeLaunch(crashOn);
  const a = await pass(new ProbeVerdictCache(dir, 'c'), rows, crashing.launch);
  assert.equal(a.verdicts.find((v) => v.probe === crashOn && v.direction === 'deserialize')?.verdict.mark, '✗');
  const again = fakeLaunch();
  await pass(new ProbeVerdictCache(dir, 'c'), rows, again.launch);
  assert.deepEqual(again.launched, [`deserialize ${crashOn}`], 'only the crashed cell is launched again');

  const broken = join(dir, 'broken');
  mkdirSync(broken);
  const c = new ProbeVerdictCache(broken, 'c');
  c.put(
    { serializer: 'json', version: '1', target: 'node', runtime: 'node', runtimeVersion: '20' },
    { probe: 'p', direction: 'serialize' },
    { mark: '✔' },
  );
  c.flush();
  for (const f of readdirSync(broken)) writeFileSync(join(broken, f), '{not json');
  assert.equal(
    new ProbeVerdictCache(broken, 'c').get(
      { serializer: 'json', version: '1', target: 'node', runtime: 'node', runtimeVersion: '20' },
      { probe: 'p', direction: 'serialize' },
    ),
    undefined,
  );
});

test('codeHash: the same files give the same hash; a changed file gives another', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-code-'));
  mkdirSync(join(dir, 'probes'));
  writeFileSync(join(dir, 'probes', 'a.js'), 'export const a = 1;');
  const h1 = codeHash(dir);
  assert.equal(codeHash(dir), h1);
  writeFileSync(join(dir, 'probes', 'a.js'), 'export const a = 2;');
  assert.notEqual(codeHash(dir), h1);
  assert.match(codeHash(), /^[0-9a-f]{64}$/);
});

test("a library's installed files are part of a verdict's scope (hx20 a30: a library patched in place kept its ✔)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-probe-cache-files-'));
  const scope = { serializer: 'superjson', version: '2.2.2', target: 'node', runtime: 'node', runtimeVersion: '20' };
  const cell = { probe: 'edge.int.max', direction: 'serialize' as const };
  const before = new ProbeVerdictCache(dir, 'code');
  before.put({ ...scope, files: 'a' }, cell, { mark: '✔' } as never);
  before.flush();
  assert.ok(new ProbeVerdictCache(dir, 'code').get({ ...scope, files: 'a' }, cell), 'the same files: read');
  assert.equal(
    new ProbeVerdictCache(dir, 'code').get({ ...scope, files: 'b' }, cell),
    undefined,
    'other files: not read',
  );
  assert.match(packageFilesHash('superjson'), /^[0-9a-f]{64}$/);
  assert.equal(packageFilesHash('superjson'), packageFilesHash('superjson'));
  assert.notEqual(packageFilesHash('superjson'), packageFilesHash('zod'));
  assert.equal(packageFilesHash(undefined), 'builtin');
  assert.equal(packageFilesHash('no-such-package-of-jsonbench'), 'unresolved');
});
