import type { Accept, Probe, ProbeDirection, ProbeFamily } from '../types.js';
import { builtinFamilies } from '../index.js';
import { conformanceProbes, type ConformanceSet } from '../catalog/conformance.js';
import { nestedCheck } from '../catalog/structure.js';
import { anyClass, arr, bool, int, num, obj, str } from '../catalog/build.js';
import type { DotnetCell } from './cell.js';
import { exactInteger } from './outcome.js';

export type { DotnetCell };

/**
 * The .NET probe catalog (issue 26, item 3): the questions of the JavaScript catalog that make sense
 * for a .NET serializer, asked of the C# worker's own types (workers/dotnet/src/ProbeTypes.cs), plus
 * the .NET studies' own: each library's attributes, naming policies, converters, polymorphism by type
 * names and what a base type round-trips to, untrusted `$type` names, depth limits. A probe that asks
 * the JavaScript question keeps its id (so the matrix puts .NET's verdicts in the same row); where the
 * .NET side differs (its C# model, its accepted behaviours) the results record carries the .NET side
 * too (run/probe-records.ts). The host judges with the same judge (probes/judge.ts) what the worker
 * reports (probes/dotnet/outcome.ts): the C# worker only runs the call.
 *
 * Left out: what a C# value cannot be (undefined, an array hole, a Symbol, a function, an Invalid
 * Date), toJSON and class getters (JavaScript's), prototype keys (no prototype in .NET), string
 * formats other than plain (a C# DTO holds them as `string`: the same question as plain), hostile
 * declared property names (an attribute per name), optional properties (a C# member is never absent),
 * the 50 MiB document (sizes are what the timed workloads measure).
 */

/** A .NET probe: a probe (id, title, accepted behaviours, shared with JavaScript where the question is the same) and its C# cell. */
export interface DotnetProbe extends Probe {
  cell: DotnetCell;
  /** sides that cannot be asked of a .NET type, with why (shown as –) */
  inexpressible?: Partial<Record<ProbeDirection, string>>;
}

/** The families the .NET catalog has probes in. */
const DOTNET_PROBE_FAMILIES: readonly ProbeFamily[] = [
  'feature',
  'edge',
  'string',
  'structure',
  'safety',
  'conformance',
];

/**
 * A JavaScript value as the C# reader takes it (ProbeModel.Read): NaN, ±Infinity and -0 as strings,
 * a Date as its ISO string, a BigInt as its digits, a Map as an object, a Set as an array.
 */
export function cellValue(v: unknown): unknown {
  if (typeof v === 'number')
    return Number.isNaN(v)
      ? 'NaN'
      : v === Infinity
        ? 'Infinity'
        : v === -Infinity
          ? '-Infinity'
          : Object.is(v, -0)
            ? '-0'
            : v;
  if (typeof v === 'bigint') return String(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
  if (v instanceof Map) return cellValue(Object.fromEntries(v));
  if (v instanceof Set) return [...v].map(cellValue);
  if (Array.isArray(v)) return v.map(cellValue);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v))
      Object.defineProperty(out, k, { value: cellValue((v as Record<string, unknown>)[k]), enumerable: true });
    return out;
  }
  return v;
}

const refuses = (why: string): Accept => ({ throws: true, label: `refuses (${why})` });

/** The JavaScript probe asked of a .NET type: its input and text become the cell's, its accepts stay. */
function asked(js: Probe, type: string, extra: Partial<DotnetCell> = {}, over: Partial<DotnetProbe> = {}): DotnetProbe {
  const { needs: _needs, intended: _intended, deepSchema: _deep, ...rest } = js;
  const cell: DotnetCell = {
    type,
    ...(js.serialize && !over.inexpressible?.serialize && !('input' in extra)
      ? { input: cellValue(js.serialize.input()) }
      : {}),
    ...(js.deserialize ? { text: js.deserialize.text() } : {}),
    ...extra,
  };
  return { ...rest, ...over, cell };
}

/** The JavaScript probes of the built-in families, by id. */
function jsById(): Map<string, Probe> {
  const out = new Map<string, Probe>();
  for (const build of Object.values(builtinFamilies)) for (const p of build()) out.set(p.id, p);
  return out;
}

const PERSON = { firstName: 'Ada', lastLoginAt: 1_700_000_000, isAdmin: true };
const PERSON_SCHEMA = obj({ firstName: str(), lastLoginAt: int(), isAdmin: bool() });

