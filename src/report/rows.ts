import { CASE_STATUSES, type CaseResult, type ResultsFile } from '../results/types.js';
import { PLATFORMS, type Platform } from '../case/coordinates.js';
import { ratioIntervalOf, timeIntervalOf } from '../results/ratio.js';
import { formatAllocation, formatAllocRatio, formatRatio, formatTime, formatTimeError } from './units.js';
import { allocRatioRange, allocWindowRange } from '../results/alloc.js';
import type { Column } from './table/column.js';
import { caseReason } from './reason.js';
import { deepFreeze } from '../case/frozen.js';

/** One table: the cases of one workload × size × shape × direction, grouped by class and platform. */
export interface ResultTable {
  /** its cases' {@link tableKey}: what the HTML view's groups and case index are keyed by */
  key: string;
  /** {@link tableTitle}: the key, and for the `many` shape what one op is */
  title: string;
  /** class × platform → rows, classes in a fixed order (JavaScript before .NET within a class), rows sorted by ratio (measured first) */
  sections: { caseClass: string; platform: Platform; baseline: string | null; cases: CaseResult[] }[];
}

const CLASS_ORDER = ['serialize', 'parse', 'validate', 'transform'];
const STATUS_ORDER = CASE_STATUSES;

/** The key a case's table is grouped by. */
export function tableKey(c: CaseResult): string {
  return `${c.workload} · ${c.size} · ${c.shape} · ${c.direction}`;
}

/**
 * A table's title: its key ({@link tableKey}), and for the `many` shape what one op is, since Mean and Allocated
 * are per op (nu9 read `json … 349 µs` on 220 NDJSON records as per record): `payload:access · 220 · many (an op: 220
 * calls) · serialize`.
 */
export function tableTitle(c: CaseResult): string {
  return c.shape === 'many'
    ? `${c.workload} · ${c.size} · many (an op: ${c.size} call${c.size === 1 ? '' : 's'}) · ${c.direction}`
    : tableKey(c);
}

/** The platform of a case (`javascript` when the results file does not say). */
export function platformOfCase(c: Pick<CaseResult, 'platform'>): Platform {
  return c.platform ?? 'javascript';
}

/** How reports name a platform in a section heading: nothing for JavaScript (the lab's default), `.NET` otherwise. */
export function platformLabel(p: Platform): string {
  return p === 'dotnet' ? '.NET' : '';
}

/**
 * Groups cases into tables (by workload in order of first appearance, then size, shape, direction) and sections by class and platform (each
 * platform has its own baseline, so JavaScript and .NET serializers are never ranked together);
 * within a section, measured cases by ratio (then mean), then the others by status. Unsupported
 * cases sit in the section of their adapter's class and platform.
 */
export function buildTables(cases: readonly CaseResult[]): ResultTable[] {
  const tables = new Map<string, CaseResult[]>();
  for (const c of cases) {
    const k = tableKey(c);
    if (!tables.has(k)) tables.set(k, []);
    tables.get(k)!.push(c);
  }
  // one workload's tables together, smaller sizes first, serialize before deserialize (nu9: a suite's tables came in
  // the order its groups finished, one workload's spread over ~280 rows); workloads in order of first appearance
  const workloadAt = new Map<string, number>();
  for (const c of cases) if (!workloadAt.has(c.workload)) workloadAt.set(c.workload, workloadAt.size);
  const shapes = ['single', 'list', 'many'];
  const order = (c: CaseResult) => [
    workloadAt.get(c.workload)!,
    c.size,
    shapes.indexOf(c.shape),
    c.direction === 'serialize' ? 0 : 1,
  ];
  const sorted = [...tables].sort(([, a], [, b]) => {
    const x = order(a[0]);
    const y = order(b[0]);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  });
  return sorted.map(([, cs]) => {
    const title = tableTitle(cs[0]);
    const key = tableKey(cs[0]);
    const keys = [
      ...new Map(
        cs.map((c) => [
          `${c.class}\u0000${platformOfCase(c)}`,
          { cls: c.class as string, platform: platformOfCase(c) },
        ]),
      ).values(),
    ].sort(
      (a, b) =>
        CLASS_ORDER.indexOf(a.cls) - CLASS_ORDER.indexOf(b.cls) ||
        PLATFORMS.indexOf(a.platform) - PLATFORMS.indexOf(b.platform),
    );
    return {
      key,
      title,
      sections: keys.map(({ cls, platform }) => {
        const inClass = cs.filter((c) => c.class === cls && platformOfCase(c) === platform);
        const sorted = [...inClass].sort((a, b) => {
          const s = STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status);
          if (s !== 0) return s;
          const ra = a.ratio ?? Infinity;
          const rb = b.ratio ?? Infinity;
          return ra !== rb ? ra - rb : (a.time?.mean ?? Infinity) - (b.time?.mean ?? Infinity);
        });
        return { caseClass: cls, platform, baseline: inClass.find((c) => c.baseline)?.baseline ?? null, cases: sorted };
      }),
    };
  });
}

