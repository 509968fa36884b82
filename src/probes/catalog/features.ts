import type { Accept, Probe } from '../types.js';
import type { GuaranteeClass } from '../../case/coordinates.js';
import { anyClass, arr, bool, int, num, obj, str, wireOrModel } from './build.js';

/**
 * Feature probes from the .NET studies (custom property names, naming policies both ways,
 * indentation, nested graphs, custom converters, polymorphism, additional and missing
 * properties, default values). A feature the schema language cannot state yet is a probe with
 * `needs`, reported as – until phase 2 grows the language, never approximated.
 */

/** Text check: the output is exactly its own value re-indented by `indent` spaces (any key order). */
const indentedBy =
  (indent: number) =>
  (_v: unknown, text?: string): string | null =>
    text === JSON.stringify(JSON.parse(text!), null, indent) ? null : `indented with ${indent} spaces`;

function namingProbes(): Probe[] {
  const model = { firstName: 'Ada', lastLoginAt: 1_700_000_000, isAdmin: true };
  const schema = obj({ firstName: str(), lastLoginAt: int(), isAdmin: bool() });
  const snake = { first_name: 'Ada', last_login_at: 1_700_000_000, is_admin: true };
  const kebab = { 'first-name': 'Ada', 'last-login-at': 1_700_000_000, 'is-admin': true };
  return [
    {
      id: 'feature.names.property',
      family: 'feature',
      title: 'one property renamed (userId written as "id")',
      schema: obj({ userId: int(), name: str() }),
      serializeFrom: 'model',
      needs: ['property-name'],
      intended: '{ userId: int as "id"; name: string }',
      serialize: { input: () => ({ userId: 7, name: 'Ada' }), accept: [{ json: { id: 7, name: 'Ada' } }] },
      deserialize: {
        text: () => '{"id":7,"name":"Ada"}',
        accept: wireOrModel({ id: 7, name: 'Ada' }, { userId: 7, name: 'Ada' }),
      },
    },
    {
      id: 'feature.naming.snake_case',
      family: 'feature',
      title: 'snake_case naming policy, camelCase model',
      schema,
      wire: { naming: 'snake_case' },
      serializeFrom: 'model',
      serialize: { input: () => ({ ...model }), accept: [{ json: snake }] },
      deserialize: { text: () => JSON.stringify(snake), accept: wireOrModel(snake, model) },
    },
    {
      id: 'feature.naming.kebab-case',
      family: 'feature',
      title: 'kebab-case naming policy, camelCase model',
      schema,
      serializeFrom: 'model',
      needs: ['naming-kebab'],
      intended: 'wire naming kebab-case',
      serialize: { input: () => ({ ...model }), accept: [{ json: kebab }] },
      deserialize: { text: () => JSON.stringify(kebab), accept: wireOrModel(kebab, model) },
    },
    {
      id: 'feature.naming.camelCase',
      family: 'feature',
      title: 'camelCase naming policy, snake_case model (a Python-style DTO)',
      schema: obj({ first_name: str(), last_login_at: int(), is_admin: bool() }),
      serializeFrom: 'model',
      needs: ['naming-camel'],
      intended: 'wire naming camelCase',
      serialize: { input: () => ({ ...snake }), accept: [{ json: model }] },
      deserialize: { text: () => JSON.stringify(model), accept: wireOrModel(model, snake) },
    },
  ];
}

function layoutProbes(): Probe[] {
  const doc = { id: 1, tags: ['a', 'b'], owner: { name: 'Ada', roles: [] as string[] } };
  const schema = obj({ id: int(), tags: arr(str()), owner: obj({ name: str(), roles: arr(str()) }) });
  const indented = (indent: number): Probe => ({
    id: `feature.indent.${indent}`,
    family: 'feature',
    title: `indented with ${indent} spaces`,
    schema,
    wire: { indent },
    serialize: { input: () => structuredClone(doc), accept: [{ json: doc, check: indentedBy(indent) }] },
    deserialize: { text: () => JSON.stringify(doc, null, indent), accept: anyClass({ value: doc }) },
  });
  const order = {
    id: 42,
    customer: { name: 'Ada', address: { city: 'London', geo: { lat: 51.5, lon: -0.12 } } },
    lines: [
      { sku: 'A-1', qty: 2, price: 9.5 },
      { sku: 'B-2', qty: 1, price: 120 },
    ],
  };
  const orderSchema = obj({
    id: int(),
    customer: obj({ name: str(), address: obj({ city: str(), geo: obj({ lat: num(), lon: num() }) }) }),
    lines: arr(obj({ sku: str(), qty: int(), price: num() })),
  });
  return [
    indented(2),
    indented(4),
    {
      id: 'feature.nested',
      family: 'feature',
      title: 'a nested graph (objects 4 deep, an array of objects)',
      schema: orderSchema,
      serialize: { input: () => structuredClone(order), accept: [{ json: order }] },
      deserialize: { text: () => JSON.stringify(order), accept: anyClass({ value: order }) },
    },
  ];
}

class Cat {
  readonly kind = 'cat';
  constructor(
    public name: string,
    public meows: boolean,
  ) {}
}
class Dog {
  readonly kind = 'dog';
  constructor(
    public name: string,
    public barks: number,
  ) {}
}

