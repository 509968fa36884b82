import { wireName, type SchemaNode, type WireOptions } from '../../workloads/schema.js';

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
 * Numbers delivered as strings (`fromString`) are `double`/`long` in the model the deserializers
 * produce, read with AllowReadingFromString; a double cannot carry the wire's fixed decimals
 * ("0.20"), so a workload with such fields gets a second namespace `…Serialize` whose DTO keeps
 * them as strings, as the JavaScript serializers are handed the wire value.
 */

/** What the generator needs of a workload (structurally a subset of `Workload`). */
export interface DtoSource {
  id: string;
  schema: SchemaNode;
  wire?: WireOptions;
}

/** One generated module: which directions of which workload its DTOs serve, and its C# text. */
export interface DtoModule {
  workload: string;
  directions: ('serialize' | 'deserialize')[];
  namespace: string;
  source: string;
}

/** A schema the generator cannot turn into C#: names the workload and the JSON path. */
/** True when null is a valid value of the node (the `nullable` flag; the generator refuses `null`/`unknown` nodes first). */
function isNullable(node: SchemaNode): boolean {
  return 'nullable' in node && node.nullable === true;
}

export class DtoGenerationError extends Error {
  readonly code = 'E_DTO';
}

/** `fromString` numbers as numbers (the model deserializers produce) or strings (the wire serializers write). */
type NumberView = 'model' | 'wire';

/** C# keywords a generated identifier must not be (PascalCase names rarely are; checked anyway). */
const KEYWORDS = new Set(['abstract', 'as', 'base', 'bool', 'break', 'byte', 'case', 'catch', 'char', 'checked', 'class', 'const', 'continue', 'decimal', 'default', 'delegate', 'do', 'double', 'else', 'enum', 'event', 'explicit', 'extern', 'false', 'finally', 'fixed', 'float', 'for', 'foreach', 'goto', 'if', 'implicit', 'in', 'int', 'interface', 'internal', 'is', 'lock', 'long', 'namespace', 'new', 'null', 'object', 'operator', 'out', 'override', 'params', 'private', 'protected', 'public', 'readonly', 'ref', 'return', 'sbyte', 'sealed', 'short', 'sizeof', 'stackalloc', 'static', 'string', 'struct', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'uint', 'ulong', 'unchecked', 'unsafe', 'ushort', 'using', 'virtual', 'void', 'volatile', 'while']);

/** Names the generated code itself uses inside a module namespace. */
const RESERVED_TYPES = new Set(['Canon', 'CanonicalIo', 'Context', 'Module', 'List', 'JsonElement', 'DateTime', 'WorkloadModule', 'WireSettings']);

/** "station_id" → "StationId", "firstName" → "FirstName", "2fa" → "_2fa". */
export function pascalCase(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/).filter(Boolean);
  let name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  if (!name) name = 'Value';
  if (/^[0-9]/.test(name)) name = '_' + name;
  return KEYWORDS.has(name) ? '@' + name : name;
}

/** C# string literal. */
function lit(s: string): string {
  return JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, (_, h) => `\\u${h}`);
}

/**
 * A key whose wire name both libraries' snake_case policies compute by themselves: plain
 * lower-camel words (`firstName` → `first_name`). Others (digits, acronyms, underscores) get
 * explicit names, since the policies' word splitting differs from {@link wireName} there.
 */
function policyNamesIt(key: string): boolean {
  return /^[a-z]+(?:[A-Z][a-z]+)*$/.test(key);
}

function hasFromString(node: SchemaNode): boolean {
  switch (node.type) {
    case 'number': return Boolean(node.fromString);
    case 'array': return hasFromString(node.items);
    case 'object': return Object.values(node.properties).some(hasFromString);
    default: return false;
  }
}

interface ClassDef { name: string; node: Extract<SchemaNode, { type: 'object' }>; path: string }
interface EnumDef { name: string; values: readonly string[]; members: string[] }

