import {
  acceptsNull,
  isOptional,
  wireName,
  type ObjectSchema,
  type SchemaNode,
  type WireOptions,
} from '../../workloads/schema.js';
import { maskBidi } from '../../case/bidi.js';
import type { DotnetCodeShape } from '../../workloads/types.js';

/**
 * The .NET DTO generator: a workload's {@link SchemaNode} → C# source for the .NET worker
 * (workers/dotnet/), as the .NET studies feed one DTO to every serializer. Pure: schema in,
 * text out. For each workload it writes, in namespace `JsonBench.Generated.<Workload>`:
 * - DTO classes (`Unit` for the document/record, nested classes named after their property),
 *   properties PascalCase with `[JsonPropertyName]` and `[Newtonsoft.Json.JsonProperty]` wire
 *   names (left out under a snake_case naming policy when the policies give the wire name
 *   themselves, so the study's SnakeCaseLower / SnakeCaseNamingStrategy do the renaming);
 *   nullable schema nodes are nullable members; integers `long`, numbers `double`, ISO dates
 *   (`asDate`) `DateTime`, arrays `List<T>`, enums C# enums numbered from 1 with
 *   `[JsonStringEnumMemberName]` / `[EnumMember]` wire values (0 is no member, so an enum never
 *   set shows in the gate);
 * - `CanonicalIo`: a canonical reader (wire JsonElement → DTO; builds serialize inputs) and writer
 *   (DTO → model JSON; the gate's write-back of deserialize results), no serializer involved;
 * - a `JsonSerializerContext` (`<Workload>JsonContext`) with `[JsonSerializable]` for `Unit` and `List<Unit>` and the
 *   workload's options as `[JsonSourceGenerationOptions]`;
 * - `Module`, the worker's entry for the workload (found by reflection).
 * The constructs of issue 10: optional properties are nullable members neither library writes
 * when null; `null`/`unknown`/`union` nodes are `object?` (JsonElement / JToken when deserialized,
 * plain .NET values as serialize inputs); records `Dictionary<string, T>`; a discriminated union an
 * abstract class with one sealed class per tag (STJ `[JsonPolymorphic]`/`[JsonDerivedType]`, a
 * generated Newtonsoft converter); additional properties an extension-data dictionary. What a C#
 * member cannot carry faithfully is refused ({@link DtoGenerationError}): see `collect`.
 * Numbers delivered as strings (`fromString`) are `double`/`long` in the model the deserializers
 * produce, read with AllowReadingFromString; a double cannot carry the wire's fixed decimals
 * ("0.20"), so a workload with such fields gets a second namespace `…Serialize` whose DTO keeps
 * them as strings, as the JavaScript serializers are handed the wire value.
 * A workload with `dotnet: { dto: 'record' }` (study 001's code) gets positional records instead of
 * classes: `public sealed record Unit(Guid Id, string FirstName, …)`, the wire names on the
 * properties (`[property: JsonPropertyName]`) and on the parameters for Newtonsoft's constructor
 * matching, `uuid` strings as `Guid`; both libraries then deserialize through the constructor. A
 * discriminated union or additional properties are refused there. `dotnet: { settings: 'per-call' }`
 * sets the module's `WireSettings.SettingsPerCall` (workers/dotnet/src/Serializers.cs reads it).
 */

/** What the generator needs of a workload (structurally a subset of `Workload`). */
export interface DtoSource {
  id: string;
  schema: SchemaNode;
  wire?: WireOptions;
  /** the workload's .NET code shape (positional records, settings per call); absent: classes, shared settings */
  dotnet?: DotnetCodeShape;
}

/** One generated module: which directions of which workload its DTOs serve, and its C# text. */
export interface DtoModule {
  workload: string;
  directions: ('serialize' | 'deserialize')[];
  namespace: string;
  source: string;
}

/** A schema the generator cannot turn into C#: names the workload and the JSON path. */
/** True when null is a valid value of the node (the `nullable` flag, `null` and `unknown`: their C# type is a nullable one). */
function isNullable(node: SchemaNode): boolean {
  return acceptsNull(node);
}

export class DtoGenerationError extends Error {
  readonly code = 'E_DTO';
}

/** `fromString` numbers as numbers (the model deserializers produce) or strings (the wire serializers write). */
type NumberView = 'model' | 'wire';

/** C# keywords a generated identifier must not be (PascalCase names rarely are; checked anyway). */
const KEYWORDS = new Set([
  'abstract',
  'as',
  'base',
  'bool',
  'break',
  'byte',
  'case',
  'catch',
  'char',
  'checked',
  'class',
  'const',
  'continue',
  'decimal',
  'default',
  'delegate',
  'do',
  'double',
  'else',
  'enum',
  'event',
  'explicit',
  'extern',
  'false',
  'finally',
  'fixed',
  'float',
  'for',
  'foreach',
  'goto',
  'if',
  'implicit',
  'in',
  'int',
  'interface',
  'internal',
  'is',
  'lock',
  'long',
  'namespace',
  'new',
  'null',
  'object',
  'operator',
  'out',
  'override',
  'params',
  'private',
  'protected',
  'public',
  'readonly',
  'ref',
  'return',
  'sbyte',
  'sealed',
  'short',
  'sizeof',
  'stackalloc',
  'static',
  'string',
  'struct',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'uint',
  'ulong',
  'unchecked',
  'unsafe',
  'ushort',
  'using',
  'virtual',
  'void',
  'volatile',
  'while',
]);

