import { ResultsFileError } from './errors.js';
import type { ProbeVerdictRecord, ResultsFile } from './types.js';

/**
 * Probe verdicts stored compactly (issue 24, new-user tryout: a default run's results.json was
 * 0.9–1.6 MB, ~90% of it probe verdict records, each repeating its probe id, serializer, version
 * and target; the ledger grew as much per run). On disk and in the ledger, `probes.verdicts` (one
 * record per probe side × serializer × target) is replaced by `probes.verdictGroups`: one entry per
 * probe side, each outcome (a verdict, with `cached` or not) once, with the serializer rows that
 * got it and where each stood in `verdicts`:
 *
 * ```json
 * "verdictRows": [["json", "node 20.20.2", "node"], ["zod", "4.1.12", "node"]],
 * "verdictGroups": [
 *   { "probe": "edge.date.valid", "direction": "serialize",
 *     "outcomes": [{ "verdict": { "mark": "✔" }, "cached": true, "rows": [0, 1], "at": [0, 7] }] }
 * ]
 * ```
 *
 * `verdictRows` lists each (serializer, serializerVersion, target) once; `rows` indexes it; `at`
 * gives each verdict's index in the expanded `verdicts`, so {@link expandVerdicts} gives back the
 * same array, in the same order, and every reader (reports, compare, the ledger's export) sees
 * exactly what was recorded. Pure.
 */

/** The compact fields that stand for `verdicts` on disk. */
interface CompactVerdicts {
  verdictRows: [string, string, string][];
  verdictGroups: {
    probe: string;
    direction: ProbeVerdictRecord['direction'];
    outcomes: { verdict: ProbeVerdictRecord['verdict']; cached?: true; rows: number[]; at: number[] }[];
  }[];
}

/**
 * The results file as written: `probes.verdicts` replaced by `verdictRows` and `verdictGroups`
 * (see the module comment). A file without probes is returned as it is.
 */
export function compactVerdicts<T extends Pick<ResultsFile, 'probes'>>(results: T): T {
  const probes = results.probes;
  if (!probes || !Array.isArray(probes.verdicts)) return results;
  const rows: [string, string, string][] = [];
  const rowIndex = new Map<string, number>();
  const groups = new Map<string, CompactVerdicts['verdictGroups'][number]>();
  const outcomes = new Map<string, CompactVerdicts['verdictGroups'][number]['outcomes'][number]>();
  for (const [at, v] of probes.verdicts.entries()) {
    const rowKey = JSON.stringify([v.serializer, v.serializerVersion, v.target]);
    let row = rowIndex.get(rowKey);
    if (row === undefined) {
      row = rows.push([v.serializer, v.serializerVersion, v.target]) - 1;
      rowIndex.set(rowKey, row);
    }
    const groupKey = JSON.stringify([v.probe, v.direction]);
    let group = groups.get(groupKey);
    if (!group) {
      group = { probe: v.probe, direction: v.direction, outcomes: [] };
      groups.set(groupKey, group);
    }
    const outcomeKey = JSON.stringify([groupKey, v.verdict, v.cached === true]);
    let outcome = outcomes.get(outcomeKey);
    if (!outcome) {
      outcome = { verdict: v.verdict, ...(v.cached ? { cached: true as const } : {}), rows: [], at: [] };
      outcomes.set(outcomeKey, outcome);
      group.outcomes.push(outcome);
    }
    outcome.rows.push(row);
    outcome.at.push(at);
  }
  // in the place of `verdicts`, so that expanding gives back the same key order
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(probes)) {
    if (k !== 'verdicts') out[k] = v;
    else Object.assign(out, { verdictRows: rows, verdictGroups: [...groups.values()] });
  }
  return { ...results, probes: out } as unknown as T;
}

type Loose = Record<string, unknown>;
const isIndex = (n: unknown, below: number): n is number =>
  Number.isInteger(n) && (n as number) >= 0 && (n as number) < below;

/**
 * A parsed results file with `probes.verdictGroups` expanded back into `probes.verdicts` (the
 * inverse of {@link compactVerdicts}); any other value is returned as it is. The expanded records
 * are then checked by the results schema like any others.
 * @throws ResultsFileError naming `where` and the JSON pointer of a malformed group (a row or an
 *   index out of range, an index given twice or never, both `verdicts` and `verdictGroups`)
 */
export function expandVerdicts(value: unknown, where: string): unknown {
  const file = value as Loose | null;
  const probes = file && typeof file === 'object' ? (file.probes as Loose | undefined) : undefined;
  if (!probes || typeof probes !== 'object' || !('verdictGroups' in probes)) return value;
  const bad = (path: string, problem: string) => new ResultsFileError(where, `/probes/${path}`, problem);
  if ('verdicts' in probes) throw bad('verdicts', 'holds both verdicts and verdictGroups: one or the other');
  const { verdictRows: rows, verdictGroups: groups } = probes;
  if (!Array.isArray(rows) || !rows.every((r) => Array.isArray(r) && r.length === 3))
    throw bad('verdictRows', 'expected an array of [serializer, serializerVersion, target]');
  if (!Array.isArray(groups)) throw bad('verdictGroups', 'expected an array');
  const total = groups.reduce<number>(
    (n, g) =>
      n +
      (Array.isArray((g as Loose)?.outcomes)
        ? ((g as Loose).outcomes as Loose[]).reduce((m, o) => m + (Array.isArray(o?.at) ? o.at.length : 0), 0)
        : 0),
    0,
  );
  const verdicts: unknown[] = new Array<unknown>(total);
  for (const [gi, g] of (groups as Loose[]).entries()) {
    if (!g || typeof g !== 'object' || !Array.isArray(g.outcomes))
      throw bad(`verdictGroups/${gi}`, 'expected { probe, direction, outcomes }');
    for (const [oi, o] of (g.outcomes as Loose[]).entries()) {
      const path = `verdictGroups/${gi}/outcomes/${oi}`;
      if (!o || !Array.isArray(o.rows) || !Array.isArray(o.at) || o.rows.length !== o.at.length)
        throw bad(path, 'expected { verdict, rows, at } with as many rows as places');
      for (const [i, row] of (o.rows as unknown[]).entries()) {
        const at = (o.at as unknown[])[i];
        if (!isIndex(row, rows.length)) throw bad(`${path}/rows/${i}`, `no verdict row ${JSON.stringify(row)}`);
        if (!isIndex(at, total) || verdicts[at] !== undefined)
          throw bad(`${path}/at/${i}`, `place ${JSON.stringify(at)} is out of range or given twice`);
        const [serializer, serializerVersion, target] = rows[row] as unknown[];
        verdicts[at] = {
          probe: g.probe,
          direction: g.direction,
          serializer,
          serializerVersion,
          target,
          verdict: o.verdict,
          ...(o.cached === true ? { cached: true } : {}),
        };
      }
    }
  }
  const out: Loose = {};
  for (const [k, v] of Object.entries(probes)) {
    if (k === 'verdictRows') out.verdicts = verdicts;
    else if (k !== 'verdictGroups') out[k] = v;
  }
  if (!('verdicts' in out)) out.verdicts = verdicts;
  return { ...file, probes: out };
}
