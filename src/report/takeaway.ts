// Shipped verbatim into the HTML report's script (see html/client-bundle.ts), so the takeaway is
// recomputed in the page when a reader picks another baseline or hides serializers: keep every
// function here a self-contained declaration that calls only the others, units.ts's ratioNumber and
// results/decision.ts's calls (shipped beside it; imported here for the type checker only) — no
// constants.
import { ratioNumber } from './units.js';
import { ratioCall } from '../results/decision.js';

/** One row a takeaway is computed from: a serializer's outcome in one group (and target). */
export interface TakeawayRow {
  /** serializer id */
  name: string;
  /** how the sentence names it (e.g. `JSON.stringify` for the built-in) */
  label: string;
  status: string;
  /** time / baseline's time (< 1 is faster); null when unknown */
  ratio: number | null;
  /** the ratio's confidence interval on the log scale, [low, high]; null when unknown (then nothing is claimed) */
  interval: [number, number] | null;
  /** allocated bytes / baseline's; null when unknown */
  allocRatio: number | null;
  /** the range of `allocRatio` its windows and the baseline's support, when they disagree (results/alloc.ts); absent: they agree */
  allocRange?: [number, number];
  /** why its ratio must not be ranked although it was measured (the `baseline-slowed` finding's reason); absent: rankable */
  unranked?: string;
  /** the run's probes show it losing data on the user's own records (payload probes: wrong output or lost data the baseline does not share; report/costs.ts) */
  loses?: boolean;
}

/**
 * What a takeaway or recommendation of a quick-policy run adds: its figures are a first look (one
 * launch, a short warmup, a 0.3 s cap: on a 5 KB payload its times were 2–10× the default
 * policy's), not figures to quote; `--policy default` gives those. It says what the intervals
 * cover: with one launch per group nothing in the run shows how far another process lands
 * (`basis: rounds`, docs/intervals.md), so they hold that launch's rounds only; on recorded
 * default runs (load 12–30) two launches' ratios differed by a median 2.3% and a tenth of the time
 * by over 7.7%, which such an interval leaves out.
 */
export function quickCaveat(): string {
  return '(Policy quick: a first look, not figures to quote: one launch per group, so its intervals cover the rounds of that launch only, not how far another launch lands; rerun with --policy default for those.)';
}

