import type { Mark, Probe, ProbeDirection, ProbeResult, Verdict } from './types.js';

/**
 * Renders probe results as text matrices, one per direction: rows are probes (or groups of
 * probes that differ only in a length, a character or a permutation), columns serializers.
 * Pure: results in, text out. A serializer that answers ✘ to every probe of a direction (a
 * one-way library, or typia without generated code) gets no column; its reason is listed instead.
 */

const SEVERITY: readonly Mark[] = ['✗', '⚠', '–', '✘', '✔'];

/** The group a probe's row belongs to in the compact matrix. */
export function groupOf(probe: Pick<Probe, 'id' | 'family'>): string {
  const parts = probe.id.split('.');
  if (probe.family === 'string') return parts.slice(0, 4).join('.') + '.*';
  if (probe.family === 'conformance') {
    const m = /^(y_|n_|i_|pass|fail\d*_EXCLUDE|fail|roundtrip)/.exec(parts[2] ?? '');
    const kind = m ? (m[1].startsWith('fail') && m[1].endsWith('EXCLUDE') ? 'fail*_EXCLUDE' : m[1]) : parts[2];
    return `conformance.${parts[1]}.${kind}*`;
  }
  if (probe.id.startsWith('structure.optional.') || probe.id.startsWith('structure.nullable.')) return parts.slice(0, 2).join('.') + '.*';
  return probe.id;
}

/** Text of one cell for a group of verdicts: the mark when they agree, else counts by mark (`✗3 ✔87`). */
export function cellText(verdicts: readonly Verdict[]): string {
  if (verdicts.length === 0) return '';
  const counts = new Map<Mark, number>();
  for (const v of verdicts) counts.set(v.mark, (counts.get(v.mark) ?? 0) + 1);
  if (counts.size === 1) {
    const [mark] = counts.keys();
    return verdicts.length === 1 && mark === '✔' && verdicts[0].mark === '✔' && verdicts[0].label ? `✔ ${verdicts[0].label}` : mark;
  }
  return SEVERITY.filter((m) => counts.has(m)).map((m) => `${m}${counts.get(m)}`).join(' ');
}

/** One line naming a failing verdict: what was expected, what came out, where. */
export function describeVerdict(v: Verdict): string {
  switch (v.mark) {
    case '✗': return `✗ ${v.fault} at ${v.path}: expected ${v.expected}, got ${v.actual}`;
    case '⚠': return `⚠ throws${v.stage === 'prepare' ? ' in prepare()' : ''}: ${v.message}`;
    case '✘': return `✘ cannot: ${v.reason}`;
    case '–': return `– ${v.reason}`;
    case '✔': return `✔${v.label ? ' ' + v.label : ''}`;
  }
}

function pad(s: string, n: number): string {
  return s + ' '.repeat(Math.max(0, n - [...s].length));
}

/**
 * `full`: one row per probe; `details: false`: no list of failing verdicts; `narrow`: marks and
 * counts only (no ✔ labels) under short column names, listed below the table.
 */
export interface MatrixOptions { full?: boolean; details?: boolean; narrow?: boolean }

/** Short column names for the built-ins in a narrow matrix. */
const SHORT: Readonly<Record<string, string>> = {
  json: 'json', 'fast-json-stringify': 'fjs', 'ajv-jtd': 'ajv', typia: 'typia', typebox: 'tbox', zod: 'zod', valibot: 'vali',
  arktype: 'ark', 'class-transformer': 'c-t', superjson: 'sjson', 'safe-stable-stringify': 'sss', 'secure-json-parse': 'sjp',
};

/** The matrix of one direction, as lines of text. */
export function renderMatrix(probes: readonly Probe[], results: readonly ProbeResult[], direction: ProbeDirection, options: MatrixOptions = {}): string {
  const own = results.filter((r) => r.direction === direction);
  const serializerIds = [...new Set(own.map((r) => r.serializer))];
  const absent: string[] = [];
  const columns = serializerIds.filter((s) => {
    const mine = own.filter((r) => r.serializer === s);
    const allCannot = mine.every((r) => r.verdict.mark === '✘');
    if (allCannot) absent.push(`${s}: ${(mine[0]?.verdict as { reason: string } | undefined)?.reason ?? 'no probes'}`);
    return !allCannot;
  });
  const rowKey = (p: Probe) => (options.full ? p.id : groupOf(p));
  const rows = [...new Set(probes.filter((p) => p[direction]).map(rowKey))];
  const byRowAndSerializer = new Map<string, Verdict[]>();
  const probeById = new Map(probes.map((p) => [p.id, p]));
  for (const r of own) {
    const p = probeById.get(r.probe);
    if (!p) continue;
    const k = `${rowKey(p)}\u0000${r.serializer}`;
    (byRowAndSerializer.get(k) ?? byRowAndSerializer.set(k, []).get(k)!).push(r.verdict);
  }
  const cell = (vs: readonly Verdict[]) => (options.narrow ? cellText(vs.map((v) => (v.mark === '✔' ? { mark: '✔' } : v))) : cellText(vs));
  const table = rows.map((row) => [row, ...columns.map((s) => cell(byRowAndSerializer.get(`${row}\u0000${s}`) ?? []))]);
  const header = ['probe', ...columns.map((s) => (options.narrow ? SHORT[s] ?? s : s))];
  const widths = header.map((h, i) => Math.max([...h].length, ...table.map((t) => [...t[i]].length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i])).join('  ').trimEnd();
  const out = [`${direction} (${rows.length} rows${options.full ? '' : ', grouped'}; ${columns.length} serializers)`, line(header), line(widths.map((w) => '-'.repeat(w))), ...table.map(line)];
  if (options.narrow) out.push('', `columns: ${columns.map((s) => `${SHORT[s] ?? s} = ${s}`).join(', ')}`);
  if (absent.length) out.push('', 'no column (✘ for every probe of this direction):', ...absent.map((a) => `  ${a}`));
  if (options.details !== false) {
    const failing = own.filter((r) => (r.verdict.mark === '✗' || r.verdict.mark === '⚠') && columns.includes(r.serializer));
    if (failing.length) {
      out.push('', `failing verdicts (${failing.length}):`);
      const shown = new Map<string, number>();
      for (const r of failing) {
        const p = probeById.get(r.probe)!;
        const g = `${r.serializer}\u0000${rowKey(p)}`;
        const n = (shown.get(g) ?? 0) + 1;
        shown.set(g, n);
        if (n <= 2) out.push(`  ${r.serializer}  ${r.probe}  ${describeVerdict(r.verdict)}`);
        else if (n === 3) out.push(`  ${r.serializer}  ${rowKey(p)}  … more in this group`);
      }
    }
  }
  return out.join('\n');
}
