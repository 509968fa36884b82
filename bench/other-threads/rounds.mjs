// node rounds.mjs results.json…: per round and side, the share of the span's process CPU that threads started after the worker
// burnt (and that every other thread burnt): max, p99, p95 over every span of the files.
import { readFileSync } from 'node:fs';
const xs = [];
const all = [];
for (const f of process.argv.slice(2)) {
  const r = JSON.parse(readFileSync(f, 'utf8'));
  for (const c of r.cases)
    for (const l of c.samples?.launches ?? [])
      for (const x of l.rounds)
        for (const s of [x.serializerSpan, x.baselineSpan])
          if (s && s.helpersNs !== undefined) {
            const v = Math.max(0, s.cpuNs - s.threadNs - s.helpersNs) / s.cpuNs;
            xs.push(v);
            all.push(Math.max(0, s.cpuNs - s.threadNs) / s.cpuNs);
          }
}
const q = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
};
const pct = (x) => (x * 100).toFixed(1) + '%';
console.log(
  `spans ${xs.length}: started threads' share per round: max ${pct(q(xs, 1))} p99 ${pct(q(xs, 0.99))} p95 ${pct(q(xs, 0.95))}; every other thread's: max ${pct(q(all, 1))} p99 ${pct(q(all, 0.99))} p95 ${pct(q(all, 0.95))} median ${pct(q(all, 0.5))}`,
);