function typeProbes(): Probe[] {
  const pets = [
    { kind: 'cat', name: 'Tom', meows: true },
    { kind: 'dog', name: 'Rex', barks: 3 },
  ];
  const isInstances = (v: unknown): string | null => {
    const a = (v as { pets?: unknown[] })?.pets;
    return Array.isArray(a) && a[0] instanceof Cat && a[1] instanceof Dog ? null : 'pets[0] a Cat and pets[1] a Dog';
  };
  return [
    {
      id: 'feature.converter.date-format',
      family: 'feature',
      title: 'a custom converter: a Date written and read as "yyyy-MM-dd HH:mm:ss"',
      schema: obj({ at: str({ asDate: true }) }),
      serializeFrom: 'model',
      needs: ['converter'],
      intended: '{ at: Date as "yyyy-MM-dd HH:mm:ss" (UTC) }',
      serialize: {
        input: () => ({ at: new Date('2024-02-29T12:34:56Z') }),
        accept: [{ json: { at: '2024-02-29 12:34:56' } }],
      },
      deserialize: {
        text: () => '{"at":"2024-02-29 12:34:56"}',
        accept: wireOrModel({ at: '2024-02-29 12:34:56' }, { at: new Date('2024-02-29T12:34:56Z') }),
      },
    },
    {
      id: 'feature.polymorphism',
      family: 'feature',
      title: 'polymorphism: a Cat and a Dog in one array, a "kind" discriminator, round-tripped to their classes',
      schema: obj({ pets: arr(obj({ kind: str(), name: str() })) }),
      needs: ['discriminated-union'],
      intended: '{ pets: (Cat | Dog)[] } discriminated by kind, Cat and Dog mapped to classes',
      serialize: { input: () => ({ pets: [new Cat('Tom', true), new Dog('Rex', 3)] }), accept: [{ json: { pets } }] },
      deserialize: {
        text: () => JSON.stringify({ pets }),
        accept: (cls: GuaranteeClass): readonly Accept[] =>
          cls === 'transform'
            ? [{ value: { pets: [new Cat('Tom', true), new Dog('Rex', 3)] }, check: isInstances }]
            : [{ value: { pets } }],
      },
    },
  ];
}

function propertyProbes(): Probe[] {
  const rejects: Accept = { throws: true, label: 'rejects' };
  return [
    {
      id: 'feature.additional.default',
      family: 'feature',
      title: 'an undeclared property, default behaviour (kept, dropped or rejected)',
      schema: obj({ id: int() }),
      serialize: {
        input: () => ({ id: 1, extra: 'x' }),
        accept: [{ json: { id: 1, extra: 'x' }, label: 'keeps' }, { json: { id: 1 }, label: 'drops' }, rejects],
      },
      deserialize: {
        text: () => '{"id":1,"extra":"x"}',
        accept: (cls) =>
          cls === 'parse'
            ? [{ value: { id: 1, extra: 'x' }, label: 'keeps' }]
            : [{ value: { id: 1, extra: 'x' }, label: 'keeps' }, { value: { id: 1 }, label: 'drops' }, rejects],
      },
    },
    {
      id: 'feature.additional.reject',
      family: 'feature',
      title: 'additional properties forbidden by the schema',
      schema: obj({ id: int() }),
      needs: ['additional-properties-policy'],
      intended: '{ id: int } with additionalProperties: false',
      serialize: { input: () => ({ id: 1, extra: 'x' }), accept: [{ json: { id: 1 }, label: 'drops' }, rejects] },
      deserialize: {
        text: () => '{"id":1,"extra":"x"}',
        accept: (cls) => (cls === 'parse' ? [{ value: { id: 1, extra: 'x' } }] : [rejects]),
      },
    },
    {
      id: 'feature.additional.keep',
      family: 'feature',
      title: 'additional properties allowed by the schema',
      schema: obj({ id: int() }),
      needs: ['additional-properties-policy'],
      intended: '{ id: int } with additionalProperties: true',
      serialize: { input: () => ({ id: 1, extra: 'x' }), accept: [{ json: { id: 1, extra: 'x' } }] },
      deserialize: { text: () => '{"id":1,"extra":"x"}', accept: anyClass({ value: { id: 1, extra: 'x' } }) },
    },
    {
      id: 'feature.required.missing',
      family: 'feature',
      title: 'a required property missing',
      schema: obj({ id: int(), name: str() }),
      serialize: { input: () => ({ id: 1 }), accept: [rejects, { json: { id: 1 }, label: 'writes it absent' }] },
      deserialize: {
        text: () => '{"id":1}',
        accept: (cls) => (cls === 'parse' ? [{ value: { id: 1 }, label: 'does not check' }] : [rejects]),
      },
    },
    {
      id: 'feature.default',
      family: 'feature',
      title: 'a default value for an absent property',
      schema: { ...obj({ id: int(), role: str() }), optional: ['role'] },
      needs: ['default'],
      intended: '{ id: int; role?: string = "user" }',
      serialize: {
        input: () => ({ id: 1 }),
        accept: [
          { json: { id: 1, role: 'user' }, label: 'writes the default' },
          { json: { id: 1 }, label: 'omits it' },
        ],
      },
      deserialize: {
        text: () => '{"id":1}',
        accept: (cls) => (cls === 'transform' ? [{ value: { id: 1, role: 'user' } }] : [{ value: { id: 1 } }]),
      },
    },
  ];
}

export function featureProbes(): Probe[] {
  return [...namingProbes(), ...layoutProbes(), ...typeProbes(), ...propertyProbes()];
}
