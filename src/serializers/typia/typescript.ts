import { isOptional, type ObjectSchema, type SchemaNode } from '../../workloads/schema.js';

/**
 * TypeScript type text from a {@link SchemaNode}, for typia, which generates its code from
 * TypeScript types. One generator serves both the build (the built-in workloads' templates,
 * written by scripts/typia-templates.ts) and the run (a user's payload, src/serializers/typia/runtime.ts).
 *
 * | SchemaNode | TypeScript |
 * |---|---|
 * | string (any format) | `string` (the validate class checks types, not formats; see support/model.ts) |
 * | number / integer (every width) | `number` / `number & tags.Type<"int64">` (typia checks Number.isInteger and the int64 range; integers beyond 2^53 arrive rounded and pass) |
 * | enum | `"a" \| "b"` |
 * | null, unknown | `null`, `unknown` |
 * | array | `Array<T>` |
 * | object | `{ "k": T; "o"?: T }`; extra keys `[key: string]: E \| T…` (an index signature must admit the declared keys' types too, so typia checks extra keys against that union) |
 * | record | `Record<string, T>` |
 * | union, discriminated | `A \| B`, a union of objects with a literal tag |
 * | nullable | `T \| null` |
 * Keys are always quoted (JSON.stringify), so any key is a valid property name.
 */
export function toTypeScript(node: SchemaNode, indent = ''): string {
  const nullable = 'nullable' in node && node.nullable;
  const t = bare(node, indent);
  return nullable ? `${t} | null` : t;
}

function group(text: string): string {
  return text.includes(' | ') || text.includes(' & ') ? `(${text})` : text;
}

function objectType(o: ObjectSchema, indent: string, tag?: [string, string]): string {
  const inner = indent + '  ';
  const lines = tag ? [`${inner}${JSON.stringify(tag[0])}: ${JSON.stringify(tag[1])};`] : [];
  for (const [key, child] of Object.entries(o.properties)) {
    lines.push(`${inner}${JSON.stringify(key)}${isOptional(o, key) ? '?' : ''}: ${toTypeScript(child, inner)};`);
  }
  const extra = o.additionalProperties;
  if (extra) {
    // a TypeScript index signature must also admit every declared key's type, so the extra keys'
    // type is widened by them (typia then checks extra keys against that union)
    const declared = Object.values(o.properties).map((c) => toTypeScript(c, inner));
    const types = [...new Set([toTypeScript(extra, inner), ...declared, ...(o.optional?.length ? ['undefined'] : [])])];
    lines.push(`${inner}[key: string]: ${extra.type === 'unknown' ? 'unknown' : types.map(group).join(' | ')};`);
  }
  return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : '{}';
}

function bare(node: SchemaNode, indent: string): string {
  switch (node.type) {
    case 'string':
      return 'string';
    case 'number':
      return node.integer ? 'number & tags.Type<"int64">' : 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return node.values.map((v) => JSON.stringify(v)).join(' | ');
    case 'null':
      return 'null';
    case 'unknown':
      return 'unknown';
    case 'array':
      return `Array<${toTypeScript(node.items, indent)}>`;
    case 'object':
      return objectType(node, indent);
    case 'record':
      return `Record<string, ${toTypeScript(node.values, indent)}>`;
    case 'union':
      return node.anyOf.map((m) => group(toTypeScript(m, indent))).join(' | ');
    case 'discriminated':
      return Object.entries(node.mapping)
        .map(([tag, o]) => group(objectType(o, indent, [node.discriminator, tag])))
        .join(' | ');
  }
}

/** Characters typia 12 does not escape safely when it writes a name or a literal into the code it generates. */
const UNSAFE_IN_TYPIA = /["\\`\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * The property names, discriminator tags and enum values of `node` that typia could not be given
 * safely: typia 12.2.1 writes a property name into the error path of its generated code with a
 * `"` escaped badly, so a payload key such as `"+require('fs')…//` became code that ran in the
 * worker when its check failed (a hostile tester's payload; jsonbench compiles and runs typia's
 * output). A name holding `"`, `\`, a backtick, a control character or a line separator is
 * refused (the serializer is `unsupported` for that payload) rather than passed on. Pure.
 */
export function unsafeForTypia(node: SchemaNode): string[] {
  const out = new Set<string>();
  const see = (text: string) => {
    if (UNSAFE_IN_TYPIA.test(text)) out.add(text);
  };
  const visit = (n: SchemaNode): void => {
    switch (n.type) {
      case 'enum':
        for (const v of n.values) if (typeof v === 'string') see(v);
        return;
      case 'array':
        return visit(n.items);
      case 'record':
        return visit(n.values);
      case 'union':
        return n.anyOf.forEach(visit);
      case 'object':
        for (const [key, child] of Object.entries(n.properties)) {
          see(key);
          visit(child);
        }
        if (n.additionalProperties) visit(n.additionalProperties);
        return;
      case 'discriminated':
        see(n.discriminator);
        for (const [tag, o] of Object.entries(n.mapping)) {
          see(tag);
          visit(o);
        }
        return;
      default:
        return;
    }
  };
  visit(node);
  return [...out];
}

/** The functions a typia module exports: for the unit, and (`…List`) for an array of units. */
export type TypiaExport = 'stringify' | 'stringifyList' | 'assertParse' | 'assertParseList';

/**
 * The text of a typia template module: imports, the `Unit` type and one `typia.json.create…`
 * call per export. `typia generate` (build) or typia's transformer (run time) expands the calls.
 * @param doc the module's opening comment (one paragraph)
 */
export function renderTypiaTemplate(unit: SchemaNode, exports: readonly TypiaExport[], doc: string): string {
  const calls: Record<TypiaExport, string> = {
    stringify: '/** Unit → JSON text. */\nexport const stringify = typia.json.createStringify<Unit>();',
    stringifyList:
      '/** Units → JSON text (`list`). */\nexport const stringifyList = typia.json.createStringify<Unit[]>();',
    assertParse:
      '/** JSON text → unit, type-checked; throws TypeGuardError. */\nexport const assertParse = typia.json.createAssertParse<Unit>();',
    assertParseList:
      '/** JSON text → units, type-checked; throws TypeGuardError (`list`). */\nexport const assertParseList = typia.json.createAssertParse<Unit[]>();',
  };
  return [
    `/**\n${doc
      .split('\n')
      .map((l) => ` * ${l}`.trimEnd())
      .join('\n')}\n */`,
    "import typia, { type tags } from 'typia';",
    '',
    '/** One unit as it stands on the wire. */',
    `export type Unit = ${toTypeScript(unit)};`,
    '',
    ...exports.map((e) => calls[e]),
    '',
  ].join('\n');
}
