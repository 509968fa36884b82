import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readResults } from '../../src/results/io.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveRunRequest } from '../../src/run/request.js';
import { runSession, type SessionEvent } from '../../src/run/session.js';

/**
 * A run that never ended (issue 25, class 1): a serializer that hangs on every call cost each of
 * its probe sides the 120 s timeout after the timed cases, and results.json and the reports were
 * written only after the probe pass. Here: results.json and the reports exist when the probe pass
 * begins; the hanging serializer's probes are skipped ("it hung in its timed case …"); a serializer
 * that hangs only on probes costs one timeout, its other probes skipped ("it hung on probe …");
 * the pass stays within its budget, and the whole run ends within minutes.
 */

const config = fileURLToPath(new URL('../../../test/fixtures/hostile/run-ends.config.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jsonbench-run-ends-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a run with a serializer hanging on every call ends within minutes with results.json and its reports, written before the probe pass; its probes are skipped, naming the hang', async () => {
  const out = join(dir, 'hangs');
  const { request, release } = await resolveRunRequest({
    cwd: dir,
    config,
    policy: 'quick',
    workload: ['weather-station'],
    direction: ['serialize'],
    serializer: ['json', 'hangs-always', 'hangs-on-probe'],
    out,
    ledger: false,
  });
  const PROBE_TIMEOUT_MS = 4_000;
  const BUDGET_MS = 90_000;
  request.policy = { ...request.policy, caseTimeoutMs: 20_000 };
  request.probes = { ...request.probes!, cache: false, timeoutMs: PROBE_TIMEOUT_MS, budgetMs: BUDGET_MS };
  const seenBeforeProbes: { results: boolean; md: boolean; html: boolean; pending?: unknown }[] = [];
  const notes: string[] = [];
  const t0 = performance.now();
  try {
    await runSession(request, (e: SessionEvent) => {
      if (e.type !== 'note') return;
      notes.push(e.message);
      if (/^probes: \d+ relevant/.test(e.message))
        seenBeforeProbes.push({
          results: existsSync(join(out, 'results.json')),
          md: existsSync(join(out, 'report.md')),
          html: existsSync(join(out, 'report.html')),
          // a run killed from here on leaves a file that says its probe pass had not finished (hx27 k03)
          pending: (JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { probePending?: unknown })
            .probePending,
        });
    });
  } finally {
    release();
  }
  const ms = performance.now() - t0;
  assert.deepEqual(seenBeforeProbes, [{ results: true, md: true, html: true, pending: true }], notes.join('\n'));
  const r = readResults(join(out, 'results.json'));
  assert.equal(r.probePending, undefined);
  const status = (s: string) => r.cases.find((c) => c.serializer === s)?.status;
  assert.equal(status('hangs-always'), 'timeout');
  assert.equal(status('hangs-on-probe'), 'measured');
  assert.equal(status('json'), 'measured');
  assert.ok(r.probes, 'the probe matrix is added to results.json when the pass ends');
  const of = (s: string) => r.probes!.verdicts.filter((v) => v.serializer === s);
  const reasons = (s: string) => of(s).map((v) => ('reason' in v.verdict ? v.verdict.reason : v.verdict.mark));
  assert.ok(of('hangs-always').length > 10, `${of('hangs-always').length} verdicts`);
  for (const reason of reasons('hangs-always'))
    assert.match(reason, /^skipped: it hung in its timed case weather-station\/1\/single\/serialize\/hangs-always$/);
  const onProbe = of('hangs-on-probe');
  const hangs = onProbe.filter((v) => v.verdict.mark === '✗');
  assert.equal(hangs.length, 1, JSON.stringify(hangs));
  const hung = hangs[0];
  assert.match(JSON.stringify(hung.verdict), /no answer within 4000 ms/);
  const rest = onProbe.filter((v) => v !== hung);
  assert.ok(rest.length > 5, `${rest.length} other verdicts`);
  for (const v of rest)
    assert.equal(
      'reason' in v.verdict ? v.verdict.reason : v.verdict.mark,
      `skipped: it hung on probe ${hung.probe} (${hung.direction})`,
    );
  // json is probed for real
  assert.ok(
    of('json').some((v) => v.verdict.mark === '✔'),
    'json has real verdicts',
  );
  assert.ok(r.probes!.elapsedMs < BUDGET_MS + PROBE_TIMEOUT_MS, `probe pass took ${r.probes!.elapsedMs} ms`);
  // the reports hold the matrix too (rewritten when the pass ended)
  assert.match(readFileSync(join(out, 'report.md'), 'utf8'), /hangs-on-probe: 1 failing serialize verdict/);
  assert.ok(ms < 5 * 60_000, `the run took ${(ms / 1000).toFixed(0)} s`);
  assert.match(notes.join('\n'), /skipped \(/);
});
