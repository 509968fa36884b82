import { Ajv2020 } from 'ajv/dist/2020.js';
import type { SchemaNode } from '../workloads/schema.js';
import { toJsonSchema } from '../workloads/json-schema.js';
import type { PayloadSource } from './read.js';

/**
 * Whether every unit of a payload (each document, NDJSON record or sample) fits a schema given
 * with `--schema`: a payload that does not would make every schema-driven serializer's output
 * differ from the payload, and each would be called `incorrect` for the user's mistake. Checked
 * with ajv (JSON Schema 2020-12, the dialect `--print-schema` writes) against the schema's JSON
 * Schema without `format` keywords (formats are the libraries' business; a date written
 * otherwise is not a shape mismatch).
 * @returns null when every unit fits, else one sentence: the unit, the JSON path, what the schema
 *   wants there and the value found (`sample b.json at $.items[2].id: must be integer (got "7")`)
 */
export function payloadMismatch(source: PayloadSource, schema: SchemaNode): string | null {
  const validate = new Ajv2020({ strict: false, allErrors: false }).compile(toJsonSchema(schema, { formats: false }));
  for (const [i, unit] of source.units.entries()) {
    if (validate(unit.value)) continue;
    const error = validate.errors?.[0];
    const segments = (error?.instancePath ?? '')
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    let at: unknown = unit.value;
    let path = '$';
    for (const s of segments) {
      at = (at as Record<string, unknown> | undefined)?.[s];
      path += /^\d+$/.test(s) ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`;
    }
    const extra =
      error?.keyword === 'additionalProperties'
        ? ` ("${String((error.params as { additionalProperty?: string }).additionalProperty)}")`
        : error?.keyword === 'required'
          ? ` ("${String((error.params as { missingProperty?: string }).missingProperty)}")`
          : '';
    const where =
      source.kind === 'document' ? '' : source.kind === 'ndjson' ? `record ${i + 1} ` : `sample ${unit.source} `;
    return `${where}at ${path}: ${error?.message ?? 'does not match'}${extra} (got ${(JSON.stringify(at) ?? String(at)).slice(0, 80)})`;
  }
  return null;
}
