import { progressView, type ProgressView } from '../../src/cli/progress.js';

/** Resolves after `ms` milliseconds (the progress tests wait for heartbeats). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The plain progress view (stderr piped, not a terminal) of `jsonbench run`, `width` columns wide (default
 * 200), its heartbeat every `heartbeatMs`; what it writes to stderr and to the tables' stream is kept in
 * `lines`, one entry per non-empty line. The caller stops it (`view.stop()`).
 */
export function pipedProgress(heartbeatMs: number, width = 200): { view: ProgressView; lines: string[] } {
  const lines: string[] = [];
  const stream = {
    write: (s: string) => {
      lines.push(...s.split('\n').filter(Boolean));
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  const view = progressView({ isTty: false, width, heartbeatMs, streams: { stderr: stream, tables: stream } });
  return { view, lines };
}