/** Pets of three classes (a cat, a dog and, with `base`, a base pet) in one list, for the polymorphism probes. */
const pets = (cat: string, dog: string, base?: string) => [
  { $class: cat, name: 'Tom', meows: true },
  { $class: dog, name: 'Rex', barks: 3 },
  ...(base ? [{ ...(base === 'base' ? {} : { $class: base }), name: 'Pip' }] : []),
];

/** The schema the pets probes state: a list of named pets (the classes differ in their other members). */
const petsSchema = obj({ pets: arr(obj({ name: str() })) });
/** The serialize check of the type-names probe: each pet written with its own members and a "$type" its library reads */
const typeNamesCheck =
  (how: 'tags' | 'names') =>
  (v: unknown): string | null => {
    const list = (v as { pets?: unknown })?.pets;
    const items = how === 'tags' ? list : (list as { $values?: unknown })?.$values;
    if (!Array.isArray(items) || items.length !== 3)
      return `pets written as ${how === 'tags' ? 'an array' : '{"$type":…,"$values":[…]}'} of 3`;
    const [cat, dog, pip] = items as Record<string, unknown>[];
    const tagged = (p: Record<string, unknown>, tag: string) =>
      how === 'tags' ? p.$type === tag : typeof p.$type === 'string' && p.$type.startsWith(`JsonBench.Worker.${tag}, `);
    if (!tagged(cat, how === 'tags' ? 'cat' : 'TypedCat') || cat.name !== 'Tom' || cat.meows !== true)
      return 'the cat with its type name and members';
    if (!tagged(dog, how === 'tags' ? 'dog' : 'TypedDog') || dog.name !== 'Rex' || dog.barks !== 3)
      return 'the dog with its type name and members';
    if (pip.name !== 'Pip' || (how === 'tags' ? '$type' in pip : !tagged(pip, 'TypedPet')))
      return 'the base pet as a base pet';
    return null;
  };

/** The polymorphism probes: a "kind" discriminator, type names, and a base type with nothing configured. */
function polymorphismProbes(get: (id: string) => Probe): DotnetProbe[] {
  return [
    asked(
      get('feature.polymorphism'),
      'ProbeKindPets',
      { input: { pets: pets('KindCat', 'KindDog') } },
      {
        title:
          'polymorphism: a Cat and a Dog in one List<Pet>, a "kind" discriminator, round-tripped to their classes (STJ: [JsonPolymorphic]/[JsonDerivedType])',
        deserialize: {
          text: () => get('feature.polymorphism').deserialize!.text(),
          accept: anyClass({ value: { pets: pets('KindCat', 'KindDog') }, label: 'their classes' }),
        },
      },
    ),
    {
      id: 'feature.polymorphism.type-names',
      family: 'feature',
      title:
        'polymorphism by type names: a Cat, a Dog and a base Pet in one List<Pet> (Newtonsoft TypeNameHandling.All; STJ [JsonPolymorphic] "$type" tags)',
      schema: petsSchema,
      cell: {
        type: 'ProbeTypedPets',
        settings: { typeNames: true },
        input: { pets: pets('TypedCat', 'TypedDog', 'base') },
        roundTrip: true,
      },
      serialize: {
        input: () => ({ pets: pets('TypedCat', 'TypedDog', 'base') }),
        accept: [
          { label: 'writes "$type" tags', check: typeNamesCheck('tags') },
          { label: 'writes .NET type names', check: typeNamesCheck('names') },
        ],
      },
      deserialize: {
        text: () => '(what the library itself wrote for the serialize input)',
        accept: anyClass({ value: { pets: pets('TypedCat', 'TypedDog', 'base') }, label: 'their classes' }),
      },
    },
    {
      id: 'feature.polymorphism.base-type',
      family: 'feature',
      title:
        'what a base type round-trips to: a Cat, a Dog and a Pet in one List<Pet> (Pet a concrete class), no polymorphism configured',
      schema: petsSchema,
      cell: { type: 'ProbePlainPets', input: { pets: pets('PlainCat', 'PlainDog', 'base') }, roundTrip: true },
      serialize: {
        input: () => ({ pets: pets('PlainCat', 'PlainDog', 'base') }),
        accept: [
          {
            json: { pets: [{ name: 'Tom', meows: true }, { name: 'Rex', barks: 3 }, { name: 'Pip' }] },
            label: 'own members',
          },
          refuses('no type information configured'),
        ],
      },
      deserialize: {
        text: () => '(what the library itself wrote for the serialize input)',
        accept: anyClass({ value: { pets: pets('PlainCat', 'PlainDog', 'base') }, label: 'their classes' }),
      },
    },
  ];
}

