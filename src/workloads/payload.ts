import type { Shape } from '../case/coordinates.js';
import type { SchemaNode } from './schema.js';
import type { PayloadText, Workload } from './types.js';

/**
 * A user's payload as a workload, as plain data (no functions), so that it travels inside a worker
 * job to any target — a browser page, QuickJS or a remote machine — where no module of the user's
 * can be loaded: the schema of one unit (the document, or one record), the shapes and sizes, and
 * how the payload file holds the text. The value itself is never in the spec: workers read it from
 * the payload file, the user's exact bytes.
 */
export interface PayloadWorkloadSpec {
  /** `payload:<file name>` */
  id: string;
  description: string;
  /** records per payload (1 for a document) */
  sizes: number[];
  /** `single` for a document; `list` and `many` for records */
  shapes: Shape[];
  /** the schema of one unit, inferred from the samples or given by the user */
  schema: SchemaNode;
  payloadText: PayloadText;
}

/**
 * The Workload of a payload spec. `build` is `value` when the host knows the value (it read the
 * file); in a worker there is none: the value is read from the payload file (see readUnits in
 * workloads/unit.ts), and build() throws.
 */
export function payloadWorkload(spec: PayloadWorkloadSpec, value?: (size: number) => unknown): Workload {
  return {
    id: spec.id,
    description: spec.description,
    sizes: [...spec.sizes],
    defaultSizes: [...spec.sizes],
    shapes: [...spec.shapes],
    schema: spec.schema,
    payloadText: spec.payloadText,
    build:
      value ??
      (() => {
        throw new Error(`workload ${spec.id} is a user's payload: its value is read from its payload file, not built`);
      }),
  };
}

/** The spec of a payload workload (undefined for a built-in or config workload, which workers load by id). */
export function payloadSpecOf(w: Workload): PayloadWorkloadSpec | undefined {
  if (!w.payloadText) return undefined;
  return {
    id: w.id,
    description: w.description,
    sizes: [...w.sizes],
    shapes: [...w.shapes],
    schema: w.schema,
    payloadText: w.payloadText,
  };
}
