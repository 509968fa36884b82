import type { Workload } from '../../workloads/types.js';
import type { SchemaNode } from '../../workloads/schema.js';
import { DtoGenerationError, generateDtoModules, type DtoSource } from './dto-generator.js';

/**
 * The DTO source of a workload as the planner hands it over (the unit view of a shape: for `list`
 * the schema is the array of records, and the .NET worker's DTOs are generated from the record).
 * A workload of records (shapes `list`/`many`) has the record as its schema; a `single` one has
 * the document, whatever it is.
 */
export function dtoSourceOf(view: Pick<Workload, 'id' | 'schema' | 'wire' | 'shapes' | 'dotnet'>): DtoSource {
  const records = !view.shapes.includes('single');
  const schema: SchemaNode = records && view.schema.type === 'array' ? view.schema.items : view.schema;
  return {
    id: view.id,
    schema,
    ...(view.wire ? { wire: view.wire } : {}),
    ...(view.dotnet ? { dotnet: view.dotnet } : {}),
  };
}

/**
 * Whether the .NET worker can have DTOs for a workload: `true`, or the generator's reason (the
 * construct and its schema path), which makes the workload's .NET cases `unsupported`. Shared by
 * every .NET serializer: they all read and write through the same generated DTOs.
 */
export function dotnetSupport(view: Workload): true | string {
  try {
    generateDtoModules(dtoSourceOf(view));
    return true;
  } catch (e) {
    if (e instanceof DtoGenerationError) return e.message;
    throw e;
  }
}