function featureProbes(js: Map<string, Probe>): DotnetProbe[] {
  const get = (id: string) => js.get(id)!;
  const camel = JSON.stringify(PERSON);
  const probes: DotnetProbe[] = [
    asked(get('feature.names.property'), 'ProbeRenamed'),
    asked(get('feature.naming.snake_case'), 'ProbePerson', { settings: { naming: 'snake' } }),
    asked(get('feature.naming.kebab-case'), 'ProbePerson', { settings: { naming: 'kebab' } }),
    asked(
      get('feature.naming.camelCase'),
      'ProbePerson',
      { settings: { naming: 'camel' }, input: PERSON, text: camel },
      {
        title: 'camelCase naming policy, PascalCase model (a C# DTO)',
        serialize: { input: () => ({ ...PERSON }), accept: [{ json: PERSON }] },
        deserialize: { text: () => camel, accept: anyClass({ value: PERSON }) },
      },
    ),
    {
      id: 'feature.naming.case-mismatch',
      family: 'feature',
      title: 'camelCase names read into a PascalCase model, no naming policy',
      schema: PERSON_SCHEMA,
      cell: { type: 'ProbePerson', text: camel },
      deserialize: {
        text: () => camel,
        accept: anyClass({ value: PERSON, label: 'ignores case' }, { throws: true, label: 'rejects' }),
      },
    },
    asked(get('feature.indent.2'), 'ProbeLayout', { settings: { indented: true } }),
    asked(
      get('feature.converter.date-format'),
      'ProbeStamp',
      { settings: { dateFormat: true } },
      {
        title:
          'a custom converter: a DateTime written and read as "yyyy-MM-dd HH:mm:ss" (STJ: a JsonConverter<DateTime>; Newtonsoft: DateFormatString)',
        deserialize: {
          text: () => '{"at":"2024-02-29 12:34:56"}',
          accept: anyClass(
            { value: { at: new Date('2024-02-29T12:34:56Z') }, label: 'as UTC' },
            { value: { at: 'DateTime 2024-02-29T12:34:56.0000000 (Kind Unspecified)' }, label: 'Kind Unspecified' },
          ),
        },
      },
    ),
    ...polymorphismProbes(get),
    asked(get('feature.required.missing'), 'ProbeRequired', {}, { serialize: undefined }),
    asked(get('feature.additional.default'), 'ProbeOpen', {}, { serialize: undefined }),
    asked(
      get('feature.additional.reject'),
      'ProbeClosed',
      { settings: { missingMembers: 'error' } },
      { serialize: undefined },
    ),
  ];
  return probes.map(withoutSerializeInput);
}

/** A probe without a serialize side carries no serialize input in its cell. */
function withoutSerializeInput(p: DotnetProbe): DotnetProbe {
  if (p.serialize || p.cell.roundTrip || p.cell.input === undefined) return p;
  const { input: _input, ...cell } = p.cell;
  return { ...p, cell };
}

