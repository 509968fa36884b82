import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workloads } from '../../src/workloads/index.js';
import type { SchemaNode } from '../../src/workloads/schema.js';
import {
  DtoGenerationError,
  generateDtoFile,
  generateDtoModules,
  pascalCase,
  type DtoSource,
} from '../../src/serializers/dotnet/dto-generator.js';
import edge from './edge-workload.js';
import constructs from './constructs-workload.js';

const builtins = await Promise.all(workloads.ids.map((id) => workloads.load(id)));

/** The text of one class (or enum) declaration in a module: from its line to the closing brace at its indentation. */
function declaration(source: string, header: string): string {
  const start = source.indexOf(header);
  assert.ok(start >= 0, `no "${header}" in the generated source`);
  const end = source.indexOf('\n    }', start);
  return source.slice(start, end);
}

test('every built-in workload generates one module per direction view, named after it', () => {
  const { modules } = generateDtoFile(builtins);
  assert.deepEqual(
    modules.map((m) => [m.workload, m.namespace, m.directions.join('+')]),
    [
      ['weather-station', 'JsonBench.Generated.WeatherStation.Deserialize', 'deserialize'],
      ['weather-station', 'JsonBench.Generated.WeatherStation.Serialize', 'serialize'],
      ['users', 'JsonBench.Generated.Users', 'serialize+deserialize'],
      ['users-settings', 'JsonBench.Generated.UsersSettings', 'serialize+deserialize'],
      ['orders', 'JsonBench.Generated.Orders', 'serialize+deserialize'],
      ['company', 'JsonBench.Generated.Company', 'serialize+deserialize'],
      ['users-record', 'JsonBench.Generated.UsersRecord', 'serialize+deserialize'],
      ['users-settings-record', 'JsonBench.Generated.UsersSettingsRecord', 'serialize+deserialize'],
    ],
  );
});

