/**
 * Checks a results file against its schema (results/types.ts) with TypeBox's compiled checker,
 * after upgrading an older layout (results/upgrade.ts). Every command that reads results files
 * goes through {@link checkResults}, so a hand-edited or truncated file is refused with the path
 * of its first problem instead of crashing a renderer or printing `∞` or `NaN`.
 */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { ValueError } from '@sinclair/typebox/errors';
import { CASE_STATUSES, ResultsFileSchema, type CaseResult, type ResultsFile, type TimeStats } from './types.js';
import { upgradeResults } from './upgrade.js';
import { ResultsFileError } from './errors.js';
import { expandVerdicts } from './verdict-groups.js';
import { meansQuotientInterval } from './ratio.js';

const checker = TypeCompiler.Compile(ResultsFileSchema);

/** A short rendering of the offending value for the message. */
function shown(value: unknown): string {
  let text: string;
  // JSON.stringify writes a non-finite number as null: 1e309 in a file reads as Infinity
  // NaN never comes from JSON text: a figure computed from the file's (a killed run's rebuild) made it
  if (typeof value === 'number' && !Number.isFinite(value))
    return Number.isNaN(value) ? 'NaN (not a number)' : `${value} (a number too large for a float, e.g. 1e309)`;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** The discriminants of the file's tagged unions (a case's `status`, an allocation's `method`). */
const DISCRIMINANTS = ['status', 'method'];

/**
 * The most telling error under `e`: for a union (a case's outcome, an allocation figure), the first
 * error of the variant whose discriminant the value does have (so a `measured` case without `time`
 * says "/cases/3/time: Expected required property", not "Expected union value").
 */
function deepest(e: ValueError): ValueError {
  const variants = (e.errors ?? []).map((it) => [...it]);
  const allowed = literalsOf(e.schema);
  // a union of literals (a finding's code, a unit): name every value allowed, not the first one's refusal
  if (allowed.length > 1)
    return { ...e, message: `Expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` };
  if (!variants.length) return e;
  const chosen = variants.find(
    (errs) => errs.length && !errs.some((x) => DISCRIMINANTS.some((d) => x.path === `${e.path}/${d}`)),
  );
  if (chosen) return deepest(chosen[0]);
  // every variant refused the discriminant (an unknown `status`): name it and the values allowed
  for (const d of DISCRIMINANTS) {
    const at = `${e.path}/${d}`;
    const refusals = variants.flatMap((errs) => errs.filter((x) => x.path === at));
    if (!refusals.length) continue;
    const allowed = [...new Set(refusals.flatMap((x) => literalsOf(x.schema)))];
    return {
      ...refusals[0],
      path: at,
      message: allowed.length
        ? `Expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`
        : refusals[0].message,
    };
  }
  return e;
}

/** The literal values a schema accepts (a literal, or a union of literals). */
function literalsOf(schema: unknown): unknown[] {
  const s = schema as { const?: unknown; anyOf?: unknown[] };
  if (s && 'const' in s) return [s.const];
  return Array.isArray(s?.anyOf) ? s.anyOf.flatMap(literalsOf) : [];
}

/**
 * Returns `value` as a results file of the current layout (older layouts are upgraded first).
 * @param where how to name the source in errors (a file path, `ledger run 3`)
 * @throws ResultsFileError naming `where`, the JSON pointer of the first problem and what is wrong there
 */
export function checkResults(value: unknown, where: string): ResultsFile {
  // probe verdicts stored grouped (results/verdict-groups.ts) are expanded first, then checked like any
  const { file: upgraded, original } = setAsideUnknownStatuses(upgradeResults(expandVerdicts(value, where), where));
  // a pointer into the cases checked is named by the case's place in the file as written
  const inFile = (path: string) => path.replace(/^\/cases\/(\d+)/, (_, i: string) => `/cases/${original[Number(i)]}`);
  if (checker.Check(upgraded)) {
    const incoherent = firstIncoherence(upgraded);
    if (incoherent)
      throw new ResultsFileError(
        where,
        inFile(incoherent.path),
        incoherent.problem.replace(/\/cases\/(\d+)/g, (m) => inFile(m)),
      );
    // the written `unread` entries name cases set aside again here: only the reader's own are kept
    const written = writtenUnread(upgraded);
    if (written) {
      const own = upgraded.unread!.slice(written);
      if (own.length) upgraded.unread = own;
      else delete upgraded.unread;
    }
    return upgraded;
  }
  const top = checker.Errors(upgraded).First();
  const first = top ? deepest(top) : undefined;
  throw new ResultsFileError(
    where,
    inFile(first?.path ?? ''),
    `${first?.message ?? 'does not match the results schema'} (found ${shown(first?.value)})`,
  );
}

/**
 * Forward compatibility: the cases whose `status` is a string this jsonbench does not know (a newer
 * jsonbench wrote them, e.g. a status added after this version) are taken out of `cases` and listed
 * in `unread` with the sentence to say about each, so the rest of the file is read; any other
 * problem of such a case does not matter, since it is not read. Returns the file to check and, for
 * each case kept, its index in the file as written (so errors name the place the user can look at).
 */
function setAsideUnknownStatuses(value: unknown): { file: unknown; original: number[] } {
  const r = value as { cases: unknown[]; unread?: unknown };
  const original: number[] = [];
  const unread: { id: string; status: string; problem: string }[] = [];
  const kept = r.cases.filter((c, i) => {
    const { id, status } = (c ?? {}) as { id?: unknown; status?: unknown };
    if (typeof status !== 'string' || (CASE_STATUSES as readonly string[]).includes(status)) {
      original.push(i);
      return true;
    }
    const name = typeof id === 'string' ? id : `/cases/${i}`;
    unread.push({
      id: name,
      status,
      problem: `case ${shown(name)} (/cases/${i}) has status ${shown(status)}, which this jsonbench does not know (a newer jsonbench wrote it): left out; update jsonbench to read it`,
    });
    return false;
  });
  const before = Array.isArray(r.unread) ? r.unread : [];
  if (!unread.length && !before.length) return { file: value, original };
  const file = { ...r, cases: kept, unread: [...before, ...unread] };
  // the written entries are checked against the reader's own (firstIncoherence), then only the reader's are kept
  Object.defineProperty(file, WRITTEN_UNREAD, { value: before.length, enumerable: false });
  return { file, original };
}

/** Relative slack for the order of a case's times: a mean of equal samples may differ from them in its last bits. */
const ORDER_SLACK = 1e-9;

/**
 * The first of a case's times out of order: every sample lies between `min` and `max`, so its
 * median and its mean do (each is the median across launches of a launch's median or mean).
 */
function timeIncoherence(id: string, t: TimeStats): { field: string; problem: string } | undefined {
  const above = (a: number, b: number) => a > b + Math.abs(b) * ORDER_SLACK;
  const say = (field: string, a: number, what: string, b: number) => ({
    field,
    problem: `case ${shown(id)}: ${field} ${a} ns/op is ${what} ${b} ns/op: a case's median and mean lie between its min and max sample`,
  });
  if (above(t.min, t.median)) return say('min', t.min, 'above median', t.median);
  if (above(t.median, t.max)) return say('median', t.median, 'above max', t.max);
  if (above(t.min, t.mean)) return say('mean', t.mean, 'below min', t.min);
  if (above(t.mean, t.max)) return say('mean', t.mean, 'above max', t.max);
  return undefined;
}

/**
 * Checks that a case's serializer, target and platform agree with each other and with the rest of
 * the file (attack session: a .NET serializer id on a Node target was accepted, and reports then
 * ranked it against JSON.stringify): its id names its coordinates (`workload/size/shape/direction/
 * serializer`, `@target` when the run named targets); its target is one the file records, of the
 * same runtime and platform; a serializer has one platform throughout the file; and a serializer the
 * policy names as one platform's baseline (`stj` for `dotnet serialize`) runs on that platform only.
 * Returns a checker to call on each case in order (it remembers each serializer's first platform).
 */
function placementChecker(
  r: ResultsFile,
): (c: CaseResult, i: number) => { field: string; problem: string } | undefined {
  const targets = new Map(r.targets.map((t) => [t.id, t]));
  const platformOf = (p: string | undefined) => p ?? 'javascript';
  // `serialize` (JavaScript) or `dotnet serialize` → the serializer: that serializer's platform
  const baselinePlatform = new Map(
    Object.entries(r.policy.baselines).map(([key, id]) => [
      id,
      key.includes(' ') ? key.slice(0, key.indexOf(' ')) : 'javascript',
    ]),
  );
  const serializerPlatform = new Map<string, { platform: string; at: number }>();
  return (c, i) => {
    // a case without `platform` (files of development builds before cases recorded it, 2026-12-01) is read as its target's
    const platform = c.platform ?? platformOf(targets.get(c.target.id)?.platform);
    const coordinates = `${c.workload}/${c.size}/${c.shape}/${c.direction}/${c.serializer}`;
    if (c.id !== coordinates && c.id !== `${coordinates}@${c.target.id}`) {
      return {
        field: 'id',
        problem: `${shown(c.id)} does not name the case's coordinates ${shown(`${coordinates}[@${c.target.id}]`)}: a case's id is workload/size/shape/direction/serializer, with @target when the run named targets`,
      };
    }
    const t = targets.get(c.target.id);
    if (r.targets.length && !t)
      return {
        field: 'target/id',
        problem: `case ${shown(c.id)} ran on target ${shown(c.target.id)}, which is not among the run's targets (${[...targets.keys()].join(', ')})`,
      };
    if (t && t.runtime !== c.target.runtime)
      return {
        field: 'target/runtime',
        problem: `case ${shown(c.id)}: runtime ${shown(c.target.runtime)}, but target ${shown(t.id)} runs ${shown(t.runtime)}`,
      };
    if (t && platformOf(t.platform) !== platform)
      return {
        field: 'platform',
        problem: `case ${shown(c.id)} is a ${platform} case on target ${shown(t.id)}, a ${platformOf(t.platform)} target: a serializer runs only on targets of its platform`,
      };
    const baselineOf = baselinePlatform.get(c.serializer);
    if (baselineOf !== undefined && baselineOf !== platform)
      return {
        field: 'serializer',
        problem: `${shown(c.serializer)} is the ${baselineOf} baseline (policy.baselines), so it cannot run as a ${platform} serializer on target ${shown(c.target.id)}`,
      };
    const first = serializerPlatform.get(c.serializer);
    if (first && first.platform !== platform)
      return {
        field: 'serializer',
        problem: `${shown(c.serializer)} is a ${first.platform} serializer in /cases/${first.at}, so it cannot run as a ${platform} serializer on target ${shown(c.target.id)}`,
      };
    if (!first) serializerPlatform.set(c.serializer, { platform, at: i });
    return undefined;
  };
}

/**
 * The first place where a file that matches the schema contradicts itself: two cases with one id
 * (compare would silently match only one), a case whose serializer, target and platform disagree
 * ({@link placementChecker}), times out of order (a median above the max), a measured case whose
 * ratio is null beside an error or interval (they come together: a hand edit dropped one), or whose
 * interval does not contain its ratio. Renderers would print `∞` or `NaN` for these.
 */
function firstIncoherence(r: ResultsFile): { path: string; problem: string } | undefined {
  const when = timesIncoherence(r);
  if (when) return when;
  const seen = new Map<string, number>();
  const placement = placementChecker(r);
  const baselineCase = baselineFinder(r);
  const missingBaseline = missingBaselineFinder(r);
  for (const [i, c] of r.cases.entries()) {
    const at = `/cases/${i}`;
    const twin = seen.get(c.id);
    if (twin !== undefined)
      return {
        path: `${at}/id`,
        problem: `${shown(c.id)} is also the id of /cases/${twin}: every case has its own id (reports and compare match cases by id)`,
      };
    seen.set(c.id, i);
    const misplaced = placement(c, i);
    if (misplaced) return { path: `${at}/${misplaced.field}`, problem: misplaced.problem };
    if (c.status !== 'measured') continue;
    const times = timeIncoherence(c.id, c.time) ?? samplesIncoherence(c);
    if (times) return { path: `${at}/time/${times.field}`, problem: times.problem };
    const rounds = roundsRatioIncoherence(c);
    if (rounds) return { path: `${at}/ratio`, problem: rounds };
    if (c.ratio === null && (c.ratioError !== null || (c.ratioInterval ?? null) !== null)) {
      return {
        path: `${at}/ratio`,
        problem: `is null while ratioError is ${shown(c.ratioError)} and ratioInterval ${shown(c.ratioInterval ?? null)}: a ratio and its error are recorded together (both numbers, or both null)`,
      };
    }
    const iv = c.ratioInterval;
    if (c.ratio !== null && iv && !(iv[0] <= c.ratio * (1 + 1e-9) && c.ratio <= iv[1] * (1 + 1e-9))) {
      return { path: `${at}/ratioInterval`, problem: `${shown(iv)} does not contain the ratio ${c.ratio}` };
    }
    const alloc = allocationIncoherence(c);
    if (alloc) return { path: `${at}/allocated/${alloc.field}`, problem: alloc.problem };
    const base = baselineCase(c);
    const ratio = base ? ratioIncoherence(c, base.case, base.index) : undefined;
    if (ratio) return { path: `${at}/ratio`, problem: ratio };
  }
  // after the other checks: a case placed wrong (a renamed serializer) also loses its baseline, and is better named as placed wrong
  for (const [i, c] of r.cases.entries()) {
    const orphan = c.status === 'measured' ? missingBaseline(c) : undefined;
    if (orphan) return { path: `/cases/${i}/ratio`, problem: orphan };
  }
  if (r.unread?.length) {
    // `unread` is what a reader sets aside (unknown statuses), never written by a run: an entry must name a case of this file that is set aside
    const written = writtenUnread(r);
    const aside = new Set(r.unread.slice(written).map((u) => u.id));
    for (const [i, u] of r.unread.slice(0, written).entries())
      if (!aside.has(u.id))
        return {
          path: `/unread/${i}/id`,
          problem: `names case ${shown(u.id)}, which is not a case of this file set aside by its status: \`unread\` lists the cases a reader left out (an unknown status), and is never written by a run`,
        };
  }
  return undefined;
}

/** How far after the reader's clock a run may say it started (ms): a day, for clocks set wrong and time zones. */
export const FUTURE_ALLOWANCE_MS = 24 * 60 * 60 * 1000;

/**
 * Whether the run's times contradict each other (hostile tester hx2's `time-travel.json`: started
 * 2099-01-01, finished 1900-01-01, rendered and imported as they were): `startedAt` and `finishedAt`
 * must be dates, a run finishes no earlier than it started, and it cannot have started more than
 * {@link FUTURE_ALLOWANCE_MS} after now (the reader's clock: the one check here that is not a
 * function of the file alone; a copy re-dated to pass as another run, `ts-*.json`, is otherwise
 * the ledger's to see).
 */
function timesIncoherence(r: ResultsFile, now = Date.now()): { path: string; problem: string } | undefined {
  const start = Date.parse(r.startedAt);
  if (Number.isNaN(start))
    return { path: '/startedAt', problem: `${shown(r.startedAt)} is not a date (ISO 8601, as a run writes it)` };
  if (start > now + FUTURE_ALLOWANCE_MS)
    return {
      path: '/startedAt',
      problem: `${shown(r.startedAt)} is in the future (now is ${new Date(now).toISOString()}): a run is dated by the clock it ran under`,
    };
  if (r.finishedAt === undefined) return undefined;
  const end = Date.parse(r.finishedAt);
  if (Number.isNaN(end))
    return { path: '/finishedAt', problem: `${shown(r.finishedAt)} is not a date (ISO 8601, as a run writes it)` };
  if (end < start)
    return {
      path: '/finishedAt',
      problem: `${shown(r.finishedAt)} is before the run started (startedAt ${shown(r.startedAt)}): a run finishes after it starts`,
    };
  return undefined;
}

/**
 * Finds a measured case's ratio whose baseline the file does not hold (hostile tester hx2's
 * `no-baseline.json`: the baseline's case deleted, the others still ranked "faster than json"):
 * a case with a ratio against a baseline is measured in the same run as that baseline's own case
 * (same coordinates and target, any status: a run always plans it), so a file without that case
 * has lost it or never had it; a shard is not held to it (its baselines may be in another shard,
 * which `jsonbench merge` puts back). Returns the problem for a case, or undefined.
 */
function missingBaselineFinder(r: ResultsFile): (c: CaseResult) => string | undefined {
  // a shard (run --shard) holds part of the plan: its baselines may be in another shard
  if (r.shard) return () => undefined;
  const keys = new Set(r.cases.map((c) => coordinatesKey(c, c.serializer)));
  return (c) => {
    if (c.ratio === null || !c.baseline || c.baseline === c.serializer) return undefined;
    if (keys.has(coordinatesKey(c, c.baseline))) return undefined;
    return `${c.ratio} is against baseline ${shown(c.baseline)}, whose case ${shown(`${c.workload}/${c.size}/${c.shape}/${c.direction}/${c.baseline}`)} (target ${shown(c.target.id)}) is not in the file: a ratio is read beside its baseline's own case, which a run always writes`;
  };
}

/** How many `unread` entries the file had as written (the rest are the reader's own), set by {@link setAsideUnknownStatuses}. */
const WRITTEN_UNREAD = Symbol('writtenUnread');
const writtenUnread = (r: ResultsFile): number =>
  (r as ResultsFile & { [WRITTEN_UNREAD]?: number })[WRITTEN_UNREAD] ?? 0;

/**
 * The relative slack of a case's ratio against its means' quotient, beyond both intervals: the
 * ratio is the median of per-round ratios beside the baseline in one process, the means take every
 * sample of two separate cases, so an honest file may hold a ratio off its means' quotient (the
 * `mean-ratio` finding says so; a baseline slowed beside its serializer gave 3.70×, the
 * `baseline-slowed` finding). A ratio more than this factor beyond both intervals is no measurement.
 */
export const RATIO_MEANS_ALLOWANCE = 4;

/** A case's coordinates and target with `serializer` in its place: the key of that serializer's case beside it. */
const coordinatesKey = (c: CaseResult, serializer: string) =>
  [c.workload, c.size, c.shape, c.direction, serializer, c.target.id].join('\u0000');

/** Finds a case's baseline case in the file (same coordinates and target, the baseline's serializer, measured), with its index. */
function baselineFinder(r: ResultsFile): (c: CaseResult) => { case: CaseResult; index: number } | undefined {
  const byKey = new Map<string, { case: CaseResult; index: number }>();
  r.cases.forEach((c, index) => {
    if (c.status === 'measured' && c.serializer === c.baseline)
      byKey.set(coordinatesKey(c, c.serializer), { case: c, index });
  });
  return (c) => (c.baseline && c.baseline !== c.serializer ? byKey.get(coordinatesKey(c, c.baseline)) : undefined);
}

/**
 * Whether a case's mean or median lies outside the samples it records (hx1 1.5: a mean of 482 ns
 * ± 5 ns beside samples of 1.23–1.67 µs was rendered): both are statistics of the kept launches'
 * samples (run/assemble.ts timeStats: a mean of launch means, a median of launch medians), so
 * they lie within the range of every sample the case records, by any clock a round records, kept
 * and discarded launches together. (`min` and `max` are not held to it: a file may keep fewer
 * samples than it pooled.) Undefined when the case records no samples.
 */
function samplesIncoherence(c: CaseResult & { status: 'measured' }): { field: string; problem: string } | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  for (const l of c.samples?.launches ?? [])
    for (const round of l.rounds)
      for (const xs of [round.serializerNs, round.serializerWallNs, round.serializerCpuNs])
        for (const x of xs ?? []) {
          if (x < lo) lo = x;
          if (x > hi) hi = x;
        }
  if (!(lo <= hi)) return undefined;
  for (const field of ['mean', 'median'] as const) {
    const v = c.time[field];
    if (v < lo / SAMPLES_ALLOWANCE || v > hi * SAMPLES_ALLOWANCE)
      return {
        field,
        problem: `${v} ns/op lies more than ${SAMPLES_ALLOWANCE}× outside the samples the case records (${lo} to ${hi} ns/op, samples/launches): a case's ${field} is one of its samples' statistics`,
      };
  }
  return undefined;
}

