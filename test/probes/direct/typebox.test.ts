import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

/** Direct reproductions for TypeBox 0.34 (`TypeCompiler.Compile(Type.…)`, after `JSON.parse`). */

test('typebox string.key.declared.controls/separators: compiling an object whose property name holds U+0007–U+000D, U+001B or U+007F throws', () => {
  const failing = [0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x7f];
  for (let c = 0; c < 0x80; c++) {
    const compile = () => TypeCompiler.Compile(Type.Object({ [String.fromCharCode(c)]: Type.String() }));
    if (failing.includes(c)) assert.throws(compile, /Preflight validation check failed/, `U+${c.toString(16)}`);
    else assert.doesNotThrow(compile, `U+${c.toString(16)}`);
  }
  assert.throws(() => TypeCompiler.Compile(Type.Object({ ['a'.repeat(40) + '\u007f']: Type.String() })), /Preflight/);
  assert.equal(
    TypeCompiler.Compile(Type.Object({ '"': Type.String(), '\\': Type.String() })).Check({ '"': 'a', '\\': 'b' }),
    true,
    'quote and backslash are fine',
  );
});

test('typebox edge.int.2^53+1 / 2^63-1 / roundtrip13,18,19: Type.Integer accepts the double JSON.parse rounds an unsafe integer to', () => {
  const check = TypeCompiler.Compile(Type.Object({ n: Type.Integer() }));
  const value = JSON.parse('{"n":9007199254740993}');
  assert.equal(check.Check(value), true);
  assert.equal(value.n, 9007199254740992);
});
