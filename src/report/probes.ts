/**
 * The probe matrix of a results file (issue 11), as pure functions of results: rows are probes, or
 * groups of probes that differ only in a length, a character or a permutation; columns are
 * serializer rows (a version matrix gives one per version; several targets one per row × target).
 * A cell is the mark when a group agrees, else counts by mark (`✗3 ✔87`). Terminal and Markdown go
 * through the one table writer (report/table/); the HTML section puts every failing cell's
 * details one click away (html/probes.ts). Also: the verdicts that change between versions of one
 * library, and the behaviour notes a recommendation cites (failed probes relevant to a payload).
 */
import { MARKS_BY_SEVERITY, type Mark, type Verdict } from '../case/probe.js';
import type { Direction } from '../case/coordinates.js';
import type { ProbeRecord, ProbeVerdictRecord, ProbesSection, ResultsFile } from '../results/types.js';
import type { Column, Table } from './table/column.js';

/** The group a probe's row belongs to in the compact matrix. */
export function groupOf(probe: Pick<ProbeRecord, 'id' | 'family'>): string {
  const parts = probe.id.split('.');
  if (probe.family === 'string') return parts.slice(0, 4).join('.') + '.*';
  if (probe.family === 'conformance') {
    const m = /^(y_|n_|i_|pass|fail\d*_EXCLUDE|fail|roundtrip)/.exec(parts[2] ?? '');
    const kind = m ? (m[1].startsWith('fail') && m[1].endsWith('EXCLUDE') ? 'fail*_EXCLUDE' : m[1]) : parts[2];
    return `conformance.${parts[1]}.${kind}*`;
  }
  if (probe.id.startsWith('structure.optional.') || probe.id.startsWith('structure.nullable.'))
    return parts.slice(0, 2).join('.') + '.*';
  return probe.id;
}

/** Text of one cell for a group of verdicts: the mark when they agree (with the ✔ label of a single probe), else counts by mark (`✗3 ✔87`). */
export function cellText(verdicts: readonly Verdict[], labels = true): string {
  if (verdicts.length === 0) return '';
  const counts = new Map<Mark, number>();
  for (const v of verdicts) counts.set(v.mark, (counts.get(v.mark) ?? 0) + 1);
  if (counts.size === 1) {
    const [mark] = counts.keys();
    const only = verdicts[0];
    return labels && verdicts.length === 1 && only.mark === '✔' && only.label ? `✔ ${only.label}` : mark;
  }
  return MARKS_BY_SEVERITY.filter((m) => counts.has(m))
    .map((m) => `${m}${counts.get(m)}`)
    .join(' ');
}

/** One line naming a verdict: what was expected, what came out, where. */
export function describeVerdict(v: Verdict): string {
  switch (v.mark) {
    case '✗':
      return `✗ ${v.fault} at ${v.path}: expected ${v.expected}, got ${v.actual}`;
    case '⚠':
      return `⚠ throws${v.stage === 'prepare' ? ' in prepare()' : ''}: ${v.message}`;
    case '✘':
      return `✘ cannot: ${v.reason}`;
    case '–':
      return `– ${v.reason}`;
    case '✔':
      return `✔${v.label ? ' ' + v.label : ''}`;
  }
}

/** The ids of a results file's .NET targets (`targets[].platform`): their verdicts are read against a probe's .NET side. */
export function dotnetTargetIds(results: Pick<ResultsFile, 'targets'>): Set<string> {
  return new Set(results.targets.filter((t) => t.platform === 'dotnet').map((t) => t.id));
}

/**
 * What a verdict is read against: the probe's title and the side of its direction, or, for a verdict
 * on a .NET target, the probe's .NET side where its record has one (probes/dotnet/catalog.ts asks some
 * JavaScript questions of a C# model with other accepted behaviours).
 */
export function probeSideFor(
  probe: ProbeRecord | undefined,
  v: Pick<ProbeVerdictRecord, 'direction' | 'target'>,
  dotnetTargets: ReadonlySet<string>,
): { title: string; side?: { input: string; expected: string } } {
  if (!probe) return { title: '' };
  const net = dotnetTargets.has(v.target) ? probe.dotnet : undefined;
  return { title: net?.title ?? probe.title, side: net?.[v.direction] ?? probe[v.direction] };
}

/** What the reports say of a run whose probe pass did not finish (results/types.ts `probePending`). */
export const PROBES_UNFINISHED =
  "the run's probe pass did not finish (the run was stopped during it, or is still in it): this file has the timed cases, and no probe matrix; `jsonbench probe` asks the probes alone.";

/** A failing verdict: wrong (✗) or throws where output was expected (⚠). */
export const isFailing = (v: Verdict) => v.mark === '✗' || v.mark === '⚠';

/** A column of the matrix: a serializer row on a target (the target named only when the section has several). */
export interface MatrixColumn {
  key: string;
  serializer: string;
  version: string;
  target: string;
  header: string;
}