/** The median of a non-empty list of numbers. */
function medianOf(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/**
 * How far a paired case's ratio may lie outside its rounds' ratios: 2×. The ratio is a geometric
 * mean of launch ratios, each the median of its rounds' ratios (run/assemble.ts ratioOf,
 * analysers/analyser.ts roundRatios), so a file jsonbench wrote holds it within their range; the
 * hand-written report fixtures keep a few of their rounds only and lie up to 1.36× outside them.
 */
const RATIO_ROUNDS_ALLOWANCE = 2;

/**
 * Whether a paired case's ratio contradicts the rounds it records (hx1 1.5: a forged ratio of 0.3,
 * "3.33× faster", beside rounds whose ratios all lay between 0.97 and 1.07, while its baseline's
 * wide error kept the means from contradicting it): each round's ratio is its median serializer
 * sample ÷ its median baseline sample; the ratio must lie within {@link RATIO_ROUNDS_ALLOWANCE}×
 * of their range. Undefined when it does, or when no round records both sides.
 */
function roundsRatioIncoherence(c: CaseResult & { status: 'measured' }): string | undefined {
  if (c.ratio === null || c.serializer === c.baseline) return undefined;
  let lo = Infinity;
  let hi = -Infinity;
  for (const l of c.samples?.launches ?? [])
    for (const round of l.rounds) {
      if (!round.serializerNs.length || !round.baselineNs.length) continue;
      const r = medianOf(round.serializerNs) / medianOf(round.baselineNs);
      if (!(r > 0) || !Number.isFinite(r)) continue;
      if (r < lo) lo = r;
      if (r > hi) hi = r;
    }
  if (!(lo <= hi)) return undefined;
  if (c.ratio >= lo / RATIO_ROUNDS_ALLOWANCE && c.ratio <= hi * RATIO_ROUNDS_ALLOWANCE) return undefined;
  return `${c.ratio} contradicts the rounds the case records: each round's median sample ÷ its baseline's median sample lies between ${lo.toPrecision(3)} and ${hi.toPrecision(3)}, and a case's ratio is a mean of those (at most ${RATIO_ROUNDS_ALLOWANCE}× outside them)`;
}

/**
 * How far a case's mean or median may lie outside its recorded samples' range: 2×. jsonbench writes
 * them within it; the hand-written fixtures (test/report/fixtures) keep a few samples only, and
 * give a second target the first's samples.
 */
const SAMPLES_ALLOWANCE = 2;

/**
 * Whether a case's ratio contradicts its mean and its baseline's (issue 25: a forged ratio of 0.1
 * beside means 10× the baseline's was ranked "10× faster"): the ratio's interval (or the ratio) and
 * the means' quotient's interval (results/ratio.ts meansQuotientInterval: from the two means'
 * interval ends, as the `mean-ratio` analyser computes it), widened by {@link RATIO_MEANS_ALLOWANCE}, must overlap.
 */
function ratioIncoherence(c: CaseResult, base: CaseResult, baseIndex: number): string | undefined {
  if (c.status !== 'measured' || base.status !== 'measured' || c.ratio === null) return undefined;
  if ((c.time.clock ?? 'wall') !== (base.time.clock ?? 'wall')) return undefined;
  const m = c.time.mean;
  const b = base.time.mean;
  if (!(m > 0) || !(b > 0)) return undefined;
  const q = m / b;
  // the interval ends as recorded (log scale, asymmetric), never Error ÷ Mean both ways
  const means = meansQuotientInterval(c.time, base.time);
  if (!means || !(means[0] > 0) || !Number.isFinite(means[1])) return undefined;
  const iv = c.ratioInterval ?? [c.ratio, c.ratio];
  const lo = means[0] / RATIO_MEANS_ALLOWANCE;
  const hi = means[1] * RATIO_MEANS_ALLOWANCE;
  if (iv[1] >= lo && iv[0] <= hi) return undefined;
  return `${c.ratio} contradicts the means: ${m} ns/op here against ${b} ns/op for its baseline ${shown(base.serializer)} (/cases/${baseIndex}) is ${q.toPrecision(3)}×, and a ratio may differ from the means' quotient by their errors and at most ${RATIO_MEANS_ALLOWANCE}× (rounds beside the baseline against separate cases)`;
}

/** Whether a case's allocation figure lies outside its windows (it is their median). */
function allocationIncoherence(c: CaseResult): { field: string; problem: string } | undefined {
  const a = c.allocated;
  if (!a || a.method === 'n/a') return undefined;
  const lo = Math.min(...a.windows);
  const hi = Math.max(...a.windows);
  if (a.mean >= lo * (1 - ORDER_SLACK) && a.mean <= hi * (1 + ORDER_SLACK)) return undefined;
  return {
    field: 'mean',
    problem: `${a.mean} bytes/op lies outside its windows (${lo} to ${hi} bytes/op): the figure is the median of its windows`,
  };
}
