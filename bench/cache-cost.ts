/**
 * `node --expose-gc build/bench/cache-cost.js [--repeat N] [--out FILE] [--only serialize|deserialize] [--users 1000,10000] [--match TEXT]`: the
 * honest ratios the two cache cost checks read (src/measure/cache-checks.ts: inputCacheCost for serialize,
 * textCacheCost for deserialize), which their thresholds (INPUT_CACHE_RATIO, TEXT_CACHE_RATIO) are set from.
 *
 * Every built-in JavaScript serializer × direction × the quick suite's cases (each workload's smallest size, every
 * shape), users · 1000 and 10000 · list (`--users`: the users sizes added, comma-separated), and the shared corpus documents canada.json and citm_catalog.json
 * (../shared/data/corpus, skipped when absent), each prepared as the worker prepares it (prepareCase), gated,
 * warmed up, piloted and timed for the quick policy's rounds (what a launch does before its cache checks), then
 * the cost measurement made `N` times (default 2) with both passes always. One JSON line per measurement in FILE
 * (default cache-cost.jsonl; `--match`: only the cases whose id, `<direction> <serializer> <workload>/<size>/<shape>`,
 * contains TEXT): the case, calls per block, the two passes' ratios (new ÷ repeated, medians per
 * call). At the end, per direction: the maximum and p99 of single passes and of the check's statistic (the lesser
 * of the two passes: a case fails only when both are over), and the cases at the top, with the load average.
 */
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { serializers } from '../src/serializers/index.js';
import { unitView } from '../src/workloads/unit.js';
import { makeOp } from '../src/measure/sink.js';
import { measureRounds, pilot, useClock, warmup } from '../src/measure/timing.js';
import { prepareCase } from '../src/measure/prepare-case.js';
import { cpuNowNs, threadCpuNowNs } from '../src/measure/clock.js';
import { policies } from '../src/config/policies.js';
import type { Direction } from '../src/case/coordinates.js';
import { arg, benchSubjects, load } from './subjects.js';

const repeat = Number(arg('--repeat') ?? 2);
const outFile = arg('--out') ?? 'cache-cost.jsonl';
const only = arg('--only') as Direction | undefined;
const match = arg('--match');
const usersSizes = (arg('--users') ?? '1000,10000').split(',').filter(Boolean).map(Number);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const policy = policies.quick.measure;
// users · each --users size as a list only.
const subjects = await benchSubjects(usersSizes, (size, shape, smallest) => size <= smallest || shape === 'list');

const runtime =
  (globalThis as { Bun?: { version: string } }).Bun !== undefined
    ? `bun ${(globalThis as unknown as { Bun: { version: string } }).Bun.version}`
    : (globalThis as { Deno?: { version: { deno: string } } }).Deno !== undefined
      ? `deno ${(globalThis as unknown as { Deno: { version: { deno: string } } }).Deno.version.deno}`
      : `node ${process.version}`;