/** Names the generated code itself uses inside a module namespace. */
const RESERVED_TYPES = new Set([
  'Canon',
  'CanonicalIo',
  'Context',
  'Module',
  'List',
  'JsonElement',
  'DateTime',
  'WorkloadModule',
  'WireSettings',
  // namespaces and framework types the generated code names unqualified (a payload key `newtonsoft`, `system` or
  // `object` made a class that shadowed them and the build failed; hostile tester, session 5)
  'System',
  'Newtonsoft',
  'JsonBench',
  'Object',
  'String',
  'Type',
  'Array',
  'Enum',
  'Attribute',
  'Exception',
  'FormatException',
  'InvalidOperationException',
  'NotSupportedException',
  'ArgumentException',
  'Math',
  'Convert',
  'Encoding',
  'Guid',
  'DateTimeOffset',
  'TimeSpan',
  'Nullable',
  'Int32',
  'Int64',
  'Double',
  'Decimal',
  'Boolean',
  'Single',
  'Byte',
  'Char',
  'Func',
  'Action',
  'Enumerable',
  'HashSet',
  'Dictionary',
  'IDictionary',
  'IList',
  'IEnumerable',
  'KeyValuePair',
  'StringComparer',
  'CultureInfo',
  'JsonValueKind',
  'JsonSerializer',
  'JsonSerializerOptions',
  'JsonSerializerContext',
  'JsonTypeInfo',
  'JsonException',
  'JsonDocument',
  'JsonConverter',
  'JsonConvert',
  'JsonProperty',
  'JsonPropertyName',
  'JsonIgnore',
  'JsonSerializable',
  'JsonPolymorphic',
  'JsonDerivedType',
  'JsonExtensionData',
  'JsonSourceGenerationOptions',
  'JsonNumberHandling',
  'Utf8JsonReader',
  'Utf8JsonWriter',
  'DataMember',
  'DataContract',
  'EnumMember',
  'JObject',
  'JToken',
  'JArray',
  'JValue',
]);

