/**
 * The process that records a run into the ledger, so `jsonbench ledger list` can tell a run still
 * going from one that was killed (both have no end time): its pid, its host name, and on Linux its
 * start time, so a pid reused by a later process is not taken for the recorder.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';

/** Who records a run: pid, host name, and start time in clock ticks since boot (Linux `/proc/<pid>/stat` field 22; null elsewhere). */
export interface Recorder {
  pid: number;
  host: string;
  startTicks: number | null;
}

/**
 * A process's start time in clock ticks since boot, from `/proc/<pid>/stat` (proc(5): field 22,
 * `starttime`; the fields are counted after the command name, which is in parentheses and may
 * itself hold spaces or parentheses). Null when there is no such file (not Linux, or no such process).
 */
export function processStartTicks(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[22 - 3]);
  return Number.isSafeInteger(ticks) ? ticks : null;
}

/** This process as a recorder. */
export function thisRecorder(): Recorder {
  return { pid: process.pid, host: hostname(), startTicks: processStartTicks(process.pid) };
}

/**
 * How a run stands: finished; still being recorded; killed (its recorder is gone); cut short (its
 * recorder is gone, but the run wrote its results.json: it finished, and a ledger write failed
 * first, such as on a full disk); or unknown (recorded on another host, or before recorders were noted).
 */
export type RunState = 'finished' | 'running' | 'killed' | 'cut-short' | 'unknown';

/**
 * Whether the recorder of an unfinished run is still alive: only on the host that recorded it;
 * alive when signal 0 reaches its pid (EPERM: alive, another user's) and, where both start times
 * are known, the process at that pid started when the recorder did. `unknown` without a recorder
 * or on another host.
 */
export function unfinishedRunState(recorder: Recorder | null): Exclude<RunState, 'finished'> {
  if (!recorder || recorder.host !== hostname()) return 'unknown';
  try {
    process.kill(recorder.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return 'killed';
  }
  const now = processStartTicks(recorder.pid);
  return recorder.startTicks !== null && now !== null && now !== recorder.startTicks ? 'killed' : 'running';
}

/**
 * Whether the output folder `outDir` of a run holds the results.json of the run that started at
 * `startedAt` (its `startedAt`, read from the file's first 4 KiB, where a run writes it): the run
 * finished, so a ledger row of it with no end was cut short by a failed ledger write, not killed
 * (issue 25, hostile tester hx8: runs whose ledger writes hit a full disk were listed as "killed").
 * False when there is no such file, or it is another run's (a later run into the same folder).
 */
export function wroteItsResults(outDir: string | null, startedAt: string): boolean {
  if (!outDir) return false;
  let fd: number | undefined;
  try {
    fd = openSync(join(outDir, 'results.json'), 'r');
    const head = Buffer.alloc(4096);
    const n = readSync(fd, head, 0, head.length, 0);
    const m = /"startedAt"\s*:\s*"([^"]*)"/.exec(head.subarray(0, n).toString('utf8'));
    return m?.[1] === startedAt;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
