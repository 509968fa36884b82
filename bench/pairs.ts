import { readFileSync } from 'node:fs';
import { workloads } from '../src/workloads/index.js';
import { serializers } from '../src/serializers/index.js';
import { dotnetSerializers } from '../src/serializers/dotnet/index.js';
import { unitView } from '../src/workloads/unit.js';
import { prepareCase, type PreparedCase } from '../src/measure/prepare-case.js';
import type { SerializerAdapter } from '../src/serializers/types.js';
import { supportOf } from '../src/plan/plan.js';
import type { CaseClass, Direction, Shape } from '../src/case/coordinates.js';

/**
 * One pair the precision bench measures: a serializer against the baseline jsonbench draws its
 * ratio against (same class). `ratio` = serializer time / baseline time; < 1 is faster.
 */
export interface Pair {
  workload: string;
  size: number;
  shape: Shape;
  direction: Direction;
  serializer: string;
  baseline: string;
  /** `dotnet`: .NET serializers measured on the SDK's runtime (jsonbench's C# worker, and BenchmarkDotNet as the peer); absent: JavaScript on node */
  target?: 'dotnet';
}

/**
 * The fixed pairs: a large list serialize (ms per op), a small document serialize (µs per op),
 * and a small document validate-deserialize, whose class baseline is typebox (typia validates,
 * JSON.parse only parses, so jsonbench never pairs typia with json).
 */
export const DEFAULT_PAIRS: readonly Pair[] = [
  {
    workload: 'users',
    size: 10000,
    shape: 'list',
    direction: 'serialize',
    serializer: 'fast-json-stringify',
    baseline: 'json',
  },
  {
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'serialize',
    serializer: 'fast-json-stringify',
    baseline: 'json',
  },
  {
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'deserialize',
    serializer: 'typia',
    baseline: 'typebox',
  },
];

/**
 * The .NET pairs (the published studies' cases): users/10000 serialize and weather-station
 * deserialize, Newtonsoft.Json against System.Text.Json (`stj`, the .NET baseline).
 */
export const DOTNET_PAIRS: readonly Pair[] = [
  {
    workload: 'users',
    size: 10000,
    shape: 'list',
    direction: 'serialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    target: 'dotnet',
  },
  {
    workload: 'weather-station',
    size: 1,
    shape: 'single',
    direction: 'deserialize',
    serializer: 'newtonsoft',
    baseline: 'stj',
    target: 'dotnet',
  },
];

/** `workload/size/shape/direction/serializer~baseline`, with `@dotnet` for a .NET pair */
export function pairId(p: Pair): string {
  return `${p.workload}/${p.size}/${p.shape}/${p.direction}/${p.serializer}~${p.baseline}${p.target ? `@${p.target}` : ''}`;
}

/** Class of a pair's cases, or a reason it cannot be measured (unregistered, unsupported, classes differ). */
export async function pairClass(p: Pair): Promise<CaseClass | string> {
  if (p.target === 'dotnet') {
    // .NET deserializers are typed (the `transform` class); whether the DTOs exist is the worker build's business
    for (const id of [p.serializer, p.baseline])
      if (!dotnetSerializers.ids.includes(id)) return `${id} is not a registered .NET serializer`;
    return p.direction === 'serialize' ? 'serialize' : 'transform';
  }
  if (!serializers.ids.includes(p.serializer)) return `${p.serializer} is not registered`;
  if (!serializers.ids.includes(p.baseline)) return `${p.baseline} is not registered`;
  const w = unitView(await workloads.load(p.workload), p.shape);
  const classes: (CaseClass | undefined)[] = [];
  for (const id of [p.serializer, p.baseline]) {
    const a = await serializers.load(id);
    const ok = supportOf(a, w, p.direction);
    if (ok.status !== 'planned') return `${id}: ${ok.reason}`;
    classes.push(p.direction === 'serialize' ? 'serialize' : a.deserializeClass);
  }
  if (!classes[0] || classes[0] !== classes[1])
    return `classes differ (${classes.join(' vs ')}): jsonbench does not pair them`;
  return classes[0];
}

/** A side ready to time outside jsonbench: its call and the inputs of one op (one per unit). */
export interface PreparedSide {
  call: (input: unknown) => unknown;
  inputs: unknown[];
}

/**
 * Prepares one side as jsonbench's worker does (unit view, adapter.prepare, the correctness
 * gate on the payload) for a peer tool to time; a serialize side produces what jsonbench's default
 * op does (`serializeTo` `bytes`: the JSON text as UTF-8 bytes), so every tool of bench:precision
 * times the same op. @throws Error when the gate fails.
 */
export async function prepareSide(
  p: Pair,
  id: string,
  caseClass: CaseClass,
  payloadPath: string,
  serializeTo: 'bytes' | 'string' = 'bytes',
): Promise<PreparedSide> {
  const text = readFileSync(payloadPath, 'utf8');
  const side = await prepareGated(p, await serializers.load(id), caseClass, [text], serializeTo);
  return { call: side.call, inputs: side.inputs(text) };
}

/**
 * {@link prepareSide}'s preparation, for a bench that makes its own inputs: `adapter` (a registered
 * serializer, or a fixture's own: bench/rotation.ts's leafcache) prepared for pair `p`'s workload,
 * shape and direction as jsonbench's worker does, and gated on each payload text of `texts` (its
 * inputs are `inputs(text)` of any of them). @throws Error naming the adapter when the gate fails on one.
 */
export async function prepareGated(
  p: Pick<Pair, 'workload' | 'shape' | 'direction'>,
  adapter: SerializerAdapter,
  caseClass: CaseClass,
  texts: readonly string[],
  serializeTo: 'bytes' | 'string' = 'bytes',
): Promise<PreparedCase> {
  const side = await prepareCase(adapter, await workloads.load(p.workload), {
    shape: p.shape,
    direction: p.direction,
    caseClass,
    serializeTo,
  });
  for (const text of texts) {
    const failure = side.check(text);
    if (failure) throw new Error(`${adapter.id} fails the correctness gate: ${failure.reason}`);
  }
  return side;
}