/** Builds the C# of one module (one workload, one number view). */
class ModuleWriter {
  private readonly classes: ClassDef[] = [];
  private readonly enums: EnumDef[] = [];
  private readonly taken = new Set<string>(RESERVED_TYPES);
  private readonly classOf = new Map<SchemaNode, string>();
  private readonly enumOf = new Map<SchemaNode, string>();

  constructor(private readonly src: DtoSource, private readonly view: NumberView) {}

  private fail(path: string, why: string): never {
    throw new DtoGenerationError(`workload ${this.src.id}: schema at ${path}: ${why}`);
  }

  private uniqueType(base: string): string {
    let name = base.replace(/^@/, '');
    for (let k = 2; this.taken.has(name); k++) name = `${base.replace(/^@/, '')}${k}`;
    this.taken.add(name);
    return name;
  }

  /** Walks the schema, naming every class and enum (root first). */
  collect(node: SchemaNode, suggested: string, path: string): void {
    // the constructs issue 10 added to the schema language have no DTO mapping here yet: their .NET cases are unsupported, named
    if (node.type === 'null' || node.type === 'unknown' || node.type === 'record' || node.type === 'union' || node.type === 'discriminated') {
      this.fail(path, `the .NET DTO generator has no mapping for ${node.type === 'discriminated' ? 'a discriminated union' : node.type === 'null' ? 'an always-null value' : `a ${node.type}`} yet`);
    }
    if (node.type === 'object' && (node.optional?.length || node.additionalProperties)) {
      this.fail(path, `the .NET DTO generator has no mapping for ${node.optional?.length ? `optional properties (${node.optional.join(', ')})` : 'additional properties'} yet`);
    }
    if (node.type === 'object') {
      const name = this.uniqueType(suggested);
      this.classOf.set(node, name);
      this.classes.push({ name, node, path });
      for (const [key, child] of Object.entries(node.properties)) this.collect(child, pascalCase(key), `${path}.${key}`);
    } else if (node.type === 'array') {
      this.collect(node.items, `${suggested}Item`, `${path}[]`);
    } else if (node.type === 'enum') {
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
    }
  }

  /** The C# type of a node (with `?` when nullable). */
  type(node: SchemaNode): string {
    const q = isNullable(node) ? '?' : '';
    switch (node.type) {
      case 'string': return (node.asDate ? 'DateTime' : 'string') + q;
      case 'number':
        if (node.fromString && this.view === 'wire') return 'string' + q;
        return (node.integer ? 'long' : 'double') + q;
      case 'boolean': return 'bool' + q;
      case 'enum': return this.enumOf.get(node)! + q;
      case 'array': return `List<${this.type(node.items)}>` + q;
      case 'object': return this.classOf.get(node)! + q;
      default: return this.fail('$', `no mapping for a ${node.type} node (collect() refuses it first)`);
    }
  }

  private isReference(node: SchemaNode): boolean {
    return node.type === 'array' || node.type === 'object' || (node.type === 'string' && !node.asDate) || (node.type === 'number' && Boolean(node.fromString) && this.view === 'wire');
  }

  /** Expression reading a non-null JsonElement `e` as the node's (non-nullable) value. */
  private readExpr(node: SchemaNode, e: string, depth: number): string {
    switch (node.type) {
      case 'string': return node.asDate ? `Canon.ReadDate(${e})` : `${e}.GetString()!`;
      case 'number':
        if (node.fromString && this.view === 'wire') return `${e}.GetString()!`;
        return node.integer ? `Canon.ReadInt(${e})` : `Canon.ReadNum(${e})`;
      case 'boolean': return `${e}.GetBoolean()`;
      case 'enum': return `Read${this.enumOf.get(node)}(${e}.GetString()!)`;
      case 'object': return `Read${this.classOf.get(node)}(${e})`;
      case 'array': {
        const x = `x${depth}`;
        const item = isNullable(node.items)
          ? `${x}.ValueKind == JsonValueKind.Null ? default(${this.type(node.items)}) : ${this.readExpr(node.items, x, depth + 1)}`
          : this.readExpr(node.items, x, depth + 1);
        return `Canon.ReadList(${e}, ${x} => ${item})`;
      }
      default: return this.fail('$', `no mapping for a ${node.type} node (collect() refuses it first)`);
    }
  }

