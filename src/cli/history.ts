import { replaceAdvice, replaceRefusal } from '../files/replace-guard.js';
import { caseHistory, type HistoryFilter } from '../ledger/queries.js';
import { writeFileSync } from 'node:fs';
import {
  historySeriesKey,
  renderHistoryMarkdown,
  renderHistorySummary,
  renderHistoryTerminal,
} from '../report/history.js';
import { sayOnStderr, stdoutWidth } from './output.js';
import { renderHistoryPage } from '../report/html/history.js';
import { openExistingLedger } from './ledger-source.js';
import { checkChoices, UsageError } from '../config/usage-error.js';
import { resolve } from 'node:path';
import type { HistoryPoint } from '../results/history.js';
import { visibleName } from '../report/table/escape.js';

/**
 * Why a ledger point cannot be believed, or null: its mean not a positive finite number, its
 * allocated bytes/op or instructions/op not finite and ≥ 0, its ratio not a positive finite number, far outside its
 * own interval (by more than the interval's width on either side, and 1 %), or its estimates row
 * disagreeing with the case record `ledger export` reads (hx21 L02: an edited allocation). hx5 F3: a ledger edited with sqlite3
 * (estimates.ratio 0.01 beside its interval 1.98–2.13) was printed by `history` and `site` as it was,
 * while `ledger export` of the same run said 2.05. Pure.
 */
export function untrustedPoint(p: HistoryPoint): string | null {
  const num = (v: number | null) => (v === null ? 'none' : String(Number(v.toPrecision(4))));
  if (p.recorded) {
    const alloc =
      p.recorded.bytesPerOp !== undefined && p.recorded.bytesPerOp !== p.bytesPerOp
        ? [`allocated ${num(p.bytesPerOp)} B/op`, `allocated ${num(p.recorded.bytesPerOp)} B/op`]
        : ['', ''];
    const instr =
      p.recorded.instructionsPerOp !== undefined && p.recorded.instructionsPerOp !== p.instructionsPerOp
        ? [`instructions ${num(p.instructionsPerOp)}/op`, `instructions ${num(p.recorded.instructionsPerOp)}/op`]
        : ['', ''];
    const list = (...xs: string[]) => xs.filter(Boolean).join(', ');
    return `its estimates rows say ${list(`ratio ${num(p.ratio)}`, `mean ${num(p.meanNs)} ns`, alloc[0], instr[0])}, its case record ${list(`ratio ${num(p.recorded.ratio)}`, `mean ${num(p.recorded.meanNs)} ns`, alloc[1], instr[1])}`;
  }
  const bad = (v: number | null | undefined) => v !== null && v !== undefined && !(Number.isFinite(v) && v >= 0);
  if (bad(p.meanNs) || p.meanNs === 0) return `its mean ${p.meanNs} ns is not a positive number`;
  if (bad(p.bytesPerOp)) return `its allocated bytes/op ${p.bytesPerOp} is not a number ≥ 0`;
  if (bad(p.instructionsPerOp)) return `its instructions/op ${p.instructionsPerOp} is not a number ≥ 0`;
  if (p.ratio === null) return null;
  if (!Number.isFinite(p.ratio) || p.ratio <= 0) return `its ratio ${p.ratio} is not a positive number`;
  const interval = p.ratioInterval;
  if (!interval) return null;
  const [lo, hi] = interval;
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || lo <= 0 || hi < lo)
    return `its ratio interval ${lo}–${hi} is not an interval of positive numbers`;
  const slack = hi - lo;
  if (p.ratio < (lo - slack) * 0.99 || p.ratio > (hi + slack) * 1.01)
    return `its ratio ${num(p.ratio)} lies outside its own interval ${num(lo)}–${num(hi)}`;
  return null;
}

/**
 * `points` without those {@link untrustedPoint} refuses, each said in one line through `say`
 * ("edited after the run?"), so no history page or table shows a number the run did not measure.
 */
