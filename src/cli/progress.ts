import cliProgress from 'cli-progress';
import type { SessionEvent } from '../run/session.js';

/** What the terminal shows while a run goes on: a bar on a terminal, one line per finished case otherwise. */
export interface ProgressView { onEvent(e: SessionEvent): void; stop(): void }

/**
 * A progress bar (cli-progress) on stderr when it is a terminal: launch n of N, ETA, current case;
 * else one `[status] id` line per finished case that has numbers or failed.
 */
export function progressView(isTty: boolean): ProgressView {
  if (isTty) {
    const bar = new cliProgress.SingleBar({ format: '{bar} {value}/{total} launches | ETA {eta_formatted} | {caseId}', hideCursor: true, clearOnComplete: true, stream: process.stderr }, cliProgress.Presets.shades_classic);
    let started = false;
    return {
      onEvent: (e) => {
        if (e.type !== 'launch') return;
        if (!started) { bar.start(e.total, 0, { caseId: '' }); started = true; }
        bar.update(e.index - 1, { caseId: `${e.caseId} (${e.mode}${e.mode === 'time' ? ` ${e.launch}` : ''})` });
      },
      stop: () => { if (started) { started = false; bar.stop(); } },
    };
  }
  return {
    onEvent: (e) => {
      if (e.type === 'case-done' && e.result.status !== 'unsupported') process.stderr.write(`[${e.result.status}] ${e.result.id}\n`);
    },
    stop: () => {},
  };
}
