/**
 * `npm run bench:precision`: how repeatable jsonbench's numbers are, next to mitata's and
 * tinybench's on the same functions and payloads.
 *
 * Each of `--runs` (5) rounds runs jsonbench once (default policy: group launches, 2 per group and a
 * third where they disagree, CPU clock; the allocation windows are skipped), then mitata once and
 * tinybench once, each in a fresh process with its defaults, so a slow phase of the machine hits
 * every tool alike. Every tool times the same op: a serialize op is value → JSON text → UTF-8 bytes
 * for all three (jsonbench's default `--serialize-to bytes`; the peers' functions are prepared the
 * same way, bench/pairs.ts prepareSide), since for serializers that return ropes (fast-json-stringify,
 * typia, ajv JTD) value → string is a different, cheaper quantity (weather-station
 * fast-json-stringify ÷ json read 0.667 by bytes against 0.375 by string, issue 23).
 * For every pair it prints the coefficient of variation (stddev / mean across runs) of the
 * ratio serializer/baseline and of each side's mean, then the whole run's duration.
 *
 * The .NET pairs (bench/pairs.ts DOTNET_PAIRS: Newtonsoft.Json ÷ System.Text.Json on users/10000
 * serialize and weather-station deserialize) run where `dotnet` is installed (skipped with the
 * reason otherwise): jsonbench on its `dotnet` target (the C# worker, the same runner), and
 * BenchmarkDotNet 0.15.8 as their peer (bench/bdn.ts: the worker's own serializer calls and DTOs,
 * its default job, in-process, a fresh process per run) as mitata and tinybench are the
 * JavaScript pairs' peers. Each tool times only the pairs of its platform.
 *
 * Every tool runs in the same runtime profile (`--profile`, src/case/profile.ts): jsonbench's workers
 * (node and .NET) get its settings, mitata's and tinybench's processes its V8 flags and
 * BenchmarkDotNet its .NET GC variables (bench/bdn.ts bdnEnv), so the .NET pairs meet the same heap
 * on both sides (issue 23: agreement with BenchmarkDotNet in the default profile and the steady one).
 *
 * Flags: --runs <n> (5), --tools jsonbench,mitata,tinybench,benchmarkdotnet, --pair <substring>
 * (repeatable: keep pairs whose id contains it), --bdn-job default|short (BenchmarkDotNet's
 * Job.Default, the studies' harness, or Job.ShortRun), --out <dir> (default: a temporary folder;
 * keeps precision.json with every number), --variant label=key:value,… (repeatable: the default
 * policy with settings changed, e.g. `L6=launches:6,maxLaunches:6,timeCapMs:300`, run as tool
 * `jsonbench:<label>` right after each default jsonbench run; raw results in jsonbench-<label>-<run>.jsonl),
 * --policy long (repeatable; quick or long: that named policy run as tool `jsonbench:<name>` right after
 * each default jsonbench run, its ratio CV judged against ≤ 1% where the others' load stayed under 1,
 * issue 23's target of the long policy), --profile default|steady (default: `default`).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { policies, type RunPolicy } from '../src/config/policies.js';
import { PROFILE_NAMES, type ProfileName } from '../src/case/profile.js';
import { workerFlagsFor } from '../src/runtimes/launch.js';
import { workloads } from '../src/workloads/index.js';
import { writePayload, type PayloadFile } from '../src/plan/payloads.js';
import { DEFAULT_PAIRS, DOTNET_PAIRS, pairClass, pairId, type Pair } from './pairs.js';
import { detectDotnet } from '../src/runtimes/dotnet/detect.js';
import { prepareTargets } from '../src/runtimes/prepare.js';
import { parseTarget } from '../src/runtimes/index.js';
import { defaultCacheDir } from '../src/runtimes/cache.js';
import { dotnetPayloadPath } from '../src/runtimes/dotnet/well-formed.js';
import { ensureBdnBuild, runBdn, type BdnBuild } from './bdn.js';
import { parseVariant, planPairs, runJsonbench, type DotnetPlacement } from './jsonbench-run.js';
import {
  cv,
  OWN_LOAD,
  othersLoad,
  pct,
  peerVerdict,
  precisionTarget,
  renderPrecisionTable,
  renderRuns,
  type Series,
} from './cv.js';

const SEED = 42; // the CLI's default --seed
const ALL_TOOLS = ['jsonbench', 'mitata', 'tinybench', 'benchmarkdotnet'] as const;
/** The tools that time a pair: jsonbench every pair, the peers only their platform's. */
const toolsOf = (pair: Pair, tools: readonly string[]) =>
  tools.filter((t) => isJsonbench(t) || (pair.target === 'dotnet') === (t === 'benchmarkdotnet'));
/** `jsonbench` (the default policy) or a `--variant` of it (`jsonbench:<label>`). */
const isJsonbench = (tool: string) => tool === 'jsonbench' || tool.startsWith('jsonbench:');

