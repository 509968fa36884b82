import { readFileSync } from 'node:fs';
import { variantPathOf, type Side } from '../../case/coordinates.js';
import type { Workload } from '../../workloads/types.js';
import { PROTOCOL_VERSION, type CaseJob, type WorkerMessage } from '../../worker/protocol.js';
import { outcomeOf, type LaunchOutcome } from '../launch.js';
import type { LaunchFn, LaunchPlace } from '../types.js';
import { checkDigests, checkGate, expectedInputBytes } from './gate.js';
import { isGate, type GateMessage } from './protocol.js';
import { dotnetPayloadPath } from './well-formed.js';

/**
 * The host side of the .NET worker's correctness gate, wrapped around a .NET target's launcher, so
 * the runner sees what it sees from every worker: a launch that ends in `incorrect`, `error` or
 * `done`. The C# worker cannot run the JavaScript gate, so it sends what the gate compares
 * (`gate` messages, runtimes/dotnet/protocol.ts) and the host judges:
 *
 * - Before the first timed or allocation launch of a serializer on a payload, one `verify`
 *   launch of the job: every side's outputs on the main and the variant payload are checked by
 *   {@link checkGate} (and the deserialize inputs' size against what JavaScript workers get). A
 *   failure becomes an `incorrect` message for that side, so the case is `incorrect` and never
 *   timed; an error, crash or timeout of the verify launch is returned as it is (the runner judges
 *   it as any launch). The verdict is kept: a serializer is verified once per payload and shape.
 * - Every later launch must send, per side and payload, the same output digest (SHA-256) the
 *   verify launch passed; otherwise the launch reads as `incorrect` ("output changed between
 *   processes") and its samples are not used.
 *
 * Nothing measured is invented: only `incorrect` or `error` lines are added, never numbers.
 * @param workloadOf the run's workload of an id (its expected values), or undefined
 */