/**
 * The mark of a finding whose message is printed as a sentence under the table (the notes cell
 * only points at it), or undefined for the others. A function with its table inside, not a module
 * constant, because the HTML report ships it to the page as source (html/client-bundle.ts).
 */
export function sentenceMark(code: string): string | undefined {
  const marks: Record<string, string> = {
    'mean-ratio': '≠',
    'baseline-slowed': '⊘',
    waits: '⌛',
    'clocks-disagree': '⇄',
    'machine-drift': '⇅',
    'launch-states': '⇉',
  };
  // the codes this jsonbench makes (results/types.ts FINDING_CODES, written out here because the HTML
  // report ships this function as it is; a test keeps the two lists equal): any other code was written
  // by a newer jsonbench, and is told with its code and message (`?`)
  const known = [
    'noisy',
    'too-fast',
    'outliers',
    'relaunched',
    'no-gc',
    'baseline-unavailable',
    'mean-ratio',
    'interrupted',
    'baseline-slowed',
    'machine-drift',
    'launch-states',
    'waits',
    'clocks-disagree',
  ];
  if (!known.includes(code)) return '?';
  return Object.prototype.hasOwnProperty.call(marks, code) ? marks[code] : undefined;
}

/** How a finding this jsonbench does not know is said: its code, who wrote it, its message. */
export function newerFindingText(code: string, message: string): string {
  return `${code} (a finding written by a newer jsonbench): ${message}`;
}

/** The sentence-worthy findings of some cases, in order: who, and the message (a finding of a newer jsonbench: with its code). */
export function findingSentences<C extends CaseResult>(cases: readonly C[]): { c: C; code: string; message: string }[] {
  return cases.flatMap((c) =>
    c.findings
      .filter((f) => sentenceMark(f.code) !== undefined)
      .map((f) => ({
        c,
        code: f.code,
        message: sentenceMark(f.code) === '?' ? newerFindingText(f.code, f.message) : f.message,
      })),
  );
}

/** What the reports say about the cases left out of the runs' files (an unknown status, see ResultsFile.unread) and about a partial merge (ResultsFile.partialMerge): one sentence each. */
export function unreadSentences(runs: readonly ResultsFile[]): string[] {
  return runs.flatMap((r) => [
    ...(r.partialMerge
      ? [
          `Partial merge: shard${r.partialMerge.missing.length === 1 ? '' : 's'} ${r.partialMerge.missing.map((k) => `${k}/${r.partialMerge!.count}`).join(', ')} missing, ${r.partialMerge.absentCases} planned case${r.partialMerge.absentCases === 1 ? '' : 's'} not in this run (jsonbench merge --partial).`,
        ]
      : []),
    ...(r.unread ?? []).map((u) => `Not read: ${u.problem}`),
  ]);
}