const peerEntry = fileURLToPath(new URL('./peer-child.js', import.meta.url));

const log = (s: string) => process.stdout.write(s + '\n');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** The 1-, 5- and 15-minute load averages as /proc/loadavg writes them (`1.20 1.67 1.91`), or `n/a`. */
const loadavg = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
};
/** The 1-minute load average, or NaN where /proc/loadavg cannot be read. */
const load1 = () => Number(loadavg().split(' ')[0]);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      tools: { type: 'string', default: ALL_TOOLS.join(',') },
      pair: { type: 'string', multiple: true },
      out: { type: 'string' },
      'bdn-job': { type: 'string', default: 'default' },
      variant: { type: 'string', multiple: true },
      policy: { type: 'string', multiple: true },
      profile: { type: 'string', default: 'default' },
    },
  });
  if (!(PROFILE_NAMES as readonly string[]).includes(values.profile!))
    throw new Error(`--profile ${values.profile}: expected one of ${PROFILE_NAMES.join(', ')}`);
  const profile = values.profile as ProfileName;
  /** the default policy in the asked profile: what the `jsonbench` tool runs, and what variants change */
  const basePolicy: RunPolicy = { ...policies.default, profile };
  const variants = new Map<string, RunPolicy>(
    (values.variant ?? []).map((v) => {
      const x = parseVariant(v, basePolicy);
      return [`jsonbench:${x.label}`, x.policy];
    }),
  );
  for (const name of values.policy ?? []) {
    if (name !== 'quick' && name !== 'long') throw new Error(`--policy ${name}: expected quick or long`);
    variants.set(`jsonbench:${name}`, { ...policies[name], profile });
  }
  const bdnJob = values['bdn-job'] === 'short' ? 'short' : 'default';
  const runs = Number(values.runs);
  const named = values.tools!.split(',').filter((t) => (ALL_TOOLS as readonly string[]).includes(t));
  // each variant runs right after the default jsonbench run, so both meet the same phase of the machine
  const tools = named.flatMap((t) => (t === 'jsonbench' ? [t, ...variants.keys()] : [t]));
  // absolute: BenchmarkDotNet runs with its artifacts folder as its working directory and reads the payload by this path
  const outDir = resolve(values.out ?? mkdtempSync(join(tmpdir(), 'jsonbench-precision-')));
  mkdirSync(outDir, { recursive: true });
  const t0 = performance.now();

  const pairs: { pair: Pair; id: string; caseClass: string }[] = [];
  // the .NET pairs need dotnet here: its target prepared (worker built with the DTOs) and BenchmarkDotNet's runner built
  let dotnet: DotnetPlacement | undefined;
  let bdn: BdnBuild | undefined;
  let candidates: readonly Pair[] = DEFAULT_PAIRS;
  const wantsDotnet = DOTNET_PAIRS.some((p) => !values.pair?.length || values.pair.some((x) => pairId(p).includes(x)));
  if (wantsDotnet) {
    const detection = await detectDotnet();
    if (!detection.installed) log(`skipped the .NET pairs: ${detection.reason}`);
    else {
      const prepared = await prepareTargets(
        [parseTarget('dotnet')],
        {
          cacheDir: defaultCacheDir(),
          bundleDir: join(outDir, 'worker'),
          payloadPaths: [],
          workloads: await Promise.all(DOTNET_PAIRS.map((p) => workloads.load(p.workload))),
          profile,
        },
        log,
      );
      const place = prepared.platforms[0];
      const launch = prepared.launchFor({ target: place.ref });
      if (!launch)
        log(`skipped the .NET pairs: ${prepared.faultOf({ target: place.ref }) ?? 'the dotnet target did not start'}`);
      else {
        dotnet = {
          target: place.ref,
          ...(place.serializerVersions ? { serializerVersions: place.serializerVersions } : {}),
          launch,
        };
        candidates = [...DEFAULT_PAIRS, ...DOTNET_PAIRS];
        if (tools.includes('benchmarkdotnet')) {
          const t1 = performance.now();
          const b = await ensureBdnBuild();
          if ('reason' in b) log(`benchmarkdotnet: ${b.reason}`);
          else {
            bdn = b;
            log(
              `benchmarkdotnet: runner ${b.cached ? `reused (built in ${seconds(b.buildMs)})` : `built in ${seconds(b.buildMs)}`}, ready in ${seconds(performance.now() - t1)}; log ${b.logPath}`,
            );
          }
        }
      }
    }
  }
  for (const pair of candidates) {
    const id = pairId(pair);
    if (values.pair?.length && !values.pair.some((s) => id.includes(s))) continue;
    const c = await pairClass(pair);
    if (c === 'serialize' || c === 'parse' || c === 'validate' || c === 'transform')
      pairs.push({ pair, id, caseClass: c });
    else log(`skipped ${id}: ${c}`);
  }
  if (!pairs.length) {
    log('no pair can be measured');
    return 1;
  }

  const payloads = new Map<string, PayloadFile>();
  for (const { pair } of pairs) {
    const p = await writePayload(join(outDir, 'payloads'), await workloads.load(pair.workload), pair.size, SEED);
    payloads.set(p.key, p);
  }
  const groups = await planPairs(
    pairs.map((p) => p.pair),
    basePolicy,
    dotnet,
  );
  const jobPath = join(outDir, 'peer-job.json');
  const payloadOf = (p: Pair) => payloads.get(`${p.workload}-${p.size}`)!.path;
  writeFileSync(
    jobPath,
    JSON.stringify({
      pairs: pairs.filter((p) => !p.pair.target).map((p) => ({ ...p, payloadPath: payloadOf(p.pair) })),
    }),
  );

  const series = new Map(
    pairs.map((p) => [
      p.id,
      new Map<string, Series>(toolsOf(p.pair, tools).map((t) => [t, { ratio: [], serializerNs: [], baselineNs: [] }])),
    ]),
  );
  const toolMs = new Map<string, number>(tools.map((t) => [t, 0]));
  const notes: string[] = [];
  log(
    `precision: ${pairs.length} pairs × ${runs} runs × ${tools.join(', ')}; profile ${profile}; payloads and raw numbers in ${outDir}; load ${loadavg()}`,
  );
  const loads: number[] = [load1()];
  for (let r = 1; r <= runs; r++) {
    for (const tool of tools) {
      const start = performance.now();
      loads.push(load1());
      let got: Map<string, { serializerNs: number; baselineNs: number; ratio?: number }>;
      if (!pairs.some((p) => toolsOf(p.pair, [tool]).length)) continue;
      if (isJsonbench(tool)) {
        const policy = variants.get(tool) ?? basePolicy;
        const res = await runJsonbench(
          pairs.map((p) => p.pair),
          tool === 'jsonbench'
            ? groups
            : await planPairs(
                pairs.map((p) => p.pair),
                policy,
                dotnet,
              ),
          payloads,
          policy,
          outDir,
          r,
          dotnet,
          tool.slice('jsonbench:'.length),
        );
        got = new Map();
        for (const [id, n] of res) {
          if (!n.ok) {
            notes.push(`run ${r} ${tool} ${id}: ${n.reason}`);
            continue;
          }
          got.set(id, n);
          if (n.noisyLaunches || n.relaunches)
            notes.push(`run ${r} ${tool} ${id}: ${n.noisyLaunches} noisy launch(es), ${n.relaunches} relaunch(es)`);
        }
      } else if (tool === 'benchmarkdotnet') {
        got = new Map();
        if (!bdn) {
          notes.push(`run ${r} benchmarkdotnet: no runner`);
          continue;
        }
        for (const p of pairs.filter((x) => x.pair.target === 'dotnet')) {
          // its files stay beside the payload: the .NET copy jsonbench's gated launcher reads (no lone surrogates)
          const n = runBdn(bdn, p.pair, dotnetPayloadPath(payloadOf(p.pair)), outDir, r, bdnJob, profile);
          if ('reason' in n) notes.push(`run ${r} benchmarkdotnet ${p.id}: ${n.reason}`);
          else got.set(p.id, n);
        }
      } else {
        const outPath = join(outDir, `${tool}-${r}.json`);
        const child = spawnSync(process.execPath, [...workerFlagsFor(profile), peerEntry, tool, jobPath, outPath], {
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        if (child.status !== 0) {
          notes.push(`run ${r} ${tool}: exited ${child.status ?? child.signal}`);
          continue;
        }
        got = new Map(
          Object.entries(
            JSON.parse(readFileSync(outPath, 'utf8')) as Record<string, { serializerNs: number; baselineNs: number }>,
          ),
        );
      }
      toolMs.set(tool, toolMs.get(tool)! + performance.now() - start);
      for (const [id, n] of got) {
        const s = series.get(id)?.get(tool);
        if (!s) continue;
        s.ratio.push(n.ratio ?? n.serializerNs / n.baselineNs);
        s.serializerNs.push(n.serializerNs);
        s.baselineNs.push(n.baselineNs);
      }
      log(
        `run ${r}/${runs} ${tool.padEnd(15)} ${seconds(performance.now() - start).padStart(8)}  ${pairs
          .filter((p) => series.get(p.id)!.has(tool))
          .map(
            (p) =>
              `${p.pair.serializer}/${p.pair.baseline}${p.pair.target ? `@${p.pair.target}` : ''} ${series.get(p.id)!.get(tool)!.ratio.at(-1)?.toFixed(3) ?? '—'}`,
          )
          .join('  ')}`,
      );
    }
  }

  log('');
  for (const p of pairs) {
    log(`## ${p.id}`);
    log(renderRuns(tools, series.get(p.id)!));
    log('');
  }
  if (notes.length) {
    log('notes:');
    for (const n of notes) log(`  ${n}`);
    log('');
  }
  log(renderPrecisionTable(tools, series));
  log('');
  const jb = pairs.map((p) => cv(series.get(p.id)!.get('jsonbench')?.ratio ?? []));
  if (tools.includes('jsonbench')) {
    // judged only when every pair has a CV (2+ runs with a ratio); "below every peer" only where a peer ran and gave a CV
    const judged = jb.length > 0 && jb.every(Number.isFinite);
    const worst = judged ? Math.max(...jb) : NaN;
    const peerLine = peerVerdict(
      pairs.map((p, k) => ({
        pair: p.id,
        jsonbench: jb[k],
        peers: toolsOf(p.pair, tools)
          .filter((t) => !isJsonbench(t))
          .map((t) => ({ tool: t, cv: cv(series.get(p.id)!.get(t)?.ratio ?? []) })),
      })),
    );
    log(`load average now: ${loadavg()}`);
    loads.push(load1());
    // the benchmark's own process counts in the load average: judged on the others' load (cv.ts othersLoad)
    const known = othersLoad(loads).filter(Number.isFinite);
    const target = known.length ? precisionTarget(Math.min(...known), Math.max(...known)) : null;
    log(
      !judged
        ? `target: not judged: ${jb.filter((x) => !Number.isFinite(x)).length} of ${jb.length} pair(s) have no ratio CV (fewer than 2 runs gave a ratio)`
        : target
          ? `target (${target.condition}; 1-minute load read at the start, then at each tool's start and at the end less ${OWN_LOAD} for the benchmark's own process: ${loads.map((x) => x.toFixed(2)).join(' ')}): jsonbench ratio CV ≤ ${pct(target.limit)} on every pair → worst ${pct(worst)} (${worst <= target.limit ? 'met' : 'missed'}); lower than every peer: ${peerLine}`
          : `target: neither quiet (others' load < 1) nor loaded (others' load ≥ 8) at every reading (others' load ${known.length ? `${Math.min(...known).toFixed(2)}–${Math.max(...known).toFixed(2)}` : 'unknown'}: the 1-minute load at the start, then at each tool's start and at the end less ${OWN_LOAD} for the benchmark's own process), so the run shows figures, not the target: worst jsonbench ratio CV ${pct(worst)}; lower than every peer: ${peerLine}`,
    );
  }
  if (variants.has('jsonbench:long')) log(longPolicyLine(pairs, series, othersLoad(loads).filter(Number.isFinite)));
  log(`time per tool (all runs): ${[...toolMs].map(([t, ms]) => `${t} ${seconds(ms)}`).join(', ')}`);
  log(`total: ${seconds(performance.now() - t0)}`);
  writeFileSync(
    join(outDir, 'precision.json'),
    JSON.stringify(
      {
        runs,
        profile,
        tools,
        pairs: pairs.map((p) => p.id),
        series: Object.fromEntries([...series].map(([id, m]) => [id, Object.fromEntries(m)])),
        toolMs: Object.fromEntries(toolMs),
        totalMs: performance.now() - t0,
        notes,
      },
      null,
      2,
    ),
  );
  return 0;
}

/**
 * Issue 23's target of the long policy: ratio CV ≤ 1% on every JavaScript pair, judged only where the
 * others' load (cv.ts othersLoad, one value per reading) stayed under 1; the default's worst CV beside it.
 */
function longPolicyLine(
  pairs: readonly { pair: Pair; id: string }[],
  series: ReadonlyMap<string, ReadonlyMap<string, Series>>,
  others: readonly number[],
): string {
  const js = pairs.filter((p) => !p.pair.target);
  const worstOf = (tool: string) => Math.max(...js.map((p) => cv(series.get(p.id)!.get(tool)?.ratio ?? [])));
  const [long, dflt] = [worstOf('jsonbench:long'), worstOf('jsonbench')];
  const figures = `long policy worst ratio CV over ${js.length} JavaScript pair(s) ${pct(long)} (default ${pct(dflt)})`;
  if (!js.length || !Number.isFinite(long)) return `long-policy target: not judged: a JavaScript pair has no ratio CV`;
  if (!others.length || Math.max(...others) >= 1)
    return `long-policy target (≤ 1% on a quiet machine): not judged, others' load ${others.length ? `${Math.min(...others).toFixed(2)}–${Math.max(...others).toFixed(2)}` : 'unknown'} is not under 1; ${figures}`;
  return `long-policy target (others' load < 1): ratio CV ≤ 1% on every JavaScript pair → ${figures} (${long <= 0.01 ? 'met' : 'missed'})`;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  },
);
