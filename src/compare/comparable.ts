/**
 * Whether two runs can be compared at all (issue 9: a quick run against a default run of the same
 * code gave "slower +96%" and failed `--fail-on slower`; a loaded run against a quiet one gave
 * three "faster" verdicts). Checked before any verdict is trusted: the policy (how long and how
 * often each case was measured), the runtime profile (case/profile.ts), the clock, the machine, the runtime (and each target's worker
 * flags, .NET GC settings and worker build), the payload, the schema the serializers were given
 * (inferred or `--schema`: same bytes, other code), and the load. A difference but the load
 * makes `compare` say so loudly and keeps `--fail-on slower` from failing on the verdicts; a load
 * difference is a caveat on the time verdicts alone (compare.ts `Comparison.load`): the paired ratio
 * is drawn within one process, so a busier machine slows both of its sides.
 */
import type { ResultsFile, TargetRecord } from '../results/types.js';
import { sameSchema, schemaChange } from '../results/payload-schema.js';
import { BUSY_LOAD_PER_CORE } from '../report/noise.js';
import { profileOf } from '../results/profile.js';

/** One reason two runs are not comparable. */
export interface Incomparability {
  what: 'policy' | 'profile' | 'clock' | 'machine' | 'runtime' | 'load' | 'payload' | 'schema';
  /** one sentence: what differs, base → head */
  message: string;
  /** `load` only: which run had the busier machine (a busier machine slows every case's time, not its paired ratio) */
  busier?: 'base' | 'head';
  /**
   * `load` only: the most the busier run's machine can have slowed a case, as a factor: its runnable
   * processes per core over the other's, each at least 1 (with more runnable processes than cores,
   * each gets cores ÷ load of a core). A change well beyond it is the code's, not the load's.
   */
  loadFactor?: number;
}

/**
 * Timer resolutions differing by more than this factor measure short ops differently (a coarse
 * clock rounds every sample), so the runs are not comparable.
 */
export const CLOCK_FACTOR = 2;

/**
 * Resolutions both under this (ns) never make runs incomparable: samples last ≥ 2.5 ms, so a
 * sub-microsecond step is < 0.04% of one, and the figure itself (the smallest step seen in a few
 * reads) moved 40 ↔ 89 ns between two runs a few minutes apart on one machine (new-user tryout).
 * Browsers' clamped clocks (5–100 µs) are above it.
 */
export const CLOCK_NEGLIGIBLE_NS = 1000;

/** The policy's settings that change what a number means (launches, sample length, rounds, confidence, the error target, the time cap). */
function policyOf(r: ResultsFile): string {
  const m = r.policy.measure;
  return JSON.stringify([
    r.policy.launches,
    m.sampleTargetMs,
    m.samplesPerRound,
    m.minRounds,
    m.maxRounds,
    m.targetRelativeError,
    m.confidence,
    m.timeCapMs,
    m.warmupMinOps,
    m.warmupMinMs,
  ]);
}

const describeLoad = (r: ResultsFile) =>
  `${(r.environment.loadAverage.start[0] ?? NaN).toFixed(1)} on ${r.environment.cores} cores`;

/** A target's worker flags as one string (`none` when it has none). */
const flagsOf = (t: TargetRecord) => t.flags.join(' ') || 'none';

/** A built worker's settings: the build command, framework and SDK (the .NET worker), or undefined. */
const buildOf = (t: TargetRecord) =>
  t.build ? `${t.build.command} (${t.build.framework}, SDK ${t.build.sdkVersion})` : undefined;

/**
 * What of one target's worker settings differs between two runs: its flags (V8 flags of a Node,
 * Bun or Deno worker; the .NET worker's DOTNET_* settings), the .NET GC's settings as the worker
 * reported them (`probe.gcMode`: workstation or server, latency mode, LOH threshold, region size,
 * gen0 budget; a GC setting moved a .NET ratio from 1.99–3.02 to 1.55–1.70, runtimes/dotnet/build.ts),
 * and how a compiled worker was built (command, framework, SDK).
 */
function workerSettingsChanges(was: TargetRecord, t: TargetRecord): Incomparability[] {
  const out: Incomparability[] = [];
  if (flagsOf(was) !== flagsOf(t))
    out.push({ what: 'runtime', message: `target ${t.id}: worker flags ${flagsOf(was)} → ${flagsOf(t)}` });
  const [gb, gh] = [was.probe.gcMode, t.probe.gcMode];
  if ((gb !== undefined || gh !== undefined) && gb !== gh)
    out.push({
      what: 'runtime',
      message: `target ${t.id}: GC settings ${gb === undefined ? 'not recorded' : JSON.stringify(gb)} → ${gh === undefined ? 'not recorded' : JSON.stringify(gh)}: the GC's work inside an op changed`,
    });
  const [bb, bh] = [buildOf(was), buildOf(t)];
  if ((bb !== undefined || bh !== undefined) && bb !== bh)
    out.push({ what: 'runtime', message: `target ${t.id}: worker build ${bb ?? 'none'} → ${bh ?? 'none'}` });
  return out;
}

/**
 * The user's payloads (matched by workload) whose schema differs between the runs, each said once:
 * the schema-driven serializers (fast-json-stringify, typia, the validators) were built from another
 * schema, so the same case id on the same bytes times other code (a new user's inferred 5-type union
 * against their one-type `--schema` read as "fast-json-stringify time −76% faster").
 */