console.log(
  `${runtime}, cost clock ${threadCpuNowNs ? 'thread CPU' : cpuNowNs ? 'process CPU' : 'wall'}; load average at start: ${load()}; ${subjects.length} payloads, ${repeat} measurements per case; ${new Date().toISOString()}`,
);
useClock('cpu');
const lines: string[] = [];
const rows: {
  direction: Direction;
  id: string;
  ratios: number[];
  roundsNs?: number;
  repeatedVsRounds?: number;
  newVsRounds?: number;
}[] = [];
for (const s of subjects)
  for (const direction of ['serialize', 'deserialize'] as Direction[]) {
    if (only && direction !== only) continue;
    for (const sid of serializers.ids) {
      const adapter = await serializers.load(sid);
      if (!adapter.directions.includes(direction)) continue;
      const caseClass = direction === 'serialize' ? 'serialize' : adapter.deserializeClass!;
      const view = unitView(s.workload, s.shape);
      if (adapter.supports(view, direction) !== true) continue;
      const id = `${direction} ${sid} ${s.workload.id}/${s.size}/${s.shape}`;
      if (match && !id.includes(match)) continue;
      const t0 = performance.now();
      try {
        const side = await prepareCase(adapter, s.workload, {
          shape: s.shape,
          direction,
          caseClass,
          serializeTo: policy.serializeTo ?? 'string',
        });
        const gate = side.check(s.text);
        if (gate) {
          console.log(`${id}: gate failed (${gate.reason.slice(0, 100)}); skipped`);
          continue;
        }
        const a = side.inputs(s.text);
        const b = side.inputs(s.text);
        const op = makeOp(side.call, a, b);
        gc();
        warmup(op, policy);
        const opsPerSample = pilot(op, policy);
        const timed: number[] = [];
        measureRounds({ op, opsPerSample }, undefined, policy, gc, (round) => timed.push(...round.serializerNs));
        // the rounds' median time per call (one unit per op: the unit the check calls), which slowerThanTimed reads
        const roundsNs =
          b.length === 1 && timed.length ? [...timed].sort((x, y) => x - y)[timed.length >> 1] : undefined;
        for (let k = 0; k < repeat; k++) {
          const r = side.cacheCost(s.text, b);
          if (!r) {
            console.log(`${id}: no cost check (too few values to change, or a new text threw)`);
            break;
          }
          if (r.wrong) console.log(`${id}: WRONG on a new input: ${r.wrong.reason}`);
          const vsRounds =
            roundsNs !== undefined
              ? {
                  roundsNs: Math.round(roundsNs),
                  ...(r.repeatedNs !== undefined ? { repeatedVsRounds: +(r.repeatedNs / roundsNs).toFixed(3) } : {}),
                  ...(r.newNs !== undefined ? { newVsRounds: +(r.newNs / roundsNs).toFixed(3) } : {}),
                }
              : {};
          rows.push({ direction, id, ratios: r.ratios, ...vsRounds });
          lines.push(
            JSON.stringify({
              direction,
              serializer: sid,
              workload: s.workload.id,
              size: s.size,
              shape: s.shape,
              caseClass,
              perBlock: r.perBlock,
              clock: r.clock ?? 'cpu',
              ratios: r.ratios.map((x) => +x.toFixed(3)),
              ...vsRounds,
              load: loadavg()[0],
            }),
          );
        }
        const last = rows[rows.length - 1];
        console.log(
          `${id}: ${last?.id === id ? last.ratios.map((x) => x.toFixed(2)).join(' ') : '-'} (${((performance.now() - t0) / 1000).toFixed(1)} s, load ${loadavg()[0].toFixed(1)})`,
        );
      } catch (e) {
        console.log(`${id}: threw ${(e as Error)?.message?.slice(0, 200) ?? String(e)}`);
      }
    }
  }
writeFileSync(outFile, lines.join('\n') + '\n');
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
for (const direction of ['serialize', 'deserialize'] as Direction[]) {
  const mine = rows.filter((r) => r.direction === direction && r.ratios.length === 2);
  if (!mine.length) continue;
  const single = mine.flatMap((r) => r.ratios);
  const statistic = mine.map((r) => Math.min(...r.ratios));
  console.log(
    `${direction}: ${mine.length} measurements; single pass max ${Math.max(...single).toFixed(2)}, p99 ${quantile(single, 0.99).toFixed(2)}, median ${quantile(single, 0.5).toFixed(2)}; lesser of two passes max ${Math.max(...statistic).toFixed(2)}, p99 ${quantile(statistic, 0.99).toFixed(2)}`,
  );
  for (const r of [...mine].sort((x, y) => Math.max(...y.ratios) - Math.max(...x.ratios)).slice(0, 6))
    console.log(`  ${r.id}: ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`);
}
// what slowerThanTimed reads (cache-checks.ts), by the rounds' time per call: the least and greatest over the cases
for (const [name, below] of [
  ['under 20 µs per call', true],
  ['20 µs per call or more', false],
] as const) {
  const mine = rows.filter((r) => r.roundsNs !== undefined && r.roundsNs < 20_000 === below);
  const most = (k: 'repeatedVsRounds' | 'newVsRounds') =>
    mine.reduce<(typeof rows)[number] | undefined>((m, r) => ((r[k] ?? 0) > (m?.[k] ?? 0) ? r : m), undefined);
  const rep = most('repeatedVsRounds');
  const fresh = most('newVsRounds');
  if (mine.length)
    console.log(
      `${name}: ${mine.length} measurements; repeated ÷ rounds max ${rep?.repeatedVsRounds?.toFixed(2)} (${rep?.id}), new ÷ rounds max ${fresh?.newVsRounds?.toFixed(2)} (${fresh?.id})`,
    );
}
console.log(`load average at end: ${load()}; measurements in ${outFile}`);