function edgeProbes(js: Map<string, Probe>): DotnetProbe[] {
  const get = (id: string) => js.get(id)!;
  const noDateTime = 'a .NET DateTime holds years 0001–9999';
  const exactLong = (id: string, digits: string): DotnetProbe =>
    asked(
      get(id),
      'ProbeInteger',
      {},
      {
        deserialize: {
          text: () => `{"n":${digits}}`,
          accept: anyClass({ value: { n: exactInteger(digits) }, label: 'exact (Int64)' }, refuses('beyond Int64')),
        },
      },
    );
  return [
    asked(get('edge.date.valid'), 'ProbeStamp'),
    asked(
      get('edge.date.year-0'),
      'ProbeStamp',
      {},
      {
        inexpressible: { serialize: `${noDateTime}: this input cannot be built` },
        deserialize: {
          text: () => '{"at":"0000-01-01T00:00:00.000Z"}',
          accept: anyClass({ value: { at: new Date('0000-01-01T00:00:00.000Z') } }, refuses(noDateTime)),
        },
      },
    ),
    asked(
      get('edge.date.year-10000'),
      'ProbeStamp',
      {},
      { inexpressible: { serialize: `${noDateTime}: this input cannot be built` } },
    ),
    asked(
      get('edge.date.invalid'),
      'ProbeStamp',
      {},
      { inexpressible: { serialize: 'a .NET DateTime is never invalid' } },
    ),
    asked(get('edge.int.2^53-1'), 'ProbeInteger'),
    asked(get('edge.int.spelled-1.0'), 'ProbeInteger'),
    exactLong('edge.int.2^53+1', '9007199254740993'),
    exactLong('edge.int.2^63-1', '9223372036854775807'),
    exactLong('edge.int.2^63', '9223372036854775808'),
    exactLong('edge.int.-2^63', '-9223372036854775808'),
    asked(get('edge.bigint.2^53+1'), 'ProbeInteger', { input: { n: '9007199254740993' } }, { title: 'a long 2^53+1' }),
    asked(
      get('edge.bigint.2^63-1'),
      'ProbeInteger',
      { input: { n: '9223372036854775807' } },
      { title: 'a long 2^63−1' },
    ),
    asked(get('edge.number.-0'), 'ProbeNumber'),
    asked(get('edge.number.NaN'), 'ProbeNumber'),
    asked(get('edge.number.+Infinity'), 'ProbeNumber'),
    asked(get('edge.number.-Infinity'), 'ProbeNumber'),
    {
      id: 'edge.number.NaN.literal',
      family: 'edge',
      title: 'NaN as a bare token on the wire ({"n":NaN}: not JSON)',
      schema: obj({ n: num() }),
      cell: { type: 'ProbeNumber', text: '{"n":NaN}' },
      deserialize: { text: () => '{"n":NaN}', accept: anyClass(refuses('NaN is not JSON')) },
    },
    {
      id: 'edge.number.NaN.string',
      family: 'edge',
      title: 'NaN as the string "NaN" where a number is declared',
      schema: obj({ n: num() }),
      cell: { type: 'ProbeNumber', text: '{"n":"NaN"}' },
      deserialize: { text: () => '{"n":"NaN"}', accept: anyClass(refuses('a string is not a number')) },
    },
    asked(get('edge.cycle'), 'ProbeNode', { input: { name: 'a', child: { $cycle: true } } }),
    asked(get('edge.map'), 'ProbeMap', {}, { title: 'a Dictionary<string, double> as a record' }),
    asked(get('edge.set'), 'ProbeSet', {}, { title: 'a HashSet<double> as an array' }),
    {
      id: 'edge.class.fields',
      family: 'edge',
      title: 'a class with public fields and no properties',
      schema: obj({ x: num(), y: num() }),
      cell: { type: 'ProbeFields', input: { x: 3, y: 4 }, text: '{"x":3,"y":4}' },
      serialize: { input: () => ({ x: 3, y: 4 }), accept: [{ json: { x: 3, y: 4 } }] },
      deserialize: { text: () => '{"x":3,"y":4}', accept: anyClass({ value: { x: 3, y: 4 } }) },
    },
  ];
}

function stringProbes(js: Map<string, Probe>): DotnetProbe[] {
  const out: DotnetProbe[] = [];
  for (const p of js.values()) {
    if (p.id.startsWith('string.value.plain.')) out.push(asked(p, 'ProbeString'));
    else if (p.id.startsWith('string.key.record.')) {
      const [[key, value]] = Object.entries(p.serialize!.input() as Record<string, string>);
      out.push(asked(p, 'string-map', { input: { $entries: [[key, value]] } }));
    }
  }
  return out;
}

const DEPTH_LIMIT = 'depth limit';

function structureProbes(js: Map<string, Probe>): DotnetProbe[] {
  const out: DotnetProbe[] = [];
  const types: Record<string, string> = {
    'structure.empty.root-object': 'ProbeEmpty',
    'structure.empty.member-object': 'ProbeHasEmpty',
    'structure.empty.member-array': 'ProbeInts',
    'structure.empty.array-of-empty': 'ProbeIntLists',
  };
  for (const p of js.values()) {
    if (p.id.startsWith('structure.nullable.')) out.push(asked(p, 'ProbeNullable'));
    else if (types[p.id]) out.push(asked(p, types[p.id]));
  }
  for (const kind of ['array', 'object'] as const) {
    for (const depth of [64, 65, 1_000, 100_000]) {
      const must = depth <= 64;
      const writes: Accept = { label: 'writes it', check: nestedCheck(kind, depth) };
      const reads: Accept = {
        label: 'reads it',
        check: (v) => {
          const s = v as { $nested?: string; depth?: number; leaf?: unknown };
          return s?.depth === depth && s.leaf === 1
            ? null
            : `${kind}s nested ${depth} deep around 1 (got ${s?.depth ?? '?'} levels)`;
        },
      };
      const limit: Accept = { throws: true, label: `refuses (${DEPTH_LIMIT})` };
      const shown =
        kind === 'array'
          ? `[[[…[1]…]]] (${depth.toLocaleString('en')} arrays)`
          : `{"a":{"a":…{"a":1}…}} (${depth.toLocaleString('en')} objects)`;
      const id = `structure.depth.${kind}.${depth}`;
      out.push({
        id,
        family: 'structure',
        title: js.get(id)?.title ?? `${kind}s nested ${depth.toLocaleString('en')} deep`,
        schema: kind === 'array' ? arr(int()) : obj({ a: int() }),
        shown: {
          input: shown,
          expected: must ? 'writes it / reads it' : `writes it / reads it, or refuses (${DEPTH_LIMIT})`,
        },
        cell: { type: 'object', nested: { kind, depth } },
        serialize: { input: () => shown, accept: must ? [writes] : [writes, limit] },
        deserialize: { text: () => shown, accept: anyClass(...(must ? [reads] : [reads, limit])) },
      });
    }
  }
  return out;
}