test("users-record: study 001's positional record with a Guid id, both libraries' wire names on property and parameter", () => {
  const [m] = generateDtoModules(builtins.find((w) => w.id === 'users-record')!);
  const unit = m.source.slice(
    m.source.indexOf('public sealed record Unit('),
    m.source.indexOf(');', m.source.indexOf('public sealed record Unit(')),
  );
  assert.match(
    unit,
    /\[property: JsonPropertyName\("id"\)\] \[Newtonsoft\.Json\.JsonProperty\("id"\)\] \[property: Newtonsoft\.Json\.JsonProperty\("id"\)\] Guid Id,/,
  );
  assert.match(unit, /\[property: JsonPropertyName\("firstName"\)\] .* string FirstName,/);
  assert.doesNotMatch(m.source, /public sealed class Unit/);
  assert.match(
    m.source,
    /return new Unit\(\n\s+e\.TryGetProperty\("id", out var p_Id\) && p_Id\.ValueKind != JsonValueKind\.Null \? \(Guid\)\(Guid\.Parse\(p_Id\.GetString\(\)!\)\) : default\(Guid\)!,/,
  );
  assert.match(
    m.source,
    /w\.WritePropertyName\("id"\);\n\s+w\.WriteStringValue\(v\.Id\);/,
    'the canonical writer writes the Guid as a string',
  );
  assert.doesNotMatch(m.source, /SettingsPerCall/, 'users-record shares its settings (the study passed none)');
  const [perCall] = generateDtoModules(builtins.find((w) => w.id === 'users-settings-record')!);
  assert.match(
    perCall.source,
    /new WireSettings \{ SnakeCase = true, Indented = true, NumbersFromStrings = false, Polymorphic = false, SettingsPerCall = true \}/,
  );
  assert.match(
    perCall.source,
    /Guid Id,\n\s+string FirstName,/,
    'snake_case keys the policy names itself need no attribute',
  );
});

test('the record shape refuses what one constructor cannot take: a discriminated union, additional properties', () => {
  const tagged: DtoSource = {
    id: 'tagged',
    dotnet: { dto: 'record' },
    schema: {
      type: 'object',
      properties: {
        shape: {
          type: 'discriminated',
          discriminator: 'kind',
          mapping: { a: { type: 'object', properties: { x: { type: 'number' } } } },
        },
      },
    },
  };
  assert.throws(
    () => generateDtoModules(tagged),
    /workload tagged: schema at \$\.shape: a discriminated union in positional records/,
  );
  const open: DtoSource = {
    id: 'open',
    dotnet: { dto: 'record' },
    schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
  };
  assert.throws(() => generateDtoModules(open), /schema at \$\.\*: additional properties in a positional record/);
  assert.doesNotThrow(() => generateDtoModules({ ...open, dotnet: { dto: 'class' } }));
});

test('users: each property carries its camelCase wire name for both libraries', () => {
  const [m] = generateDtoModules(builtins.find((w) => w.id === 'users')!);
  const unit = declaration(m.source, 'public sealed class Unit');
  for (const [key, prop] of [
    ['id', 'Id'],
    ['firstName', 'FirstName'],
    ['email', 'Email'],
  ]) {
    assert.match(
      unit,
      new RegExp(
        `\\[JsonPropertyName\\("${key}"\\)\\]\\n\\s+\\[Newtonsoft\\.Json\\.JsonProperty\\("${key}"\\)\\]\\n\\s+public string ${prop} \\{ get; set; \\} = null!;`,
      ),
    );
  }
  assert.match(
    m.source,
    /\[JsonSerializable\(typeof\(Unit\)\)\]\n\s+\[JsonSerializable\(typeof\(List<Unit>\)\)\]\n\s+internal partial class UsersJsonContext : JsonSerializerContext/,
  );
  assert.doesNotMatch(m.source, /JsonSourceGenerationOptions/, 'compact camelCase needs no options');
});

test('users-settings: the naming policies rename, and the source-generation context is indented snake_case', () => {
  const [m] = generateDtoModules(builtins.find((w) => w.id === 'users-settings')!);
  const unit = declaration(m.source, 'public sealed class Unit');
  assert.doesNotMatch(
    unit,
    /JsonPropertyName|JsonProperty\(/,
    'SnakeCaseLower / SnakeCaseNamingStrategy name plain camelCase keys themselves',
  );
  assert.match(unit, /public string FirstName \{ get; set; \}/);
  assert.match(
    m.source,
    /\[JsonSourceGenerationOptions\(WriteIndented = true, PropertyNamingPolicy = JsonKnownNamingPolicy\.SnakeCaseLower\)\]/,
  );
  assert.match(
    m.source,
    /new WireSettings \{ SnakeCase = true, Indented = true, NumbersFromStrings = false, Polymorphic = false \}/,
  );
  assert.match(
    m.source,
    /e\.TryGetProperty\("first_name", out var p_FirstName\)/,
    'the canonical reader reads wire names',
  );
  assert.match(m.source, /w\.WritePropertyName\("firstName"\);/, 'the canonical writer writes model names');
});

test('orders: an enum numbered from 1 with its wire values for both libraries, a DateTime, a nullable string, nested classes', () => {
  const [m] = generateDtoModules(builtins.find((w) => w.id === 'orders')!);
  const e = declaration(m.source, 'public enum StatusEnum');
  assert.match(
    m.source,
    /#if STJ9_OR_GREATER\n\s+\[JsonConverter\(typeof\(JsonStringEnumConverter<StatusEnum>\)\)\]\n\s+#else\n\s+\[JsonConverter\(typeof\(StatusEnumWireConverter\)\)\]\n\s+#endif\n\s+\[Newtonsoft\.Json\.JsonConverter\(typeof\(Newtonsoft\.Json\.Converters\.StringEnumConverter\)\)\]\n\s+public enum StatusEnum/,
  );
  assert.match(
    e,
    /#if STJ9_OR_GREATER\n\s+\[JsonStringEnumMemberName\("pending"\)\]\n\s+#endif\n\s+\[EnumMember\(Value = "pending"\)\] Pending = 1,/,
  );
  // .NET 8 has no JsonStringEnumMemberName: its converter maps the wire values both ways
  const conv = declaration(m.source, 'internal sealed class StatusEnumWireConverter');
  assert.match(conv, /case "pending": return StatusEnum\.Pending;/);
  assert.match(conv, /case StatusEnum\.Pending: writer\.WriteStringValue\("pending"\); break;/);
  assert.match(e, /Cancelled = 5,/);
  const unit = declaration(m.source, 'public sealed class Unit');
  assert.match(unit, /public DateTime CreatedAt \{ get; set; \}/);
  assert.match(unit, /public StatusEnum Status \{ get; set; \}/);
  assert.match(unit, /public List<LinesItem> Lines \{ get; set; \} = null!;/);
  assert.match(unit, /public ShippingAddress ShippingAddress \{ get; set; \} = null!;/);
  assert.match(unit, /public string\? Notes \{ get; set; \}$/);
  assert.match(
    declaration(m.source, 'public sealed class LinesItem'),
    /public long Quantity \{ get; set; \}\n[\s\S]*public double UnitPrice \{ get; set; \}/,
  );
  assert.match(m.source, /v\.CreatedAt = Canon\.ReadDate\(p_CreatedAt\);/);
  assert.match(m.source, /Canon\.Date\(w, v\.CreatedAt\);/);
});

test('weather-station: numbers from strings are doubles in the deserialize model and strings in the serialize view; nullable numbers are double?', () => {
  const [de, se] = generateDtoModules(builtins.find((w) => w.id === 'weather-station')!);
  assert.match(
    de.source,
    /\[JsonSourceGenerationOptions\(NumberHandling = JsonNumberHandling\.AllowReadingFromString\)\]/,
  );
  const deData = declaration(de.source, 'public sealed class DataItem');
  assert.match(deData, /\[JsonPropertyName\("temp"\)\][\s\S]*?public double Temp \{ get; set; \}/);
  assert.match(deData, /public double\? WindChill \{ get; set; \}/);
  assert.match(deData, /public long WindDirLast \{ get; set; \}/);
  const seData = declaration(se.source, 'public sealed class DataItem');
  assert.match(seData, /public string Temp \{ get; set; \} = null!;/);
  assert.match(seData, /public double DewPoint \{ get; set; \}/, 'numbers that are numbers on the wire stay numbers');
  assert.match(se.source, /internal partial class WeatherStationSerializeJsonContext/);
  assert.match(de.source, /internal partial class WeatherStationDeserializeJsonContext/);
});

test('company: a list of strings inside a list of records', () => {
  const [m] = generateDtoModules(builtins.find((w) => w.id === 'company')!);
  assert.match(
    declaration(m.source, 'public sealed class Unit'),
    /public List<EmployeesItem> Employees \{ get; set; \} = null!;/,
  );
  assert.match(
    declaration(m.source, 'public sealed class EmployeesItem'),
    /public List<string> Hobbies \{ get; set; \} = null!;/,
  );
  assert.match(m.source, /Canon\.ReadList\(p_Hobbies, x0 => x0\.GetString\(\)!\)/);
});

test('edge cases: keywords, digits, a property named like its class, repeated names, nullable items and enums get valid unique C# names', () => {
  const [m] = generateDtoModules(edge);
  const unit = declaration(m.source, 'public sealed class Unit');
  assert.match(unit, /\[JsonPropertyName\("class"\)\][\s\S]*?public string Class \{ get; set; \}/);
  assert.match(unit, /\[JsonPropertyName\("2fa"\)\][\s\S]*?public bool _2fa \{ get; set; \}/);
  assert.match(
    unit,
    /\[JsonPropertyName\("unit"\)\][\s\S]*?public Unit2 Unit2 \{ get; set; \} = null!;/,
    'neither the nested class nor the member may be called like the root class',
  );
  assert.match(
    declaration(m.source, 'public sealed class Unit2'),
    /\[JsonPropertyName\("unit"\)\][\s\S]*?public long Unit \{ get; set; \}/,
  );
  assert.match(unit, /public Nested Nested \{ get; set; \}/);
  assert.match(declaration(m.source, 'public sealed class Nested\n'), /public Nested2 Nested2 \{ get; set; \}/);
  assert.match(unit, /public DateTime\? When \{ get; set; \}/);
  assert.match(unit, /public List<string\?>\? Tags \{ get; set; \}/);
  assert.match(unit, /public List<LevelsItemEnum\?> Levels \{ get; set; \} = null!;/);
  assert.match(unit, /public bool\? Ok \{ get; set; \}/);
  assert.match(unit, /public Extra\? Extra \{ get; set; \}/);
  assert.match(
    declaration(m.source, 'public enum LevelsItemEnum'),
    /\[JsonStringEnumMemberName\("in-progress"\)\]\n\s+#endif\n\s+\[EnumMember\(Value = "in-progress"\)\] InProgress = 2,/,
  );
  assert.match(
    m.source,
    /x0\.ValueKind == JsonValueKind\.Null \? default\(LevelsItemEnum\?\) : ReadLevelsItemEnum\(x0\.GetString\(\)!\)/,
  );
});

test('under a snake_case policy, keys the policies may split differently keep explicit wire names', () => {
  const [m] = generateDtoModules({ ...edge, wire: { naming: 'snake_case' } });
  const unit = declaration(m.source, 'public sealed class Unit');
  assert.match(unit, /\[JsonPropertyName\("address2"\)\]\n\s+\[Newtonsoft\.Json\.JsonProperty\("address2"\)\]/);
  assert.match(unit, /\[JsonPropertyName\("http_u_r_l"\)\]/, 'wireName puts an underscore before every capital');
  assert.doesNotMatch(unit, /JsonPropertyName\("class"\)/, 'a one-word key needs no attribute');
});

test('issue 10 constructs: optional members nullable and left out when null by both libraries; null, unknown and unions untyped', () => {
  const [m] = generateDtoModules(constructs);
  const unit = declaration(m.source, 'public sealed class Unit');
  assert.match(
    unit,
    /\[JsonPropertyName\("rank"\)\]\n\s+\[JsonIgnore\(Condition = JsonIgnoreCondition\.WhenWritingNull\)\]\n\s+\[Newtonsoft\.Json\.JsonProperty\("rank", NullValueHandling = Newtonsoft\.Json\.NullValueHandling\.Ignore\)\]\n\s+public long\? Rank \{ get; set; \}\n/,
  );
  assert.match(unit, /public LevelEnum\? Level \{ get; set; \}\n/);
  assert.match(unit, /public Home\? Home \{ get; set; \}\n/);
  assert.match(unit, /public string\? Nick \{ get; set; \}\n/, 'optional: no null! initialiser');
  assert.match(unit, /public long Id \{ get; set; \}/, 'an integer beyond 32 bits is a long');
  for (const prop of ['Gone', 'Anything', 'Code'])
    assert.match(unit, new RegExp(`public object\\? ${prop} \\{ get; set; \\}\n`));
  assert.match(
    m.source,
    /if \(v\.Rank is not null\) \{ w\.WritePropertyName\("rank"\); Canon\.Int\(w, v\.Rank\); \}/,
    'the canonical writer leaves an absent member out',
  );
  assert.match(
    m.source,
    /if \(v\.Level is not null\) \{ w\.WritePropertyName\("level"\); if \(v\.Level is null\) w\.WriteNullValue\(\); else WriteLevelEnum\(w, v\.Level\.Value\); \}/,
  );
  assert.match(m.source, /v\.Anything = Canon\.ReadAny\(p_Anything\);/);
  assert.match(m.source, /Canon\.Any\(w, v\.Code\);/);
  for (const t of ['Dictionary<string, object>', 'List<object>', 'string', 'long', 'double', 'bool', 'JsonElement']) {
    assert.ok(
      m.source.includes(`[JsonSerializable(typeof(${t}))]`),
      `the source-generation context knows ${t}, a runtime type of an untyped member`,
    );
  }
  for (const keyword of ['date', 'time', 'uuid'])
    assert.ok(
      unit.includes(
        `public string ${keyword === 'date' ? 'Day' : keyword === 'time' ? 'At' : 'Uid'} { get; set; } = null!;`,
      ),
      `a ${keyword} string is a string`,
    );
});

test('issue 10 constructs: records are dictionaries; a discriminated union is an abstract class with STJ polymorphism and a Newtonsoft converter; additional properties are extension data', () => {
  const [m] = generateDtoModules(constructs);
  const unit = declaration(m.source, 'public sealed class Unit');
  assert.match(unit, /public Dictionary<string, double> Scores \{ get; set; \} = null!;/);
  assert.match(unit, /public Dictionary<string, FriendsValue> Friends \{ get; set; \} = null!;/);
  assert.match(m.source, /v\.Scores = Canon\.ReadMap\(p_Scores, x0 => Canon\.ReadNum\(x0\)\);/);
  assert.match(
    m.source,
    /\[JsonPolymorphic\(TypeDiscriminatorPropertyName = "kind"\)\]\n\s+\[JsonDerivedType\(typeof\(ShapeCircle\), "circle"\)\]\n\s+\[JsonDerivedType\(typeof\(ShapeRect\), "rect"\)\]\n\s+\[Newtonsoft\.Json\.JsonConverter\(typeof\(ShapeNewtonsoftConverter\)\)\]\n\s+public abstract class Shape \{ \}/,
  );
  assert.match(m.source, /public sealed class ShapeRect : Shape/);
  assert.match(declaration(m.source, 'public sealed class ShapeRect'), /public string\? Label \{ get; set; \}/);
  assert.doesNotMatch(
    declaration(m.source, 'public sealed class ShapeRect'),
    /Kind/,
    'the tag is no member of the derived class',
  );
  assert.match(m.source, /case "rect": value = new ShapeRect\(\); break;/);
  assert.match(m.source, /case ShapeCircle _: tag = "circle"; break;/);
  assert.match(
    m.source,
    /#if STJ9_OR_GREATER\n\s+\[JsonSourceGenerationOptions\(AllowOutOfOrderMetadataProperties = true\)\]\n\s+#endif/,
    'the tag need not come first (.NET 9+: on .NET 8 it must)',
  );
  assert.match(m.source, /Polymorphic = true \}/);
  assert.match(
    m.source,
    /w\.WritePropertyName\("kind"\);\n\s+w\.WriteStringValue\("circle"\);/,
    'the canonical writer writes the tag',
  );
  const meta = declaration(m.source, 'public sealed class Meta');
  assert.match(
    meta,
    /\[System\.Text\.Json\.Serialization\.JsonExtensionData\] \[Newtonsoft\.Json\.JsonExtensionData\]\n\s+public Dictionary<string, object\?>\? AdditionalProperties \{ get; set; \}/,
  );
  assert.match(m.source, /v\.AdditionalProperties = Canon\.ReadExtra\(e, new HashSet<string> \{ "v" \}\);/);
});

test('issue 10 constructs the DTOs cannot carry faithfully are refused with the construct and the path', () => {
  const refused = (schema: SchemaNode, why: RegExp) =>
    assert.throws(
      () => generateDtoModules({ id: 'c', schema }),
      (e: Error) => e instanceof DtoGenerationError && why.test(e.message),
      why.source,
    );
  refused(
    { type: 'object', properties: { a: { type: 'string', nullable: true } }, optional: ['a'] },
    /workload c: schema at \$\.a: an optional property that may also be null \(nullable\): absent and null are different values/,
  );
  refused(
    { type: 'object', properties: { a: { type: 'unknown' } }, optional: ['a'] },
    /schema at \$\.a: an optional property that may also be null \(unknown\)/,
  );
  refused(
    {
      type: 'object',
      properties: {
        u: { type: 'union', anyOf: [{ type: 'number' }, { type: 'string', format: 'date-time', asDate: true }] },
      },
    },
    /schema at \$\.u: a union holds a date-time read as a date: it is an untyped C# object here/,
  );
  refused(
    { type: 'object', properties: {}, additionalProperties: { type: 'number', fromString: true } },
    /schema at \$\.\*: additional properties holds a number delivered as a string/,
  );
  refused(
    { type: 'object', properties: { d: { type: 'string', format: 'date', asDate: true } } },
    /schema at \$\.d: a date read as a date: DateTime would write it back as a date-time/,
  );
  refused(
    { type: 'object', properties: { s: { type: 'discriminated', discriminator: 'k', mapping: {} } } },
    /schema at \$\.s: a discriminated union needs at least one tag value/,
  );
});

test('pascalCase turns wire keys into C# identifiers', () => {
  assert.equal(pascalCase('station_id'), 'StationId');
  assert.equal(pascalCase('firstName'), 'FirstName');
  assert.equal(pascalCase('rain_rate_last_in'), 'RainRateLastIn');
  assert.equal(pascalCase('2fa'), '_2fa');
  assert.equal(pascalCase('in-progress'), 'InProgress');
  assert.equal(pascalCase('---'), 'Value');
});

test('a schema the generator cannot write is refused with the workload and the path', () => {
  assert.throws(
    () => generateDtoModules({ id: 'arr', schema: { type: 'array', items: { type: 'string' } } }),
    (e: Error) =>
      e instanceof DtoGenerationError &&
      /workload arr: schema at \$: .*object at the root \(got array\)/.test(e.message),
  );
  assert.throws(
    () => generateDtoModules({ id: 'ind', schema: { type: 'object', properties: {} }, wire: { indent: 4 } }),
    (e: Error) => e instanceof DtoGenerationError && /workload ind: wire indent 4/.test(e.message),
  );
  assert.throws(
    () =>
      generateDtoModules({
        id: 'en',
        schema: {
          type: 'object',
          properties: { s: { type: 'object', properties: { k: { type: 'enum', values: [] } } } },
        },
      }),
    (e: Error) =>
      e instanceof DtoGenerationError &&
      /workload en: schema at \$\.s\.k: an enum needs at least one value/.test(e.message),
  );
  assert.throws(() => generateDtoFile([edge, edge]), /workload dto-edge: given twice/);
});

test('two workload ids that map to one C# name get distinct namespaces', () => {
  const { modules } = generateDtoFile([
    { ...edge, id: 'a-b' },
    { ...edge, id: 'a_b' },
  ]);
  assert.deepEqual(
    modules.map((m) => m.namespace),
    ['JsonBench.Generated.AB', 'JsonBench.Generated.AB2'],
  );
  assert.match(modules[1].source, /internal partial class AB2JsonContext/);
});

test('payload keys cannot end a generated comment or string (code injection), nor name a class that shadows a namespace or framework type', () => {
  const evil = 'x\n}namespace Evil{ class Run { } }namespace JsonBench.Generated.Hostile{\n//';
  const schema = {
    type: 'object',
    properties: {
      ok: { type: 'number' },
      [evil]: { type: 'object', properties: { c: { type: 'number' } } },
      ['a\u2028b']: { type: 'object', properties: { d: { type: 'string' } } },
      ['p\u0085q\rr\u2029s']: { type: 'string' },
      newtonsoft: { type: 'object', properties: { a: { type: 'number' } } },
      system: { type: 'object', properties: { b: { type: 'number' } } },
      object: { type: 'object', properties: { s: { type: 'string' } } },
    },
  } as unknown as SchemaNode;
  const text = generateDtoModules({ id: 'payload-hostile', schema })
    .map((m) => m.source)
    .join('\n');
  assert.doesNotMatch(text, /[\r\u0085\u2028\u2029]/, "no raw C# line terminator besides the generator's own \\n");
  // C# lines: every line that holds the key's text is a /// comment or the key inside a string literal
  for (const line of text.split('\n').filter((l) => l.includes('namespace Evil'))) {
    assert.ok(
      /^\s*\/\/\//.test(line) || /"x\\n}namespace Evil/.test(line),
      `the key escaped its comment or literal: ${line}`,
    );
  }
  for (const shadow of ['Newtonsoft', 'System', 'Object'])
    assert.doesNotMatch(text, new RegExp(`class ${shadow}\\b`), `a class named ${shadow}`);
});

test('a payload key holding bidirectional formatting characters is written with their escapes in the generated C# (hx1 3.2): the same key, code that reads as it is', () => {
  const key = 'user\u202ENAME\u2066x\u2069';
  const schema = { type: 'object', properties: { [key]: { type: 'string' } } } as unknown as SchemaNode;
  const text = generateDtoModules({ id: 'payload-bidi', schema })
    .map((m) => m.source)
    .join('\n');
  assert.doesNotMatch(text, /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/, 'a raw bidi control in the generated C#');
  assert.match(text, /\[JsonPropertyName\("user\\u202ENAME\\u2066x\\u2069"\)\]/);
});
