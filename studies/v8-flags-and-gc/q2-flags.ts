// Q2: where does the launch-to-launch spread of a ratio come from? The same pair in launches with
// different V8 flags, interleaved (config A, B, C… then again) so load phases hit every config.
// Prints per config: CV across launches of the launch ratio (median per-round ratio, CPU clock)
// and of each side's median ns/op.
// node build/studies/v8-flags-and-gc/q2-flags.js --out /tmp/x.jsonl [--launches 8] [--rounds 20] [--busy 0] [--pairs 0,1]
import { appendFileSync, existsSync } from 'node:fs';
import {
  studyArgs,
  readLaunches,
  required,
  type PairCase,
  type ChildSpec,
  runChild,
  payload,
  load,
  busyLoops,
  roundRatios,
  median,
  cv,
  pct,
} from '../lib/lib.js';

const USAGE = `node build/studies/v8-flags-and-gc/q2-flags.js --out /tmp/x.jsonl [--launches 8] [--rounds 20] [--busy 0] [--pairs 0,1]`;
const { values } = studyArgs(USAGE, {
  out: { type: 'string' },
  launches: { type: 'string', default: '8' },
  busy: { type: 'string', default: '0' },
  rounds: { type: 'string', default: '20' },
  pairs: { type: 'string', default: '0,1' },
  configs: { type: 'string' },
  condition: { type: 'string', default: '' },
  analyze: { type: 'boolean', default: false },
});
const PAIRS: PairCase[] = [
  {
    workload: 'users',
    size: 10000,
    shape: 'list',
    direction: 'serialize',
    serializer: 'fast-json-stringify',
    baseline: 'json',
    caseClass: 'serialize',
  },
  {
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'serialize',
    serializer: 'fast-json-stringify',
    baseline: 'json',
    caseClass: 'serialize',
  },
  {
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'deserialize',
    serializer: 'typia',
    baseline: 'typebox',
    caseClass: 'validate',
  },
];
const CONFIGS: Record<string, { flags: string[]; spec: Partial<ChildSpec> }> = {
  default: { flags: [], spec: {} },
  'single-threaded': { flags: ['--single-threaded'], spec: {} },
  'semi-16': { flags: ['--min-semi-space-size=16', '--max-semi-space-size=16'], spec: {} },
  'random-seed': { flags: ['--random-seed=42'], spec: {} },
  predictable: { flags: ['--predictable'], spec: {} },
  'gc-minor': { flags: [], spec: { gcEach: 'minor' } },
  'gc-none': { flags: [], spec: { gcEach: 'none' } },
  'st+semi16+minor': {
    flags: ['--single-threaded', '--min-semi-space-size=16', '--max-semi-space-size=16'],
    spec: { gcEach: 'minor' },
  },
};
const out = required(values.out, '--out');
const chosen = (values.configs ?? Object.keys(CONFIGS).join(',')).split(',');
const pairs = values.pairs
  .split(',')
  .map(Number)
  .map((i) => PAIRS[i]);
if (!values.analyze) {
  for (const p of pairs) p.payloadPath = await payload(p.workload, p.size);
  const stop = busyLoops(Number(values.busy));
  try {
    for (let l = 0; l < Number(values.launches); l++)
      for (const p of pairs)
        for (const c of chosen) {
          const l0 = load();
          const t = performance.now();
          const o = runChild(
            {
              kind: 'pair',
              ...p,
              payloadPath: p.payloadPath ?? '',
              rounds: Number(values.rounds),
              sampleTargetMs: 2.5,
              samplesPerRound: 4,
              ...CONFIGS[c].spec,
            },
            ['--expose-gc', ...CONFIGS[c].flags],
          );
          appendFileSync(
            out,
            JSON.stringify({
              condition: values.condition,
              config: c,
              pair: `${p.workload}/${p.direction}/${p.serializer}~${p.baseline}`,
              launch: l,
              loadBefore: l0,
              launchMs: performance.now() - t,
              ...o,
            }) + '\n',
          );
          process.stderr.write(
            `${c} ${p.workload} ${p.direction} L${l} load ${l0.split(' ')[0]} ratio ${median(roundRatios(o.rounds, 'cpu')).toFixed(3)}\n`,
          );
        }
  } finally {
    stop();
  }
}
if (existsSync(out)) {
  const recs = readLaunches([out]);
  const keys = [...new Set(recs.map((r) => `${r.pair}|${r.config}`))];
  console.log(
    '| pair | config | launches | load | launch ratios | ratio CV | serializer ns/op CV | baseline ns/op CV | rounds CPU s (median) | gc share |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const k of keys) {
    const [pair, config] = k.split('|');
    const rs = recs.filter((r) => r.pair === pair && r.config === config);
    const ratios = rs.map((r) => median(roundRatios(r.rounds, 'cpu')));
    const sNs = rs.map((r) => median(r.rounds.flatMap((x) => x.s.cpu)));
    const bNs = rs.map((r) => median(r.rounds.flatMap((x) => x.b.cpu)));
    const loads = rs.map((r) => Number(r.loadBefore.split(' ')[0]));
    console.log(
      `| ${pair} | ${config} | ${rs.length} | ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} | ${ratios.map((x) => x.toFixed(3)).join(' ')} | ${pct(cv(ratios))} | ${pct(cv(sNs))} | ${pct(cv(bNs))} | ${median(rs.map((r) => r.roundsCpuMs / 1000)).toFixed(2)} | ${pct(median(rs.map((r) => r.gcCpuMs / r.roundsCpuMs)), 0)} |`,
    );
  }
}
