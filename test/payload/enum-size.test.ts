import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromJsonSchema, JsonSchemaError } from '../../src/payload/json-schema-import.js';
import { MAX_ENUM_VALUES, schemaProblem } from '../../src/workloads/check-schema.js';

/**
 * An enum of more than MAX_ENUM_VALUES values is refused before any serializer compiles it (hx3,
 * issue 25: `--schema` with a 200,000-value enum blocked the host in typia's supports() for 300 s,
 * SIGTERM unanswered). One at the limit is read.
 */

const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);

test('--schema with an enum of MAX_ENUM_VALUES + 1 values is refused naming its path, the count and the limit', () => {
  const schema = { type: 'object', properties: { code: { type: 'string', enum: values(MAX_ENUM_VALUES + 1) } } };
  assert.throws(
    () => fromJsonSchema(schema),
    (e: unknown) =>
      e instanceof JsonSchemaError &&
      e.message ===
        'the enum at $.code has 20,001 values; jsonbench takes at most 20,000 (schema compilers such as typia take minutes on more): use a string type instead',
  );
  const { schema: read } = fromJsonSchema({ type: 'string', enum: values(MAX_ENUM_VALUES) });
  assert.equal(read.type === 'enum' && read.values.length, MAX_ENUM_VALUES);
});

test("a config workload's enum beyond the limit is a schema problem at its values", () => {
  assert.deepEqual(schemaProblem({ type: 'enum', values: values(200_000) }), {
    path: 'schema.values',
    problem:
      'has 200,000 values; jsonbench takes at most 20,000 (schema compilers such as typia take minutes on more): use a string type instead',
  });
  assert.equal(schemaProblem({ type: 'enum', values: values(3) }), undefined);
});