  /** Statement writing value `v` (of the node's C# type) to writer `w`. */
  private writeStmt(node: SchemaNode, v: string, w: string, depth: number): string {
    switch (node.type) {
      case 'string': return node.asDate ? `Canon.Date(${w}, ${v});` : `Canon.Str(${w}, ${v});`;
      case 'number':
        if (node.fromString && this.view === 'wire') return `Canon.Str(${w}, ${v});`;
        return node.integer ? `Canon.Int(${w}, ${v});` : `Canon.Num(${w}, ${v});`;
      case 'boolean': return `Canon.Bool(${w}, ${v});`;
      case 'enum': return isNullable(node)
        ? `if (${v} is null) ${w}.WriteNullValue(); else Write${this.enumOf.get(node)}(${w}, ${v}.Value);`
        : `Write${this.enumOf.get(node)}(${w}, ${v});`;
      case 'object': return `if (${v} is null) ${w}.WriteNullValue(); else Write${this.classOf.get(node)}(${w}, ${v});`;
      case 'array': {
        const ww = `w${depth}`;
        const x = `x${depth}`;
        return `Canon.List(${w}, ${v}, (${ww}, ${x}) => { ${this.writeStmt(node.items, x, ww, depth + 1)} });`;
      }
      default: return this.fail('$', `no mapping for a ${node.type} node (collect() refuses it first)`);
    }
  }

