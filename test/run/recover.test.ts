import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { KILLED_WHILE_REASON, recoverRun, RUN_PARTIAL, writeRunSnapshot } from '../../src/run/recover.js';
import { planCases } from '../../src/plan/plan.js';
import { expandTargets } from '../../src/plan/targets.js';
import { policies } from '../../src/config/policies.js';
import { workloads } from '../../src/workloads/index.js';
import { serializers } from '../../src/serializers/index.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { runExit } from '../../src/cli/run.js';
import type { ResultsFile } from '../../src/results/types.js';

const fixture = fileURLToPath(new URL('../../../test/report/fixtures/single.json', import.meta.url));

/** A killed run's folder before any case finished: json and typia on weather-station serialize planned, the snapshot written, no case finished. */
async function killedRun(
  dir: string,
  directions: ('serialize' | 'deserialize')[] = ['serialize'],
): Promise<ReturnType<typeof expandTargets>> {
  const { cases: _, ...header } = JSON.parse(readFileSync(fixture, 'utf8')) as ResultsFile;
  const workload = await workloads.load('weather-station');
  const all = await serializers.loadAll([]);
  const chosen = all.filter((s) => s.id === 'json' || s.id === 'typia');
  const groups = expandTargets(
    planCases({ workloads: [workload], serializers: chosen, directions, policy: policies.quick }, all),
    [{ id: 'node', runtime: 'node', version: '20.20.2' }],
    false,
  );
  writeRunSnapshot(dir, { results: { ...header, cases: [] } as ResultsFile, groups, payloads: [] });
  writeFileSync(join(dir, RUN_PARTIAL.cases), '');
  return groups;
}