function schemaChanges(base: ResultsFile, head: ResultsFile): Incomparability[] {
  const measured = new Set(head.cases.map((c) => c.workload));
  return (head.payloads ?? []).flatMap((h) => {
    const b = (base.payloads ?? []).find((p) => p.workload === h.workload);
    if (!b || !measured.has(h.workload) || sameSchema(b.schema, h.schema)) return [];
    return [
      {
        what: 'schema' as const,
        message: `the schema of ${h.workload} changed: ${schemaChange(b.schema, h.schema)}: its schema-driven serializers were built from another schema, so the same bytes time other code`,
      },
    ];
  });
}

/** Everything that makes `base` and `head` not comparable; empty when they are. */
export function comparabilityOf(base: ResultsFile, head: ResultsFile): Incomparability[] {
  const out: Incomparability[] = [];
  const b = base.environment;
  const h = head.environment;
  if (base.policy.name !== head.policy.name || policyOf(base) !== policyOf(head)) {
    out.push({
      what: 'policy',
      message: `policy ${base.policy.name} (${launchesText(base.policy)}) → ${head.policy.name} (${launchesText(head.policy)}): cases were measured for different lengths and rounds`,
    });
  }
  // the runtime profile (case/profile.ts): the GC settings every worker ran with; a file without one ran the steady settings
  const [pb, ph] = [profileOf(base.policy), profileOf(head.policy)];
  if (pb !== ph)
    out.push({
      what: 'profile',
      message: `profile ${pb} → ${ph}: the runtimes ran with different GC settings, so every case measured different work (docs/profiles.md)`,
    });
  const [rb, rh] = [b.timerResolutionNs, h.timerResolutionNs];
  if (rb > 0 && rh > 0 && Math.max(rb, rh) >= CLOCK_NEGLIGIBLE_NS && Math.max(rb, rh) / Math.min(rb, rh) > CLOCK_FACTOR)
    out.push({ what: 'clock', message: `timer resolution ${rb.toFixed(0)} ns → ${rh.toFixed(0)} ns` });
  // what a serialize op produces (UTF-8 bytes or the string): a different op, so different numbers
  const [ob, oh] = [base.policy.measure.serializeTo ?? 'string', head.policy.measure.serializeTo ?? 'string'];
  if (ob !== oh)
    out.push({
      what: 'policy',
      message: `serialize op ${ob} → ${oh} (--serialize-to): the serialize cases time different work`,
    });
  const machine = (e: typeof b) => `${e.cpuModel} × ${e.cores}, ${e.os}, ${e.arch}`;
  if (machine(b) !== machine(h)) out.push({ what: 'machine', message: `machine ${machine(b)} → ${machine(h)}` });
  const runtime = (e: typeof b) => `${e.runtime} (V8 ${e.v8}${e.flags.length ? `, ${e.flags.join(' ')}` : ''})`;
  if (runtime(b) !== runtime(h)) out.push({ what: 'runtime', message: `runtime ${runtime(b)} → ${runtime(h)}` });
  for (const t of head.targets) {
    const was = base.targets.find((x) => x.id === t.id);
    if (!was) continue;
    if (`${was.runtime} ${was.version}` !== `${t.runtime} ${t.version}`)
      out.push({
        what: 'runtime',
        message: `target ${t.id}: ${was.runtime} ${was.version} → ${t.runtime} ${t.version}`,
      });
    out.push(...workerSettingsChanges(was, t));
  }
  const [lb, lh] = [b.loadAverage.start[0], h.loadAverage.start[0]];
  if (lb !== undefined && lh !== undefined) {
    const busy = (l: number, cores: number) => l > BUSY_LOAD_PER_CORE * cores;
    if ((busy(lb, b.cores) || busy(lh, h.cores)) && Math.abs(lb / b.cores - lh / h.cores) > BUSY_LOAD_PER_CORE) {
      const busier = lb / b.cores > lh / h.cores ? 'base' : 'head';
      const perCore = [Math.max(1, lb / b.cores), Math.max(1, lh / h.cores)];
      out.push({
        what: 'load',
        busier,
        loadFactor: Math.max(...perCore) / Math.min(...perCore),
        message: `Load ${b.cores === h.cores ? `${lb.toFixed(1)} → ${lh.toFixed(1)} on ${b.cores} cores` : `${describeLoad(base)} → ${describeLoad(head)}`} (the ${busier} ran busier)`,
      });
    }
  }
  // the same case id on other bytes (a payload file replaced in place): it times different input
  const headPayload = new Map(head.cases.map((c) => [c.id, c.payload?.sha256]));
  const changed = base.cases.filter((c) => {
    const other = headPayload.get(c.id);
    return c.payload?.sha256 !== undefined && other !== undefined && other !== c.payload.sha256;
  });
  if (changed.length)
    out.push({
      what: 'payload',
      message: `the payload of ${changed.length} case${changed.length === 1 ? '' : 's'} changed (sha256 ${changed[0].payload.sha256.slice(0, 12)}… → ${headPayload.get(changed[0].id)!.slice(0, 12)}… for ${changed[0].id}): the same case id times other bytes`,
    });
  out.push(...schemaChanges(base, head));
  return out;
}

/** A policy's launches per case as a run makes them: `1 launch`, `2–3 launches` (adaptive: nu11 read "2 launches" for a run that took 3). */
function launchesText(p: { launches: number; maxLaunches?: number }): string {
  const most = p.maxLaunches && p.maxLaunches > p.launches ? p.maxLaunches : p.launches;
  return `${p.launches}${most > p.launches ? `–${most}` : ''} launch${most === 1 ? '' : 'es'}`;
}
