// Q5: can one process measure a whole group (baseline + every serializer of the class) instead of
// one process per serializer? Same ratios as pair launches? And does a loop compiled per side
// (ownLoop: monomorphic call site) change them? Interleaved launches of each scheme.
// node build/studies/group-launch/q5-group.js --out /tmp/q5-group.jsonl [--launches 5] [--analyze]
import { appendFileSync, readFileSync, existsSync } from 'node:fs';
import type { Shape } from '../../src/case/coordinates.js';
import { studyArgs, required, type ChildSpec, runChild, payload, load, median, cv, pct } from '../lib/lib.js';

const USAGE = `node build/studies/group-launch/q5-group.js --out /tmp/q5-group.jsonl [--launches 5] [--analyze]`;
const { values } = studyArgs(USAGE, {
  out: { type: 'string' },
  launches: { type: 'string', default: '5' },
  rounds: { type: 'string', default: '15' },
  analyze: { type: 'boolean', default: false },
  gcEach: { type: 'string', default: 'side' },
  schemes: { type: 'string', default: 'pair,group,pair-own,group-own' },
  workload: { type: 'string', default: 'weather-station/1/single' },
});
const [workload, size, shapeText] = values.workload.split('/');
const shape = shapeText as Shape;
const out = required(values.out, '--out');
const GROUP = ['fast-json-stringify', 'typia', 'superjson', 'ajv-jtd', 'safe-stable-stringify', 'class-transformer'];
const OTHERS: string[] = [];
if (!values.analyze) {
  const path = await payload(workload, Number(size));
  const base: Omit<ChildSpec, 'kind'> = {
    workload,
    size: Number(size),
    shape,
    direction: 'serialize',
    caseClass: 'serialize',
    baseline: 'json',
    payloadPath: path,
    rounds: Number(values.rounds),
    sampleTargetMs: 2.5,
    samplesPerRound: 4,
    gcEach: values.gcEach as ChildSpec['gcEach'],
  };
  for (let l = 0; l < Number(values.launches); l++) {
    for (const scheme of values.schemes.split(',')) {
      const own = scheme.endsWith('-own');
      const l0 = load();
      const t = performance.now();
      if (scheme.startsWith('group')) {
        const o = runChild({ ...base, kind: 'group', group: [...GROUP, ...OTHERS], ownLoop: own });
        const ratios = Object.fromEntries(
          GROUP.map((id) => [id, median(o.rounds.map((r) => median(r[id].cpu) / median(r.b.cpu)))]),
        );
        appendFileSync(
          out,
          JSON.stringify({
            scheme,
            launch: l,
            load: l0,
            ms: performance.now() - t,
            ratios,
            roundsCpuMs: o.roundsCpuMs,
          }) + '\n',
        );
      } else {
        const ratios: Record<string, number> = {};
        let cpuMs = 0;
        for (const id of GROUP) {
          const o = runChild({ ...base, kind: 'pair', serializer: id, ownLoop: own });
          ratios[id] = median(o.rounds.map((r) => median(r.s.cpu) / median(r.b.cpu)));
          cpuMs += o.roundsCpuMs;
        }
        appendFileSync(
          out,
          JSON.stringify({ scheme, launch: l, load: l0, ms: performance.now() - t, ratios, roundsCpuMs: cpuMs }) + '\n',
        );
      }
      process.stderr.write(`${scheme} L${l} load ${l0.split(' ')[0]}\n`);
    }
  }
}
if (existsSync(out)) {
  const recs = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((x) => JSON.parse(x) as { scheme: string; load: string; ms: number; ratios: Record<string, number> });
  console.log(
    `${values.workload} serialize, ratio vs json by CPU clock (median of per-round ratios), per launch; CV across launches`,
  );
  console.log(
    `| scheme | launches | load | ${GROUP.map((g) => `${g} ratios | CV`).join(' | ')} | wall s per launch set |`,
  );
  console.log(`|---|---|---|${GROUP.map(() => '---|---').join('|')}|---|`);
  for (const scheme of [...new Set(recs.map((r) => r.scheme))]) {
    const rs = recs.filter((r) => r.scheme === scheme);
    const loads = rs.map((r) => Number(r.load.split(' ')[0]));
    console.log(
      `| ${scheme} | ${rs.length} | ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} | ${GROUP.map(
        (g) => {
          const xs = rs.map((r) => r.ratios[g]);
          return `${xs.map((x) => x.toFixed(3)).join(' ')} (med ${median(xs).toFixed(3)}) | ${pct(cv(xs))}`;
        },
      ).join(' | ')} | ${(median(rs.map((r) => r.ms)) / 1000).toFixed(1)} |`,
    );
  }
}