  private properties(def: ClassDef): { key: string; prop: string; node: SchemaNode }[] {
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
      return { key, prop, node };
    });
  }

  private classText(def: ClassDef): string {
    const naming = this.src.wire?.naming;
    const lines = [`/// <summary>${def.path}</summary>`, `public sealed class ${def.name}`, '{'];
    for (const { key, prop, node } of this.properties(def)) {
      if (!naming || !policyNamesIt(key)) {
        const onWire = wireName(key, naming);
        lines.push(`    [JsonPropertyName(${lit(onWire)})]`, `    [Newtonsoft.Json.JsonProperty(${lit(onWire)})]`);
      }
      const init = !isNullable(node) && this.isReference(node) ? ' = null!;' : '';
      lines.push(`    public ${this.type(node)} ${prop} { get; set; }${init}`);
    }
    lines.push('}');
    return lines.join('\n');
  }

  private enumText(def: EnumDef): string {
    const lines = [
      `[JsonConverter(typeof(JsonStringEnumConverter<${def.name}>))]`,
      '[Newtonsoft.Json.JsonConverter(typeof(Newtonsoft.Json.Converters.StringEnumConverter))]',
      `public enum ${def.name}`, '{',
    ];
    def.values.forEach((v, i) => lines.push(`    [JsonStringEnumMemberName(${lit(v)})] [EnumMember(Value = ${lit(v)})] ${def.members[i]} = ${i + 1},`));
    lines.push('}');
    return lines.join('\n');
  }

  private canonText(): string {
    const naming = this.src.wire?.naming;
    const out: string[] = ['/// <summary>Canonical reader (wire → DTO) and writer (DTO → model JSON); no serializer under test is involved.</summary>', 'internal static class CanonicalIo', '{'];
    for (const def of this.classes) {
      const props = this.properties(def);
      out.push(`    internal static ${def.name} Read${def.name}(JsonElement e)`, '    {', `        var v = new ${def.name}();`);
      for (const { key, prop, node } of props) {
        out.push(`        if (e.TryGetProperty(${lit(wireName(key, naming))}, out var p_${prop.replace(/^@/, '')}) && p_${prop.replace(/^@/, '')}.ValueKind != JsonValueKind.Null) v.${prop} = ${this.readExpr(node, `p_${prop.replace(/^@/, '')}`, 0)};`);
      }
      out.push('        return v;', '    }');
      out.push(`    internal static void Write${def.name}(Utf8JsonWriter w, ${def.name} v)`, '    {', '        w.WriteStartObject();');
      for (const { key, prop, node } of props) {
        out.push(`        w.WritePropertyName(${lit(key)});`, `        ${this.writeStmt(node, `v.${prop}`, 'w', 0)}`);
      }
      out.push('        w.WriteEndObject();', '    }');
    }
    for (const def of this.enums) {
      out.push(`    internal static ${def.name} Read${def.name}(string s)`, '    {', '        switch (s)', '        {');
      def.values.forEach((v, i) => out.push(`            case ${lit(v)}: return ${def.name}.${def.members[i]};`));
      out.push(`            default: throw new FormatException("not a ${def.name} value: " + s);`, '        }', '    }');
      out.push(`    internal static void Write${def.name}(Utf8JsonWriter w, ${def.name} v)`, '    {', '        switch (v)', '        {');
      def.values.forEach((v, i) => out.push(`            case ${def.name}.${def.members[i]}: w.WriteStringValue(${lit(v)}); break;`));
      out.push(`            default: Canon.UndefinedEnum(w, ${lit(def.name)}, (int)v); break;`, '        }', '    }');
    }
    out.push('}');
    return out.join('\n');
  }

  /** The whole module text. */
  render(namespace: string, directions: DtoModule['directions']): string {
    const wire = this.src.wire ?? {};
    const options: string[] = [];
    if (wire.indent) options.push('WriteIndented = true');
    if (wire.naming === 'snake_case') options.push('PropertyNamingPolicy = JsonKnownNamingPolicy.SnakeCaseLower');
    if (hasFromString(this.src.schema)) options.push('NumberHandling = JsonNumberHandling.AllowReadingFromString');
    const settings = `new WireSettings { SnakeCase = ${wire.naming === 'snake_case'}, Indented = ${Boolean(wire.indent)}, NumbersFromStrings = ${hasFromString(this.src.schema)} }`;
    // The STJ source generator names its files after the context's simple name, so each module's context needs its own.
    const context = `${namespace.replace(/^JsonBench\.Generated\./, '').replace(/\./g, '')}JsonContext`;
    const indentBody = (text: string) => text.split('\n').map((l) => (l ? '    ' + l : l)).join('\n');
    const body = [
      ...this.enums.map((d) => this.enumText(d)),
      ...this.classes.map((d) => this.classText(d)),
      this.canonText(),
      [
        ...(options.length ? [`[JsonSourceGenerationOptions(${options.join(', ')})]`] : []),
        '[JsonSerializable(typeof(Unit))]',
        '[JsonSerializable(typeof(List<Unit>))]',
        `internal partial class ${context} : JsonSerializerContext { }`,
      ].join('\n'),
      [
        `/// <summary>The worker's entry for workload ${this.src.id} (${directions.join(', ')}).</summary>`,
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
  if (src.schema.type !== 'object') throw new DtoGenerationError(`workload ${src.id}: schema at $: the .NET DTO generator needs an object at the root (got ${src.schema.type})`);
  const indent = src.wire?.indent ?? 0;
  if (indent !== 0 && indent !== 2) throw new DtoGenerationError(`workload ${src.id}: wire indent ${indent}: the .NET serializers are set to indent by 2 (STJ WriteIndented, Newtonsoft Formatting.Indented), so only 0 or 2 can be written`);
  const make = (view: NumberView, ns: string, directions: DtoModule['directions']): DtoModule => {
    const w = new ModuleWriter(src, view);
    w.collect(src.schema, 'Unit', '$');
    return { workload: src.id, directions, namespace: ns, source: w.render(ns, directions) };
  };
  if (!hasFromString(src.schema)) return [make('model', namespace, ['serialize', 'deserialize'])];
  return [make('model', `${namespace}.Deserialize`, ['deserialize']), make('wire', `${namespace}.Serialize`, ['serialize'])];
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