/** The gadget of the safety probes: ProbeGadget in the worker's own assembly (ProbeTypes.cs), harmless by design. */
export const GADGET_TYPE_NAME = 'JsonBench.Worker.ProbeGadget, jsonbench-worker';

function safetyProbes(): DotnetProbe[] {
  const gadget = { $type: GADGET_TYPE_NAME, command: 'echo harmless' };
  const envelope = JSON.stringify({ payload: gadget });
  const keeps: Accept = { value: { payload: gadget }, label: 'keeps it as data' };
  const rejects: Accept = { throws: true, label: 'rejects the document' };
  const schema = obj({ payload: obj({}) });
  return [
    {
      id: 'safety.type-name.default',
      family: 'safety',
      title: 'an untrusted "$type" naming a class of the process, in an object-typed member (default settings)',
      schema,
      cell: { type: 'ProbeEnvelope', text: envelope },
      deserialize: { text: () => envelope, accept: anyClass(keeps, rejects) },
    },
    {
      id: 'safety.type-name.type-names',
      family: 'safety',
      title:
        'an untrusted "$type" in an object-typed member, type names on (Newtonsoft TypeNameHandling.All, as feature.polymorphism.type-names)',
      schema,
      cell: { type: 'ProbeEnvelope', text: envelope, settings: { typeNames: true } },
      deserialize: { text: () => envelope, accept: anyClass(keeps, rejects) },
    },
    {
      id: 'safety.type-name.declared-base',
      family: 'safety',
      title: 'an untrusted "$type" in a member of a polymorphic base type, type names on',
      schema: obj({ pet: obj({ name: str() }) }),
      cell: {
        type: 'ProbeTypedEnvelope',
        text: JSON.stringify({ pet: { $type: GADGET_TYPE_NAME, name: 'x' } }),
        settings: { typeNames: true },
      },
      deserialize: {
        text: () => JSON.stringify({ pet: { $type: GADGET_TYPE_NAME, name: 'x' } }),
        accept: anyClass({ throws: true, label: 'rejects' }),
      },
    },
  ];
}

function conformanceDotnet(set: ConformanceSet): DotnetProbe[] {
  // one file at a time: each conformance file is one probe (or none, for a name no suite uses)
  return set.files.flatMap((file) =>
    conformanceProbes({ root: set.root, files: [file] }).map((p) =>
      asked(p, 'object', { ...(p.serialize ? { input: undefined, inputText: file.text } : {}), text: file.text }),
    ),
  );
}

export interface DotnetCatalogOptions {
  families?: readonly ProbeFamily[];
  conformance?: ConformanceSet;
}

/** The .NET probes of the selected families, in family order (the payload family has none). */
export function dotnetCatalog(options: DotnetCatalogOptions = {}): DotnetProbe[] {
  const families = options.families ?? DOTNET_PROBE_FAMILIES;
  const js = jsById();
  const out: DotnetProbe[] = [];
  for (const f of families) {
    if (f === 'feature') out.push(...featureProbes(js));
    else if (f === 'edge') out.push(...edgeProbes(js));
    else if (f === 'string') out.push(...stringProbes(js));
    else if (f === 'structure') out.push(...structureProbes(js));
    else if (f === 'safety') out.push(...safetyProbes());
    else if (f === 'conformance' && options.conformance) out.push(...conformanceDotnet(options.conformance));
  }
  return out;
}

/** The cells the worker reads (the probe file's `dotnet` section): probe id → cell, JSON-safe. */
export function dotnetCells(probes: readonly DotnetProbe[]): Record<string, DotnetCell> {
  const out: Record<string, DotnetCell> = {};
  for (const p of probes) out[p.id] = p.cell;
  return out;
}
