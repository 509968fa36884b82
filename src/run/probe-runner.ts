/**
 * The host side of a probe pass: one worker launch per serializer row × target carries that row's
 * planned probe sides (a `probe` job, worker/probe-job.ts), launched, timed out and relaunched as
 * the case runner does. The timeout is per probe side, re-armed at each `probe-start`
 * (runtimes/launch.ts); a worker that dies or hangs costs the probe in flight — ✗ crash or ✗ hang,
 * or – when it hung preparing a deep stand-in for a recursive schema — and a fresh worker carries on
 * with the rest — or, in a timed run's pass ({@link ProbeRunInput.skipAfterHang}), after a hang the
 * row's remaining cells are skipped (`– skipped: it hung on probe X`), since each would most likely
 * cost a full timeout (issue 25: 125 probes × 2 directions × 120 s). A worker that cannot load the serializer gives every cell of the launch its
 * reason. The pass may have a total budget ({@link ProbeRunInput.budgetMs}).
 */
import type { CaseTarget, Direction } from '../case/coordinates.js';
import type { Verdict } from '../case/probe.js';
import type { ProbeVerdictRecord } from '../results/types.js';
import type { ProbeCell, ProbeJob, ProbeOutcomeMessage, WorkerMessage } from '../worker/protocol.js';
import type { LaunchOutcome } from '../runtimes/launch.js';
import type { LaunchFn } from '../runtimes/types.js';
import { crashLine } from './runner.js';

/** One serializer row's probe sides to run on one target. */
export interface ProbeWork {
  row: string;
  version: string;
  /** the adapter id or version-matrix label the worker loads */
  serializer: string;
  target: CaseTarget;
  cells: ProbeCell[];
  /** typia's module index (typia row only) */
  typiaModules?: string;
  /**
   * A .NET row: judges what its worker reports for a cell (a `probe-outcome` message: the C# worker
   * runs the call, the host judges: probes/dotnet/outcome.ts). Absent: the worker sends verdicts.
   */
  judge?(message: ProbeOutcomeMessage): Verdict;
}

/** What the probe runner needs. */
export interface ProbeRunInput {
  work: ProbeWork[];
  /** the probe pass's file (conformance texts) handed to workers as a payload */
  payloadPath: string;
  configPath?: string;
  /** per probe side (ms) */
  timeoutMs: number;
  /** ids of probes whose schema is a deep stand-in for a recursive one (a hang preparing it is –, not ✗) */
  deepSchema: ReadonlySet<string>;
  launchFor(target: CaseTarget): LaunchFn | undefined;
  faultOf(target: CaseTarget): string | undefined;
  onVerdict?(v: ProbeVerdictRecord): void;
  /** a launch begins (index counts launches, `cells` how many sides it carries) */
  onLaunch?(e: { row: string; target: string; cells: number; relaunch: boolean }): void;
  /** a verdict the worker sent as its own judgement (not one the host gave a crash, a hang or a load failure) */
  onJudged?(work: ProbeWork, cell: ProbeCell, verdict: Verdict): void;
  /**
   * The pass's total wall-time budget (ms; absent: none). No launch starts after it ran out, and a
   * launch's per-probe timeout never reaches past it; the cells left get a `–` "skipped: the probe
   * pass's budget … ran out" verdict.
   */
  budgetMs?: number;
  /** rows (by label) not to launch at all, with why: a serializer that hung or crashed in its timed case (each cell gets `skipped: <why>`) */
  skip?: ReadonlyMap<string, string>;
  /**
   * true: after a hang, the row's remaining cells on that target are skipped (`skipped: it hung on
   * probe X`) instead of relaunched, each of which would most likely cost a full timeout (a timed
   * run's pass); false (default, `jsonbench probe`, whose matrix is the point): a fresh worker runs the rest.
   */
  skipAfterHang?: boolean;
}

/** The verdict of a probe side not run: `–` (not a judgement of the library) with `skipped: <why>`. */
export function skippedVerdict(why: string): Verdict {
  return { mark: '–', reason: `skipped: ${why}` };
}