/** The notes cell: ✗ incorrect/failed with the reason, ⚠ noisy, ! too fast, – unsupported. */
export function notesOf(c: CaseResult): string {
  const notes: string[] = [];
  if (c.status === 'incorrect')
    notes.push(
      `✗ incorrect: ${caseReason(c)}${c.mismatch ? ` (expected ${c.mismatch.expected}, got ${c.mismatch.actual})` : ''}`,
    );
  else if (c.status === 'unsupported') notes.push(`– unsupported: ${c.reason ?? ''}`);
  else if (c.status === 'not-run') notes.push(`⏹ ${c.reason ?? ''}`);
  else if (c.status !== 'measured') notes.push(`✗ ${c.status}: ${c.reason ?? ''}`);
  for (const f of c.findings) {
    if (f.code === 'noisy') notes.push('⚠ noisy');
    else if (f.code === 'too-fast') notes.push('! too fast to be real');
    else if (f.code === 'baseline-unavailable')
      notes.push(f.message.startsWith('no ratio') ? f.message : `no ratio: ${f.message}`); // the analyser's message carries the prefix
    else if (f.code === 'relaunched') notes.push(`↻ relaunched ${c.samples.relaunches}×`);
    else if (f.code === 'mean-ratio') notes.push('≠ mean and ratio disagree (see below)');
    else if (f.code === 'interrupted') notes.push(`⏹ ${f.message}`);
    else if (f.code === 'baseline-slowed') notes.push('⊘ baseline slowed beside it: not ranked (see below)');
    else if (f.code === 'waits') notes.push('⌛ waits (time the CPU clock does not count): not ranked (see below)');
    else if (f.code === 'clocks-disagree') notes.push('⇄ CPU and wall clocks disagree: not ranked (see below)');
    else if (f.code === 'machine-drift') notes.push('⇅ the machine changed speed between launches (see below)');
    else if (f.code === 'launch-states')
      notes.push(
        `⇉ launches in distinct states${/ is widened /.test(f.message) ? ': interval widened' : ''} (see below)`,
      );
    else if (sentenceMark(f.code) === '?') notes.push(`? ${f.code} (written by a newer jsonbench; see below)`);
  }
  if (c.notes?.length)
    notes.push(`≈ ${c.notes.length} check${c.notes.length === 1 ? '' : 's'} weaker than the schema (below)`);
  if (c.serializer === c.baseline && c.status === 'measured') notes.unshift('baseline');
  return notes.join('; ');
}

/**
 * The translation notes of a table's cases, one line per serializer and note
 * (`ajv-jtd: ajv JTD has no null type: $.a (always null) accepts any value`), in table order,
 * each note once per serializer (the same note of several targets is said once).
 */
export function notesLines(cases: readonly CaseResult[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of cases)
    for (const n of c.notes ?? []) {
      const line = `${c.serializer}: ${n}`;
      if (!seen.has(line)) {
        seen.add(line);
        out.push(line);
      }
    }
  return out;
}

/**
 * The run table's columns (units by magnitude): Serializer, Version, Mean, Error (how far the mean's
 * interval reaches above and below it, `+187/−47.2 µs`: units.ts formatTimeError), Median, Ratio,
 * Allocated, Alloc Ratio, Notes (reports of several targets add a Target column after Serializer).
 * On a narrow terminal, Median and Alloc Ratio go first, then Error, then Version and Allocated,
 * then Mean; Serializer, Ratio and Notes (wrapped) always stay.
 */
/** The indexes {@link baselineAmong} built, one per list of cases (a report renders from one list). */
const baselineIndexes = new WeakMap<readonly CaseResult[], Map<string, CaseResult>>();

/**
 * The baseline case of `c` among `cases`: same table, class and target, serializer = c's baseline
 * (the first such case). Looked up in an index of `cases` built on the first call for that list:
 * a scan per row made a report of 40,000 cases quadratic (hostile tester hx2: 4,000 cases 6 s,
 * 40,000 killed after 565 s). A list changed after its first call is not seen again.
 */
export function baselineAmong<C extends CaseResult>(cases: readonly C[], c: C): C | undefined {
  const target = (x: CaseResult) => (x as { targetKey?: string }).targetKey ?? x.target?.id;
  const keyOf = (x: CaseResult, serializer: string | null) =>
    `${serializer}\u0000${x.class}\u0000${tableKey(x)}\u0000${target(x)}`;
  let index = baselineIndexes.get(cases);
  if (!index) {
    index = new Map();
    for (const x of cases) {
      const k = keyOf(x, x.serializer);
      if (!index.has(k)) index.set(k, x);
    }
    baselineIndexes.set(cases, index);
  }
  return index.get(keyOf(c, c.baseline)) as C | undefined;
}

