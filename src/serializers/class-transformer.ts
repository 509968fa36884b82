import 'reflect-metadata';
import { Expose, Type, instanceToPlain, plainToInstance, type ClassConstructor } from 'class-transformer';
import type { ObjectSchema, SchemaNode, WireOptions } from '../workloads/schema.js';
import type { SerializerAdapter } from './types.js';
import { propertyEntries, serializerMustRename } from './support/model.js';

type Instance = Record<string, unknown>;

/**
 * Declares the DTO classes of a schema the way a class-transformer user writes them, applying
 * the decorators programmatically: `@Expose({ name: wireName })` on every property,
 * `@Type(() => Nested)` on nested objects (and arrays of them), `@Type(() => Number)` on
 * numeric-string fields and `@Type(() => Date)` on `asDate` fields. One class per object node.
 */
export class DtoClasses {
  private readonly classes = new Map<ObjectSchema, ClassConstructor<Instance>>();
  constructor(private readonly naming: WireOptions['naming']) {}

  /** The class of an object node (declared on first use). */
  classOf(node: ObjectSchema): ClassConstructor<Instance> {
    let cls = this.classes.get(node);
    if (cls) return cls;
    cls = class Dto {} as ClassConstructor<Instance>;
    this.classes.set(node, cls);
    for (const e of propertyEntries(node, this.naming)) {
      Expose({ name: e.wire })(cls.prototype, e.model);
      const leaf = e.node.type === 'array' ? e.node.items : e.node;
      if (leaf.type === 'object') Type(() => this.classOf(leaf))(cls.prototype, e.model);
      else if (leaf.type === 'number' && leaf.fromString) Type(() => Number)(cls.prototype, e.model);
      else if (leaf.type === 'string' && leaf.asDate) Type(() => Date)(cls.prototype, e.model);
    }
    return cls;
  }

  /**
   * A function turning a model given as plain objects into instances of these classes (what an
   * application using class-transformer holds): `Object.assign(new Dto(), plain)` at each level.
   */
  instantiator(node: SchemaNode): (value: unknown) => unknown {
    if (node.type === 'array') {
      const item = this.instantiator(node.items);
      return (v) => (Array.isArray(v) ? v.map(item) : v);
    }
    if (node.type !== 'object') return (v) => v;
    const Cls = this.classOf(node);
    const nested = Object.entries(node.properties)
      .filter(([, child]) => child.type === 'object' || child.type === 'array')
      .map(([key, child]) => [key, this.instantiator(child)] as const);
    return (v) => {
      if (v === null || typeof v !== 'object') return v;
      const inst = Object.assign(new Cls(), v);
      for (const [key, convert] of nested) inst[key] = convert(inst[key]);
      return inst;
    };
  }
}

/**
 * class-transformer (family `reflection`): decorated classes, the Newtonsoft-style approach.
 * Deserialize = `plainToInstance(Dto, JSON.parse(text))`, class `transform`: wire names become
 * model names, numeric strings numbers and ISO strings Dates. Caveat: class-transformer converts
 * but does not validate — a wrong type is passed through or coerced (`Number("abc")` is NaN,
 * `new Date("x")` an Invalid Date) instead of rejected; pairing it with class-validator is left
 * out. Serialize = `JSON.stringify(instanceToPlain(value), null, indent)`: for wire input the
 * plain value is given as it is; for users-settings, whose input is the camelCase model as plain
 * objects, the op first turns it into Dto instances (the naming lives on the classes), so that
 * conversion is part of what is timed.
 */
const adapter: SerializerAdapter = {
  id: 'class-transformer',
  family: 'reflection',
  directions: ['serialize', 'deserialize'],
  deserializeClass: 'transform',
  packageName: 'class-transformer',
  supports: () => true,
  prepare(workload, direction) {
    const dtos = new DtoClasses(workload.wire?.naming);
    const unit = workload.schema;
    const root = unit.type === 'array' ? unit.items : unit;
    if (root.type !== 'object') throw new Error('class-transformer needs an object (or array of objects) unit');
    const Dto = dtos.classOf(root);
    if (direction === 'deserialize') return { deserialize: (text) => plainToInstance(Dto, JSON.parse(text) as unknown) };
    const indent = workload.wire?.indent;
    if (serializerMustRename(workload)) {
      const toInstances = dtos.instantiator(unit);
      return { serialize: (value) => JSON.stringify(instanceToPlain(toInstances(value)), null, indent) };
    }
    return { serialize: (value) => JSON.stringify(instanceToPlain(value), null, indent) };
  },
  code: {
    serialize: 'JSON.stringify(instanceToPlain(value), null, indent) // users-settings: value = toDtoInstances(value) first',
    deserialize: 'plainToInstance(Dto, JSON.parse(text))',
  },
};

export default adapter;
