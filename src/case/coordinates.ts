import { deepFreeze } from './frozen.js';
/**
 * The words every layer of the lab shares about a case: where it sits in the matrix (workload ×
 * size × shape × direction × class × serializer × target). The ground floor of the house: this
 * folder imports nothing of jsonbench, and every other folder may import it.
 */

/**
 * How a payload is exercised.
 * - `single`: one document; an op is one stringify or one parse of it.
 * - `list`: one array of `size` records; an op is one stringify or parse of the whole array.
 * - `many`: the same `size` records, each serialized or deserialized separately; an op is the
 *   whole loop (as in the study this comes from), so `list` and `many` compare directly.
 */
export type Shape = 'single' | 'list' | 'many';

/** serialize: value → text; deserialize: text → value. */
export type Direction = 'serialize' | 'deserialize';

/** Both directions, in the order runs and tables use. */
export const DIRECTIONS: readonly Direction[] = deepFreeze(['serialize', 'deserialize']);

/**
 * Where a serializer comes from, as the .NET studies class them: the built-in (`JSON`, like
 * System.Text.Json reflection), schema-compiled (source-generated STJ), reflection/decorator
 * libraries (Newtonsoft), and validators used for typed deserialization.
 */
export type Family = 'builtin' | 'schema-compiled' | 'reflection' | 'validator';

/**
 * What a deserializer guarantees, which decides what its output is checked against and which
 * cases it is ranked with (ratios are only drawn inside one class):
 * - `parse`: untyped; result equals the wire value.
 * - `validate`: types checked against the workload schema; result equals the wire value.
 * - `transform`: also converts (numeric strings → numbers, ISO strings → Date, wire names →
 *   model names); result equals the workload's model.
 * Serialize cases all belong to class `serialize`.
 */
export type GuaranteeClass = 'parse' | 'validate' | 'transform';
export type CaseClass = GuaranteeClass | 'serialize';

/**
 * The language platform a serializer belongs to and a target runs: JavaScript engines (Node, Bun,
 * Deno, Chromium, QuickJS) or .NET (the SDK's runtime, Mono). A serializer is planned only on the
 * targets of its platform, and each platform's cases are ranked against that platform's baseline
 * (`json` for JavaScript, `stj` for .NET), so a ratio never crosses languages.
 */
export type Platform = 'javascript' | 'dotnet';

/** Every platform, in the order runs and reports list them. */
export const PLATFORMS: readonly Platform[] = deepFreeze(['javascript', 'dotnet']);

/** Which side of a paired measurement: the case's serializer, or its class baseline timed beside it. */
export type Side = 'serializer' | 'baseline';

/** Where a case sits in the matrix: the fields a planned case, a worker job and a result share. */
export interface CaseCoordinates {
  workload: string;
  size: number;
  shape: Shape;
  direction: Direction;
  caseClass: CaseClass;
  serializer: string;
}

/**
 * The {@link CaseCoordinates} of a recorded case (results/types.ts CaseHeader, run/recorded.ts
 * RecordedCase), as a planned case and a worker job name them: `class` becomes `caseClass`, nothing
 * else is copied. Its fields keep their types (a results case's `shape` stays a {@link Shape}). Pure.
 */
export function coordinatesOf<
  C extends Record<'workload' | 'shape' | 'direction' | 'class' | 'serializer', string> & { size: number },
>(c: C): Pick<C, 'workload' | 'size' | 'shape' | 'direction' | 'serializer'> & { caseClass: C['class'] } {
  return {
    workload: c.workload,
    size: c.size,
    shape: c.shape,
    direction: c.direction,
    caseClass: c.class,
    serializer: c.serializer,
  };
}

/** The runtime a case ran on. */
export interface CaseTarget {
  /** the target as given: `node`, `node@22`, `bun`, `deno`, `chromium`, `quickjs`, `ssh://user@host:port` */
  id: string;
  /** `node`, `bun`, `deno`, `chromium`, `quickjs` */
  runtime: string;
  /** exact runtime version, or `unavailable` when the target could not be prepared */
  version: string;
}

/**
 * The variant payload (another seed) sits beside the main one, `<name>.variant.json` next to
 * `<name>.json` (`<name>.variant.ndjson` next to a user's `<name>.ndjson`); the gate runs on both,
 * so a serializer returning a cached string fails.
 */
export function variantPathOf(payloadPath: string): string {
  return payloadPath.replace(/\.(json|ndjson)$/, '.variant.$1');
}