export function gatedLauncher(launch: LaunchFn, workloadOf: (id: string) => Workload | undefined): LaunchFn {
  /** key of a serializer on a payload → the digests it passed with, or its verdict when it failed */
  const verified = new Map<
    string,
    { gates: GateMessage[] } | { failure: Extract<WorkerMessage, { type: 'incorrect' }> }
  >();
  const keyOf = (job: CaseJob, serializer: string) =>
    `${job.workload}\u0000${job.size}\u0000${job.shape}\u0000${job.direction}\u0000${job.payloadPath}\u0000${serializer}`;
  const sidesOf = (job: CaseJob): [Side, string][] => [
    ['serializer', job.serializer],
    ...(job.baseline && job.baseline !== job.serializer ? [['baseline', job.baseline] as [Side, string]] : []),
  ];

  const verify = async (job: CaseJob, timeoutMs: number, place?: LaunchPlace): Promise<LaunchOutcome | null> => {
    const workload = workloadOf(job.workload);
    const outcome = await launch({ ...job, mode: 'verify' }, timeoutMs, place);
    const done = outcome.messages.some((m) => m.type === 'done');
    if (!done || !workload) {
      if (done && !workload)
        return withMessage(outcome, {
          type: 'error',
          stage: 'verify',
          message: `the host has no workload "${job.workload}" to check the .NET output against`,
        });
      return outcome;
    }
    const texts = {
      main: readFileSync(job.payloadPath, 'utf8'),
      variant: readFileSync(variantPathOf(job.payloadPath), 'utf8'),
    };
    const gates = outcome.messages.filter(isGate) as unknown as GateMessage[];
    for (const [side, id] of sidesOf(job)) {
      const mine = gates.filter((g) => g.side === side);
      const missing = (['main', 'variant'] as const).filter((p) => !mine.some((g) => g.payload === p && g.outputs));
      if (missing.length)
        return withMessage(outcome, {
          type: 'error',
          stage: 'verify',
          side,
          message: `the .NET worker sent no gate output for the ${missing.join(' and ')} payload`,
        });
      for (const g of mine) {
        const text = g.payload === 'main' ? texts.main : texts.variant;
        if (g.direction === 'deserialize') {
          const expected = expectedInputBytes(workload, job.shape, text);
          if (g.inputBytes !== expected)
            return withMessage(outcome, {
              type: 'error',
              stage: 'verify',
              side,
              message: `the .NET worker's deserialize inputs hold ${g.inputBytes} bytes, JavaScript workers get ${expected} (${g.payload} payload)`,
            });
        }
        const failure = checkGate(workload, job.shape, g, text);
        if (failure) {
          const incorrect = {
            type: 'incorrect',
            side,
            path: failure.path,
            expected: failure.expected,
            actual: failure.actual,
            reason: failure.reason,
            ...(g.payload === 'variant' ? { on: 'variant' as const } : {}),
          } as const;
          verified.set(keyOf(job, id), { failure: { protocol: PROTOCOL_VERSION, ...incorrect } });
          return withMessage(outcome, incorrect);
        }
      }
      verified.set(keyOf(job, id), { gates: mine.map(({ outputs: _o, ...digest }) => digest) });
    }
    return null;
  };

  return async (job, timeoutMs, place) => {
    // probe jobs are never timed and carry no payload of a workload: passed through (the host judges their outcomes: probes/dotnet/)
    if (job.mode === 'probe') return launch(job, timeoutMs, place);
    // neither are cold-start jobs (run/cold-start.ts skips .NET cases) nor group jobs (run/runner.ts launches .NET cases one pair at a time)
    if (job.mode === 'cold' || job.serializers?.length)
      return synthetic({
        protocol: PROTOCOL_VERSION,
        type: 'error',
        stage: 'setup',
        message: `the .NET worker has no ${job.mode === 'cold' ? 'cold-start' : 'group'} job`,
        unsupported: true,
      });
    // the .NET worker and this gate read a copy whose variant has no lone surrogates (System.Text.Json refuses them: well-formed.ts)
    job = { ...job, payloadPath: dotnetPayloadPath(job.payloadPath, workloadOf(job.workload)?.wire?.indent) };
    if (job.mode !== 'verify') {
      for (const [side, id] of sidesOf(job)) {
        const v = verified.get(keyOf(job, id));
        if (v && 'failure' in v) return synthetic({ ...v.failure, side });
      }
      if (sidesOf(job).some(([, id]) => !verified.has(keyOf(job, id)))) {
        const stop = await verify(job, timeoutMs, place);
        if (stop) return stop;
      }
    }
    const outcome = await launch(job, timeoutMs, place);
    if (job.mode === 'verify' || !outcome.messages.some((m) => m.type === 'done')) return outcome;
    const gates = outcome.messages.filter(isGate) as unknown as GateMessage[];
    for (const [side, id] of sidesOf(job)) {
      const v = verified.get(keyOf(job, id));
      if (!v || !('gates' in v)) continue;
      const mine = gates.filter((g) => g.side === side);
      const problem = mine.length
        ? checkDigests(
            v.gates.map((g) => ({ ...g, side })),
            mine,
          )
        : `${side} sent no output digest`;
      if (problem) {
        return withMessage(outcome, {
          type: 'incorrect',
          side,
          path: '$',
          expected: 'the output the verify launch passed',
          actual: 'other output',
          reason: `output changed between processes: ${problem}`,
        });
      }
    }
    return outcome;
  };
}

type Added =
  | { type: 'incorrect'; side: Side; path: string; expected: string; actual: string; reason: string; on?: 'variant' }
  | { type: 'error'; stage: string; side?: Side; message: string };

/** The outcome with one host-made message appended (the runner reads `incorrect` and `error` before `done`). */
function withMessage(o: LaunchOutcome, m: Added): LaunchOutcome {
  return {
    ...o,
    messages: [...o.messages.filter((x) => !isGate(x)), { protocol: PROTOCOL_VERSION, ...m } as WorkerMessage],
  };
}

/** A launch answered from a kept verdict, without starting a process. */
function synthetic(m: Extract<WorkerMessage, { type: 'incorrect' | 'error' }>): LaunchOutcome {
  return outcomeOf([m], 0);
}
