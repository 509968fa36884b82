/**
 * `npm run bench:startup`: the CPU time a jsonbench command costs to start, next to `node -e 0`
 * (Node starting and doing nothing) measured side by side (issue 22: `jsonbench --version` at most
 * 1.5× `node -e 0`).
 *
 * Each round runs a batch of `--batch` processes of each command, the commands in turn (their order
 * reversed every other round, so a slow phase of the machine hits both), and reads the batch's CPU
 * time (user + system of the finished children, by the kernel's accounting: the `times` builtin of
 * /bin/sh after the batch); a process's CPU time is the batch's ÷ its size (a batch, because `times`
 * counts in clock ticks of 10 ms and one start-up is tens of ms). A round's ratio is command ÷
 * `node -e 0`; the figure is the median over rounds, with the rounds' range. CPU time, not wall:
 * on a shared machine the wall time of a start-up is mostly waiting for a core.
 *
 * Flags: --rounds N (default 8), --batch N (default 10), --command "ARGS" (repeatable; default
 * `--version` and `--help`: the arguments after `node bin/jsonbench.js`). Prints the load average
 * before and after (1/5/15 min).
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const bin = fileURLToPath(new URL('../../bin/jsonbench.js', import.meta.url));
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    batch: { type: 'string', default: '10' },
    command: { type: 'string', multiple: true },
  },
});
const rounds = Number(values.rounds);
const batch = Number(values.batch);
if (!(Number.isInteger(rounds) && rounds > 0 && Number.isInteger(batch) && batch > 0))
  throw new Error('--rounds and --batch take positive integers');

/** Single-quotes `s` for /bin/sh. */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A command to time: its label and its argv. */
interface Subject {
  label: string;
  argv: string[];
}
const baseline: Subject = { label: 'node -e 0', argv: [process.execPath, '-e', '0'] };
const subjects: Subject[] = (values.command ?? ['--version', '--help']).map((args) => ({
  label: `jsonbench ${args}`,
  argv: [process.execPath, bin, ...args.split(' ').filter(Boolean)],
}));

/**
 * CPU seconds (user + system) per process of `batch` runs of `argv`, from `times` in /bin/sh.
 * @throws Error when a run exits non-zero or `times` prints something unexpected
 */
function batchCpu(argv: readonly string[]): number {
  const cmd = argv.map(quote).join(' ');
  const script = `i=0; while [ $i -lt ${batch} ]; do ${cmd} >/dev/null 2>&1 || exit 9; i=$((i+1)); done; times`;
  const r = spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (exit ${r.status}): ${r.stderr}`);
  // `times`: the shell's user and system time, then its children's: "0m1.130000s 0m0.240000s"
  const children = r.stdout.trim().split('\n').at(-1) ?? '';
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (secs.length !== 2) throw new Error(`unexpected output of times: ${JSON.stringify(r.stdout)}`);
  return (secs[0] + secs[1]) / batch;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join('/');

const loadBefore = load();
const cpu = new Map<string, number[]>([
  [baseline.label, []],
  ...subjects.map((s) => [s.label, []] as [string, number[]]),
]);
const ratios = new Map<string, number[]>(subjects.map((s) => [s.label, []]));
for (let r = 0; r < rounds; r++) {
  const forward = [baseline, ...subjects];
  const order = r % 2 === 0 ? forward : [...forward].reverse();
  const round = new Map(order.map((s) => [s.label, batchCpu(s.argv)]));
  for (const [label, t] of round) cpu.get(label)!.push(t);
  for (const s of subjects) ratios.get(s.label)!.push(round.get(s.label)! / round.get(baseline.label)!);
}
const loadAfter = load();

const out = (s: string) => process.stdout.write(`${s}\n`);
out(`start-up CPU time (user + system), ${rounds} rounds × ${batch} processes per command; ${cpus().length} cores`);
out(`node ${process.version}; load average ${loadBefore} before, ${loadAfter} after (1/5/15 min)`);
const t0 = median(cpu.get(baseline.label)!);
out(`${baseline.label.padEnd(22)} ${ms(t0).padStart(9)} per process (median of rounds)`);
for (const s of subjects) {
  const rs = ratios.get(s.label)!;
  out(
    `${s.label.padEnd(22)} ${ms(median(cpu.get(s.label)!)).padStart(9)} per process; ${median(rs).toFixed(2)}× node -e 0 ` +
      `(rounds ${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)}×)`,
  );
}
