// node excess.mjs results.json…: per paired case with CPU spans, the baseline's other-threads share beside it, in
// its own case, and the excess (the rule of src/analysers/baseline-slowed.ts); then max and p99 of the excess.
import { readFileSync } from 'node:fs';
const share = (spans) => {
  let c = 0,
    t = 0;
  for (const s of spans)
    if (s) {
      c += s.cpuNs;
      t += s.threadNs;
    }
  return c > 0 ? { share: Math.max(0, c - t) / c, cpuMs: c / 1e6 } : undefined;
};
const medShare = (spans) => {
  const xs = spans
    .filter((s) => s && s.cpuNs > 0)
    .map((s) => Math.max(0, s.cpuNs - s.threadNs - (process.env.ALL ? 0 : (s.helpersNs ?? 0))) / s.cpuNs)
    .sort((a, b) => a - b);
  if (!xs.length) return undefined;
  const h = xs.length >> 1;
  return xs.length % 2 ? xs[h] : (xs[h - 1] + xs[h]) / 2;
};
const kept = (c) => (c.samples?.launches ?? []).filter((l) => !l.discarded && l.rounds.length && l.clock === 'cpu');
const rows = [];
for (const f of process.argv.slice(2)) {
  const r = JSON.parse(readFileSync(f, 'utf8'));
  const key = (c, s) => [c.workload, c.size, c.shape, c.direction, s, c.target?.id].join('|');
  const own = new Map();
  for (const c of r.cases) if (c.status === 'measured' && c.serializer === c.baseline) own.set(key(c, c.serializer), c);
  for (const c of r.cases) {
    if (c.status !== 'measured' || c.serializer === c.baseline || !c.baseline) continue;
    const b = own.get(key(c, c.baseline));
    if (!b) continue;
    const there = share(kept(c).flatMap((l) => l.rounds.map((x) => x.baselineSpan)));
    const mine = share(kept(c).flatMap((l) => l.rounds.map((x) => x.serializerSpan)));
    const ref = share(kept(b).flatMap((l) => l.rounds.map((x) => x.serializerSpan)));
    if (!there || !ref) continue;
    const mThere = medShare(kept(c).flatMap((l) => l.rounds.map((x) => x.baselineSpan)));
    const mRef = medShare(kept(b).flatMap((l) => l.rounds.map((x) => x.serializerSpan)));
    const mSer = medShare(kept(c).flatMap((l) => l.rounds.map((x) => x.serializerSpan))) ?? 0;
    const slowed = (c.findings ?? []).filter((x) => x.code === 'baseline-slowed').map((x) => x.message.slice(0, 60));
    rows.push({
      file: f.split('/').slice(-3, -2)[0],
      id: c.id,
      ratio: c.ratio,
      beside: there.share,
      own: ref.share,
      ser: mine?.share,
      cpuMs: Math.min(there.cpuMs, ref.cpuMs),
      excess: there.share - ref.share,
      mexcess: mThere - mRef,
      m2: mThere - Math.max(mRef, mSer),
      mSer,
      mThere,
      mRef,
      slowed,
    });
  }
}
const by = process.env.BY ?? 'excess';
rows.sort((a, b) => b[by] - a[by]);
const pct = (x) => (x === undefined ? '-' : (x * 100).toFixed(1));
for (const r of rows.slice(0, Number(process.env.TOP ?? 15)))
  console.log(
    `${pct(r.excess).padStart(6)} med ${pct(r.mexcess).padStart(5)} m2 ${pct(r.m2).padStart(5)} (${pct(r.mThere)}/${pct(r.mRef)}/${pct(r.mSer)}) beside ${pct(r.beside)} own ${pct(r.own)} ser ${pct(r.ser)} cpu ${r.cpuMs.toFixed(0)}ms ratio ${r.ratio?.toFixed(2)} ${r.file} ${r.id} ${r.slowed.join(';')}`,
  );
const ex = rows.map((r) => r[by]).sort((a, b) => a - b);
const q = (p) => ex[Math.min(ex.length - 1, Math.ceil(p * ex.length) - 1)];
console.log(
  `n=${ex.length} max ${pct(ex.at(-1))} p99 ${pct(q(0.99))} p95 ${pct(q(0.95))} median ${pct(q(0.5))} min ${pct(ex[0])} (points); findings: ${rows.filter((r) => r.slowed.length).length}`,
);