/**
 * What a case saves (or costs) per op against its baseline, from its recorded `difference`
 * (results/types.ts: (ratio − 1) × the baseline's time beside it): `saves 1.20 µs/op`, `costs
 * 310 ns/op more`, or `±0 within its interval` when the interval holds both; '' without one.
 * A difference is what switching saves per request, which a server's fixed costs do not dilute
 * (issue 23, decision 2).
 */
export function savesText(c: CaseResult): string {
  const d = c.status === 'measured' ? c.difference : undefined;
  if (!d) return '';
  if (d.low <= 0 && d.high >= 0)
    return `saves/costs ${formatTime(Math.abs(d.value))}/op (within its interval: either way)`;
  return d.value < 0 ? `saves ${formatTime(-d.value)}/op` : `costs ${formatTime(d.value)}/op more`;
}

export function runColumns(
  options: {
    notesWrap?: number;
    maxChars?: number;
    cases?: readonly CaseResult[];
    /** add what a case saves per op beside its ratio ({@link savesText}: report.md) */
    saves?: boolean;
  } = {},
): Column<CaseResult>[] {
  const t = (c: CaseResult) => (c.status === 'measured' ? c.time : undefined);
  const counted = (c: CaseResult) => c.status === 'measured' && c.allocated && c.allocated.method !== 'n/a';
  const m = options.maxChars;
  return [
    { id: 'serializer', header: 'Serializer', cell: (c) => c.serializer, maxChars: m },
    { id: 'version', header: 'Version', cell: (c) => c.serializerVersion, maxChars: m, priority: 2 },
    {
      id: 'mean',
      header: 'Mean',
      cell: (c) => {
        const x = t(c);
        return x ? formatTime(x.mean) : '—';
      },
      priority: 1,
    },
    {
      id: 'error',
      header: 'Error',
      // how far the mean's interval reaches above and below it (log scale since branch stats5:
      // asymmetric; a symmetric `error` overstated the lower side, below 0 for a wide one)
      cell: (c) => {
        const x = t(c);
        return x ? formatTimeError(x.mean, timeIntervalOf(x)) : '—';
      },
      priority: 3,
    },
    {
      id: 'median',
      header: 'Median',
      cell: (c) => {
        const x = t(c);
        return x ? formatTime(x.median) : '—';
      },
      priority: 4,
    },
    {
      id: 'ratio',
      header: 'Ratio',
      cell: (c) => {
        if (c.status !== 'measured') return '—';
        const ratio = formatRatio(c.ratio, ratioIntervalOf(c));
        const saves = options.saves ? savesText(c) : '';
        return saves ? `${ratio}; ${saves}` : ratio;
      },
    },
    {
      id: 'allocated',
      header: 'Allocated',
      cell: (c) =>
        counted(c)
          ? formatAllocation(c.allocated!.mean!, allocWindowRange(c.allocated), c.allocated!.method === 'estimate')
          : '—',
      priority: 2,
    },
    {
      id: 'alloc-ratio',
      header: 'Alloc Ratio',
      cell: (c) =>
        c.status === 'measured' && c.allocated?.method !== 'n/a'
          ? formatAllocRatio(
              c.allocRatio,
              allocRatioRange(c, options.cases ? baselineAmong(options.cases, c) : undefined),
            )
          : '—',
      priority: 4,
    },
    {
      id: 'notes',
      header: 'Notes',
      cell: notesOf,
      ...(options.notesWrap ? { wrap: options.notesWrap } : {}),
      maxChars: m,
    },
  ];
}

/** The headers of the run table, in order. */
export const COLUMNS: readonly string[] = deepFreeze(runColumns().map((c) => c.header));

/** The cells of one row, formatted (units by magnitude), unescaped. */
export function rowCells(c: CaseResult): string[] {
  return runColumns().map((col) => col.cell(c));
}