export function trustedPoints(points: HistoryPoint[], say: (line: string) => void): HistoryPoint[] {
  return points.filter((p) => {
    const why = untrustedPoint(p);
    if (why)
      say(
        `jsonbench: warning: ledger run ${p.runId}, case ${visibleName(p.caseId)}: ${why} (edited after the run?): left out; \`jsonbench ledger export ${p.runId}\` shows what the run recorded`,
      );
    return !why;
  });
}

/** Options of `jsonbench history`, as commander parses them. */
export interface HistoryCliOptions {
  workload?: string;
  size?: string;
  shape?: string;
  direction?: string;
  serializer?: string;
  target?: string;
  ledger?: string | boolean;
  /** only the last N points of each case */
  last?: string;
  format: string;
  /** write here instead of stdout (html: default history.html) */
  out?: string;
}

/**
 * `jsonbench history`: the chosen cases across serializer versions, runtime versions and runs,
 * from the ledger; unsupported cases (never any number) are left out. On the terminal without a
 * filter or `--last`, a summary of what the ledger holds (one row per workload × size × shape ×
 * direction) and how to see the points. Returns 0 (also when nothing matches; it says so).
 * @throws UsageError.
 */
export async function historyCommand(opts: HistoryCliOptions): Promise<number> {
  checkChoices('--format', [opts.format], ['terminal', 'md', 'json', 'html']);
  // hx20 a38b: `--format md --out FILE` exited 0 and wrote no file
  if (opts.out !== undefined && opts.format !== 'html')
    throw new UsageError(
      '--out',
      `writes the html page (--format html); --format ${opts.format} prints to stdout: redirect it (> FILE)`,
    );
  if (opts.direction) checkChoices('--direction', [opts.direction], ['serialize', 'deserialize']);
  const size = opts.size === undefined ? undefined : Number(opts.size.replace(/_/g, ''));
  if (size !== undefined && (!Number.isInteger(size) || size <= 0))
    throw new UsageError('--size', `"${opts.size}" is not a positive integer`);
  const last = opts.last === undefined ? undefined : Number(opts.last);
  if (last !== undefined && (!Number.isInteger(last) || last <= 0))
    throw new UsageError('--last', `"${opts.last}" is not a positive integer`);
  const filter: HistoryFilter = {
    workload: opts.workload,
    size,
    shape: opts.shape,
    direction: opts.direction,
    serializer: opts.serializer,
    target: opts.target,
  };
  const db = openExistingLedger(opts.ledger);
  let points;
  try {
    points = trustedPoints(
      caseHistory(db, filter).filter((p) => p.status !== 'unsupported'),
      sayOnStderr,
    );
  } finally {
    db.close();
  }
  if (last !== undefined) {
    const perCase = new Map<string, typeof points>();
    for (const p of points) {
      const k = historySeriesKey(p);
      perCase.set(k, [...(perCase.get(k) ?? []), p]);
    }
    points = [...perCase.values()].flatMap((ps) => ps.slice(-last));
  }
  if (opts.format === 'html') {
    const out = opts.out ?? 'history.html';
    // hx18 A41: `--out notes.txt` replaced a user's file with the page
    const refused = replaceRefusal(resolve(out), 'HTML page');
    if (refused) throw new UsageError('--out', `${out} ${refused}: ${replaceAdvice(refused)}`);
    writeFileSync(out, renderHistoryPage(points));
    process.stdout.write(`history: ${out} (${points.length} points)\n`);
  } else if (opts.format === 'json') process.stdout.write(JSON.stringify(points, null, 2) + '\n');
  else if (points.length === 0) process.stdout.write('no matching cases in the ledger\n');
  else if (opts.format === 'md') process.stdout.write(renderHistoryMarkdown(points));
  else {
    const color = !process.env.NO_COLOR && Boolean(process.stdout.isTTY);
    // without a filter, what the ledger holds and how to see it (every point of every case ran to thousands of lines)
    const filtered = Object.values(filter).some((v) => v !== undefined) || last !== undefined;
    process.stdout.write(
      filtered
        ? renderHistoryTerminal(points, color, stdoutWidth())
        : renderHistorySummary(points, color, stdoutWidth()),
    );
  }
  return 0;
}