/** `a`, `a and b`, `a, b and c`. */
export function joinNames(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** `99.9% CI` for a confidence of 0.999: how every interval in a takeaway is labelled (a range between two point estimates never is). */
export function ciLabel(confidence: number): string {
  return `${Number((confidence * 100).toFixed(2))}% CI`;
}

/**
 * `x× (99.9% CI lo–hi×)` as {@link ratioNumber} writes them (3 decimals when the interval is
 * narrower than 0.02); `x (error unknown)` without an interval. The interval is always labelled,
 * so it is never read as a range between two serializers' point estimates ({@link pointRange}).
 * @param confidence the interval's confidence level, 0–1 (the run policy's; 0.999 by default)
 */
export function formatInterval(x: number, interval: [number, number] | null, times = '', confidence = 0.999): string {
  if (interval === null || !Number.isFinite(interval[0]) || !Number.isFinite(interval[1]))
    return `${ratioNumber(x, 2)}${times} (error unknown)`;
  const d = interval[1] - interval[0] < 0.02 ? 3 : 2;
  return `${ratioNumber(x, d)}${times} (${ciLabel(confidence)} ${ratioNumber(interval[0], d)}–${ratioNumber(interval[1], d)}${times})`;
}

/**
 * Several serializers' point estimates as one phrase: `2.17×` for one, `2.63× and 2.17×
 * respectively (point estimates)` for two (in the order given: the caller names the serializers in
 * that order), `2.17× to 2.63× (point estimates)` for more: never `lo–hi×`, the notation of a
 * confidence interval ({@link formatInterval}).
 */
export function pointRange(values: number[]): string {
  const v = values.map((x) => `${x.toFixed(2)}×`);
  if (values.length === 1) return v[0];
  const sorted = [...values].sort((a, b) => a - b);
  // two values follow their names ("a and b … by 1.89× and 1.59× respectively"): sorted, they were read against the wrong names (new-user tryout)
  return values.length === 2
    ? `${v[0]} and ${v[1]} respectively (point estimates)`
    : `${sorted[0].toFixed(2)}× to ${sorted[sorted.length - 1].toFixed(2)}× (point estimates)`;
}

/** The ratio's interval; unbounded when unknown. */
export function ratioInterval(r: TakeawayRow): [number, number] {
  return r.interval === null ? [0, Infinity] : r.interval;
}

/** True when a row's interval spans more than a factor of 10 (high ÷ low > 10: the ratio is known only to within about ×/÷ 3), or is unknown. */
export function isWide(r: TakeawayRow): boolean {
  const [lo, hi] = ratioInterval(r);
  return !(lo > 0) || !(hi / lo <= 10);
}

/**
 * True when a row's ratio is too uncertain to call against the baseline: its interval is unknown,
 * or it holds 1 and reaches beyond 0.8 or 1.25 (results/decision.ts `ratioCall` says `uncertain`),
 * so it cannot tell faster from slower (the issue's "0.20 (0.01–4.00)", and "0.63 (0.28–1.44)" that
 * was called borderline). Such a row is not ranked; the takeaway lists it under "Too uncertain to
 * call", as the recommendation does. A wide interval entirely below 1 (0.05–0.61) is evidence of
 * faster, one entirely above 1 (the issue's 57.6 (2.00–6636)) of slower: those are ranked, and the
 * sentence says how wide they are.
 */
export function tooUncertain(r: TakeawayRow): boolean {
  const call = ratioCall(r.ratio, r.interval);
  return call === 'uncertain' || call === 'unknown';
}

/**
 * THE rule for "faster than the baseline", shared by the takeaway and the recommendation
 * (recommend.ts builds a row per case and calls this): the call on the paired ratio
 * (results/decision.ts `ratioCall`) is `faster` — its confidence interval, on the log scale
 * (results/ratio.ts), lies below 1 and clear of the border band, so a rerun would not call it
 * otherwise. The ratio pairs alternating rounds in one process, so drift between rounds that widens
 * the per-op time intervals cancels in it. A row without a known interval, or one not to be ranked
 * (`unranked`), is never faster.
 */
export function fasterThanBaseline(r: TakeawayRow): boolean {
  return !r.unranked && ratioCall(r.ratio, r.interval) === 'faster';
}

/** True when a row is borderline below 1 (results/decision.ts `ratioCall`): it looks faster, but a rerun could say it is not. */
export function borderlineFaster(r: TakeawayRow): boolean {
  return !r.unranked && r.ratio !== null && r.ratio < 1 && ratioCall(r.ratio, r.interval) === 'borderline';
}

/**
 * Why a borderline call is borderline, in words a reader can act on (`hi`: the interval's upper
 * end): `the interval reaches 1.03, so it may be no faster at all`; `the interval ends at 0.98, so
 * close to 1 that a rerun could find it no faster` (results/decision.ts caps the border band at
 * 10%, so a borderline end below 1 lies at 0.91–1.00). The takeaway and the recommendation say it
 * alike.
 */
export function borderlineReach(hi: number): string {
  if (hi >= 1) return `the interval reaches ${ratioNumber(hi, 2)}, so it may be no faster at all`;
  return `the interval ends at ${ratioNumber(hi, 2)}, so close to 1 that a rerun could find it no faster`;
}

/**
 * The takeaway of a group whose only measured row is the baseline and whose others are too
 * uncertain to call, said plainly (new-user tryout: "Nothing can be called faster or slower than
 * typebox" beside 7.64 [0.75–78.2] read as a contradiction): `typia (7.64, 99.9% CI 0.75–78.2) is
 * too uncertain to call against typebox: its interval is too wide to say whether it is faster or
 * slower.` `vague` is the "Too uncertain to call: …." sentence {@link takeawayText} built.
 */
export function allUncertain(
  uncertain: readonly TakeawayRow[],
  vague: string,
  notRanked: readonly string[],
  baselineLabel: string,
): string {
  const many = uncertain.length > 1;
  const why = uncertain.every((r) => r.interval)
    ? `${many ? 'their intervals are' : 'its interval is'} too wide to say whether ${many ? 'they are' : 'it is'} faster or slower`
    : uncertain.some((r) => r.interval)
      ? 'their intervals are too wide or unknown to say whether they are faster or slower'
      : `${many ? 'their errors are' : 'its error is'} unknown, so ${many ? 'they' : 'it'} cannot be called faster or slower`;
  return `${vague.trim().replace(/^Too uncertain to call: (.*)\.$/, `$1 ${many ? 'are' : 'is'} too uncertain to call against ${baselineLabel}`)}: ${why}.${notRanked.length ? ` Not ranked: ${notRanked.join(', ')}.` : ''}`;
}

/**
 * Why a measured case must not be ranked, from its findings: the short reason of a
 * `baseline-slowed` or `too-fast` finding (its message up to the first `:`, analysers/), else
 * undefined. The takeaway lists such a case under "Not ranked"; the recommendation never picks it.
 */
export function unrankedReason(findings: readonly { code: string; message: string }[]): string | undefined {
  return unrankedFinding(findings)?.message.split(':')[0];
}

/**
 * The finding that makes a measured case unrankable, or undefined: the one place that reads them by
 * their codes — `baseline-slowed` (its ratio is unearned), and `too-fast` (its time is not the work's:
 * a cache, or work optimised away; analysers/too-fast.ts), which the takeaway lists under "Not
 * ranked" and the recommendation under its candidates left out, with the finding's short reason.
 */
export function unrankedFinding<F extends { code: string; message: string }>(findings: readonly F[]): F | undefined {
  // the codes of results/unranked.ts UNRANKING_CODES, written out: this file ships into the page without constants
  return findings.find(
    (f) => f.code === 'baseline-slowed' || f.code === 'too-fast' || f.code === 'waits' || f.code === 'clocks-disagree',
  );
}

/** True when `a` is measurably faster than `b`: a's ratio interval lies entirely below b's. */
export function measurablyFaster(a: TakeawayRow, b: TakeawayRow): boolean {
  return ratioInterval(a)[1] < ratioInterval(b)[0];
}

/** True when the two rows' ratio intervals overlap: their difference is within noise. */
export function withinNoise(a: TakeawayRow, b: TakeawayRow): boolean {
  const [alo, ahi] = ratioInterval(a);
  const [blo, bhi] = ratioInterval(b);
  return alo <= bhi && blo <= ahi;
}

/**
 * `and allocates 58% less` / `but allocates 37% more` / `and allocates 2.1× as much`. With `range`
 * (the allocation ratio's range when its windows, or the baseline's, disagree) a difference is
 * claimed only when both ends of the range say it; else the clause says the windows disagree
 * (`; its allocation measurements differ (0.73–1.02× the baseline's): no allocation difference is claimed`).
 */
export function allocClause(a: number | null, range?: [number, number] | null): string {
  if (a === null || !Number.isFinite(a)) return '';
  if (range) {
    const kind = (x: number) => (x < 0.95 ? 'less' : x >= 2 ? 'multiple' : x > 1.05 ? 'more' : 'same');
    if (kind(range[0]) !== kind(range[1]))
      return `; its allocation measurements differ (${ratioNumber(range[0], 2)}–${ratioNumber(range[1], 2)}× the baseline's): no allocation difference is claimed`;
  }
  if (a < 0.95) return ` and allocates ${Math.round((1 - a) * 100)}% less`;
  if (a >= 2) return ` but allocates ${a.toFixed(1)}× as much`;
  if (a > 1.05) return ` but allocates ${Math.round((a - 1) * 100)}% more`;
  return ' and allocates about the same';
}

/**
 * The takeaway of one group: who is fastest against the baseline, by how much with its error, how
 * it allocates; who else is measurably faster, borderline, within noise of the baseline, or
 * measurably slower; and which cases were too uncertain to call or not ranked. Every claim about a
 * row against the baseline is the call of results/decision.ts `ratioCall`, the one the
 * recommendation makes (recommend.ts), so the two never disagree: "faster" is
 * {@link fasterThanBaseline} (`faster`), a `borderline` row below 1 is said to be borderline with
 * {@link borderlineReach} (never "faster", never "within noise"), and an `uncertain` row (its
 * interval holds 1 and reaches beyond 0.8 or 1.25, or is unknown: {@link tooUncertain}) is not
 * ranked but listed as "too uncertain to call". Honest about error bars between rows: two
 * serializers whose ratio intervals overlap are "within noise of each other", no one is called
 * fastest while another's interval overlaps it, overlaps do not chain (a row another is measurably
 * faster than is never at the top), and a ranked ratio whose interval spans more than 10× gets a
 * clause giving it. A row marked `unranked` (its baseline ran slowed beside it) is listed under
 * "Not ranked" with the reason. Intervals are on the log scale (results/ratio.ts).
 * @param baseline the baseline's serializer id; its row has ratio 1 ± 0 when measured
 * @param baselineLabel how to name the baseline
 * @param confidence the ratio intervals' confidence level, 0–1 (the run policy's): every interval
 *   the sentence prints says it is one (`99.9% CI 1.06–1.36×`), and a range between several
 *   serializers' point estimates says that (`1.56× to 1.74× (point estimates)`)
 * @param terse without the figures the row's table shows beside the sentence (the ratios, their
 *   intervals, the speed-ups) and without the cases that gave no number (their rows say so): the
 *   terminal's form, under which the table stands (issue 22: takeaways restated the table's numbers)
 * @returns one line of text ending with a full stop
 */
export function takeawayText(
  rows: TakeawayRow[],
  baseline: string,
  baselineLabel: string,
  confidence = 0.999,
  terse = false,
): string {
  const withRatio = rows
    .filter((r) => r.status === 'measured' && !r.unranked && r.ratio !== null && Number.isFinite(r.ratio))
    .sort((a, b) => (a.ratio as number) - (b.ratio as number));
  const refused = rows.filter((r) => r.status === 'measured' && r.unranked);
  const uncertain = withRatio.filter((r) => r.name !== baseline && tooUncertain(r));
  const measured = withRatio.filter((r) => !uncertain.includes(r));
  const broken = rows.filter((r) => r.status !== 'measured' && r.status !== 'unsupported');
  const vague = uncertain.length
    ? ` Too uncertain to call: ${uncertain.map((r) => (terse ? r.label : `${r.label} (${ratioNumber(r.ratio as number, 2)}, ${r.interval ? `${ciLabel(confidence)} ${ratioNumber(r.interval[0], 2)}–${ratioNumber(r.interval[1], 2)}` : 'error unknown'})`)).join(', ')}.`
    : '';
  const notRanked = [
    ...refused.map((r) => `${r.label} (${r.unranked})`),
    ...(terse ? [] : broken.map((r) => `${r.label} (${r.status})`)),
  ];
  const tail = `${vague}${notRanked.length ? ` Not ranked: ${notRanked.join(', ')}.` : ''}`;
  if (measured.length === 0) return `Nothing here has a ratio against ${baselineLabel} to rank.${tail}`;
  // a row below 1 whose call is borderline: said so, with why, wherever it stands
  const reach = (r: TakeawayRow) =>
    terse
      ? (r.interval as [number, number])[1] >= 1
        ? 'its interval holds 1'
        : 'its interval ends close to 1'
      : borderlineReach((r.interval as [number, number])[1]);
  const borderlineOf = (r: TakeawayRow) =>
    terse
      ? // within 2% of 1 (a borderline call whose interval is too wide for a tie): never "looks faster" (nu6: "1.00×
        // faster, borderline")
        (r.ratio as number) >= 0.98
        ? `${r.label} is about as fast as ${baselineLabel} (${reach(r)}, so a rerun could call it either way)`
        : `${r.label} looks faster than ${baselineLabel} but is borderline (${reach(r)})`
      : `${r.label} looks ${formatInterval(r.ratio as number, r.interval, '×', confidence)} ${baselineLabel}'s time but is borderline: ${reach(r)}`;
  if (measured.length === 1) {
    const only = measured[0];
    // every other too uncertain: said plainly, once (new-user tryout: "Nothing can be called faster or slower than
    // typebox" beside 7.64 [0.75–78.2] read as a contradiction)
    if (only.name === baseline && uncertain.length) return allUncertain(uncertain, vague, notRanked, baselineLabel);
    if (only.name === baseline) return `Only ${baselineLabel} was measured.${tail}`;
    const onlyRatio = terse
      ? `Only ${only.label} has a ratio against ${baselineLabel}.`
      : `Only ${only.label} has a ratio: ${formatInterval(only.ratio as number, only.interval, '', confidence)} of ${baselineLabel}'s time.`;
    const lost = losingClause(
      [only].filter((r) => fasterThanBaseline(r) || borderlineFaster(r)),
      terse,
    );
    return `${borderlineFaster(only) ? `${borderlineOf(only)}${lost ? `; ${lost}` : ''}.` : `${onlyRatio}${lost ? ` ${lost[0].toUpperCase()}${lost.slice(1)}.` : ''}`}${tail}`;
  }
  const clauses: string[] = [];
  const hi = (r: TakeawayRow) => ratioInterval(r)[1];
  const lo = (r: TakeawayRow) => ratioInterval(r)[0];
  // ` by 1.56× and 1.34× respectively (point estimates)`; nothing when terse (the table shows the ratios)
  const by = (rs: TakeawayRow[]) => (terse ? '' : ` by ${pointRange(rs.map((r) => 1 / (r.ratio as number)))}`);
  const leader = measured[0];
  // at the top: within noise of the leader AND with no one measurably faster than it (overlaps do not chain: when the
  // leader's wide interval reaches both b and c but b is measurably faster than c, c is not at the top)
  const tied = measured.filter((r) => withinNoise(r, leader) && !measured.some((s) => measurablyFaster(s, r)));
  // a ratio too uncertain to call whose interval reaches the leader's could be the fastest: then no one is called fastest
  const shadowed = uncertain.some((r) => lo(r) <= hi(leader));
  let top = tied;
  // rows whose interval the sentence prints (the others, when wide, get a clause saying how wide)
  let printed: TakeawayRow[] = [];
  // rows whose clause already says they are borderline
  const saidBorderline: TakeawayRow[] = [];
  if (tied.length === 1 && !shadowed && leader.name === baseline && terse) {
    // the next is measurably slower (its interval is clear of the baseline's 1): the clause on the slower ones names it
    clauses.push(`${baselineLabel} is fastest`);
    top = [leader];
  } else if (tied.length === 1 && !shadowed && leader.name === baseline) {
    const next = measured[1];
    clauses.push(
      `${baselineLabel} (the baseline) is fastest; the next, ${next.label}, takes ${formatInterval(next.ratio as number, next.interval, '×', confidence)} as long`,
    );
    top = [leader, next];
    printed = [next];
  } else if (tied.length === 1 && !shadowed) {
    if (!fasterThanBaseline(leader) && borderlineFaster(leader)) saidBorderline.push(leader);
    clauses.push(leaderClause(leader, baselineLabel, confidence, terse));
    printed = [leader];
  } else {
    const several = tiedClause(tied, uncertain, leader, baseline, baselineLabel, shadowed, terse);
    clauses.push(several.clause);
    top = several.top;
  }
  // borderline rows not already said so (the leader's own clause says it): each with why
  const borderline = measured.filter((r) => borderlineFaster(r) && !saidBorderline.includes(r));
  for (const r of borderline) clauses.push(borderlineOf(r));
  const rest = measured.filter((r) => !top.includes(r) && r.name !== baseline && !borderline.includes(r));
  const alsoFaster = rest.filter((r) => fasterThanBaseline(r));
  if (alsoFaster.length)
    clauses.push(
      `${joinNames(alsoFaster.map((r) => r.label))} ${alsoFaster.length > 1 ? 'are' : 'is'} also measurably faster${terse ? '' : `,${by(alsoFaster)}`}`,
    );
  for (let i = 0; i < alsoFaster.length - 1; i++) {
    const cluster = [alsoFaster[i]];
    for (let j = i + 1; j < alsoFaster.length && withinNoise(alsoFaster[j], alsoFaster[i]); j++)
      cluster.push(alsoFaster[j]);
    if (cluster.length > 1) {
      clauses.push(`${joinNames(cluster.map((r) => r.label))} are within noise of each other`);
      break;
    }
  }
  const likeBaseline = rest.filter((r) => lo(r) <= 1 && 1 <= hi(r));
  if (likeBaseline.length)
    clauses.push(
      `${joinNames(likeBaseline.map((r) => r.label))} ${likeBaseline.length > 1 ? 'are' : 'is'} within noise of ${baselineLabel}`,
    );
  const slower = rest.filter((r) => lo(r) > 1);
  if (slower.length)
    clauses.push(
      `${joinNames(slower.map((r) => r.label))} ${slower.length > 1 ? 'are' : 'is'} ${terse ? '' : 'measurably '}slower`,
    );
  const wide = measured.filter(
    (r) =>
      r.name !== baseline &&
      !printed.includes(r) &&
      !borderline.includes(r) &&
      !saidBorderline.includes(r) &&
      isWide(r) &&
      r.interval !== null,
  );
  if (wide.length)
    clauses.push(
      `by how much is known only roughly for ${joinNames(wide.map((r) => (terse ? r.label : `${r.label} (${ciLabel(confidence)} ${ratioNumber((r.interval as [number, number])[0], 2)}–${ratioNumber((r.interval as [number, number])[1], 2)}× ${baselineLabel}'s time)`)))}`,
    );
  // a row the sentence presents as faster (or looking faster) whose probes lose data on the user's own records: said
  // here too, not only in the recommendation (nu6: "ajv-jtd looks faster … borderline" above 56 failing probes)
  const lost = losingClause(
    measured.filter((r) => r.name !== baseline && (top.includes(r) || fasterThanBaseline(r) || borderlineFaster(r))),
    terse,
  );
  if (lost) clauses.push(lost);
  return `${clauses.join('; ')}.${tail}`;
}

/**
 * The takeaway's clause on the rows among `rows` whose probes show them losing data on the user's
 * own records ({@link TakeawayRow.loses}), or '' when none: `the probes show ajv-jtd losing data
 * on your records with one change (the Behaviour lines below say what; on the terminal, `terse`: report.md says what)`. Pure.
 */
export function losingClause(rows: readonly TakeawayRow[], terse = false): string {
  const losing = rows.filter((r) => r.loses);
  // report.md and report.html print Behaviour lines under each takeaway; the terminal's tables do not
  return losing.length
    ? `the probes show ${joinNames(losing.map((r) => r.label))} losing data on your records with one change (${terse ? 'report.md says what' : 'the Behaviour lines below say what'})`
    : '';
}

/**
 * The takeaway's clause on a leader alone at the top that is not the baseline ({@link takeawayText}):
 * fastest with its speed-up and allocation, borderline with why, or the lowest ratio within noise
 * of the baseline; `terse` without the figures the table shows. Pure.
 */
export function leaderClause(leader: TakeawayRow, baselineLabel: string, confidence: number, terse: boolean): string {
  const r = leader.ratio as number;
  const iv = leader.interval;
  if (fasterThanBaseline(leader) && iv !== null)
    return terse
      ? `${leader.label} is fastest, faster than ${baselineLabel}${allocClause(leader.allocRatio, leader.allocRange)}`
      : `${leader.label} is fastest, ${formatInterval(1 / r, [1 / iv[1], 1 / iv[0]], '×', confidence)} faster than ${baselineLabel}${allocClause(leader.allocRatio, leader.allocRange)}`;
  if (borderlineFaster(leader)) {
    const hi = (iv as [number, number])[1];
    return terse
      ? r >= 0.98
        ? `${leader.label} is about as fast as ${baselineLabel} (its interval ${hi >= 1 ? 'holds 1' : 'ends close to 1'}, so a rerun could call it either way)`
        : `${leader.label} looks fastest but is borderline (its interval ${hi >= 1 ? 'holds 1' : 'ends close to 1'})`
      : `${leader.label} looks fastest, ${formatInterval(r, iv, '×', confidence)} ${baselineLabel}'s time, but is borderline: ${borderlineReach(hi)}`;
  }
  return `${leader.label} has the lowest ratio, ${terse ? '' : `${formatInterval(r, iv, '', confidence)}, which is `}within noise of ${baselineLabel}`;
}

/**
 * The takeaway's clause when several rows are within noise of the leader, or one is shadowed by a
 * ratio too uncertain to call ({@link takeawayText}): it names only what the intervals support —
 * all faster than the baseline, some faster with the others that could be as fast, or who is at
 * the top with none measurably faster; and the rows it put at the top. Pure.
 */
export function tiedClause(
  tied: TakeawayRow[],
  uncertain: TakeawayRow[],
  leader: TakeawayRow,
  baseline: string,
  baselineLabel: string,
  shadowed: boolean,
  terse: boolean,
): { clause: string; top: TakeawayRow[] } {
  const by = (rs: TakeawayRow[]) => (terse ? '' : ` by ${pointRange(rs.map((r) => 1 / (r.ratio as number)))}`);
  const faster = tied.filter((r) => r.name !== baseline && fasterThanBaseline(r));
  if (faster.length === tied.length && !shadowed)
    return {
      clause: `${joinNames(faster.map((r) => r.label))} are fastest and within noise of each other, faster than ${baselineLabel}${by(faster)}`,
      top: faster,
    };
  if (faster.length) {
    // the rows whose error bars reach the faster ones': tied but not faster, and any too uncertain to call that reach the leader
    const others = [
      ...tied.filter((r) => !faster.includes(r) && r.name !== baseline),
      ...uncertain.filter((r) => ratioInterval(r)[0] <= ratioInterval(leader)[1]),
    ].map((r) => r.label);
    return {
      clause: `${joinNames(faster.map((r) => r.label))} ${faster.length > 1 ? 'are' : 'is'} faster than ${baselineLabel}${by(faster)}, but ${joinNames(others)} could be as fast${terse ? '' : ` (the error bars overlap), so ${faster.length > 1 ? 'none of them can' : 'it cannot'} be called fastest`}`,
      top: faster,
    };
  }
  // the baseline among them: say first that none beats it, then who is within noise of it (never "at the top" above a
  // row that looks faster than the baseline: new-user tryout); a borderline one gets its own clause after this one
  if (tied.some((r) => r.name === baseline)) {
    const level = tied.filter((r) => r.name !== baseline && !borderlineFaster(r));
    return {
      clause: `None is measurably faster than ${baselineLabel}${level.length ? `; ${joinNames(level.map((r) => r.label))} ${level.length > 1 ? 'are' : 'is'} within noise of it` : ''}`,
      top: tied,
    };
  }
  // a borderline one gets its own clause after this one ("looks 0.91× … but is borderline"): then not "none is
  // measurably faster" beside it (nu6: fast-json-stringify 0.91 [0.83–0.99])
  const none = tied.some(borderlineFaster) ? '' : `; none is measurably faster than ${baselineLabel}`;
  return {
    clause: `${joinNames(tied.map((r) => r.label))} ${tied.length > 1 ? 'are within noise of each other' : 'is'} at the top${none}`,
    top: tied,
  };
}