/** C#'s line terminators besides \r and \n (C# spec, "New-line"): each ends a `///` comment and is illegal inside a string literal. */
const CS_NEWLINES = /[\u0085\u2028\u2029]/g;
/** \r, \n and {@link CS_NEWLINES}: every character that ends a C# line. */
const CS_LINE_ENDS = /[\r\n\u0085\u2028\u2029]/g;
/** `pattern`'s characters in `s` written as `\uXXXX` escapes. */
const escapeChars = (s: string, pattern: RegExp) =>
  s.replace(pattern, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Text from a payload (a key path, a tag) made safe inside a `///` doc comment: line terminators
 * (\r, \n, U+0085, U+2028, U+2029) escaped, so a key cannot end the comment and add code (a
 * payload key `"x\n}namespace Evil{…"` ran its C# in the worker; hostile tester, session 5), and
 * XML's `<`, `>` and `&` escaped for the doc comment; bidirectional formatting characters shown as
 * their escapes (case/bidi.ts), so a key cannot make the code read otherwise than it is.
 */
function comment(s: string): string {
  return escapeChars(maskBidi(s), CS_LINE_ENDS).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** "station_id" → "StationId", "firstName" → "FirstName", "2fa" → "_2fa". */
export function pascalCase(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  let name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  if (!name) name = 'Value';
  if (/^[0-9]/.test(name)) name = '_' + name;
  return KEYWORDS.has(name) ? '@' + name : name;
}

/** C# string literal (a bidirectional formatting character written as its `\\uXXXX` escape: the same string, case/bidi.ts). */
function lit(s: string): string {
  return escapeChars(
    maskBidi(JSON.stringify(s)).replace(/\\u([0-9a-f]{4})/g, (_, h) => `\\u${h}`),
    CS_NEWLINES,
  );
}

/**
 * A key whose wire name both libraries' snake_case policies compute by themselves: plain
 * lower-camel words (`firstName` → `first_name`). Others (digits, acronyms, underscores) get
 * explicit names, since the policies' word splitting differs from {@link wireName} there.
 */
function policyNamesIt(key: string): boolean {
  return /^[a-z]+(?:[A-Z][a-z]+)*$/.test(key);
}

/** The nodes directly below `node` (items, values, properties, members, mapped objects). */
function children(node: SchemaNode): SchemaNode[] {
  switch (node.type) {
    case 'array':
      return [node.items];
    case 'record':
      return [node.values];
    case 'object':
      return [...Object.values(node.properties), ...(node.additionalProperties ? [node.additionalProperties] : [])];
    case 'union':
      return [...node.anyOf];
    case 'discriminated':
      return Object.values(node.mapping);
    default:
      return [];
  }
}

function hasFromString(node: SchemaNode): boolean {
  return (node.type === 'number' && Boolean(node.fromString)) || children(node).some(hasFromString);
}

function hasDiscriminated(node: SchemaNode): boolean {
  return node.type === 'discriminated' || children(node).some(hasDiscriminated);
}

/** The first conversion below `node` an untyped C# `object` cannot make (a date-time or a number delivered as a string), or null. */
function conversionIn(node: SchemaNode): string | null {
  if (node.type === 'string' && node.asDate) return 'a date-time read as a date';
  if (node.type === 'number' && node.fromString) return 'a number delivered as a string';
  for (const c of children(node)) {
    const found = conversionIn(c);
    if (found) return found;
  }
  return null;
}

/** A class of the module: a plain DTO, an abstract base of a discriminated union, or one of its derived classes (with its tag). */
interface ClassDef {
  name: string;
  node: ObjectSchema;
  path: string;
  /** derived class of a discriminated union: its base class, the tag's model key and value */
  derived?: { base: string; key: string; value: string };
}
/** The abstract base of a discriminated union: its derived classes by tag value. */
interface UnionDef {
  name: string;
  node: Extract<SchemaNode, { type: 'discriminated' }>;
  path: string;
  derived: { tag: string; name: string }[];
}
interface EnumDef {
  name: string;
  values: readonly string[];
  members: string[];
}
/** One member of a class: model key, C# property name, schema, and whether it may be absent. */
interface Member {
  key: string;
  prop: string;
  node: SchemaNode;
  optional: boolean;
}

/**
 * C# types a value of an untyped member (`object?`: `null`, `unknown`, unions, additional
 * properties) can hold when the canonical reader builds it (Canon.ReadAny), so the source
 * generator has metadata for each runtime type System.Text.Json meets.
 */
const ANY_TYPES = ['Dictionary<string, object>', 'List<object>', 'string', 'long', 'double', 'bool', 'JsonElement'];

/** Builds the C# of one module (one workload, one number view). */
class ModuleWriter {
  private readonly classes: ClassDef[] = [];
  private readonly unions: UnionDef[] = [];
  private readonly enums: EnumDef[] = [];
  private readonly taken = new Set<string>(RESERVED_TYPES);
  private readonly classOf = new Map<SchemaNode, string>();
  private readonly enumOf = new Map<SchemaNode, string>();
  /** some member is an untyped `object?` */
  private untyped = false;
  /** positional records bound through their constructor, `uuid` strings as Guid ({@link DotnetCodeShape}) */
  private readonly records: boolean;

  constructor(
    private readonly src: DtoSource,
    private readonly view: NumberView,
  ) {
    this.records = src.dotnet?.dto === 'record';
  }

  /** A string the record shape carries as a `Guid` (format `uuid`, not read as a date). */
  private isGuid(node: SchemaNode): boolean {
    return this.records && node.type === 'string' && node.format === 'uuid' && !node.asDate;
  }

  private fail(path: string, why: string): never {
    throw new DtoGenerationError(`workload ${this.src.id}: schema at ${path}: ${why}`);
  }

  private uniqueType(base: string): string {
    let name = base.replace(/^@/, '');
    for (let k = 2; this.taken.has(name); k++) name = `${base.replace(/^@/, '')}${k}`;
    this.taken.add(name);
    return name;
  }

  /** Refuses an untyped slot (union member, additional property) that needs a conversion. */
  private untypedSlot(node: SchemaNode, path: string, what: string): void {
    const conversion = conversionIn(node);
    if (conversion)
      this.fail(
        path,
        `${what} holds ${conversion}: it is an untyped C# object here (JsonElement / JToken), which cannot make that conversion`,
      );
    this.untyped = true;
  }

  private collectObject(node: ObjectSchema, name: string, path: string, derived?: ClassDef['derived']): void {
    this.classOf.set(node, name);
    this.classes.push({ name, node, path, ...(derived ? { derived } : {}) });
    for (const key of node.optional ?? []) {
      const child = node.properties[key];
      if (child && acceptsNull(child)) {
        this.fail(
          `${path}.${key}`,
          `an optional property that may also be null (${child.type === 'unknown' ? 'unknown' : child.type === 'null' ? 'always null' : 'nullable'}): absent and null are different values the gate tells apart, and a C# member has one null for both`,
        );
      }
    }
    if (node.additionalProperties && this.records)
      this.fail(
        `${path}.*`,
        'additional properties in a positional record (dotnet dto "record"): its extension data is no constructor parameter; use the class shape',
      );
    if (node.additionalProperties) this.untypedSlot(node.additionalProperties, `${path}.*`, 'additional properties');
    for (const [key, child] of Object.entries(node.properties)) this.collect(child, pascalCase(key), `${path}.${key}`);
  }

  /** Walks the schema, naming every class and enum (root first). */
  collect(node: SchemaNode, suggested: string, path: string): void {
    switch (node.type) {
      case 'null':
      case 'unknown':
        this.untyped = true;
        return;
      case 'union':
        this.untypedSlot(node, path, 'a union');
        return;
      case 'string':
        if (node.asDate && node.format && node.format !== 'date-time')
          this.fail(path, `a ${node.format} read as a date: DateTime would write it back as a date-time`);
        return;
      case 'object':
        this.collectObject(node, this.uniqueType(suggested), path);
        return;
      case 'array':
        this.collect(node.items, `${suggested}Item`, `${path}[]`);
        return;
      case 'record':
        this.collect(node.values, `${suggested}Value`, `${path}.*`);
        return;
      case 'discriminated': {
        if (this.records)
          this.fail(
            path,
            'a discriminated union in positional records (dotnet dto "record"): its derived classes are built by tag, not through one constructor; use the class shape',
          );
        const tags = Object.keys(node.mapping);
        if (tags.length === 0) this.fail(path, 'a discriminated union needs at least one tag value');
        const name = this.uniqueType(suggested);
        const def: UnionDef = { name, node, path, derived: [] };
        this.unions.push(def);
        this.classOf.set(node, name);
        for (const tag of tags) {
          const derived = this.uniqueType(`${name}${pascalCase(tag).replace(/^@/, '')}`);
          def.derived.push({ tag, name: derived });
          this.collectObject(node.mapping[tag], derived, `${path}<${node.discriminator}=${JSON.stringify(tag)}>`, {
            base: name,
            key: node.discriminator,
            value: tag,
          });
        }
        return;
      }
      case 'enum': {
        if (node.values.length === 0) this.fail(path, 'an enum needs at least one value');
        const name = this.uniqueType(suggested.endsWith('Enum') ? suggested : `${suggested}Enum`);
        const used = new Set<string>();
        const members = node.values.map((v) => {
          let m = pascalCase(v).replace(/^@/, '');
          for (let k = 2; used.has(m); k++) m = `${pascalCase(v).replace(/^@/, '')}${k}`;
          used.add(m);
          return m;
        });
        this.enumOf.set(node, name);
        this.enums.push({ name, values: node.values, members });
        return;
      }
      default:
        return;
    }
  }

  /** The C# type of a node (with `?` when nullable, or `nullable` is forced: an optional member). */
  type(node: SchemaNode, nullable = isNullable(node)): string {
    const q = nullable ? '?' : '';
    switch (node.type) {
      case 'string':
        return (node.asDate ? 'DateTime' : this.isGuid(node) ? 'Guid' : 'string') + q;
      case 'number':
        if (node.fromString && this.view === 'wire') return 'string' + q;
        return (node.integer ? 'long' : 'double') + q;
      case 'boolean':
        return 'bool' + q;
      case 'enum':
        return this.enumOf.get(node)! + q;
      case 'array':
        return `List<${this.type(node.items)}>` + q;
      case 'record':
        return `Dictionary<string, ${this.type(node.values)}>` + q;
      case 'object':
      case 'discriminated':
        return this.classOf.get(node)! + q;
      case 'null':
      case 'unknown':
      case 'union':
        return 'object?';
    }
  }

  private isReference(node: SchemaNode): boolean {
    return (
      node.type === 'array' ||
      node.type === 'record' ||
      node.type === 'object' ||
      node.type === 'discriminated' ||
      (node.type === 'string' && !node.asDate && !this.isGuid(node)) ||
      (node.type === 'number' && Boolean(node.fromString) && this.view === 'wire')
    );
  }

  /** Expression reading a non-null JsonElement `e` as the node's (non-nullable) value. */
  private readExpr(node: SchemaNode, e: string, depth: number): string {
    const item = (n: SchemaNode, x: string) =>
      isNullable(n) && n.type !== 'null' && n.type !== 'unknown' && n.type !== 'union'
        ? `${x}.ValueKind == JsonValueKind.Null ? default(${this.type(n)}) : ${this.readExpr(n, x, depth + 1)}`
        : this.readExpr(n, x, depth + 1);
    switch (node.type) {
      case 'string':
        if (this.isGuid(node)) return `Guid.Parse(${e}.GetString()!)`;
        return node.asDate ? `Canon.ReadDate(${e})` : `${e}.GetString()!`;
      case 'number':
        if (node.fromString && this.view === 'wire') return `${e}.GetString()!`;
        return node.integer ? `Canon.ReadInt(${e})` : `Canon.ReadNum(${e})`;
      case 'boolean':
        return `${e}.GetBoolean()`;
      case 'enum':
        return `Read${this.enumOf.get(node)}(${e}.GetString()!)`;
      case 'object':
      case 'discriminated':
        return `Read${this.classOf.get(node)}(${e})`;
      case 'array':
        return `Canon.ReadList(${e}, x${depth} => ${item(node.items, `x${depth}`)})`;
      case 'record':
        return `Canon.ReadMap(${e}, x${depth} => ${item(node.values, `x${depth}`)})`;
      case 'null':
      case 'unknown':
      case 'union':
        return `Canon.ReadAny(${e})`;
    }
  }

  /** Statement writing value `v` (of the node's C# type) to writer `w`. */
  private writeStmt(node: SchemaNode, v: string, w: string, depth: number, nullable = isNullable(node)): string {
    switch (node.type) {
      case 'string':
        if (this.isGuid(node))
          return nullable
            ? `if (${v} is null) ${w}.WriteNullValue(); else ${w}.WriteStringValue(${v}.Value);`
            : `${w}.WriteStringValue(${v});`;
        return node.asDate ? `Canon.Date(${w}, ${v});` : `Canon.Str(${w}, ${v});`;
      case 'number':
        if (node.fromString && this.view === 'wire') return `Canon.Str(${w}, ${v});`;
        return node.integer ? `Canon.Int(${w}, ${v});` : `Canon.Num(${w}, ${v});`;
      case 'boolean':
        return `Canon.Bool(${w}, ${v});`;
      case 'enum':
        return nullable
          ? `if (${v} is null) ${w}.WriteNullValue(); else Write${this.enumOf.get(node)}(${w}, ${v}.Value);`
          : `Write${this.enumOf.get(node)}(${w}, ${v});`;
      case 'object':
      case 'discriminated':
        return `if (${v} is null) ${w}.WriteNullValue(); else Write${this.classOf.get(node)}(${w}, ${v});`;
      case 'array':
      case 'record': {
        const ww = `w${depth}`;
        const x = `x${depth}`;
        const items = node.type === 'array' ? node.items : node.values;
        return `Canon.${node.type === 'array' ? 'List' : 'Map'}(${w}, ${v}, (${ww}, ${x}) => { ${this.writeStmt(items, x, ww, depth + 1)} });`;
      }
      case 'null':
      case 'unknown':
      case 'union':
        return `Canon.Any(${w}, ${v});`;
    }
  }

  private members(def: ClassDef): Member[] {
    const used = new Set<string>([def.name]);
    return Object.entries(def.node.properties).map(([key, node]) => {
      let prop = pascalCase(key);
      if (used.has(prop.replace(/^@/, ''))) {
        const base = prop.replace(/^@/, '');
        let k = 2;
        while (used.has(`${base}${k}`)) k++;
        prop = `${base}${k}`;
      }
      used.add(prop.replace(/^@/, ''));
      return { key, prop, node, optional: isOptional(def.node, key) };
    });
  }

  /** The C# name of a class's extension-data member (additional properties), unique among its members. */
  private extensionMember(def: ClassDef, members: readonly Member[]): string {
    const used = new Set([def.name, ...members.map((m) => m.prop.replace(/^@/, ''))]);
    let name = 'AdditionalProperties';
    for (let k = 2; used.has(name); k++) name = `AdditionalProperties${k}`;
    return name;
  }

  private classText(def: ClassDef): string {
    if (this.records) return this.recordText(def);
    const naming = this.src.wire?.naming;
    const lines = [
      `/// <summary>${comment(def.path)}</summary>`,
      `public sealed class ${def.name}${def.derived ? ` : ${def.derived.base}` : ''}`,
      '{',
    ];
    const members = this.members(def);
    for (const { key, prop, node, optional } of members) {
      const named = !naming || !policyNamesIt(key);
      const onWire = lit(wireName(key, naming));
      if (named) lines.push(`    [JsonPropertyName(${onWire})]`);
      if (optional) {
        // absent on the wire ↔ null in the member: neither library writes it when null
        lines.push('    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]');
        lines.push(
          `    [Newtonsoft.Json.JsonProperty(${named ? `${onWire}, ` : ''}NullValueHandling = Newtonsoft.Json.NullValueHandling.Ignore)]`,
        );
      } else if (named) {
        lines.push(`    [Newtonsoft.Json.JsonProperty(${onWire})]`);
      }
      const init = !optional && !isNullable(node) && this.isReference(node) ? ' = null!;' : '';
      lines.push(`    public ${this.type(node, optional || isNullable(node))} ${prop} { get; set; }${init}`);
    }
    if (def.node.additionalProperties) {
      lines.push("    /// <summary>Keys other than the declared ones (the schema's additional properties).</summary>");
      lines.push('    [System.Text.Json.Serialization.JsonExtensionData] [Newtonsoft.Json.JsonExtensionData]');
      lines.push(`    public Dictionary<string, object?>? ${this.extensionMember(def, members)} { get; set; }`);
    }
    lines.push('}');
    return lines.join('\n');
  }

  /**
   * A positional record (study 001's `public record User(Guid Id, string FirstName, …)`): one
   * constructor parameter per member, in schema order, which both libraries deserialize through.
   * System.Text.Json matches a parameter to its property by the C# name and takes the wire name from
   * the property (`[property: JsonPropertyName]`); Newtonsoft.Json matches by the wire name, so the
   * parameter carries `[Newtonsoft.Json.JsonProperty]` too (snake_case keys the policy names itself
   * need neither: both sides resolve the same policy name).
   */
  private recordText(def: ClassDef): string {
    const naming = this.src.wire?.naming;
    const params = this.members(def).map(({ key, prop, node, optional }) => {
      const named = !naming || !policyNamesIt(key);
      const onWire = lit(wireName(key, naming));
      const attrs: string[] = [];
      if (named) attrs.push(`[property: JsonPropertyName(${onWire})]`);
      if (optional) {
        attrs.push('[property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]');
        const nj = `Newtonsoft.Json.JsonProperty(${named ? `${onWire}, ` : ''}NullValueHandling = Newtonsoft.Json.NullValueHandling.Ignore)`;
        attrs.push(`[${nj}]`, `[property: ${nj}]`);
      } else if (named) {
        attrs.push(`[Newtonsoft.Json.JsonProperty(${onWire})]`, `[property: Newtonsoft.Json.JsonProperty(${onWire})]`);
      }
      return `    ${[...attrs, this.type(node, optional || isNullable(node)), prop].join(' ')}`;
    });
    return [
      `/// <summary>${comment(def.path)}</summary>`,
      `public sealed record ${def.name}(`,
      params.join(',\n') + ');',
    ].join('\n');
  }

  /**
   * The abstract base of a discriminated union: System.Text.Json's polymorphism attributes (the
   * tag written first, read wherever it stands: AllowOutOfOrderMetadataProperties) and a
   * Newtonsoft converter (Newtonsoft has no tag-based polymorphism short of $type).
   */
  private unionText(def: UnionDef): string {
    const tagOnWire = lit(wireName(def.node.discriminator, this.src.wire?.naming));
    return [
      `/// <summary>${comment(def.path)}: a union of objects told apart by ${comment(tagOnWire)}</summary>`,
      `[JsonPolymorphic(TypeDiscriminatorPropertyName = ${tagOnWire})]`,
      ...def.derived.map((d) => `[JsonDerivedType(typeof(${d.name}), ${lit(d.tag)})]`),
      `[Newtonsoft.Json.JsonConverter(typeof(${def.name}NewtonsoftConverter))]`,
      `public abstract class ${def.name} { }`,
      '',
      `/// <summary>`,
      `/// Newtonsoft.Json's reading and writing of ${def.name} by its tag ${comment(tagOnWire)}: reads the object into a JObject`,
      `/// (dates left as strings, as the reader found them), creates the class its tag names and populates it`,
      `/// from the other keys; writes the tag first, then the properties of the object's contract`,
      `/// (names, null handling and converters as Newtonsoft resolves them).`,
      `/// </summary>`,
      `internal sealed class ${def.name}NewtonsoftConverter : Newtonsoft.Json.JsonConverter`,
      '{',
      `    public override bool CanConvert(Type objectType) => typeof(${def.name}).IsAssignableFrom(objectType);`,
      '    public override object? ReadJson(Newtonsoft.Json.JsonReader reader, Type objectType, object? existingValue, Newtonsoft.Json.JsonSerializer serializer)',
      '    {',
      '        if (reader.TokenType == Newtonsoft.Json.JsonToken.Null) return null;',
      '        var dates = reader.DateParseHandling;',
      '        reader.DateParseHandling = Newtonsoft.Json.DateParseHandling.None;',
      '        Newtonsoft.Json.Linq.JObject o;',
      '        try { o = Newtonsoft.Json.Linq.JObject.Load(reader); } finally { reader.DateParseHandling = dates; }',
      `        var tagToken = o[${tagOnWire}];`,
      `        if (tagToken is null || tagToken.Type != Newtonsoft.Json.Linq.JTokenType.String) throw new Newtonsoft.Json.JsonSerializationException("${def.name}: no string property " + ${tagOnWire});`,
      '        var tag = (string)tagToken!;',
      `        ${def.name} value;`,
      '        switch (tag)',
      '        {',
      ...def.derived.map((d) => `            case ${lit(d.tag)}: value = new ${d.name}(); break;`),
      `            default: throw new Newtonsoft.Json.JsonSerializationException("${def.name}: unknown tag " + tag);`,
      '        }',
      `        o.Remove(${tagOnWire});`,
      '        using (var r = o.CreateReader()) serializer.Populate(r, value);',
      '        return value;',
      '    }',
      '    public override void WriteJson(Newtonsoft.Json.JsonWriter writer, object? value, Newtonsoft.Json.JsonSerializer serializer)',
      '    {',
      '        if (value is null) { writer.WriteNull(); return; }',
      '        string tag;',
      '        switch (value)',
      '        {',
      ...def.derived.map((d) => `            case ${d.name} _: tag = ${lit(d.tag)}; break;`),
      `            default: throw new Newtonsoft.Json.JsonSerializationException("${def.name}: no tag for " + value.GetType());`,
      '        }',
      '        var contract = (Newtonsoft.Json.Serialization.JsonObjectContract)serializer.ContractResolver.ResolveContract(value.GetType());',
      '        writer.WriteStartObject();',
      `        writer.WritePropertyName(${tagOnWire});`,
      '        writer.WriteValue(tag);',
      '        foreach (var p in contract.Properties)',
      '        {',
      '            if (p.Ignored || !p.Readable) continue;',
      '            var x = p.ValueProvider!.GetValue(value);',
      '            if (x is null && (p.NullValueHandling ?? serializer.NullValueHandling) == Newtonsoft.Json.NullValueHandling.Ignore) continue;',
      '            writer.WritePropertyName(p.PropertyName!);',
      '            if (p.Converter != null && x != null) p.Converter.WriteJson(writer, x, serializer); else serializer.Serialize(writer, x);',
      '        }',
      '        var extra = contract.ExtensionDataGetter?.Invoke(value);',
      '        if (extra != null) foreach (var kv in extra) { writer.WritePropertyName(kv.Key.ToString()!); serializer.Serialize(writer, kv.Value); }',
      '        writer.WriteEndObject();',
      '    }',
      '}',
    ].join('\n');
  }

  /**
   * The enum with its wire values. `[JsonStringEnumMemberName]` is System.Text.Json 9+: a build
   * against an older one (net8.0, target dotnet@8; Mono with `stj@8.0.5`: the worker's csproj defines
   * `STJ9_OR_GREATER` from the STJ major it compiles against) writes and reads the wire values
   * through a generated `JsonConverter<T>` instead (a string of a member's wire value, nothing else).
   */
  private enumText(def: EnumDef): string {
    const converter = `${def.name}WireConverter`;
    const lines = [
      '#if STJ9_OR_GREATER',
      `[JsonConverter(typeof(JsonStringEnumConverter<${def.name}>))]`,
      '#else',
      `[JsonConverter(typeof(${converter}))]`,
      '#endif',
      '[Newtonsoft.Json.JsonConverter(typeof(Newtonsoft.Json.Converters.StringEnumConverter))]',
      `public enum ${def.name}`,
      '{',
    ];
    def.values.forEach((v, i) =>
      lines.push(
        '#if STJ9_OR_GREATER',
        `    [JsonStringEnumMemberName(${lit(v)})]`,
        '#endif',
        `    [EnumMember(Value = ${lit(v)})] ${def.members[i]} = ${i + 1},`,
      ),
    );
    lines.push('}');
    lines.push(
      '#if !STJ9_OR_GREATER',
      `/// <summary>${comment(def.name)}'s wire values for System.Text.Json 8 (no JsonStringEnumMemberName before .NET 9).</summary>`,
      `internal sealed class ${converter} : JsonConverter<${def.name}>`,
      '{',
      `    public override ${def.name} Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)`,
      '    {',
      `        if (reader.TokenType != JsonTokenType.String) throw new JsonException(${lit(`${def.name}: expected a string`)});`,
      '        switch (reader.GetString())',
      '        {',
      ...def.values.map((v, i) => `            case ${lit(v)}: return ${def.name}.${def.members[i]};`),
      `            default: throw new JsonException(${lit(`${def.name}: not one of its values`)});`,
      '        }',
      '    }',
      `    public override void Write(Utf8JsonWriter writer, ${def.name} value, JsonSerializerOptions options)`,
      '    {',
      '        switch (value)',
      '        {',
      ...def.values.map(
        (v, i) => `            case ${def.name}.${def.members[i]}: writer.WriteStringValue(${lit(v)}); break;`,
      ),
      `            default: throw new JsonException(${lit(`${def.name}: undefined value`)});`,
      '        }',
      '    }',
      '}',
      '#endif',
    );
    return lines.join('\n');
  }

  /** The canonical reader of a positional record: every member read into its constructor argument (absent or null: the type's default). */
  private recordReaderText(def: ClassDef, props: readonly Member[]): string {
    const naming = this.src.wire?.naming;
    const args = props.map(({ key, prop, node, optional }) => {
      const p = `p_${prop.replace(/^@/, '')}`;
      const t = this.type(node, optional || isNullable(node));
      return `            e.TryGetProperty(${lit(wireName(key, naming))}, out var ${p}) && ${p}.ValueKind != JsonValueKind.Null ? (${t})(${this.readExpr(node, p, 0)}) : default(${t})!`;
    });
    return [
      `    internal static ${def.name} Read${def.name}(JsonElement e)`,
      '    {',
      `        return new ${def.name}(`,
      args.join(',\n') + ');',
      '    }',
    ].join('\n');
  }

  private canonText(): string {
    const naming = this.src.wire?.naming;
    const out: string[] = [
      '/// <summary>Canonical reader (wire → DTO) and writer (DTO → model JSON); no serializer under test is involved.</summary>',
      'internal static class CanonicalIo',
      '{',
    ];
    for (const def of this.classes) {
      const props = this.members(def);
      const extension = def.node.additionalProperties ? this.extensionMember(def, props) : null;
      if (this.records) out.push(this.recordReaderText(def, props));
      else
        out.push(
          `    internal static ${def.name} Read${def.name}(JsonElement e)`,
          '    {',
          `        var v = new ${def.name}();`,
        );
      for (const { key, prop, node } of this.records ? [] : props) {
        const p = `p_${prop.replace(/^@/, '')}`;
        out.push(
          `        if (e.TryGetProperty(${lit(wireName(key, naming))}, out var ${p}) && ${p}.ValueKind != JsonValueKind.Null) v.${prop} = ${this.readExpr(node, p, 0)};`,
        );
      }
      if (extension) {
        const known = [
          ...props.map((m) => wireName(m.key, naming)),
          ...(def.derived ? [wireName(def.derived.key, naming)] : []),
        ];
        out.push(`        v.${extension} = Canon.ReadExtra(e, new HashSet<string> { ${known.map(lit).join(', ')} });`);
      }
      if (!this.records) out.push('        return v;', '    }');
      out.push(
        `    internal static void Write${def.name}(Utf8JsonWriter w, ${def.name} v)`,
        '    {',
        '        w.WriteStartObject();',
      );
      if (def.derived)
        out.push(
          `        w.WritePropertyName(${lit(def.derived.key)});`,
          `        w.WriteStringValue(${lit(def.derived.value)});`,
        );
      for (const { key, prop, node, optional } of props) {
        const stmt = this.writeStmt(node, `v.${prop}`, 'w', 0, optional || isNullable(node));
        if (optional) out.push(`        if (v.${prop} is not null) { w.WritePropertyName(${lit(key)}); ${stmt} }`);
        else out.push(`        w.WritePropertyName(${lit(key)});`, `        ${stmt}`);
      }
      if (extension) out.push(`        Canon.WriteExtra(w, v.${extension});`);
      out.push('        w.WriteEndObject();', '    }');
    }
    for (const def of this.unions) {
      const tag = lit(wireName(def.node.discriminator, naming));
      out.push(
        `    internal static ${def.name} Read${def.name}(JsonElement e)`,
        '    {',
        `        switch (e.GetProperty(${tag}).GetString())`,
        '        {',
      );
      for (const d of def.derived) out.push(`            case ${lit(d.tag)}: return Read${d.name}(e);`);
      out.push(
        `            default: throw new FormatException("no ${def.name} class has tag " + e.GetProperty(${tag}).GetString());`,
        '        }',
        '    }',
      );
      out.push(
        `    internal static void Write${def.name}(Utf8JsonWriter w, ${def.name} v)`,
        '    {',
        '        switch (v)',
        '        {',
      );
      for (const d of def.derived) out.push(`            case ${d.name} d: Write${d.name}(w, d); break;`);
      out.push(
        `            default: throw new FormatException("no ${def.name} class " + v.GetType());`,
        '        }',
        '    }',
      );
    }
    for (const def of this.enums) {
      out.push(`    internal static ${def.name} Read${def.name}(string s)`, '    {', '        switch (s)', '        {');
      def.values.forEach((v, i) => out.push(`            case ${lit(v)}: return ${def.name}.${def.members[i]};`));
      out.push(
        `            default: throw new FormatException("not a ${def.name} value: " + s);`,
        '        }',
        '    }',
      );
      out.push(
        `    internal static void Write${def.name}(Utf8JsonWriter w, ${def.name} v)`,
        '    {',
        '        switch (v)',
        '        {',
      );
      def.values.forEach((v, i) =>
        out.push(`            case ${def.name}.${def.members[i]}: w.WriteStringValue(${lit(v)}); break;`),
      );
      out.push(`            default: Canon.UndefinedEnum(w, ${lit(def.name)}, (int)v); break;`, '        }', '    }');
    }
    out.push('}');
    return out.join('\n');
  }

  /** The whole module text. */
  render(namespace: string, directions: DtoModule['directions']): string {
    const wire = this.src.wire ?? {};
    const polymorphic = hasDiscriminated(this.src.schema);
    const options: string[] = [];
    if (wire.indent) options.push('WriteIndented = true');
    if (wire.naming === 'snake_case') options.push('PropertyNamingPolicy = JsonKnownNamingPolicy.SnakeCaseLower');
    if (hasFromString(this.src.schema)) options.push('NumberHandling = JsonNumberHandling.AllowReadingFromString');
    const perCall = this.src.dotnet?.settings === 'per-call';
    const settings = `new WireSettings { SnakeCase = ${wire.naming === 'snake_case'}, Indented = ${Boolean(wire.indent)}, NumbersFromStrings = ${hasFromString(this.src.schema)}, Polymorphic = ${polymorphic}${perCall ? ', SettingsPerCall = true' : ''} }`;
    // The STJ source generator names its files after the context's simple name, so each module's context needs its own.
    const context = `${namespace.replace(/^JsonBench\.Generated\./, '').replace(/\./g, '')}JsonContext`;
    const indentBody = (text: string) =>
      text
        .split('\n')
        .map((l) => (l ? '    ' + l : l))
        .join('\n');
    const body = [
      ...this.enums.map((d) => this.enumText(d)),
      ...this.unions.map((d) => this.unionText(d)),
      ...this.classes.map((d) => this.classText(d)),
      this.canonText(),
      [
        // AllowOutOfOrderMetadataProperties is System.Text.Json 9+ (STJ9_OR_GREATER: .NET 9+, or an STJ 9+ package, as Mono's net462 build takes by default): an older one (dotnet@8, Mono with stj@8.0.5) reads the tag only where it comes first
        ...(polymorphic
          ? [
              '#if STJ9_OR_GREATER',
              `[JsonSourceGenerationOptions(${[...options, 'AllowOutOfOrderMetadataProperties = true'].join(', ')})]`,
              ...(options.length ? ['#else', `[JsonSourceGenerationOptions(${options.join(', ')})]`] : []),
              '#endif',
            ]
          : options.length
            ? [`[JsonSourceGenerationOptions(${options.join(', ')})]`]
            : []),
        '[JsonSerializable(typeof(Unit))]',
        '[JsonSerializable(typeof(List<Unit>))]',
        // the runtime types an untyped member can hold: the source generator must have their metadata
        ...(this.untyped ? ANY_TYPES.map((t) => `[JsonSerializable(typeof(${t}))]`) : []),
        `internal partial class ${context} : JsonSerializerContext { }`,
      ].join('\n'),
      [
        `/// <summary>The worker's entry for workload ${comment(this.src.id)} (${directions.join(', ')}).</summary>`,
        'public sealed class Module : WorkloadModule<Unit>',
        '{',
        `    public override string Workload => ${lit(this.src.id)};`,
        `    public override IReadOnlyList<string> Directions { get; } = new[] { ${directions.map(lit).join(', ')} };`,
        `    public override WireSettings Settings { get; } = ${settings};`,
        '    protected override Unit ReadWire(JsonElement e) => CanonicalIo.ReadUnit(e);',
        '    protected override void WriteModel(Utf8JsonWriter w, Unit v) => CanonicalIo.WriteUnit(w, v);',
        `    protected override JsonTypeInfo<Unit> UnitInfo => ${context}.Default.Unit;`,
        `    protected override JsonTypeInfo<List<Unit>> ListInfo => ${context}.Default.ListUnit;`,
        '}',
      ].join('\n'),
    ].join('\n\n');
    return `namespace ${namespace}\n{\n${indentBody(body)}\n}\n`;
  }
}

const HEADER = `// <auto-generated> by jsonbench src/dotnet/dto-generator.ts from workload schemas; do not edit. </auto-generated>
#nullable enable
using System;
using System.Collections.Generic;
using System.Runtime.Serialization;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using JsonBench.Worker;
`;

/** The namespace segment of a workload id ("users-settings" → "UsersSettings"). */
export function workloadNamespace(id: string): string {
  return `JsonBench.Generated.${pascalCase(id).replace(/^@/, '')}`;
}

/**
 * The modules of one workload: one serving both directions, or (when the schema has numbers
 * delivered as strings) a `…Deserialize` module with the numeric model and a `…Serialize` module
 * keeping the wire strings. @throws DtoGenerationError naming the workload and schema path when
 * the root is not an object, an enum has no values, or the indentation is not 0 or 2.
 */
export function generateDtoModules(src: DtoSource, namespace = workloadNamespace(src.id)): DtoModule[] {
  if (src.schema.type !== 'object')
    throw new DtoGenerationError(
      `workload ${src.id}: schema at $: the .NET DTO generator needs an object at the root (got ${src.schema.type})`,
    );
  const indent = src.wire?.indent ?? 0;
  if (indent !== 0 && indent !== 2)
    throw new DtoGenerationError(
      `workload ${src.id}: wire indent ${indent}: the .NET serializers are set to indent by 2 (STJ WriteIndented, Newtonsoft Formatting.Indented), so only 0 or 2 can be written`,
    );
  const make = (view: NumberView, ns: string, directions: DtoModule['directions']): DtoModule => {
    const w = new ModuleWriter(src, view);
    w.collect(src.schema, 'Unit', '$');
    return { workload: src.id, directions, namespace: ns, source: w.render(ns, directions) };
  };
  if (!hasFromString(src.schema)) return [make('model', namespace, ['serialize', 'deserialize'])];
  return [
    make('model', `${namespace}.Deserialize`, ['deserialize']),
    make('wire', `${namespace}.Serialize`, ['serialize']),
  ];
}

/**
 * One C# file holding the modules of every workload given (namespaces made unique when two ids
 * map to the same name). @throws DtoGenerationError as {@link generateDtoModules}, or when two
 * workloads share an id.
 */
export function generateDtoFile(sources: readonly DtoSource[]): { modules: DtoModule[]; text: string } {
  const ids = new Set<string>();
  const namespaces = new Set<string>();
  const modules: DtoModule[] = [];
  for (const src of sources) {
    if (ids.has(src.id)) throw new DtoGenerationError(`workload ${src.id}: given twice`);
    ids.add(src.id);
    let ns = workloadNamespace(src.id);
    for (let k = 2; namespaces.has(ns); k++) ns = `${workloadNamespace(src.id)}${k}`;
    namespaces.add(ns);
    modules.push(...generateDtoModules(src, ns));
  }
  return { modules, text: HEADER + '\n' + modules.map((m) => m.source).join('\n') };
}
