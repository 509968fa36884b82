import type { SchemaNode } from './schema.js';
import type { Shape } from '../case/coordinates.js';
import type { Workload } from './types.js';

/**
 * The workload as one serializer call sees it for a shape: for `list` the unit is the whole
 * array (schema `array of record`, model = every record converted); for `single` and `many` it
 * is one document or record. Adapters are always prepared with this view, so `workload.schema`
 * describes exactly the value one `serialize`/`deserialize` call handles.
 */
export function unitView(workload: Workload, shape: Shape): Workload {
  if (shape !== 'list') return workload;
  const schema: SchemaNode = { type: 'array', items: workload.schema };
  const toModel = workload.toModel;
  return {
    ...workload,
    schema,
    toModel: toModel ? (unit) => (unit as unknown[]).map((r) => toModel(r)) : undefined,
  };
}

/** The units one op handles: `[value]` for single and list, the records for many. */
export function unitsOf(wireValue: unknown, shape: Shape): unknown[] {
  if (shape === 'many') {
    if (!Array.isArray(wireValue)) throw new Error('shape "many" needs a workload whose value is an array of records');
    return wireValue;
  }
  return [wireValue];
}

/** JSON.stringify and JSON.parse taken when this module loads, before adapter code runs in a worker. */
const { stringify, parse } = JSON;

/** The payload text of one wire unit, written as the workload's wire options say. */
export function renderUnit(workload: Workload, unit: unknown): string {
  return stringify(unit, null, workload.wire?.indent);
}

/** One record of an NDJSON text: its exact text (a trailing `\r` removed) and its 1-based line number. */
export interface NdjsonLine {
  text: string;
  line: number;
}

/** The records of an NDJSON text: every line that is not blank, as given (a trailing `\r` removed). */
export function ndjsonLines(text: string): NdjsonLine[] {
  const out: NdjsonLine[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() !== '') out.push({ text: line, line: i + 1 });
  });
  return out;
}

/**
 * The units of one op read from a payload file's text, and for a user's payload (a workload with
 * `payloadText`) the exact texts its deserialize cases parse:
 * - `document`: the file's text itself (shape `single`);
 * - `ndjson`: for `many`, each record's line as given; for `list`, one JSON array made of the
 *   records' own texts joined by commas (NDJSON has no array: the records' bytes are kept inside it).
 * For any other workload `texts` is absent: deserialize inputs are rendered from the units
 * ({@link renderUnit}), which for jsonbench's own payload files gives the file's bytes back.
 * @throws SyntaxError when the text is not JSON (NDJSON)
 */
export function readUnits(workload: Workload, text: string, shape: Shape): { units: unknown[]; texts?: string[] } {
  if (workload.payloadText === 'document') return { units: [parse(text)], texts: [text] };
  if (workload.payloadText === 'ndjson') {
    const lines = ndjsonLines(text).map((l) => l.text);
    const records = lines.map((l) => parse(l) as unknown);
    if (shape === 'many') return { units: records, texts: lines };
    if (shape === 'list') return { units: [records], texts: [`[${lines.join(',')}]`] };
    throw new Error(`workload ${workload.id} holds records (NDJSON): shape ${shape} needs one document`);
  }
  return { units: unitsOf(parse(text), shape) };
}
