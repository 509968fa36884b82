import { timeIntervalOf } from './ratio.js';

/**
 * A case's history as the ledger gives it back: one point per run × serializer version. The ledger
 * (src/ledger/queries.ts) makes these; reports render them (report/history.ts, the HTML report's
 * "Across releases" section), so the type sits here, below both.
 */
import type { SchemaIdentity } from './payload-schema.js';

/** One measurement of a case in one run. Times in ns/op, allocation in bytes/op. */
export interface HistoryPoint {
  runId: number;
  startedAt: string;
  toolVersion: string;
  gitCommit: string | null;
  caseId: string;
  workload: string;
  size: number;
  shape: string;
  direction: string;
  /** row label (`fast-json-stringify@5.16.1`) and adapter id (`fast-json-stringify`) */
  serializer: string;
  adapter: string;
  serializerVersion: string;
  target: string;
  targetVersion: string;
  status: string;
  reason: string | null;
  meanNs: number | null;
  /** results.json's `time.error` (since branch `stats5` the mean × its interval's larger log half-width: read {@link pointTimeInterval}) */
  errorNs: number | null;
  /** the mean's confidence interval [low, high], ns/op, as recorded (log scale, asymmetric); null when unknown; absent: not read */
  timeInterval?: [number, number] | null;
  ratio: number | null;
  bytesPerOp: number | null;
  instructionsPerOp: number | null;
  /** the ratio's interval on the log scale, [low, high] (results/ratio.ts); null when unknown; absent: not read */
  ratioInterval?: [number, number] | null;
  /**
   * the run's serialize op (`--serialize-to`): `bytes` (value → UTF-8 bytes, the default) or
   * `string` (the string alone; also every run recorded before the option existed). Serialize
   * points of the two ops time different work and are never one series. Absent: not read.
   */
  serializeTo?: 'bytes' | 'string';
  /** the run's policy name (`quick`, `default`…): points of two policies were measured for different lengths and rounds. Absent: not read. */
  policy?: string;
  /**
   * the schema a user's payload was measured with (the run's `payloads` record of the case's workload):
   * `inferred` or the `--schema` library and file, and the schema's sha256 when the run recorded it
   * (since 2026-12-06). Null: a built-in workload (its schema is the code's). Absent: not read.
   */
  schema?: SchemaIdentity | null;
  /** hex sha256 of the bytes the case timed (its `payload.sha256`): two points of one case id on other bytes are not one series (hx30 hist-samename). Absent: not read. */
  payloadSha256?: string;
  /** true when its run was imported from a file read unchecked (results/integrity.ts); absent: checked, or not read */
  unchecked?: boolean;
  /** true when the case carries the `noisy` finding (a launch reached the time cap before its error target); absent: not read */
  noisy?: boolean;
  /** true when its run did not rank the case (results/unranked.ts: its ratio or time is not the work's); absent: ranked, or not read */
  unranked?: boolean;
  /**
   * what the ledger's case record (result_json, which `ledger export` reads) says where it is not what the
   * estimates rows say (ratio, mean, allocated bytes/op, instructions/op): a ledger edited after the run
   * (hx5 F3, hx21 L02). Absent: they agree, or not read.
   */
  recorded?: {
    ratio: number | null;
    meanNs: number | null;
    bytesPerOp?: number | null;
    instructionsPerOp?: number | null;
  };
}

/**
 * A point's time interval [low, high] (ns/op): the recorded one (`timeInterval`), else the one
 * results/ratio.ts timeIntervalOf derives from its mean and error; null without a mean.
 */
export function pointTimeInterval(
  p: Pick<HistoryPoint, 'meanNs' | 'errorNs' | 'timeInterval'>,
): [number, number] | null {
  if (p.timeInterval !== undefined) return p.timeInterval;
  if (p.meanNs === null || p.errorNs === null) return null;
  return timeIntervalOf({ mean: p.meanNs, error: p.errorNs });
}
