// How many measured cases of a recorded run would `⚠ noisy` flag under this build's decision rule
// (issue 22's target: at most a third on a quiet machine)? Reads results files (read-only): a case
// counts as flagged when its stored findings say its launches disagree (that half of the rule does
// not read the border band) or when this build's results/decision.ts calls its ratio borderline or
// unresolved (analysers/noisy.ts). Also counts what the stored findings flagged when recorded.
// node build/studies/border-band/flag-rate.js <results.json>...
import { readFileSync } from 'node:fs';
import { decisionBounds, LAUNCHES_DISAGREE, ratioCall, unresolved } from '../../src/results/decision.js';
import type { ResultsFile } from '../../src/results/types.js';
import { load, studyArgs } from '../lib/lib.js';

const USAGE = `node build/studies/border-band/flag-rate.js <results.json>...
  prints, per file: measured cases, flagged when recorded, flagged under this build's band (and why)`;
const { positionals } = studyArgs(USAGE, {}, true);
console.log(`# border band ${decisionBounds().borderBand}; load ${load()}`);
console.log('| file | measured | noisy when recorded | noisy now | launches disagree | borderline | unresolved |');
console.log('|---|---|---|---|---|---|---|');
for (const path of positionals) {
  const run = JSON.parse(readFileSync(path, 'utf8')) as ResultsFile;
  const measured = run.cases.filter((c) => c.status === 'measured');
  let recorded = 0;
  let now = 0;
  let moved = 0;
  let border = 0;
  let wide = 0;
  for (const c of measured) {
    const noisy = c.findings.filter((f) => f.code === 'noisy');
    if (noisy.length) recorded++;
    if (noisy.some((f) => f.message.startsWith(LAUNCHES_DISAGREE))) {
      moved++;
      now++;
      continue;
    }
    if (c.ratio === null || c.serializer === c.baseline) continue;
    const interval = c.ratioInterval ?? null;
    if (ratioCall(c.ratio, interval) === 'borderline') {
      border++;
      now++;
    } else if (unresolved(interval)) {
      wide++;
      now++;
    }
  }
  const share = (k: number) => `${k} (${((100 * k) / measured.length).toFixed(1)}%)`;
  console.log(`| ${path} | ${measured.length} | ${share(recorded)} | ${share(now)} | ${moved} | ${border} | ${wide} |`);
}