const key = (c: ProbeCell) => `${c.direction}\u0000${c.probe}`;

/** What one launch did to its cells: verdicts, and what stopped it early. */
interface LaunchReading {
  verdicts: Map<string, Verdict>;
  inFlight?: ProbeCell;
  /** the worker got past prepare() for the probe in flight */
  prepared: boolean;
  /** a verdict for every cell the launch could not reach (a load failure), or for the probe in flight */
  fault?: Verdict;
  /** the fault is for every remaining cell (the worker never started on them) */
  forAll: boolean;
}

/**
 * Reads a probe launch's messages and how it ended. `judge` turns a .NET worker's `probe-outcome`
 * into its verdict (without it such a message is ⚠: nothing on the host could judge it).
 */
export function readProbeLaunch(
  o: LaunchOutcome,
  timeoutMs: number,
  deep: ReadonlySet<string>,
  judge?: (message: ProbeOutcomeMessage) => Verdict,
): LaunchReading {
  const verdicts = new Map<string, Verdict>();
  let inFlight: ProbeCell | undefined;
  let prepared = false;
  let error: Extract<WorkerMessage, { type: 'error' }> | undefined;
  let done = false;
  for (const m of o.messages) {
    if (m.type === 'probe-start') {
      inFlight = { probe: m.probe, direction: m.direction };
      prepared = false;
    } else if (m.type === 'probe-prepared') prepared = true;
    else if (m.type === 'probe') {
      verdicts.set(key(m), m.verdict);
      inFlight = undefined;
    } else if (m.type === 'probe-outcome') {
      verdicts.set(
        key(m),
        judge ? judge(m) : { mark: '⚠', stage: 'call', message: 'a probe outcome came back with no judge for it' },
      );
      inFlight = undefined;
    } else if (m.type === 'error') error ??= m;
    else if (m.type === 'done') done = true;
  }
  if (error && !inFlight) {
    const fault: Verdict = error.unsupported
      ? { mark: '✘', reason: error.message }
      : {
          mark: '⚠',
          stage: 'prepare',
          message: `the worker could not load the serializer (${error.stage}): ${error.message}`,
        };
    return { verdicts, prepared, fault, forAll: true };
  }
  if (done && !inFlight) return { verdicts, prepared, forAll: false };
  const how = o.timedOut
    ? null
    : (o.protocolError ??
      `process died (${o.signal ?? `exit ${o.exitCode}`})${crashLine(o.stderrTail) ? `: ${crashLine(o.stderrTail)}` : ''}`);
  if (!inFlight) {
    // It stopped before its first probe or between two: every cell not yet judged says why.
    const fault: Verdict = o.timedOut
      ? {
          mark: '✗',
          fault: 'hang',
          path: '$',
          expected: 'an answer or a clean error',
          actual: `the worker did not start a probe within ${timeoutMs} ms (process killed)`,
        }
      : {
          mark: '✗',
          fault: 'crash',
          path: '$',
          expected: 'an answer or a clean error',
          actual: `${how} before a probe started`,
        };
    return { verdicts, prepared, fault, forAll: true };
  }
  const fault: Verdict =
    o.timedOut && !prepared && deep.has(inFlight.probe)
      ? {
          mark: '–',
          reason: `needs recursive: prepare() did not finish within ${timeoutMs} ms on this deep non-recursive stand-in schema`,
        }
      : o.timedOut
        ? {
            mark: '✗',
            fault: 'hang',
            path: '$',
            expected: 'an answer or a clean error',
            actual: `no answer within ${timeoutMs} ms${prepared ? '' : ' (in prepare())'} (process killed)`,
          }
        : { mark: '✗', fault: 'crash', path: '$', expected: 'an answer or a clean error', actual: how! };
  return { verdicts, inFlight, prepared, fault, forAll: false };
}

