// Shipped verbatim into the HTML report's script (see html/client-bundle.ts), so the takeaway is
// recomputed in the page when a reader picks another baseline or hides serializers: keep every
// function here a self-contained declaration that calls only the others (no imports, no constants).

/** One row a takeaway is computed from: a serializer's outcome in one group (and target). */
export interface TakeawayRow {
  /** serializer id */
  name: string;
  /** how the sentence names it (e.g. `JSON.stringify` for the built-in) */
  label: string;
  status: string;
  /** time / baseline's time (< 1 is faster); null when unknown */
  ratio: number | null;
  /** half-width of the ratio's confidence interval; null when unknown (then nothing is claimed) */
  ratioError: number | null;
  /** allocated bytes / baseline's; null when unknown */
  allocRatio: number | null;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinNames(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** `x ± e` with 2 decimals, 3 when the error is under 0.01; `x (error unknown)` when it is null. */
export function formatPlusMinus(x: number, e: number | null, times = ''): string {
  if (e === null || !Number.isFinite(e)) return `${x.toFixed(2)}${times} (error unknown)`;
  const d = e > 0 && e < 0.01 ? 3 : 2;
  return `${x.toFixed(d)}${times} ± ${e.toFixed(d)}`;
}

/** The interval [ratio − error, ratio + error]; unbounded when the error is unknown. */
export function ratioInterval(r: TakeawayRow): [number, number] {
  const e = r.ratioError;
  return e === null || !Number.isFinite(e) ? [-Infinity, Infinity] : [(r.ratio as number) - e, (r.ratio as number) + e];
}

/** True when the two rows' ratio intervals overlap: their difference is within noise. */
export function withinNoise(a: TakeawayRow, b: TakeawayRow): boolean {
  const [alo, ahi] = ratioInterval(a);
  const [blo, bhi] = ratioInterval(b);
  return alo <= bhi && blo <= ahi;
}

/** `and allocates 58% less` / `but allocates 37% more` / `and allocates 2.1× as much`. */
export function allocClause(a: number | null): string {
  if (a === null || !Number.isFinite(a)) return '';
  if (a < 0.95) return ` and allocates ${Math.round((1 - a) * 100)}% less`;
  if (a >= 2) return ` but allocates ${a.toFixed(1)}× as much`;
  if (a > 1.05) return ` but allocates ${Math.round((a - 1) * 100)}% more`;
  return ' and allocates about the same';
}

/**
 * The takeaway of one group: who is fastest against the baseline, by how much with its error, how
 * it allocates; who else is measurably faster, within noise of the baseline, or measurably slower;
 * and which cases were not ranked. Honest about error bars: two serializers whose ratio intervals
 * overlap are "within noise of each other", no one is called fastest while another's interval
 * overlaps it, and no one is called faster than the baseline when its interval includes 1 (or its
 * error is unknown).
 * @param baseline the baseline's serializer id; its row has ratio 1 ± 0 when measured
 * @param baselineLabel how to name the baseline
 * @returns one line of text ending with a full stop
 */
export function takeawayText(rows: TakeawayRow[], baseline: string, baselineLabel: string): string {
  const measured = rows.filter((r) => r.status === 'measured' && r.ratio !== null && Number.isFinite(r.ratio))
    .sort((a, b) => (a.ratio as number) - (b.ratio as number));
  const broken = rows.filter((r) => r.status !== 'measured' && r.status !== 'unsupported');
  const tail = broken.length ? ` Not ranked: ${broken.map((r) => `${r.label} (${r.status})`).join(', ')}.` : '';
  if (measured.length === 0) return `Nothing here has a ratio against ${baselineLabel}.${tail}`;
  if (measured.length === 1) {
    const only = measured[0];
    return (only.name === baseline ? `Only ${baselineLabel} was measured.` : `Only ${only.label} has a ratio: ${formatPlusMinus(only.ratio as number, only.ratioError)} of ${baselineLabel}'s time.`) + tail;
  }
  const clauses: string[] = [];
  const hi = (r: TakeawayRow) => ratioInterval(r)[1];
  const lo = (r: TakeawayRow) => ratioInterval(r)[0];
  const speeds = (rs: TakeawayRow[]) => {
    const v = rs.map((r) => 1 / (r.ratio as number));
    return rs.length === 1 ? `${v[0].toFixed(2)}×` : `${Math.min(...v).toFixed(2)}–${Math.max(...v).toFixed(2)}×`;
  };
  const leader = measured[0];
  const tied = measured.filter((r) => withinNoise(r, leader));
  let top = tied;
  if (tied.length === 1 && leader.name === baseline) {
    const next = measured[1];
    clauses.push(`${baselineLabel} (the baseline) is fastest; the next, ${next.label}, takes ${formatPlusMinus(next.ratio as number, next.ratioError, '×')} as long`);
    top = [leader, next];
  } else if (tied.length === 1) {
    const r = leader.ratio as number;
    const e = leader.ratioError;
    if (hi(leader) < 1 && e !== null) clauses.push(`${leader.label} is fastest, ${formatPlusMinus(1 / r, e / (r * r), '×')} faster than ${baselineLabel}${allocClause(leader.allocRatio)}`);
    else clauses.push(`${leader.label} has the lowest ratio, ${formatPlusMinus(r, e)}, which is within noise of ${baselineLabel}`);
  } else {
    // several within noise of the leader: name only what the intervals support
    const faster = tied.filter((r) => r.name !== baseline && hi(r) < 1);
    if (faster.length === tied.length) {
      clauses.push(`${joinNames(faster.map((r) => r.label))} are fastest and within noise of each other, ${speeds(faster)} faster than ${baselineLabel}`);
      top = faster;
    } else if (faster.length) {
      clauses.push(`${joinNames(faster.map((r) => r.label))} ${faster.length > 1 ? 'are' : 'is'} measurably faster than ${baselineLabel} (${speeds(faster)}), but wider intervals overlap ${faster.length > 1 ? 'them' : 'it'}: none is clearly fastest`);
      top = faster;
    } else {
      clauses.push(`${joinNames(tied.map((r) => r.label))} are within noise of each other at the top; none is measurably faster than ${baselineLabel}`);
    }
  }
  const rest = measured.filter((r) => !top.includes(r) && r.name !== baseline);
  const alsoFaster = rest.filter((r) => hi(r) < 1);
  if (alsoFaster.length) clauses.push(`${joinNames(alsoFaster.map((r) => r.label))} ${alsoFaster.length > 1 ? 'are' : 'is'} also measurably faster (${speeds(alsoFaster)})`);
  for (let i = 0; i < alsoFaster.length - 1; i++) {
    const cluster = [alsoFaster[i]];
    for (let j = i + 1; j < alsoFaster.length && withinNoise(alsoFaster[j], alsoFaster[i]); j++) cluster.push(alsoFaster[j]);
    if (cluster.length > 1) {
      clauses.push(`${joinNames(cluster.map((r) => r.label))} are within noise of each other`);
      break;
    }
  }
  const likeBaseline = rest.filter((r) => lo(r) <= 1 && 1 <= hi(r));
  if (likeBaseline.length) clauses.push(`${joinNames(likeBaseline.map((r) => r.label))} ${likeBaseline.length > 1 ? 'are' : 'is'} within noise of ${baselineLabel}`);
  const slower = rest.filter((r) => lo(r) > 1);
  if (slower.length) clauses.push(`${joinNames(slower.map((r) => r.label))} ${slower.length > 1 ? 'are' : 'is'} measurably slower`);
  return `${clauses.join('; ')}.${tail}`;
}
