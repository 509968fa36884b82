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

/** Whether a schema holds a string read as a Date (`asDate`) anywhere. */
function holdsDates(node: SchemaNode): boolean {
  switch (node.type) {
    case 'string':
      return node.asDate === true;
    case 'array':
      return holdsDates(node.items);
    case 'object':
      return (
        Object.values(node.properties).some(holdsDates) ||
        (node.additionalProperties ? holdsDates(node.additionalProperties) : false)
      );
    case 'record':
      return holdsDates(node.values);
    case 'union':
      return node.anyOf.some(holdsDates);
    case 'discriminated':
      return Object.values(node.mapping).some(holdsDates);
    default:
      return false;
  }
}

const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The typed model of one wire unit of a user's payload (the `transform` class's expected value): each
 * string at an `asDate` field becomes `new Date(string)` (payload/refine.ts marks RFC 3339 date-times
 * with an offset, which every transform adapter reads as that instant); everything else is the wire
 * value (a string that is no date stays a string). A fresh copy where anything changes; pure.
 */
export function modelOf(node: SchemaNode, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (node.type) {
    case 'string': {
      if (!node.asDate || typeof value !== 'string') return value;
      const d = new Date(value);
      return Number.isNaN(d.getTime()) ? value : d;
    }
    case 'array':
      return Array.isArray(value) ? value.map((v) => modelOf(node.items, v)) : value;
    case 'object': {
      if (!isPlain(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const child = Object.prototype.hasOwnProperty.call(node.properties, k)
          ? node.properties[k]
          : node.additionalProperties;
        out[k] = child ? modelOf(child, v) : v;
      }
      return out;
    }
    case 'record': {
      if (!isPlain(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = modelOf(node.values, v);
      return out;
    }
    case 'union': {
      // the first member of the value's JSON kind (a union of a date-time and a number: the string member)
      const member = node.anyOf.find((m) =>
        typeof value === 'string'
          ? m.type === 'string' || m.type === 'enum'
          : Array.isArray(value)
            ? m.type === 'array'
            : isPlain(value)
              ? m.type === 'object' || m.type === 'record' || m.type === 'discriminated'
              : false,
      );
      return member ? modelOf(member, value) : value;
    }
    case 'discriminated': {
      if (!isPlain(value)) return value;
      const tag = value[node.discriminator];
      const variant = typeof tag === 'string' ? node.mapping[tag] : undefined;
      return variant ? modelOf(variant, value) : value;
    }
    default:
      return value;
  }
}

/**
 * The Workload of a payload spec. `build` is `value` when the host knows the value (it read the
 * file); in a worker there is none: the value is read from the payload file (see readUnits in
 * workloads/unit.ts), and build() throws. `toModel` is {@link modelOf} when the schema reads
 * date-times as Dates, so a transform case must return them as Dates.
 */
export function payloadWorkload(spec: PayloadWorkloadSpec, value?: (size: number) => unknown): Workload {
  const schema = spec.schema;
  return {
    // the transform class converts date-time strings into Dates (asDate): its expected model, derived from the schema alone
    ...(holdsDates(schema) ? { toModel: (unit: unknown) => modelOf(schema, unit) } : {}),
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
