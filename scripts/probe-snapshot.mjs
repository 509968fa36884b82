// Writes test/fixtures/probes/failing-verdicts.json from the results.json of a full
// `jsonbench probe --conformance ../shared/data/conformance` run: every failing verdict (✗ wrong,
// ⚠ throws) of the matrix, and the versions it was found on. test/probes/coverage.test.ts checks
// each has a direct reproduction (test/probes/direct/covered.ts) and that the versions are still the
// installed ones; test/probes/matrix.test.ts (JSONBENCH_SLOW_TESTS=1) re-runs the matrix and
// compares. Usage: node scripts/probe-snapshot.mjs <results.json>
import { writeFileSync } from 'node:fs';

const [file] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node scripts/probe-snapshot.mjs <results.json of jsonbench probe>\n');
  process.exit(2);
}
// readResults expands the probe verdicts results.json stores grouped (src/results/verdict-groups.ts)
const { readResults } = await import('../build/src/results/io.js');
const results = readResults(file);
const section = results.probes;
if (!section || section.selection !== 'asked') {
  process.stderr.write(`${file}: not the results of jsonbench probe\n`);
  process.exit(2);
}
const versions = {};
for (const v of section.verdicts) versions[v.serializer] = v.serializerVersion;
const failing = section.verdicts
  .filter((v) => v.verdict.mark === '✗' || v.verdict.mark === '⚠')
  .map((v) => ({
    serializer: v.serializer,
    direction: v.direction,
    probe: v.probe,
    mark: v.verdict.mark,
    ...(v.verdict.mark === '✗' ? { fault: v.verdict.fault } : {}),
  }));
const snapshot = {
  about:
    'Every failing verdict of the full probe matrix (jsonbench probe --conformance ../shared/data/conformance), written by scripts/probe-snapshot.mjs',
  madeAt: results.finishedAt,
  node: results.environment.node,
  families: section.families,
  probes: section.probes.length,
  versions,
  failing,
};
writeFileSync(
  new URL('../test/fixtures/probes/failing-verdicts.json', import.meta.url),
  JSON.stringify(snapshot, null, 1) + '\n',
);
process.stdout.write(`${failing.length} failing verdicts of ${section.verdicts.length}\n`);
