import { test } from 'node:test';
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { Expose, instanceToPlain, plainToInstance } from 'class-transformer';

/**
 * Direct reproductions for class-transformer 0.5 (`JSON.stringify(instanceToPlain(v))` and
 * `plainToInstance(Dto, JSON.parse(text))`, decorated DTOs as a user writes them).
 */

test('class-transformer edge.*: instanceToPlain compacts a hole away, drops Symbol/function members and ignores toJSON; JSON.stringify then writes NaN/±Infinity/Invalid Date as null and -0 as 0', () => {
  const holey: number[] = [1];
  holey[2] = 3;
  assert.deepEqual(instanceToPlain({ xs: holey }), { xs: [1, 3] }, 'the hole is gone and 3 moved to index 1');
  assert.equal(JSON.stringify(instanceToPlain({ xs: [1, undefined, 3] })), '{"xs":[1,null,3]}');
  assert.equal(
    JSON.stringify(
      instanceToPlain({
        a: 'x',
        b: Symbol('s'),
        c() {
          /* */
        },
      }),
    ),
    '{"a":"x"}',
  );
  class Money {
    constructor(private readonly cents: number) {}
    toJSON() {
      return { amount: this.cents / 100 };
    }
  }
  assert.equal(JSON.stringify(instanceToPlain(new Money(1234))), '{"cents":1234}', 'toJSON is not called');
  assert.equal(
    JSON.stringify(instanceToPlain({ n: Number.NaN, i: Infinity, j: -Infinity, z: -0, at: new Date(Number.NaN) })),
    '{"n":null,"i":null,"j":null,"z":0,"at":null}',
  );
  assert.equal(JSON.stringify(instanceToPlain([-0])), '[0]');
});

test('class-transformer safety.declared.__proto__ (serialize): an own __proto__ key is dropped', () => {
  const value = JSON.parse('{"id":1,"__proto__":"v"}');
  assert.equal(JSON.stringify(value), '{"id":1,"__proto__":"v"}');
  assert.equal(JSON.stringify(instanceToPlain(value)), '{"id":1}');
});

test('class-transformer safety.declared.constructor (serialize): an own data property named constructor makes instanceToPlain throw', () => {
  assert.throws(() => instanceToPlain({ id: 1, constructor: 'v' }), {
    name: 'TypeError',
    message: /reading 'constructor'/,
  });
});

class Dto {
  @Expose() id!: number;
  @Expose() name!: string;
}

test('class-transformer feature.required.missing: a missing property is not rejected (it converts, it does not validate)', () => {
  const out = plainToInstance(Dto, JSON.parse('{"id":1}'));
  assert.ok(out instanceof Dto);
  assert.equal(out.name, undefined);
});

test('class-transformer safety.*.(__proto__|constructor|toString) (deserialize): keys named like Object.prototype members are dropped, declared or not', () => {
  for (const key of ['__proto__', 'constructor', 'toString']) {
    class Named {
      @Expose() id!: number;
    }
    Expose()(Named.prototype, key);
    const input = JSON.parse(`{"id":1,${JSON.stringify(key)}:"v"}`);
    const out = plainToInstance(Named, input) as unknown as Record<string, unknown>;
    assert.equal(Object.hasOwn(out, key), false, `${key} (declared with @Expose)`);
    const undeclared = plainToInstance(
      Dto,
      JSON.parse(`{"id":1,"name":"x",${JSON.stringify(key)}:{"polluted":"yes"}}`),
    ) as unknown as Record<string, unknown>;
    assert.equal(Object.hasOwn(undeclared, key), false, `${key} (undeclared)`);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'nothing reached Object.prototype');
});

test('class-transformer edge.int.2^53+1 / 2^63-1: integers beyond 2^53 come from JSON.parse as the nearest double and are kept so', () => {
  class N {
    @Expose() n!: number;
  }
  assert.equal(plainToInstance(N, JSON.parse('{"n":9007199254740993}')).n, 9007199254740992);
});
