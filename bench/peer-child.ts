/**
 * One run of a peer benchmark tool (mitata or tinybench) over the precision bench's pairs, in a
 * fresh process as each jsonbench run is: `node --expose-gc peer-child.js <tool> <job.json> <out.json>`.
 * job.json: `{ pairs: { pair, id, caseClass, payloadPath }[] }`. Writes out.json:
 * `{ [pairId]: { serializerNs, baselineNs } }` (mean ns per op from the tool's own statistics).
 * Each tool runs with its defaults, as its README shows it: mitata's `bench` + `run`, tinybench's
 * `Bench` + `add` + `run`; the result goes through mitata's `do_not_optimize` or into a variable.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { bench as mitataBench, do_not_optimize, run as mitataRun } from 'mitata';
import { Bench } from 'tinybench';
import { prepareSide, type Pair } from './pairs.js';
import type { CaseClass } from '../src/case/coordinates.js';

interface PeerJob {
  pairs: { pair: Pair; id: string; caseClass: CaseClass; payloadPath: string }[];
}
type Timed = Record<string, { serializerNs: number; baselineNs: number }>;

let sink: unknown;

/** The body one benchmark iteration runs: the call over every unit of the op. */
function body(call: (input: unknown) => unknown, inputs: unknown[]): () => unknown {
  if (inputs.length === 1) {
    const x = inputs[0];
    return () => call(x);
  }
  return () => {
    let r: unknown;
    for (const x of inputs) r = call(x);
    return r;
  };
}

async function main(): Promise<void> {
  const [tool, jobPath, outPath] = process.argv.slice(2);
  const job = JSON.parse(readFileSync(jobPath, 'utf8')) as PeerJob;
  const fns: { name: string; fn: () => unknown }[] = [];
  for (const j of job.pairs) {
    for (const [side, id] of [
      ['s', j.pair.serializer],
      ['b', j.pair.baseline],
    ] as const) {
      const prepared = await prepareSide(j.pair, id, j.caseClass, j.payloadPath);
      fns.push({ name: `${j.id}|${side}`, fn: body(prepared.call, prepared.inputs) });
    }
  }
  const meanNs = new Map<string, number>();
  if (tool === 'mitata') {
    for (const { name, fn } of fns) mitataBench(name, () => do_not_optimize(fn()));
    const r = await mitataRun({ format: 'quiet', throw: true });
    for (const t of r.benchmarks) {
      const stats = t.runs[0]?.stats;
      if (stats) meanNs.set(t.alias, stats.avg); // mitata reports ns
    }
  } else if (tool === 'tinybench') {
    const b = new Bench();
    for (const { name, fn } of fns)
      b.add(name, () => {
        sink = fn();
      });
    await b.run();
    for (const t of b.tasks) if (t.result) meanNs.set(t.name, t.result.latency.mean * 1e6); // tinybench reports ms
  } else {
    throw new Error(`unknown tool "${tool}" (mitata, tinybench)`);
  }
  const out: Timed = {};
  for (const j of job.pairs) {
    const s = meanNs.get(`${j.id}|s`);
    const b = meanNs.get(`${j.id}|b`);
    if (s !== undefined && b !== undefined) out[j.id] = { serializerNs: s, baselineNs: b };
  }
  writeFileSync(outPath, JSON.stringify(out));
  if (sink === Symbol.for('never')) process.stdout.write('');
}

main().catch((e) => {
  process.stderr.write(`peer-child: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
