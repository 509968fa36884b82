import type { ResultsFile } from '../results/types.js';
import { visibleName } from './table/escape.js';
import { asRuns, buildModel, type ReportCase } from './model.js';
import { ratioIntervalOf, timeIntervalOf } from '../results/ratio.js';
import { caseReason } from './reason.js';
import { deepFreeze } from '../case/frozen.js';

/** One CSV column: its header and how a case fills it (numbers raw: ns, bytes, plain ratios). */
interface CsvColumn {
  name: string;
  value(c: ReportCase): string | number | null | undefined;
}

/**
 * Every column, in order. Times in ns/op, allocation in bytes/op, ratios as plain numbers. The
 * time's interval is `low_ns`–`high_ns` (results/ratio.ts timeIntervalOf: asymmetric since branch
 * `stats5`); `error_ns` stays for compatibility (docs/results.md, "report.csv").
 */
export const CSV_COLUMNS: readonly CsvColumn[] = deepFreeze([
  { name: 'source', value: (c) => c.source + 1 },
  { name: 'target', value: (c) => c.targetKey },
  { name: 'id', value: (c) => c.id },
  { name: 'workload', value: (c) => c.workload },
  { name: 'size', value: (c) => c.size },
  { name: 'shape', value: (c) => c.shape },
  { name: 'direction', value: (c) => c.direction },
  { name: 'class', value: (c) => c.class },
  { name: 'serializer', value: (c) => c.serializer },
  { name: 'version', value: (c) => c.serializerVersion },
  { name: 'family', value: (c) => c.family },
  { name: 'baseline', value: (c) => c.baseline },
  { name: 'status', value: (c) => c.status },
  { name: 'reason', value: (c) => (c.reason === undefined ? undefined : caseReason(c)) },
  { name: 'mismatch_side', value: (c) => c.mismatch?.side },
  { name: 'mismatch_path', value: (c) => c.mismatch?.path },
  { name: 'mismatch_expected', value: (c) => c.mismatch?.expected },
  { name: 'mismatch_actual', value: (c) => c.mismatch?.actual },
  { name: 'mean_ns', value: (c) => c.time?.mean },
  // kept for readers of the old column: mean × the interval's larger log half-width since branch stats5 (not a ± of either end)
  { name: 'error_ns', value: (c) => c.time?.error },
  // the mean's confidence interval as recorded (log scale, asymmetric): low_ns ≤ mean_ns ≤ high_ns
  { name: 'low_ns', value: (c) => (c.time ? timeIntervalOf(c.time)?.[0] : undefined) },
  { name: 'high_ns', value: (c) => (c.time ? timeIntervalOf(c.time)?.[1] : undefined) },
  { name: 'median_ns', value: (c) => c.time?.median },
  { name: 'stddev_ns', value: (c) => c.time?.stddev },
  { name: 'min_ns', value: (c) => c.time?.min },
  { name: 'max_ns', value: (c) => c.time?.max },
  { name: 'samples', value: (c) => c.time?.n },
  { name: 'outliers_low', value: (c) => c.time?.outliers.low },
  { name: 'outliers_high', value: (c) => c.time?.outliers.high },
  { name: 'launch_spread', value: (c) => c.time?.launchSpread },
  { name: 'launches', value: (c) => c.samples.launches.filter((l) => !l.discarded).length },
  { name: 'relaunches', value: (c) => c.samples.relaunches },
  { name: 'ratio', value: (c) => c.ratio },
  { name: 'ratio_error', value: (c) => c.ratioError },
  { name: 'ratio_low', value: (c) => ratioIntervalOf(c)?.[0] },
  { name: 'ratio_high', value: (c) => ratioIntervalOf(c)?.[1] },
  { name: 'allocated_bytes', value: (c) => (c.allocated?.method === 'n/a' ? undefined : c.allocated?.mean) },
  { name: 'alloc_ratio', value: (c) => c.allocRatio },
  { name: 'gc_per_op', value: (c) => c.allocated?.gcPerOp },
  { name: 'alloc_method', value: (c) => c.allocated?.method },
  { name: 'payload_bytes', value: (c) => c.payload.bytes },
  { name: 'payload_sha256', value: (c) => c.payload.sha256 },
  { name: 'findings', value: (c) => c.findings.map((f) => f.code).join(';') },
  { name: 'code', value: (c) => c.code },
  // its results file read without an integrity check (hx20 a34: only report.md and report.html said so)
  { name: 'integrity', value: (c) => (c.sourceUnchecked ? 'unchecked' : 'checked') },
]);

/** A plain decimal number (`-12.5`, `1e5`, `+3`): the one kind of field that may start with `-` or `+` unguarded. */
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
/** What a spreadsheet may read as a formula: `= + - @` first, or after leading blanks, tabs or CRs (OWASP, "CSV Injection"). */
const FORMULA_START = /^[\s]*[=+\-@]|^[\t\r]/;

/**
 * One CSV field: a plain number as it is; text on one line, every control character shown as its
 * control picture (ESC → ␛, LF → ␊, CR → ␍, TAB → ␉, C1 → U+FFFD), U+2028/U+2029 and bidirectional
 * formatting characters as their escapes (`\u202E`: escape.ts `visibleName`). hx10 EV-ver-csv: a
 * package version holding a newline put a line starting `::error::forged` in report.csv, which
 * GitHub Actions runs as a workflow command when a CI log prints the file; Markdown, HTML and the
 * terminal already kept every cell on one line. A text field a spreadsheet could run as a formula
 * (starting with `= + - @`, TAB or CR, also after leading blanks) is kept as text by a leading `'`
 * (OWASP's CSV-injection advice). Quoted per RFC 4180 when it holds a comma or a quote.
 */
export function csvField(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const t = visibleName(v);
  const s = (FORMULA_START.test(v) || FORMULA_START.test(t)) && !PLAIN_NUMBER.test(t) ? `'${t}` : t;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Renders one CSV row per case (every target and results file) with every statistic and the
 * status; empty fields where a case has no number. CRLF line ends (RFC 4180). Pure.
 */
export function renderCsv(input: ResultsFile | readonly ResultsFile[]): string {
  const model = buildModel(asRuns(input));
  const lines = [CSV_COLUMNS.map((c) => c.name).join(',')];
  for (const c of model.cases) lines.push(CSV_COLUMNS.map((col) => csvField(col.value(c))).join(','));
  return lines.join('\r\n') + '\r\n';
}
