import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGroups, type ProgressEvent } from '../../src/run/runner.js';
import { policies, type RunPolicy } from '../../src/config/policies.js';
import type { WorkerJob, WorkerMessage } from '../../src/worker/protocol.js';
import type { LaunchOutcome } from '../../src/runtimes/launch.js';
import { payload, planned } from './fake-launch.js';

/**
 * hx8 FL-ct1ms (issue 25, "unclear"): a group launch that outlived its case timeout is killed by
 * jsonbench itself with SIGKILL, and its warning said "was killed by SIGKILL … (killed from outside
 * jsonbench, or by the system for memory?)", never naming the timeout or `--case-timeout`. Driven by
 * a fake launcher (no processes): the group's one process times out, each case taken again alone measures.
 */

const policy: RunPolicy = { ...policies.quick, caseTimeoutMs: 4321 };

test('a group launch that times out says so, naming the case timeout and --case-timeout, not a kill from outside', async () => {
  const jobs: WorkerJob[] = [];
  const launch = async (job: WorkerJob): Promise<LaunchOutcome> => {
    jobs.push(job);
    const hello: WorkerMessage = { protocol: 2, type: 'hello', runtime: 'node', version: '20.19.0', gc: true };
    if (job.mode !== 'probe' && job.serializers)
      // the group's process: killed by the host's timeout before it named a case
      return {
        messages: [hello],
        exitCode: null,
        signal: 'SIGKILL',
        timedOut: true,
        stderrTail: '',
        stdoutTail: '',
        elapsedMs: 4321 * 3,
      };
    if (job.mode === 'probe') throw new Error('case jobs only');
    const m: WorkerMessage[] = [hello];
    for (let r = 0; r < 3; r++)
      m.push({
        protocol: 2,
        type: 'round',
        round: r,
        serializerNs: [100, 100],
        baselineNs: job.baseline ? [100, 100] : [],
      });
    m.push({ protocol: 2, type: 'done', noisy: false, elapsedMs: 1, checksum: 1 });
    return { messages: m, exitCode: 0, signal: null, timedOut: false, stderrTail: '', stdoutTail: '', elapsedMs: 10 };
  };
  const dir = mkdtempSync(join(tmpdir(), 'jsonbench-group-timeout-'));
  const progress: ProgressEvent[] = [];
  try {
    const results = await runGroups({
      groups: [['json', 'a', 'b'].map((s) => planned(s))],
      payloads: new Map([[payload.key, payload]]),
      policy,
      partialPath: join(dir, 'partial.jsonl'),
      launchFor: () => launch,
      onProgress: (e) => progress.push(e),
      sharesProcess: () => true,
    });
    assert.equal(
      jobs.filter((j) => j.mode !== 'probe' && j.serializers).length,
      1,
      'one group launch, then each case alone',
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ['measured', 'measured', 'measured'],
    );
    const warnings = progress.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.equal(
      warnings[0],
      "weather-station/1/single/serialize/json (+2 in one process): launch 1's worker timed out (the case timeout: 4.321 s per case it carries; --case-timeout sets it) before naming a failing case; its 3 cases left are taken again, each alone",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
