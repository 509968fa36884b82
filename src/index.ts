/** Public API for users' `jsonbench.config.*` files and programmatic use. */
export { defineSerializer } from './serializers/types.js';
export type { SerializerAdapter, PreparedSerializer, Family, GuaranteeClass, CaseClass } from './serializers/types.js';
export { defineWorkload } from './workloads/types.js';
export type { Workload, Shape, Direction } from './workloads/types.js';
export type { SchemaNode, WireOptions } from './workloads/schema.js';