test('a run killed before its cases were launched rebuilds them as not-run (not failed), and the report says why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    const groups = await killedRun(dir);
    const planned = groups.flat().filter((c) => c.status === 'planned');
    assert.ok(planned.length >= 2, 'json and typia are planned');
    const r = recoverRun(dir);
    assert.equal(r.lost, planned.length);
    for (const c of r.results.cases.filter((x) => planned.some((p) => p.id === x.id))) {
      assert.equal(c.status, 'not-run', `${c.id}`);
      assert.equal(c.reason, 'not measured: the run was killed before this case');
    }
    assert.equal(
      runExit(r.results, ['failed']).lines.some((l) => l.includes('failed')),
      false,
      '--fail-on failed does not count a case that never ran',
    );
    const md = renderMarkdown([r.results]);
    assert.match(md, /⏹ not measured: the run was killed before this case/);
    assert.match(md, new RegExp(`${planned.length} not-run`));
    assert.doesNotMatch(md, /\d+ failed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a killed run's rebuilt results are marked unchecked, and the reports say so (hx10 KF-forged-report: a forged launch log was believed with no integrity word)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    await killedRun(dir);
    const r = recoverRun(dir);
    assert.equal(
      r.results.unchecked,
      "rebuilt from an unfinished run's partial files, which carry no integrity record",
    );
    assert.match(
      renderMarkdown([r.results]),
      / · integrity: unchecked \(rebuilt from an unfinished run's partial files, which carry no integrity record\)/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a damaged launch record in launches.partial.jsonl is refused with the file, the record and the field, never an internal error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    const groups = await killedRun(dir);
    const typia = groups.flat().find((c) => c.serializer === 'typia' && c.status === 'planned')!;
    // the hostile tester's record: a round without baselineNs (report said "Cannot read properties of undefined")
    const record = {
      launch: 1,
      opsPerSample: { serializer: 10, baseline: 10 },
      warmup: { serializerOps: 1, serializerMs: 1, baselineOps: 1, baselineMs: 1 },
      emptyNsPerOp: 1,
      rounds: [{ serializerNs: [100] }],
      noisy: false,
      elapsedMs: 5,
    };
    writeFileSync(join(dir, RUN_PARTIAL.launches), `${JSON.stringify({ caseId: typia.id, record })}\n`);
    assert.throws(
      () => recoverRun(dir),
      (e: Error) => {
        assert.match(
          e.message,
          new RegExp(
            `launches\\.partial\\.jsonl: at /record/rounds/0/baselineNs \\(line 1, column \\d+\\): not a launch record of case "${typia.id.replace(/[/.]/g, '\\$&')}": `,
          ),
        );
        return (e as { code?: string }).code === 'E_RESULTS';
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A launch record of `rounds` rounds (ns/op per side), as the worker sends it. */
function launchRecord(launch: number, serializerNs: number[], baselineNs: number[], rounds = 6) {
  return {
    launch,
    opsPerSample: { serializer: 10, baseline: 10 },
    warmup: { serializerOps: 1, serializerMs: 1, baselineOps: 1, baselineMs: 1 },
    emptyNsPerOp: 1,
    rounds: Array.from({ length: rounds }, () => ({ serializerNs, baselineNs })),
    noisy: false,
    elapsedMs: 5,
  };
}

test('a launch record whose figures would make a computed field NaN or infinite is refused at its own line and field, not at the computed /cases/N/time/mean or /ratio (hostile tester)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    const groups = await killedRun(dir);
    const [json, typia] = ['json', 'typia'].map((s) =>
      groups.flat().find((c) => c.serializer === s && c.status === 'planned')!,
    );
    const good = (id: string, l: number) =>
      JSON.stringify({ caseId: id, record: launchRecord(l, [600, 610, 620], [1000, 1010, 1020]) });
    // line 3: two samples whose sum overflows a double (the mean came out NaN and was refused at /cases/0/time/mean)
    const huge = JSON.stringify({
      caseId: typia.id,
      record: launchRecord(2, [1.7e308, 1.7e308, 600], [1000, 1010, 1020]),
    });
    writeFileSync(join(dir, RUN_PARTIAL.launches), [good(json.id, 1), good(typia.id, 1), huge].join('\n') + '\n');
    assert.throws(
      () => recoverRun(dir),
      (e: Error) => {
        assert.ok(
          e.message.startsWith(
            `${join(dir, RUN_PARTIAL.launches)}: at /record/rounds/0/serializerNs/0 (line 3, column ${huge.indexOf('1.7e+308') + 1}): not a launch record of case "${typia.id}": `,
          ),
          e.message,
        );
        assert.match(e.message, /found 1\.7e\+308/);
        return true;
      },
    );
    // line 2: baseline samples of 0 ns/op (the ratio came out infinite and was refused at /cases/N/ratio as "too large for a float")
    const zero = JSON.stringify({ caseId: typia.id, record: launchRecord(1, [600, 610, 620], [0, 0, 0]) });
    writeFileSync(join(dir, RUN_PARTIAL.launches), [good(json.id, 1), zero].join('\n') + '\n');
    assert.throws(
      () => recoverRun(dir),
      (e: Error) => {
        assert.ok(
          e.message.startsWith(
            `${join(dir, RUN_PARTIAL.launches)}: at /record/rounds/0/baselineNs (line 2, column ${zero.indexOf('[0,0,0]') + 1}): not a launch record of case "${typia.id}": the baseline's samples in this round have median 0 ns/op`,
          ),
          e.message,
        );
        return true;
      },
    );
    // the same launches without the bad figures rebuild
    writeFileSync(
      join(dir, RUN_PARTIAL.launches),
      [good(json.id, 1), good(typia.id, 1), good(json.id, 2), good(typia.id, 2)].join('\n') + '\n',
    );
    const r = recoverRun(dir);
    assert.equal(r.rebuilt, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a finished case of a killed run that the schema refuses is named by its line of results.partial.jsonl and its field there', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    const groups = await killedRun(dir);
    const { cases } = JSON.parse(readFileSync(fixture, 'utf8')) as ResultsFile;
    const planned = groups.flat();
    const done = planned.map((p) => ({
      ...(cases.find((c) => c.serializer === p.serializer) ?? cases[0]),
      id: p.id,
      serializer: p.serializer,
      target: p.target,
    }));
    // a hand edit: a median above the max on the second line
    const measured = done.findIndex((c) => c.status === 'measured' && c.serializer !== 'json');
    assert.ok(measured >= 0, 'the fixture has a measured case that is not the baseline');
    (done[measured] as { time: { median: number; max: number } }).time.median = 1e9;
    writeFileSync(join(dir, RUN_PARTIAL.cases), done.map((c) => JSON.stringify(c)).join('\n') + '\n');
    assert.throws(
      () => recoverRun(dir),
      (e: Error) => {
        assert.ok(
          e.message.startsWith(`${join(dir, RUN_PARTIAL.cases)}: at /time/median (line ${measured + 1}, column `),
          e.message,
        );
        assert.match(e.message, /median 1000000000 ns\/op is above max/);
        return true;
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("`jsonbench compare` reads a killed run's folder as `report` does: what it measured, rebuilt, with the same note, each rebuilt case marked ⏹", async () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'jsonbench-recover-')), mkdtempSync(join(tmpdir(), 'jsonbench-recover-'))];
  try {
    for (const [i, dir] of dirs.entries()) {
      const groups = await killedRun(dir);
      const lines = groups
        .flat()
        .filter((c) => c.status === 'planned')
        .flatMap((c) =>
          [1, 2, 3, 4].map((l) =>
            JSON.stringify({
              caseId: c.id,
              // the launches read about 1% apart, the two cases different ways: a launch-to-launch spread to
              // go by (launches that agree to the digit lend none; and 2 cases × 2 shared launches have at
              // most 2 df: t(2) = 31.6 at 99.9%, an interval too wide for any verdict)
              record: launchRecord(
                l,
                (c.serializer === 'json' ? [1000, 1010, 990] : [600 * (1 + i), 610 * (1 + i), 590 * (1 + i)]).map(
                  (x) => x * (c.serializer === 'json' ? [1, 1.01, 0.99, 1][l - 1] : [1, 0.99, 1.01, 1][l - 1]),
                ),
                [1000, 1010, 990],
              ),
            }),
          ),
        );
      writeFileSync(join(dir, RUN_PARTIAL.launches), lines.join('\n') + '\n');
    }
    const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
    const ran = spawnSync(process.execPath, [bin, 'compare', dirs[0], dirs[1], '--format', 'md'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', COLUMNS: '1000' },
    });
    assert.equal(ran.status, 0, ran.stderr);
    for (const dir of dirs)
      assert.match(
        ran.stderr,
        new RegExp(
          `jsonbench compare: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a run that did not finish: 0 case\\(s\\) finished, 2 rebuilt from their launches \\(marked ⏹\\)`,
        ),
      );
    // hx10 KF-forged-compare: a forged launch log was compared with no integrity word
    for (const dir of dirs)
      assert.ok(
        ran.stderr
          .replace(/\n +/g, ' ')
          .includes(
            `jsonbench compare: ${dir}: its integrity is unchecked (rebuilt from an unfinished run's partial files, which carry no integrity record)`,
          ),
        ran.stderr,
      );
    assert.match(ran.stdout, /\| typia \| time \| 600 ns \| 1\.20 µs \| .*\| \*\*slower ⏹\*\* \|/);
    assert.match(
      ran.stdout,
      /⏹ 2 cases \(base and head\): that run was killed and the case rebuilt from the launches it finished\./,
    );
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
});

test('a run snapshot cut short (the run was killed while writing run.partial.json) is refused naming the file and where it stops', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    await killedRun(dir);
    const text = readFileSync(join(dir, RUN_PARTIAL.header), 'utf8');
    writeFileSync(join(dir, RUN_PARTIAL.header), text.slice(0, 1000));
    assert.throws(
      () => recoverRun(dir),
      (e: Error) =>
        e.message.startsWith(
          `${join(dir, RUN_PARTIAL.header)}: cannot rebuild the run: not valid JSON at line 1, column `,
        ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a killed run of a newer jsonbench whose finished case has a status this one does not know is rebuilt without that case, which is listed as not read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    const groups = await killedRun(dir);
    const { cases } = JSON.parse(readFileSync(fixture, 'utf8')) as ResultsFile;
    const done = groups.flat().map((p) => ({
      ...(cases.find((c) => c.serializer === p.serializer) ?? cases[0]),
      id: p.id,
      serializer: p.serializer,
      target: p.target,
    })) as Record<string, unknown>[];
    const i = done.findIndex((c) => c.serializer === 'typia');
    const {
      time: _t,
      ratio: _r,
      ratioError: _e,
      ratioInterval: _iv,
      allocated: _a,
      allocRatio: _ar,
      ...header
    } = done[i];
    done[i] = { ...header, status: 'paused', reason: 'paused' };
    writeFileSync(join(dir, RUN_PARTIAL.cases), done.map((c) => JSON.stringify(c)).join('\n') + '\n');
    const r = recoverRun(dir);
    assert.equal(
      r.results.cases.some((c) => c.serializer === 'typia'),
      false,
    );
    assert.deepEqual(
      r.results.unread?.map((u) => [u.id, u.status]),
      [[done[i].id, 'paused']],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a run.partial.json whose groups, cases, payloads or policy are damaged is refused with the file and the JSON pointer, never an internal error (hostile tester)', async () => {
  const { snapshotProblem } = await import('../../src/run/recover.js');
  const good = {
    results: { policy: { measure: {} } },
    groups: [[{ id: 'a', serializer: 'json', payloadKey: 'k', status: 'planned' }]],
    payloads: [{ key: 'k' }],
  } as never;
  assert.equal(snapshotProblem(good), null);
  const bad = (patch: object) => snapshotProblem({ ...(good as object), ...patch } as never);
  assert.deepEqual(
    bad({ groups: [[{ id: 'a', serializer: 'json', payloadKey: 'k', status: 'planned' }], null] })?.pointer,
    '/groups/1',
  );
  assert.deepEqual(bad({ groups: [[null]] })?.pointer, '/groups/0/0');
  assert.deepEqual(bad({ groups: ['x'] })?.pointer, '/groups/0');
  assert.deepEqual(bad({ payloads: [null] })?.pointer, '/payloads/0');
  assert.deepEqual(bad({ results: { policy: { measure: null } } })?.pointer, '/results/policy');
  assert.deepEqual(bad({ results: [] })?.pointer, '/results/policy');
});

test("a killed run's rebuilt groups borrow the run's prior from its other groups, as a finished run's do (not t(≈1) with 2 launches)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    const groups = await killedRun(dir, ['serialize', 'deserialize']);
    const measured = groups.filter((g) => g.filter((c) => c.status === 'planned').length >= 2);
    assert.ok(measured.length >= 2, `groups of 2 planned cases: ${measured.length}`);
    // 2 launches each, about 1% apart, the cases different ways: each group alone has at most 2 df (2 cases × 2 shared launches)
    const lines = measured.flat().flatMap((c, i) =>
      [1, 2].map((l) =>
        JSON.stringify({
          caseId: c.id,
          record: launchRecord(
            l,
            [600 + 50 * i, 610 + 50 * i, 590 + 50 * i].map((x) => x * [1, 1.01 + 0.004 * i][l - 1]),
            [1000, 1010, 990].map((x) => x * [1, 1.01][l - 1]),
          ),
        }),
      ),
    );
    writeFileSync(join(dir, RUN_PARTIAL.launches), lines.join('\n') + '\n');
    const r = recoverRun(dir);
    const rebuilt = r.results.cases.filter((c) => c.status === 'measured');
    assert.ok(rebuilt.length >= 4, `rebuilt ${rebuilt.length}`);
    for (const c of rebuilt) {
      // alone: Satterthwaite's df of a 2 × 2 table, at most 2; with another group's prior, more
      assert.ok(c.time.df! > 2, `${c.id}: time df ${c.time.df}`);
      assert.equal(c.time.basis, 'moderated', c.id);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a launches.partial.jsonl cut mid-record is rebuilt without its last line, which is said, and the reasons say the run stopped, not that it was killed (hx10 FD-40k-report)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    const groups = await killedRun(dir);
    const [json, typia] = ['json', 'typia'].map((s) =>
      groups.flat().find((c) => c.serializer === s && c.status === 'planned')!,
    );
    const whole = JSON.stringify({ caseId: json.id, record: launchRecord(1, [600, 610, 620], [600, 610, 620]) });
    const typiaRecord = JSON.stringify({ caseId: typia.id, record: launchRecord(1, [300, 310, 320], [600, 610, 620]) });
    // as a full disk leaves it: the last record cut at a block boundary, no line end
    const cut = typiaRecord.slice(0, 150);
    writeFileSync(
      join(dir, RUN_PARTIAL.launches),
      [
        JSON.stringify({ caseId: json.id, launching: 1 }),
        JSON.stringify({ caseId: typia.id, launching: 1 }),
        whole,
        cut,
      ].join('\n'),
    );
    const r = recoverRun(dir);
    assert.equal(r.rebuilt, 1);
    assert.deepEqual(r.stopped?.notes, [
      `launches.partial.jsonl: its last line (line 4, 150 bytes) ends mid-record: dropped (launches.partial.jsonl ends mid-record: a full disk, or a kill while writing)`,
    ]);
    const t = r.results.cases.find((c) => c.id === typia.id)!;
    assert.equal(t.status, 'not-run');
    assert.equal(
      t.reason,
      'not measured: the run stopped while measuring this case (launches.partial.jsonl ends mid-record: a full disk, or a kill while writing)',
    );
    const j = r.results.cases.find((c) => c.id === json.id)!;
    assert.match(
      j.findings.find((f) => f.code === 'interrupted')?.message ?? '',
      /^the run stopped \(launches\.partial\.jsonl ends mid-record: a full disk, or a kill while writing\): rebuilt from 1 finished launch/,
    );
    const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
    const ran = spawnSync(process.execPath, [bin, 'report', dir, '--format', 'md', '--out', join(dir, 'r.md')], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', COLUMNS: '1000' },
    });
    assert.equal(ran.status, 0, ran.stderr);
    assert.ok(
      ran.stderr.includes(
        `jsonbench report: ${dir}: launches.partial.jsonl: its last line (line 4, 150 bytes) ends mid-record: dropped`,
      ),
      ran.stderr,
    );
    assert.match(ran.stderr, /never measured \(status not-run: the run stopped before them\)/);
    assert.doesNotMatch(readFileSync(join(dir, 'r.md'), 'utf8'), /the run was killed|run was killed (before|while)/);
    assert.match(readFileSync(join(dir, 'r.md'), 'utf8'), /the run stopped while measuring this case/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a killed run whose files end with whole records keeps saying killed (a kill between two records)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-recover-'));
  try {
    const groups = await killedRun(dir);
    const typia = groups.flat().find((c) => c.serializer === 'typia' && c.status === 'planned')!;
    writeFileSync(join(dir, RUN_PARTIAL.launches), JSON.stringify({ caseId: typia.id, launching: 1 }) + '\n');
    const r = recoverRun(dir);
    assert.equal(r.stopped, undefined);
    assert.equal(r.results.cases.find((c) => c.id === typia.id)?.reason, KILLED_WHILE_REASON);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
