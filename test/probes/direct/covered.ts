import type { ProbeDirection } from '../../../src/probes/types.js';

/**
 * Every failing verdict (✗ or ⚠) of the probe matrix has a direct reproduction in this folder: a
 * test that calls the library's own API, with no jsonbench code between, and shows the same
 * behaviour — so it is the probe, not the harness, that fails. This table says which test covers
 * which verdicts; test/probes/matrix.test.ts runs the matrix and fails on a failing verdict no
 * entry covers, and on an entry that no longer matches any (a library changed: update both).
 */
export interface Covered {
  serializer: string;
  direction: ProbeDirection;
  /** probe ids this reproduction covers */
  probes: RegExp;
  mark: '✗' | '⚠';
  /** the test file (under test/probes/direct/) holding the reproduction */
  file: string;
}

const c = (serializer: string, direction: ProbeDirection, probes: RegExp, mark: '✗' | '⚠', file: string): Covered => ({
  serializer,
  direction,
  probes,
  mark,
  file,
});

/** -0 written as 0 (roundtrip21 is `[-0.0]`). */
const NEG_ZERO = /^(edge\.number\.-0|conformance\.[\w-]+\.roundtrip21)$/;
/** Integers a double cannot hold, read as the nearest double. */
const INT_ROUNDED = /^(edge\.int\.(2\^53\+1|2\^63-1)|conformance\.[\w-]+\.roundtrip(13|18|19))$/;

export const COVERED: readonly Covered[] = [
  c(
    'json',
    'serialize',
    /^edge\.(date\.invalid|number\.(NaN|[+-]Infinity)|array\.(hole|undefined)|map|set|symbol|function)$/,
    '✗',
    'json.test.ts',
  ),
  c('json', 'serialize', NEG_ZERO, '✗', 'json.test.ts'),
  c('json', 'serialize', /^edge\.bigint\./, '⚠', 'json.test.ts'),
  c('json', 'deserialize', INT_ROUNDED, '✗', 'json.test.ts'),

  c(
    'fast-json-stringify',
    'serialize',
    /^edge\.(number\.[+-]Infinity|symbol|function)$/,
    '✗',
    'fast-json-stringify.test.ts',
  ),
  c('fast-json-stringify', 'serialize', NEG_ZERO, '✗', 'fast-json-stringify.test.ts'),

  c(
    'ajv-jtd',
    'serialize',
    /^(feature\.required\.missing|edge\.(date\.\S+|number\.(NaN|[+-]Infinity)|array\.(hole|undefined)|class\.toJSON|function))$/,
    '✗',
    'ajv-jtd.test.ts',
  ),
  c('ajv-jtd', 'serialize', NEG_ZERO, '✗', 'ajv-jtd.test.ts'),
  c('ajv-jtd', 'serialize', /^string\.value\.[\w-]+\.(lone-high|lone-low|reversed-pair)\./, '✗', 'ajv-jtd.test.ts'),
  c('ajv-jtd', 'deserialize', /^(edge\.int\.2\^53-1|conformance\.[\w-]+\.roundtrip17)$/, '⚠', 'ajv-jtd.test.ts'),
  c('ajv-jtd', 'deserialize', /^edge\.int\.spelled-1\.0$/, '⚠', 'ajv-jtd.test.ts'),
  c(
    'ajv-jtd',
    'deserialize',
    /^(structure\.empty\.(root|member)-object|conformance\.[\w-]+\.roundtrip07)$/,
    '⚠',
    'ajv-jtd.test.ts',
  ),
  c('ajv-jtd', 'deserialize', /^safety\.declared\.__proto__/, '⚠', 'ajv-jtd.test.ts'),

  c(
    'typia',
    'serialize',
    /^edge\.(date\.\S+|number\.(NaN|[+-]Infinity)|array\.(hole|undefined)|class\.toJSON|function)$/,
    '✗',
    'typia.test.ts',
  ),
  c('typia', 'serialize', NEG_ZERO, '✗', 'typia.test.ts'),
  c('typia', 'deserialize', /^string\.key\.declared\.quote\./, '⚠', 'typia.test.ts'),
  c('typia', 'deserialize', INT_ROUNDED, '✗', 'typia.test.ts'),

  c('typebox', 'deserialize', INT_ROUNDED, '✗', 'typebox.test.ts'),
  c('typebox', 'deserialize', /^string\.key\.declared\.(controls|separators)\./, '⚠', 'typebox.test.ts'),

  c('zod', 'deserialize', /^safety\.declared\.__proto__/, '✗', 'zod.test.ts'),
  c('valibot', 'deserialize', INT_ROUNDED, '✗', 'valibot.test.ts'),
  c('valibot', 'deserialize', /^safety\.declared\.__proto__/, '✗', 'valibot.test.ts'),
  c('arktype', 'deserialize', INT_ROUNDED, '✗', 'arktype.test.ts'),

  c(
    'class-transformer',
    'serialize',
    /^edge\.(date\.invalid|number\.(NaN|[+-]Infinity)|array\.(hole|undefined)|class\.toJSON|symbol|function)$/,
    '✗',
    'class-transformer.test.ts',
  ),
  c('class-transformer', 'serialize', NEG_ZERO, '✗', 'class-transformer.test.ts'),
  c('class-transformer', 'serialize', /^safety\.declared\.__proto__$/, '✗', 'class-transformer.test.ts'),
  c('class-transformer', 'serialize', /^safety\.declared\.constructor$/, '⚠', 'class-transformer.test.ts'),
  c(
    'class-transformer',
    'deserialize',
    /^(feature\.required\.missing|safety\.(declared|parse\.undeclared)\.(__proto__|constructor|toString)\S*)$/,
    '✗',
    'class-transformer.test.ts',
  ),
  c('class-transformer', 'deserialize', INT_ROUNDED, '✗', 'class-transformer.test.ts'),

  c(
    'superjson',
    'serialize',
    /^edge\.(date\.invalid|number\.(NaN|[+-]Infinity)|undefined\.member|array\.(hole|undefined)|map|cycle|symbol|function)$/,
    '✗',
    'superjson.test.ts',
  ),
  c('superjson', 'serialize', NEG_ZERO, '✗', 'superjson.test.ts'),
  c('superjson', 'serialize', /^safety\.declared\.(__proto__|constructor|prototype)$/, '⚠', 'superjson.test.ts'),
  c('superjson', 'deserialize', /^safety\.(declared|parse\.undeclared)\.__proto__\S*$/, '✗', 'superjson.test.ts'),
  c('superjson', 'deserialize', INT_ROUNDED, '✗', 'superjson.test.ts'),

  c(
    'safe-stable-stringify',
    'serialize',
    /^edge\.(date\.invalid|number\.(NaN|[+-]Infinity)|array\.(hole|undefined)|map|set|cycle|symbol|function)$/,
    '✗',
    'safe-stable-stringify.test.ts',
  ),
  c('safe-stable-stringify', 'serialize', NEG_ZERO, '✗', 'safe-stable-stringify.test.ts'),

  c('secure-json-parse', 'deserialize', INT_ROUNDED, '✗', 'secure-json-parse.test.ts'),
  c('secure-json-parse', 'deserialize', /^safety\.declared\.__proto__/, '⚠', 'secure-json-parse.test.ts'),
];