/** One row of a direction's matrix: a probe group, and its verdicts per column key. */
export interface MatrixRow {
  group: string;
  family: string;
  probes: string[];
  cells: Map<string, ProbeVerdictRecord[]>;
}

/** A direction's matrix: columns, rows, and the serializer rows left out because they cannot do any probe of the direction (with the reason). */
export interface ProbeMatrix {
  direction: Direction;
  columns: MatrixColumn[];
  rows: MatrixRow[];
  absent: { header: string; reason: string }[];
}

const columnKey = (v: Pick<ProbeVerdictRecord, 'serializer' | 'target'>) => `${v.serializer}\u0000${v.target}`;

/**
 * Builds a direction's matrix. `full`: one row per probe instead of per group. A serializer row
 * whose every verdict in the direction is ✘ (a one-way library) gets no column; its reason is
 * listed in `absent`.
 */
export function probeMatrix(section: ProbesSection, direction: Direction, full = false): ProbeMatrix {
  const own = section.verdicts.filter((v) => v.direction === direction);
  const targets = [...new Set(section.verdicts.map((v) => v.target))];
  const columns: MatrixColumn[] = [];
  const absent: ProbeMatrix['absent'] = [];
  for (const k of [...new Set(own.map(columnKey))]) {
    const mine = own.filter((v) => columnKey(v) === k);
    const { serializer, serializerVersion, target } = mine[0];
    const header = targets.length > 1 ? `${serializer} · ${target}` : serializer;
    if (mine.every((v) => v.verdict.mark === '✘'))
      absent.push({ header, reason: (mine[0].verdict as { reason: string }).reason });
    else columns.push({ key: k, serializer, version: serializerVersion, target, header });
  }
  const byId = new Map(section.probes.map((p) => [p.id, p]));
  const rows = new Map<string, MatrixRow>();
  for (const p of section.probes) {
    if (!p[direction]) continue;
    const group = full ? p.id : groupOf(p);
    if (!rows.has(group)) rows.set(group, { group, family: p.family, probes: [], cells: new Map() });
    rows.get(group)!.probes.push(p.id);
  }
  for (const v of own) {
    const p = byId.get(v.probe);
    if (!p) continue;
    const row = rows.get(full ? p.id : groupOf(p));
    if (!row) continue;
    const k = columnKey(v);
    if (!row.cells.has(k)) row.cells.set(k, []);
    row.cells.get(k)!.push(v);
  }
  return { direction, columns, rows: [...rows.values()], absent };
}

/** The matrix as a table for the one writer: a Probe column, then one column per serializer row. `labels: false` shows marks and counts only (narrow terminals). */
export function matrixTable(m: ProbeMatrix, labels = true): Table<MatrixRow> {
  const columns: Column<MatrixRow>[] = [
    { id: 'probe', header: 'Probe', cell: (r) => r.group },
    ...m.columns.map((c): Column<MatrixRow> => ({
      id: c.key,
      header: c.header,
      cell: (r) =>
        cellText(
          (r.cells.get(c.key) ?? []).map((v) => v.verdict),
          labels,
        ),
      tone: (r) => ((r.cells.get(c.key) ?? []).some((v) => isFailing(v.verdict)) ? 'red' : undefined),
    })),
  ];
  return { columns, rows: m.rows, compact: true };
}

/** Counts of marks over a section (or part of it). */
export function markCounts(verdicts: readonly ProbeVerdictRecord[]): Record<Mark, number> {
  const counts: Record<Mark, number> = { '✔': 0, '✘': 0, '✗': 0, '⚠': 0, '–': 0 };
  for (const v of verdicts) counts[v.verdict.mark]++;
  return counts;
}

/** `23,424 verdicts: ✔ 11,172 · ✘ 6,398 · – 5,600 · ⚠ 44 · ✗ 210 (96 silent-loss, …)`. */
export function summaryLine(section: ProbesSection): string {
  const c = markCounts(section.verdicts);
  const faults = new Map<string, number>();
  for (const v of section.verdicts)
    if (v.verdict.mark === '✗') faults.set(v.verdict.fault, (faults.get(v.verdict.fault) ?? 0) + 1);
  const n = (x: number) => x.toLocaleString('en');
  const faultText = faults.size
    ? ` (${[...faults]
        .sort((a, b) => b[1] - a[1])
        .map(([f, k]) => `${n(k)} ${f}`)
        .join(', ')})`
    : '';
  const cached = section.cache?.hits
    ? `; ${n(section.cache.hits)} read from the probe-verdict cache (judged by an earlier run of the same jsonbench code, serializer version and runtime)`
    : '';
  return `${n(section.probes.length)} probe${section.probes.length === 1 ? '' : 's'}, ${n(section.verdicts.length)} verdict${section.verdicts.length === 1 ? '' : 's'}: ✔ ${n(c['✔'])} · ✘ ${n(c['✘'])} · – ${n(c['–'])} · ⚠ ${n(c['⚠'])} · ✗ ${n(c['✗'])}${faultText}${cached}`;
}

