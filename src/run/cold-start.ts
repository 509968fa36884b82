/**
 * The cold-start pass (`run --metric cold-start`; on in the long policy): after the warm
 * measurement, each measured case's serializer is started `processes` times in a fresh worker
 * (worker/cold.ts), which times loading it, `prepare()` and the first op once, then gates the
 * output. Every process's figures are kept on the case as `coldStart`, next to — never inside —
 * its warm `time`. A cold process that fails keeps the case measured (its warm figures were
 * gated) and is named in `coldStart.failures`. Cases run `jobs` at a time on the run's slots.
 * JavaScript cases only: the .NET worker has no cold job (its cases keep no `coldStart`).
 */
import type { CaseResult } from '../results/types.js';
import type { ColdStartStats } from '../case/measurements.js';
import type { MeasurePolicy } from '../case/policy.js';
import type { LaunchFn, LaunchPlace } from '../runtimes/types.js';
import type { WorkerMessage } from '../worker/protocol.js';
import type { PayloadWorkloadSpec } from '../workloads/payload.js';
import { judgeLaunch } from './runner.js';
import { ProgressCounter } from './progress.js';
import type { ProgressEvent } from './runner.js';
import { coordinatesOf } from '../case/coordinates.js';

/** What the pass needs: the cases, how to reach their payloads and targets, how many processes. */
export interface ColdStartInput {
  cases: CaseResult[];
  /** fresh processes per measured case */
  processes: number;
  /** payload file of a case (`<workload>-<size>`), and a user's payload's workload spec */
  payloadOf: (c: CaseResult) => { path: string; spec?: PayloadWorkloadSpec } | undefined;
  launchFor: (c: CaseResult) => LaunchFn | undefined;
  configPath?: string;
  measure: MeasurePolicy;
  timeoutMs: number;
  jobs?: number;
  cpus?: readonly number[];
  onProgress?: (e: Extract<ProgressEvent, { type: 'launch' }>) => void;
}

/** Collects one case's cold processes into its figures (or null when none gave figures). */
export function coldStartOf(
  messages: readonly (Extract<WorkerMessage, { type: 'cold' }> | string)[],
): ColdStartStats | null {
  const ok = messages.filter((m): m is Extract<WorkerMessage, { type: 'cold' }> => typeof m !== 'string');
  const failures = messages.filter((m): m is string => typeof m === 'string');
  if (!ok.length) return null;
  const cpus = ok.every((m) => m.cpu) ? ok.map((m) => m.cpu!) : null;
  return {
    processes: ok.length,
    loadNs: ok.map((m) => m.loadNs),
    prepareNs: ok.map((m) => m.prepareNs),
    firstCallNs: ok.map((m) => m.firstCallNs),
    ...(cpus
      ? {
          cpu: {
            loadNs: cpus.map((c) => c.loadNs),
            prepareNs: cpus.map((c) => c.prepareNs),
            firstCallNs: cpus.map((c) => c.firstCallNs),
          },
        }
      : {}),
    ...(failures.length ? { failures } : {}),
  };
}

/** Runs the pass, setting `coldStart` on each measured case that gave figures. Never throws for a case. */
export async function runColdStartPass(input: ColdStartInput): Promise<void> {
  // the JavaScript worker's cases (the .NET worker has no cold job yet)
  const todo = input.cases.filter(
    (c) =>
      c.status === 'measured' &&
      (c.platform ?? 'javascript') === 'javascript' &&
      input.launchFor(c) &&
      input.payloadOf(c),
  );
  const counter = new ProgressCounter([todo.length * input.processes], todo.length);
  const t0 = performance.now();
  const one = async (c: CaseResult, place: LaunchPlace) => {
    const got: (Extract<WorkerMessage, { type: 'cold' }> | string)[] = [];
    for (let k = 1; k <= input.processes; k++) {
      const index = counter.start(0);
      input.onProgress?.({
        type: 'launch',
        index,
        total: counter.counts().launchesTotal,
        caseId: c.id,
        mode: 'cold',
        launch: k,
        counts: counter.counts(),
        elapsedMs: performance.now() - t0,
      });
      const outcome = await input.launchFor(c)!(
        {
          mode: 'cold',
          ...coordinatesOf(c),
          payloadPath: input.payloadOf(c)!.path,
          ...(input.payloadOf(c)!.spec ? { workloadSpec: input.payloadOf(c)!.spec } : {}),
          ...(input.configPath ? { configPath: input.configPath } : {}),
          policy: input.measure,
        },
        input.timeoutMs,
        place,
      );
      counter.end();
      const cold = outcome.messages.find((m): m is Extract<WorkerMessage, { type: 'cold' }> => m.type === 'cold');
      const done = outcome.messages.some((m) => m.type === 'done');
      if (cold && done) {
        got.push(cold);
        continue;
      }
      const v = judgeLaunch(outcome, k, input.timeoutMs);
      got.push(
        `process ${k}: ${v.kind === 'ok' ? 'no cold figures' : v.kind === 'bad' ? `${v.status}: ${v.reason}` : v.kind === 'incorrect' ? `incorrect: ${v.reason}` : `unsupported: ${v.reason}`}`,
      );
    }
    counter.caseDone();
    const stats = coldStartOf(got);
    if (stats && c.status === 'measured') c.coldStart = stats;
  };
  let next = 0;
  const slot = async (k: number) => {
    const place: LaunchPlace = input.cpus?.[k] !== undefined ? { cpu: input.cpus[k] } : {};
    while (next < todo.length) await one(todo[next++], place);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.jobs ?? 1, todo.length)) }, (_, k) => slot(k)));
}
