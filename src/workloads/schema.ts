/**
 * A small, library-neutral description of a workload's data, which every schema-compiled
 * serializer and validator adapter translates into its own library's schema language
 * (JSON Schema for fast-json-stringify and TypeBox, JTD for ajv, zod/valibot/arktype builders,
 * decorated classes for class-transformer). One description per workload keeps every adapter
 * honest: all of them compile against the same shape, as the .NET studies feed one DTO to
 * every serializer.
 *
 * Property keys are the *model* names (camelCase). A workload whose wire format renames keys
 * (the snake_case "settings" variant) says so with {@link WireOptions.naming}.
 */
export type SchemaNode =
  | { type: 'string'; format?: 'uuid' | 'email' | 'date-time'; /** transform class: becomes a Date */ asDate?: boolean; nullable?: boolean }
  | { type: 'number'; integer?: boolean; /** delivered as a numeric string on the wire; transform class converts it to a number */ fromString?: boolean; nullable?: boolean }
  | { type: 'boolean'; nullable?: boolean }
  | { type: 'enum'; values: readonly string[]; nullable?: boolean }
  | { type: 'array'; items: SchemaNode; nullable?: boolean }
  | { type: 'object'; properties: Readonly<Record<string, SchemaNode>>; nullable?: boolean };

export type ObjectSchema = Extract<SchemaNode, { type: 'object' }>;

/** How a workload's payload text is written: property naming policy and indentation (spaces). */
export interface WireOptions {
  naming?: 'snake_case';
  indent?: number;
}

/** Model name → wire name under a naming policy ("firstName" → "first_name"). */
export function wireName(key: string, naming: WireOptions['naming']): string {
  if (naming !== 'snake_case') return key;
  return key.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

/**
 * The schema as it stands on the wire: keys renamed by the naming policy, numeric-string fields
 * typed as strings and dates as strings. This is what `parse`- and `validate`-class
 * deserializers check against.
 */
export function wireSchema(node: SchemaNode, naming: WireOptions['naming']): SchemaNode {
  switch (node.type) {
    case 'object': {
      // fromEntries defines own properties: a key named __proto__ stays a key (assignment would set the prototype).
      const properties: Record<string, SchemaNode> = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [wireName(k, naming), wireSchema(v, naming)]));
      return { ...node, properties };
    }
    case 'array':
      return { ...node, items: wireSchema(node.items, naming) };
    case 'number':
      return node.fromString ? { type: 'string', nullable: node.nullable } : node;
    case 'string':
      return node.asDate ? { type: 'string', format: node.format, nullable: node.nullable } : node;
    default:
      return node;
  }
}