/** The failing verdicts of a section, with their probe, in section order. */
export function failingVerdicts(
  section: ProbesSection,
  direction?: Direction,
): { v: ProbeVerdictRecord; probe: ProbeRecord | undefined }[] {
  const byId = new Map(section.probes.map((p) => [p.id, p]));
  return section.verdicts
    .filter((v) => isFailing(v.verdict) && (!direction || v.direction === direction))
    .map((v) => ({ v, probe: byId.get(v.probe) }));
}

/** A probe side whose verdict differs between versions of one library (a version matrix): the library, the probe side, and the verdict of each version. */
export interface VersionChange {
  library: string;
  target: string;
  probe: string;
  direction: Direction;
  verdicts: { serializer: string; version: string; verdict: Verdict }[];
}

/** The library a version-matrix row belongs to: `fast-json-stringify@6.1.1` → `fast-json-stringify`. */
export const libraryOf = (row: string) => row.replace(/@[^@]+$/, '');

/**
 * Probe sides whose mark (or ✗ fault) differs between the versions of one library in this
 * section: a regression or a fix between releases shows here as a changed verdict.
 */
export function versionChanges(section: ProbesSection): VersionChange[] {
  const rowsOf = new Map<string, Set<string>>();
  for (const v of section.verdicts) {
    const lib = libraryOf(v.serializer);
    if (!rowsOf.has(lib)) rowsOf.set(lib, new Set());
    rowsOf.get(lib)!.add(v.serializer);
  }
  const out: VersionChange[] = [];
  const sig = (x: Verdict) => (x.mark === '✗' ? `✗ ${x.fault}` : x.mark);
  for (const [library, rowSet] of rowsOf) {
    if (rowSet.size < 2) continue;
    const cells = new Map<string, VersionChange>();
    for (const v of section.verdicts) {
      if (libraryOf(v.serializer) !== library) continue;
      const k = `${v.target}\u0000${v.probe}\u0000${v.direction}`;
      if (!cells.has(k))
        cells.set(k, { library, target: v.target, probe: v.probe, direction: v.direction, verdicts: [] });
      cells.get(k)!.verdicts.push({ serializer: v.serializer, version: v.serializerVersion, verdict: v.verdict });
    }
    for (const c of cells.values()) if (new Set(c.verdicts.map((x) => sig(x.verdict))).size > 1) out.push(c);
  }
  return out;
}

/**
 * What a serializer's fast answer costs in behaviour on one workload: its failing verdicts on the
 * probes a timed run chose for that workload (`relevantTo`), in one direction and on one target,
 * grouped as the matrix groups them. The hook a recommendation cites ("ajv-jtd writes lone
 * surrogates raw: string.value.plain.lone-high.* ill-formed").
 */
export interface BehaviourNote {
  serializer: string;
  group: string;
  count: number;
  first: ProbeVerdictRecord;
  title: string;
}

export function behaviourNotes(
  results: ResultsFile,
  workload: string,
  direction: Direction,
  target: string,
  serializers: readonly string[],
): BehaviourNote[] {
  const section = results.probes;
  if (!section?.relevantTo) return [];
  const byId = new Map(section.probes.map((p) => [p.id, p]));
  const notes = new Map<string, BehaviourNote>();
  for (const v of section.verdicts) {
    if (
      v.direction !== direction ||
      v.target !== target ||
      !serializers.includes(v.serializer) ||
      !isFailing(v.verdict)
    )
      continue;
    if (!section.relevantTo[v.probe]?.includes(workload)) continue;
    const p = byId.get(v.probe);
    const group = p ? groupOf(p) : v.probe;
    const k = `${v.serializer}\u0000${group}`;
    const n = notes.get(k);
    if (n) n.count++;
    else notes.set(k, { serializer: v.serializer, group, count: 1, first: v, title: p?.title ?? v.probe });
  }
  return [...notes.values()];
}

/** One sentence per serializer: `ajv-jtd fails 3 probe groups relevant to this payload: string.value.plain.lone-high.* (4× ✗ ill-formed), …`. */
export function behaviourSentences(notes: readonly BehaviourNote[]): string[] {
  const by = new Map<string, BehaviourNote[]>();
  for (const n of notes) by.set(n.serializer, [...(by.get(n.serializer) ?? []), n]);
  return [...by].map(([serializer, ns]) => {
    const parts = ns.slice(0, 6).map((n) => {
      const v = n.first.verdict;
      const what = v.mark === '✗' ? `✗ ${v.fault}` : '⚠ throws';
      return `${n.group} (${n.count > 1 ? `${n.count}× ` : ''}${what})`;
    });
    const more = ns.length > 6 ? ` and ${ns.length - 6} more` : '';
    return `${serializer} fails ${ns.length === 1 ? 'a probe' : `${ns.length} probe groups`} relevant to this payload: ${parts.join(', ')}${more}.`;
  });
}
