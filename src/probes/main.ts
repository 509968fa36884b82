/**
 * Phase-1 entry of the probe runner, until `jsonbench probe` exists (phase 2):
 *
 *   npm run probes -- [--serializer a,b] [--family string,edge] [--filter REGEX] [--full]
 *                     [--conformance DIR] [--json FILE] [--in-process] [--timeout MS] [--config FILE] [--narrow]
 *   npm run probes -- --hostile-gate [--serializer a,b]
 *
 * Prints the matrix per direction (grouped rows; `--full` one row per probe) and the failing
 * verdicts; `--json` writes every result with its probe's title. `--conformance` takes any folder
 * of JSONTestSuite / json.org checker / roundtrip files (../shared/data/conformance here).
 * Exits 2 on a usage error.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PROBE_FAMILIES, type ProbeFamily } from './types.js';
import { runProbes } from './runner.js';
import { renderMatrix } from './matrix.js';
import { checkHostileGate } from './hostile-gate.js';

function usage(message: string): never {
  process.stderr.write(`probes: ${message}\n`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      serializer: { type: 'string' }, family: { type: 'string' }, filter: { type: 'string' }, full: { type: 'boolean' },
      conformance: { type: 'string' }, json: { type: 'string' }, 'in-process': { type: 'boolean' }, timeout: { type: 'string' },
      config: { type: 'string' }, 'hostile-gate': { type: 'boolean' }, narrow: { type: 'boolean' },
    },
  }).values;
} catch (e) { usage((e as Error).message); }

const families = args.family?.split(',').map((f) => f.trim()) as ProbeFamily[] | undefined;
for (const f of families ?? []) if (!PROBE_FAMILIES.includes(f)) usage(`--family ${f}: must be one of ${PROBE_FAMILIES.join(', ')}`);
if (families?.includes('conformance') && !args.conformance) usage('--family conformance needs --conformance DIR');
const timeoutMs = args.timeout === undefined ? undefined : Number(args.timeout);
if (timeoutMs !== undefined && !(timeoutMs > 0)) usage(`--timeout ${args.timeout}: must be a positive number of ms`);

const started = Date.now();
if (args['hostile-gate']) {
  const rows = await checkHostileGate({ serializers: args.serializer?.split(',').map((s) => s.trim()) });
  for (const r of rows) if (r.status !== 'passes' && r.status !== 'unsupported') process.stdout.write(`${r.status.padEnd(10)} ${r.serializer.padEnd(22)} ${r.workload}/${r.shape} ${r.direction}: ${r.detail}\n`);
  const count = (s: string) => rows.filter((r) => r.status === s).length;
  const placed = [...new Map(rows.map((r) => [r.workload, r.placed]))].map(([w, n]) => `${w} ${n}`).join(', ');
  process.stdout.write(`hostile variant through the gate: ${rows.length} cases, ${count('passes')} pass, ${count('unsupported')} unsupported, ${count('incorrect')} incorrect, ${count('ill-formed')} ill-formed, ${count('failed')} failed (hostile strings placed: ${placed})\n`);
  process.exit(0);
}
const run = await runProbes({
  serializers: args.serializer?.split(',').map((s) => s.trim()),
  families,
  conformanceDir: args.conformance,
  filter: args.filter ? new RegExp(args.filter) : undefined,
  inProcess: args['in-process'],
  timeoutMs,
  configPath: args.config,
  onProgress: (line) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${line}\n`),
});
for (const direction of ['serialize', 'deserialize'] as const) {
  process.stdout.write(renderMatrix(run.probes, run.results, direction, { full: args.full, narrow: args.narrow }) + '\n\n');
}
if (run.skipped.length) process.stdout.write(`conformance files skipped (${run.skipped.length}):\n${run.skipped.map((s) => `  ${s.file}: ${s.reason}`).join('\n')}\n`);
process.stdout.write(`${run.probes.length} probes, ${run.results.length} verdicts in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
if (args.json) {
  const titles = Object.fromEntries(run.probes.map((p) => [p.id, { title: p.title, family: p.family, needs: p.needs ?? [] }]));
  writeFileSync(args.json, JSON.stringify({ probes: titles, results: run.results, skipped: run.skipped }, null, 1));
}
