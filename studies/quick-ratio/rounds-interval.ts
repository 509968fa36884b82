// How should a paired case measured in one launch (policy quick) state its ratio? Before
// 2026-12-07: the geometric mean of its rounds' ratios with their log-scale t-interval ("before");
// since: the launch's ratio, the median of its rounds' ratios, with the interval of the median's
// MAD-based error (src/run/assemble.ts ratioOf, "shipped"). Reads quick runs' results.json files
// (run-*/ under each folder given), holds every case's interval against the other runs' centres
// (as bench/coverage.ts does), and prints per folder and method: the share of other runs' centres
// inside, the half-width (median and p90, log scale) and how many intervals exclude 1.
// node build/studies/quick-ratio/rounds-interval.js <folder> [<folder> ...]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import jstatModule from 'jstat';
import { ratioOf } from '../../src/run/assemble.js';
import { roundRatios } from '../../src/analysers/analyser.js';
import type { LaunchRecord, ResultsFile } from '../../src/results/types.js';
import { load, studyArgs } from '../lib/lib.js';

const jStat = (jstatModule as unknown as { jStat?: typeof jstatModule }).jStat ?? jstatModule;

const USAGE = `node build/studies/quick-ratio/rounds-interval.js <folder> [<folder> ...]
  folder   holds run-1/, run-2/, … each with the results.json of a quick run of the same plan
           (NOTE.md gives the loop that made them)`;

const args = studyArgs(USAGE, {}, true);

interface Reading {
  centre: number;
  low: number;
  high: number;
}

/** Before 2026-12-07: the geometric mean of the rounds' ratios, t(rounds − 1) on their logs. */
function before(launch: LaunchRecord, confidence: number): Reading | null {
  const logs = roundRatios(launch)
    .filter((r) => r > 0 && Number.isFinite(r))
    .map(Math.log);
  if (logs.length < 2) return null;
  const m = logs.reduce((a, b) => a + b, 0) / logs.length;
  const s = Math.sqrt(logs.reduce((a, x) => a + (x - m) ** 2, 0) / (logs.length - 1));
  const h = (jStat.studentt.inv(1 - (1 - confidence) / 2, logs.length - 1) * s) / Math.sqrt(logs.length);
  return { centre: Math.exp(m), low: Math.exp(m - h), high: Math.exp(m + h) };
}

/** As shipped (src/run/assemble.ts ratioOf on the one launch). */
function shipped(launch: LaunchRecord, confidence: number): Reading | null {
  const r = ratioOf([launch], confidence);
  return r?.interval ? { centre: r.ratio, low: r.interval[0], high: r.interval[1] } : null;
}

const methods = { before, shipped };

console.log(`load ${load()}`);
for (const folder of args.positionals) {
  const files = readdirSync(folder)
    .filter((d) => d.startsWith('run-') && existsSync(join(folder, d, 'results.json')))
    .map((d) => JSON.parse(readFileSync(join(folder, d, 'results.json'), 'utf8')) as ResultsFile);
  // case id → per run, its one kept launch (paired cases that are not their own baseline)
  const byCase = new Map<string, (LaunchRecord | undefined)[]>();
  files.forEach((f, i) => {
    for (const c of f.cases) {
      if (c.status !== 'measured' || c.serializer === c.baseline || c.ratio === null) continue;
      const kept = (c.samples?.launches ?? []).filter((l) => !l.discarded && l.rounds.length);
      if (kept.length !== 1) continue;
      if (!byCase.has(c.id)) byCase.set(c.id, []);
      byCase.get(c.id)![i] = kept[0];
    }
  });
  const confidence = files[0]?.policy.measure.confidence ?? 0.999;
  console.log(`${folder}: ${files.length} runs, ${byCase.size} paired cases, ${confidence * 100}% intervals`);
  for (const [name, f] of Object.entries(methods)) {
    let pairs = 0;
    let inside = 0;
    let excludeOne = 0;
    const halves: number[] = [];
    for (const launches of byCase.values()) {
      const readings = launches.map((l) => (l ? f(l, confidence) : null));
      readings.forEach((a, i) => {
        if (!a) return;
        halves.push(Math.log(a.high / a.low) / 2);
        if (a.high < 1 || a.low > 1) excludeOne++;
        readings.forEach((b, j) => {
          if (i === j || !b) return;
          pairs++;
          if (b.centre >= a.low && b.centre <= a.high) inside++;
        });
      });
    }
    halves.sort((a, b) => a - b);
    const pctOf = (h: number | undefined) => (h === undefined ? '—' : `±${(100 * (Math.exp(h) - 1)).toFixed(0)}%`);
    console.log(
      `  ${name.padEnd(8)} other runs' centres inside ${((100 * inside) / Math.max(1, pairs)).toFixed(1)}% of ${pairs} pairs; half-width median ${pctOf(halves[halves.length >> 1])}, p90 ${pctOf(halves[Math.floor(halves.length * 0.9)])}; excludes 1: ${excludeOne} of ${halves.length}`,
    );
  }
}