/**
 * Runs every row's cells on its target, relaunching after a crash or a hang. Returns every verdict
 * (one per cell, in launch order) and the number of launches. Never throws for a misbehaving
 * serializer: its cells carry the verdict.
 */
export async function runProbeWork(
  input: ProbeRunInput,
): Promise<{ verdicts: ProbeVerdictRecord[]; launches: number }> {
  const verdicts: ProbeVerdictRecord[] = [];
  let launches = 0;
  const deadline = input.budgetMs !== undefined ? performance.now() + input.budgetMs : Infinity;
  const budgetOut = () =>
    `the probe pass's budget of ${Math.round((input.budgetMs ?? 0) / 1000)} s ran out before this probe`;
  for (const w of input.work) {
    const emit = (cell: ProbeCell, verdict: Verdict) => {
      const r: ProbeVerdictRecord = {
        probe: cell.probe,
        direction: cell.direction as Direction,
        serializer: w.row,
        serializerVersion: w.version,
        target: w.target.id,
        verdict,
      };
      verdicts.push(r);
      input.onVerdict?.(r);
    };
    const fault = input.faultOf(w.target);
    const launch = input.launchFor(w.target);
    if (fault || !launch) {
      for (const c of w.cells)
        emit(c, {
          mark: '✘',
          reason: `target ${w.target.id} cannot run: ${fault ?? 'no way to launch a worker there'}`,
        });
      continue;
    }
    const skipped = input.skip?.get(w.row);
    if (skipped) {
      for (const c of w.cells) emit(c, skippedVerdict(skipped));
      continue;
    }
    let remaining = w.cells;
    let relaunch = false;
    while (remaining.length) {
      const left = deadline - performance.now();
      if (left <= 0) {
        for (const c of remaining) emit(c, skippedVerdict(budgetOut()));
        break;
      }
      const timeoutMs = Math.max(1, Math.min(input.timeoutMs, Math.ceil(left)));
      const job: ProbeJob = {
        mode: 'probe',
        serializer: w.serializer,
        cells: remaining,
        payloadPath: input.payloadPath,
        ...(input.configPath ? { configPath: input.configPath } : {}),
        ...(w.typiaModules ? { typiaModules: w.typiaModules } : {}),
      };
      input.onLaunch?.({ row: w.row, target: w.target.id, cells: remaining.length, relaunch });
      launches++;
      const reading = readProbeLaunch(await launch(job, timeoutMs), timeoutMs, input.deepSchema, w.judge);
      for (const c of remaining) {
        const v = reading.verdicts.get(key(c));
        if (v) {
          emit(c, v);
          input.onJudged?.(w, c, v);
        }
      }
      let rest = remaining.filter((c) => !reading.verdicts.has(key(c)));
      const hang = reading.fault?.mark === '✗' && reading.fault.fault === 'hang';
      if (hang && timeoutMs < input.timeoutMs) {
        // its timeout was cut to the budget's end: not a hang of the library's, only the pass out of time
        for (const c of rest) emit(c, skippedVerdict(budgetOut()));
        rest = [];
      } else if (reading.fault && reading.forAll) {
        for (const c of rest) emit(c, reading.fault);
        rest = [];
      } else if (reading.fault && reading.inFlight) {
        const hung = reading.inFlight;
        emit(hung, reading.fault);
        rest = rest.filter((c) => key(c) !== key(hung));
        // a serializer that hung on a probe would most likely hang on the next ones too: each would cost a full timeout
        if (hang && input.skipAfterHang) {
          for (const c of rest) emit(c, skippedVerdict(`it hung on probe ${hung.probe} (${hung.direction})`));
          rest = [];
        }
      }
      if (rest.length && rest.length === remaining.length) {
        // No verdict and no fault: a worker that ends without judging its cells would be relaunched forever.
        for (const c of rest)
          emit(c, { mark: '⚠', stage: 'call', message: 'the worker finished without judging this probe' });
        rest = [];
      }
      remaining = rest;
      relaunch = true;
    }
  }
  return { verdicts, launches };
}
