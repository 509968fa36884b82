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

/** JSON.stringify taken when this module loads, before adapter code runs in a worker. */
const { stringify } = JSON;

/** The payload text of one wire unit, written as the workload's wire options say. */
export function renderUnit(workload: Workload, unit: unknown): string {
  return stringify(unit, null, workload.wire?.indent);
}
