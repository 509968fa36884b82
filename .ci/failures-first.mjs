// Passes `node --test`'s TAP through unchanged, and repeats each failed top-level test (its
// `not ok` line and up to 40 lines of its YAML block, as TAP comments) just before the closing
// plan line `1..N`, so a log that keeps only its tail still names what failed above the summary.
// Reads stdin, writes stdout; exits 0 (the test command's own status is kept by `set -o pipefail`).
import { createInterface } from 'node:readline';

const failed = [];
let current = null;
let printed = false;
const flush = () => {
  if (printed || failed.length === 0) return;
  printed = true;
  process.stdout.write(`# ${failed.length} failed test(s), repeated here from above:\n`);
  for (const lines of failed) for (const l of lines) process.stdout.write(`# ${l}\n`);
};
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (/^not ok \d+ /.test(line)) current = [line];
  else if (current && (/^ok \d+ /.test(line) || /^# Subtest: /.test(line) || /^1\.\.\d+$/.test(line))) {
    failed.push(current);
    current = null;
  } else if (current && current.length < 41) current.push(line);
  if (/^1\.\.\d+$/.test(line)) flush();
  process.stdout.write(line + '\n');
}
if (current) failed.push(current);
flush();
