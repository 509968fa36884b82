import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cli, hx8Scratch } from '../hostile/support.js';

/**
 * hx8 section 9 ("crash": a `--schema` module whose export throws when read was "an internal
 * error") and the schema rows of section 10 ("unclear": minimum above maximum and an invalid
 * `pattern` went on as "not converted"; a schema's `constructor` property was checked against
 * Object.prototype.constructor; a 400,000-digit number was echoed whole).
 */

const { dir, file, a1, bounded } = hx8Scratch('hostile-schemas');

test('a --schema module whose export throws on every read is refused naming the file and the export, exit 2 (hx8 S8-zodproxy: an internal error)', async () => {
  const schema = file(
    'zodproxy.schema.mjs',
    "export default new Proxy({}, { get(t, k) { throw new Error('hx8 proxy trap on ' + String(k)); } });\n",
  );
  const ran = await cli(['run', '--payload', a1, '--schema', schema, '--print-schema'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.doesNotMatch(ran.stderr, /internal error/);
  assert.match(
    ran.stderr,
    /--schema: \S*zodproxy\.schema\.mjs: reading its export "default" threw \(a getter or a Proxy whose traps throw\?\): Error: hx8 proxy trap on ~standard; export a plain zod, valibot or TypeBox schema/,
  );
});

test('a schema with minimum above maximum, or a pattern that is no regular expression, is refused naming the file and JSON pointer, exit 2 (hx8 S8-nan-min, S8-badregex)', async () => {
  const minMax = file(
    'nan-min.schema.json',
    '{"type":"object","properties":{"a":{"type":"integer","minimum":5,"maximum":1}},"required":["a"]}',
  );
  const badRegex = file(
    'badregex.schema.json',
    '{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string","pattern":"(unclosed[" }},"required":["a"]}',
  );
  let ran = await cli(['run', '--payload', a1, '--schema', minMax, '--print-schema'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /--schema: \S*nan-min\.schema\.json: the schema at \/properties\/a: minimum 5 is above maximum 1: no number fits; fix or remove the bounds/,
  );
  ran = await cli(['run', '--payload', a1, '--schema', badRegex, '--print-schema'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /--schema: \S*badregex\.schema\.json: the schema at \/properties\/b\/pattern: "\(unclosed\[" is not a regular expression \(.+\); a validator cannot compile the schema/,
  );
});

test('a schema requiring "__proto__" beside a "constructor" property blames the missing key, not Object.prototype.constructor (hx8 S8-proto)', async () => {
  const proto = file(
    'proto.schema.json',
    '{"type":"object","properties":{"__proto__":{"type":"integer"},"constructor":{"type":"string"},"a":{"type":"integer"}},"required":["a","__proto__"]}',
  );
  const ran = await cli(['run', '--payload', a1, '--schema', proto, '--print-schema'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.doesNotMatch(ran.stderr, /constructor|native code/);
  assert.match(
    ran.stderr,
    /the payload does not fit this schema, at \$: must have required property '__proto__' \("__proto__"\) \(got \{"a":1\}\)/,
  );
});

test('a 400,000-digit number is echoed to 80 characters with its length, not whole (hx8 P8-hugenum: a 400 KB line)', async () => {
  const huge = file('hugenum.json', `{"a":${'9'.repeat(400_000)}}`);
  const ran = await cli(
    [
      'run',
      '--payload',
      huge,
      '--serializer',
      'json',
      '--policy',
      'quick',
      '--no-probes',
      '--out',
      join(dir, 'huge-out'),
    ],
    bounded,
  );
  assert.equal(ran.code, 2, ran.stderr.slice(0, 2000));
  assert.ok(ran.stderr.length < 2000, `stderr is ${ran.stderr.length} characters`);
  assert.match(
    ran.stderr,
    new RegExp(`hugenum\\.json:1:6: 9{80}… \\(400,000 characters\\) is beyond what a double holds`),
  );
});

test('a schema nested 3,000 levels deep is refused naming the file and where, exit 2, not a stack overflow (hx9 S9-deep)', async () => {
  // written as text: JSON.stringify of it overflows the test's own stack
  const open = '{"type":"object","properties":{"a":'.repeat(3000);
  const deep = file('deep.schema.json', `${open}{"type":"integer"}${'}}'.repeat(3000)}`);
  const ran = await cli(['run', '--payload', a1, '--schema', deep, '--print-schema'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.doesNotMatch(ran.stderr, /internal error|call stack/);
  assert.match(
    ran.stderr,
    /--schema: \S*deep\.schema\.json: the schema at \/properties\/a\/properties\/a\S*…: it nests deeper than 400 levels, more than jsonbench reads/,
  );
});

test('a schema that matches no value ({"not":{}} at its root) is refused, exit 2, not used to rank validators (hx9 S9-nothing)', async () => {
  const nothing = file('nothing.schema.json', '{"not":{}}');
  const ran = await cli(['run', '--payload', a1, '--schema', nothing, '--print-schema'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(
    ran.stderr,
    /--schema: \S*nothing\.schema\.json: the schema at \/ \(its root\): "not": \{\} matches no value: nothing can fit it/,
  );
});

test('a chain of 5,000 $ref aliases is refused naming the file and the $ref, exit 2, not a stack overflow (hx10 S10-refchain)', async () => {
  const definitions: Record<string, unknown> = {};
  for (let i = 0; i < 5000; i++) definitions[`a${i}`] = { $ref: `#/definitions/a${i + 1}` };
  definitions.a5000 = { type: 'integer' };
  const chain = file(
    'refchain.schema.json',
    JSON.stringify({ type: 'object', properties: { a: { $ref: '#/definitions/a0' } }, definitions }),
  );
  const ran = await cli(['run', '--payload', a1, '--schema', chain, '--print-schema'], bounded);
  assert.equal(ran.code, 2, ran.stderr);
  assert.doesNotMatch(ran.stderr, /internal error|call stack/);
  assert.match(
    ran.stderr.replace(/\n */g, ' '),
    /--schema: \S*refchain\.schema\.json: the schema at #\/definitions\/a398 \(for the value at \$\.a, reached through 399 \$refs\): it nests deeper than 400 levels/,
  );
});
