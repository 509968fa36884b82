/**
 * `npm run bench:precision`: how repeatable jsonbench's numbers are, next to mitata's and
 * tinybench's on the same functions and payloads.
 *
 * Each of `--runs` (5) rounds runs jsonbench once (default policy: group launches, 2 per group and a
 * third where they disagree, CPU clock; the allocation windows are skipped; serialize ops produce
 * UTF-8 bytes, the default, where the peers time the string), then mitata once and tinybench once, each
 * in a fresh process with its defaults, so a slow phase of the machine hits every tool alike.
 * For every pair it prints the coefficient of variation (stddev / mean across runs) of the
 * ratio serializer/baseline and of each side's mean, then the whole run's duration.
 *
 * Flags: --runs <n> (5), --tools jsonbench,mitata,tinybench, --pair <substring> (repeatable:
 * keep pairs whose id contains it), --out <dir> (default: a temporary folder; keeps
 * precision.json with every number).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { policies } from '../src/config/policies.js';
import { workloads } from '../src/workloads/index.js';
import { writePayload, type PayloadFile } from '../src/plan/payloads.js';
import { DEFAULT_PAIRS, pairClass, pairId, type Pair } from './pairs.js';
import { planPairs, runJsonbench } from './jsonbench-run.js';
import { cv, pct, renderPrecisionTable, renderRuns, type Series } from './cv.js';

const SEED = 42; // the CLI's default --seed
const ALL_TOOLS = ['jsonbench', 'mitata', 'tinybench'] as const;
const peerEntry = fileURLToPath(new URL('./peer-child.js', import.meta.url));

const log = (s: string) => process.stdout.write(s + '\n');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  const { values } = parseArgs({ options: {
    runs: { type: 'string', default: '5' }, tools: { type: 'string', default: ALL_TOOLS.join(',') },
    pair: { type: 'string', multiple: true }, out: { type: 'string' },
  } });
  const runs = Number(values.runs);
  const tools = values.tools!.split(',').filter((t) => (ALL_TOOLS as readonly string[]).includes(t));
  const outDir = values.out ?? mkdtempSync(join(tmpdir(), 'jsonbench-precision-'));
  mkdirSync(outDir, { recursive: true });
  const t0 = performance.now();

  const pairs: { pair: Pair; id: string; caseClass: string }[] = [];
  for (const pair of DEFAULT_PAIRS) {
    const id = pairId(pair);
    if (values.pair?.length && !values.pair.some((s) => id.includes(s))) continue;
    const c = await pairClass(pair);
    if (c === 'serialize' || c === 'parse' || c === 'validate' || c === 'transform') pairs.push({ pair, id, caseClass: c });
    else log(`skipped ${id}: ${c}`);
  }
  if (!pairs.length) { log('no pair can be measured'); return 1; }

  const payloads = new Map<string, PayloadFile>();
  for (const { pair } of pairs) {
    const p = await writePayload(join(outDir, 'payloads'), await workloads.load(pair.workload), pair.size, SEED);
    payloads.set(p.key, p);
  }
  const groups = await planPairs(pairs.map((p) => p.pair), policies.default);
  const jobPath = join(outDir, 'peer-job.json');
  writeFileSync(jobPath, JSON.stringify({ pairs: pairs.map((p) => ({ ...p, payloadPath: payloads.get(`${p.pair.workload}-${p.pair.size}`)!.path })) }));

  const series = new Map(pairs.map((p) => [p.id, new Map<string, Series>(tools.map((t) => [t, { ratio: [], serializerNs: [], baselineNs: [] }]))]));
  const toolMs = new Map<string, number>(tools.map((t) => [t, 0]));
  const notes: string[] = [];
  log(`precision: ${pairs.length} pairs × ${runs} runs × ${tools.join(', ')}; payloads and raw numbers in ${outDir}; load ${(() => { try { return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '); } catch { return 'n/a'; } })()}`);
  for (let r = 1; r <= runs; r++) {
    for (const tool of tools) {
      const start = performance.now();
      let got: Map<string, { serializerNs: number; baselineNs: number; ratio?: number }>;
      if (tool === 'jsonbench') {
        const res = await runJsonbench(pairs.map((p) => p.pair), groups, payloads, policies.default, outDir, r);
        got = new Map();
        for (const [id, n] of res) {
          if (!n.ok) { notes.push(`run ${r} jsonbench ${id}: ${n.reason}`); continue; }
          got.set(id, n);
          if (n.noisyLaunches || n.relaunches) notes.push(`run ${r} jsonbench ${id}: ${n.noisyLaunches} noisy launch(es), ${n.relaunches} relaunch(es)`);
        }
      } else {
        const outPath = join(outDir, `${tool}-${r}.json`);
        const child = spawnSync(process.execPath, ['--expose-gc', peerEntry, tool, jobPath, outPath], { stdio: ['ignore', 'ignore', 'inherit'] });
        if (child.status !== 0) { notes.push(`run ${r} ${tool}: exited ${child.status ?? child.signal}`); continue; }
        got = new Map(Object.entries(JSON.parse(readFileSync(outPath, 'utf8')) as Record<string, { serializerNs: number; baselineNs: number }>));
      }
      toolMs.set(tool, toolMs.get(tool)! + performance.now() - start);
      for (const [id, n] of got) {
        const s = series.get(id)!.get(tool)!;
        s.ratio.push(n.ratio ?? n.serializerNs / n.baselineNs);
        s.serializerNs.push(n.serializerNs);
        s.baselineNs.push(n.baselineNs);
      }
      log(`run ${r}/${runs} ${tool.padEnd(9)} ${seconds(performance.now() - start).padStart(8)}  ${pairs.map((p) => { const s = series.get(p.id)!.get(tool)!; return `${p.pair.serializer}/${p.pair.baseline} ${s.ratio.at(-1)?.toFixed(3) ?? '—'}`; }).join('  ')}`);
    }
  }

  log('');
  for (const p of pairs) { log(`## ${p.id}`); log(renderRuns(tools, series.get(p.id)!)); log(''); }
  if (notes.length) { log('notes:'); for (const n of notes) log(`  ${n}`); log(''); }
  log(renderPrecisionTable(tools, series));
  log('');
  const jb = pairs.map((p) => cv(series.get(p.id)!.get('jsonbench')?.ratio ?? []));
  if (tools.includes('jsonbench')) {
    const worst = Math.max(...jb.filter(Number.isFinite));
    const beatsPeers = pairs.every((p, k) => tools.filter((t) => t !== 'jsonbench').every((t) => !(cv(series.get(p.id)!.get(t)!.ratio) <= jb[k])));
    log(`load average now: ${(() => { try { return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '); } catch { return 'n/a'; } })()}`);
    log(`target: jsonbench ratio CV ≤ 2% on every pair → worst ${pct(worst)} (${worst <= 0.02 ? 'met' : 'missed'}); lower than every peer on every pair: ${beatsPeers ? 'yes' : 'no'}`);
  }
  log(`time per tool (all runs): ${[...toolMs].map(([t, ms]) => `${t} ${seconds(ms)}`).join(', ')}`);
  log(`total: ${seconds(performance.now() - t0)}`);
  writeFileSync(join(outDir, 'precision.json'), JSON.stringify({ runs, tools, pairs: pairs.map((p) => p.id), series: Object.fromEntries([...series].map(([id, m]) => [id, Object.fromEntries(m)])), toolMs: Object.fromEntries(toolMs), totalMs: performance.now() - t0, notes }, null, 2));
  return 0;
}

main().then((code) => { process.exitCode = code; }, (e) => { process.stderr.write(`${(e as Error).stack ?? e}\n`); process.exitCode = 1; });
