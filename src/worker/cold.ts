/**
 * A cold-start job (issue 13 item 5): what a serverless function or a CLI tool pays before its
 * first answer, in a worker process started for this alone. In order, each timed once:
 *
 *   load        importing the adapter (and so its library) — near 0 where the worker is one bundle
 *               (every target but the host's Node), the import itself where it is not
 *   prepare     prepareCase: the workload's unit view and `adapter.prepare()` (schema compilation,
 *               code generation), awaited
 *   first call  one op on the payload's inputs (every unit for shape `many`; the same op as the
 *               warm rounds, `--serialize-to` included), the code cold
 *
 * then the correctness gate on both payloads, as a timing launch runs it, so a figure is kept only
 * for a serializer that answers right. Nothing here is warmed, repeated or mixed into the warm
 * figures; the host runs several such processes and keeps each one's figures (run/cold-start.ts).
 */
import { variantPathOf, type Side } from '../case/coordinates.js';
import { caseWorkload, userEntriesFor } from './case-context.js';
import type { CaseJob } from './protocol.js';
import type { WorkerHost } from './host.js';
import { serializers } from '../serializers/index.js';
import { prepareCase } from '../measure/prepare-case.js';
import { makeOp, sinkChecksum } from '../measure/sink.js';
import { nowNs } from '../measure/clock.js';
import { describeThrown } from '../host/describe-thrown.js';

/** The process CPU clock (user + system, ns; µs steps), where the runtime has `process.cpuUsage`. */
function cpuClock(): (() => number) | undefined {
  const p = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process;
  if (typeof p?.cpuUsage !== 'function') return undefined;
  const usage = p.cpuUsage.bind(p);
  return () => {
    const u = usage();
    return (u.user + u.system) * 1000;
  };
}

/** Runs a `cold` job: sends `cold` (or `incorrect`/`error`) and `done`. Never throws. */
export async function runColdJob(job: CaseJob, host: WorkerHost): Promise<void> {
  const t0 = nowNs();
  const cpu = cpuClock();
  let step = 'load';
  const side: Side = 'serializer';
  try {
    host.send({ type: 'stage', stage: 'load' });
    const user = await userEntriesFor(job, host, [job.serializer]);
    const workload = await caseWorkload(job, user);
    const texts = [host.readText(job.payloadPath), host.readText(variantPathOf(job.payloadPath))];
    const timed = async <T>(fn: () => T | Promise<T>): Promise<{ value: T; ns: number; cpuNs: number }> => {
      const c0 = cpu?.() ?? 0;
      const w0 = nowNs();
      const value = await fn();
      const ns = nowNs() - w0;
      const cpuNs = (cpu?.() ?? 0) - c0;
      return { value, ns, cpuNs };
    };
    const load = await timed(() => serializers.load(job.serializer, user.serializers));
    step = 'prepare';
    host.send({ type: 'stage', stage: 'prepare', side });
    const prepare = await timed(() =>
      prepareCase(load.value, workload, {
        shape: job.shape,
        direction: job.direction,
        caseClass: job.caseClass,
        serializeTo: job.policy.serializeTo,
      }),
    );
    step = 'first call';
    const inputs = prepare.value.inputs(texts[0]);
    const op = makeOp(prepare.value.call, inputs, inputs);
    const first = await timed(() => op(0));
    step = 'verify';
    host.send({ type: 'stage', stage: 'verify', side });
    for (const text of texts) {
      const failure = prepare.value.check(text);
      if (failure) {
        host.send({ type: 'incorrect', side, ...failure });
        return;
      }
    }
    host.send({
      type: 'cold',
      loadNs: load.ns,
      prepareNs: prepare.ns,
      firstCallNs: first.ns,
      ...(cpu ? { cpu: { loadNs: load.cpuNs, prepareNs: prepare.cpuNs, firstCallNs: first.cpuNs } } : {}),
    });
    host.send({ type: 'done', noisy: false, elapsedMs: (nowNs() - t0) / 1e6, checksum: sinkChecksum() });
  } catch (e) {
    const err = e as Error;
    host.send({
      type: 'error',
      stage: step,
      side,
      message: describeThrown(e),
      ...(isUnsupported(err) ? { unsupported: true } : {}),
    });
  }
}

/** Whether a thrown value is an `UnsupportedOnTarget` error; false for one whose `name` cannot be read. */
function isUnsupported(e: unknown): boolean {
  try {
    return (e as Error | null)?.name === 'UnsupportedOnTarget';
  } catch {
    return false;
  }
}
