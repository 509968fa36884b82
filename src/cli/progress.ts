import cliProgress from 'cli-progress';
import type { SessionEvent } from '../run/session.js';

/** What the terminal shows while a run goes on: a bar on a terminal, one line per finished case otherwise. */
export interface ProgressView { onEvent(e: SessionEvent): void; stop(): void }

/**
 * A duration for the progress line: `5s`, `1m00s`, `12m00s`, `2h05m`. Rounded to whole seconds
 * first, so 719.6 s reads `12m00s`, never `11m60s` (cli-progress's own ETA did both that and
 * `NFs`); `…` while the duration is unknown (not finite, or negative).
 */
export function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '…';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m${pad(s % 60)}s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)}h${pad(m % 60)}m`;
}

/**
 * A progress bar (cli-progress) on stderr when it is a terminal: launch n of N, ETA (mean time of
 * the launches so far × those left, {@link formatEta}), current case; else one `[status] id` line
 * per finished case that has numbers or failed.
 */
export function progressView(isTty: boolean): ProgressView {
  if (isTty) {
    const bar = new cliProgress.SingleBar({ format: '{bar} {value}/{total} launches | ETA {etaText} | {caseId}', hideCursor: true, clearOnComplete: true, stream: process.stderr }, cliProgress.Presets.shades_classic);
    let started = false;
    let t0 = 0;
    return {
      onEvent: (e) => {
        if (e.type !== 'launch') return;
        if (!started) { bar.start(e.total, 0, { caseId: '', etaText: '…' }); started = true; t0 = performance.now(); }
        const done = Math.min(e.index - 1, e.total);
        const eta = done > 0 ? ((performance.now() - t0) / 1000 / done) * (e.total - done) : NaN;
        bar.setTotal(e.total);
        bar.update(done, { caseId: `${e.caseId} (${e.mode}${e.mode === 'time' ? ` ${e.launch}` : ''})`, etaText: formatEta(eta) });
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
