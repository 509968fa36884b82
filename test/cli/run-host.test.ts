import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults } from '../../src/results/io.js';
import { cpuPinning } from '../../src/runtimes/pinning.js';

/**
 * The host side of a run end to end (issue 13 items 5–7): `--jobs 2` with each group pinned to a
 * CPU, each group's table on stderr as it finishes with a progress line counting cases, and
 * `--metric cold-start` figures in results.json and the reports. One quick run of two groups
 * (weather-station: serialize json + fast-json-stringify, parse json). Wiring, not timing.
 */

const bin = fileURLToPath(new URL('../../../bin/jsonbench.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jsonbench-run-host-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}
function cli(args: string[]): Promise<Ran> {
  const { FORCE_COLOR: _f, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: root,
        env: { ...inherited, JSONBENCH_LEDGER: 'off', NO_COLOR: '1', COLUMNS: '1000' },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 180_000,
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

const cores = os.availableParallelism();

test('--jobs that is not a whole number, or more than the cores, exits 2 naming the flag before anything runs', async () => {
  for (const jobs of ['0', 'two', String(cores + 1)]) {
    const r = await cli([
      'run',
      '--policy',
      'quick',
      '--workload',
      'weather-station',
      '--jobs',
      jobs,
      '--out',
      join(root, `bad-${jobs}`),
    ]);
    assert.equal(r.code, 2, `--jobs ${jobs}: ${r.stderr}`);
    assert.match(r.stderr, /--jobs/);
  }
});

test(
  'a run with --jobs 2 and --metric cold-start: pinned groups, tables as they come, cold figures beside the warm ones',
  { skip: cores < 2 && `--jobs 2 needs 2 cores; this machine has ${cores}`, timeout: 240_000 },
  async () => {
    const out = join(root, 'run');
    const r = await cli([
      'run',
      '--policy',
      'quick',
      '--workload',
      'weather-station',
      '--serializer',
      'json,fast-json-stringify',
      '--jobs',
      '2',
      '--metric',
      'cold-start',
      '--out',
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const results = readResults(join(out, 'results.json'));

    // --jobs: the results file says how many ran at once and where
    assert.equal(results.execution?.jobs, 2);
    if (cpuPinning().tool === 'taskset') {
      assert.equal(results.execution?.pinning, 'taskset');
      assert.equal(results.execution?.cpus?.length, 2);
      assert.match(r.stderr, /--jobs 2: 2 groups at once, pinned to CPUs \d, \d \(taskset\)/);
    } else {
      assert.equal(results.execution?.pinning, 'none');
      assert.match(r.stderr, /unpinned/);
    }

    const measured = results.cases.filter((c) => c.status === 'measured');
    assert.deepEqual(measured.map((c) => c.id).sort(), [
      'weather-station/1/single/deserialize/json',
      'weather-station/1/single/serialize/fast-json-stringify',
      'weather-station/1/single/serialize/json',
    ]);
    // results as they come: a plain line per group on stderr (not a terminal), each group's table once, on stdout
    assert.match(
      r.stderr,
      /^jsonbench: group \d\/3 done · cases \d\/3 \(1 more unsupported, not run\)( · ETA (\d+s|\?))?$/m,
    );
    // a table of one class names it in place of its direction (`· parse`)
    for (const title of ['weather-station · 1 · single · serialize', 'weather-station · 1 · single · parse']) {
      // the title opens the table's first takeaway line (the cold-start table at the end names cases the same way)
      assert.equal(
        r.stdout.split('\n').filter((l) => l.startsWith(`${title} (against `)).length,
        1,
        `stdout has the ${title} table once`,
      );
      assert.ok(!r.stderr.includes(title), `stderr has no ${title} table`);
    }
    assert.equal(/Mean and Median are per op/.test(r.stdout), false, 'the legend is --verbose');
    assert.match(r.stderr, /cases 3\/3/);

    // cold start: per case, one entry per fresh process (quick: 1), never inside the warm figures
    for (const c of measured) {
      const cold = c.coldStart!;
      assert.ok(cold, `${c.id} has cold figures`);
      assert.equal(cold.processes, 1);
      assert.ok(cold.prepareNs[0] > 0 && cold.firstCallNs[0] > 0 && cold.loadNs[0] >= 0, JSON.stringify(cold));
      assert.ok(cold.cpu && cold.cpu.prepareNs.length === 1, 'Node has a CPU clock');
      assert.equal(
        c.time!.n,
        c.samples.launches.flatMap((l) => l.rounds.flatMap((x) => x.serializerNs)).length,
        'the warm figures are the timed samples alone',
      );
    }
    assert.match(r.stdout, /Cold start \(each in a fresh process/);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    assert.match(md, /### Cold start/);
    assert.match(md, /\| weather-station · 1 · single · serialize \| fast-json-stringify \|/);
    const again = await cli(['report', '--format', 'md', '--out', '-', join(out, 'results.json')]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, md, 'report.md is still a pure function of results.json');
  },
);
