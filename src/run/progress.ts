/**
 * The run's progress as numbers a display can trust (issue 9 "Misleading displays", issue 13 item
 * 7): launches and cases done out of totals that move with the run — a relaunch adds a launch, a
 * case that ends early (incorrect, failed, unsupported) takes its remaining launches away — so the
 * counter never passes its total and ends on it; and an ETA from the wall time per finished launch,
 * which is finite or absent, never `NaN` or `Infinity`. Pure bookkeeping: no IO, no clock of its own.
 */

/** Where a run stands: launches and cases done out of their totals (totals are the current estimate). */
export interface ProgressCounts {
  /** launches begun (the display's "launch n") */
  launchesDone: number;
  /** launches that have ended (the ETA's rate) */
  launchesFinished: number;
  launchesTotal: number;
  casesDone: number;
  casesTotal: number;
}

/**
 * Launch and case counts of a run whose launch total changes as it goes. `start()` counts a
 * launch as begun (the display's "launch n of N" is the number begun); `add(n)` / `drop(n)`
 * move the total when a relaunch is decided or a case ends before its planned launches.
 */
export class ProgressCounter {
  private begun = 0;
  private finished = 0;
  private total: number;
  private cases = 0;
  constructor(launchesTotal: number, private readonly casesTotal: number) { this.total = launchesTotal; }
  /** a launch begins: returns its number (1-based), never above the total */
  start(): number { this.begun++; if (this.begun > this.total) this.total = this.begun; return this.begun; }
  /** a launch has ended */
  end(): void { this.finished = Math.min(this.begun, this.finished + 1); }
  /** a relaunch (or another unplanned launch) is coming: the total grows by `n` */
  add(n = 1): void { this.total += n; }
  /** `n` planned launches will not happen (their case ended early): the total shrinks, never below what began */
  drop(n: number): void { this.total = Math.max(this.begun, this.total - n); }
  caseDone(): void { this.cases = Math.min(this.casesTotal, this.cases + 1); }
  counts(): ProgressCounts { return { launchesDone: this.begun, launchesFinished: this.finished, launchesTotal: this.total, casesDone: this.cases, casesTotal: this.casesTotal }; }
}

/**
 * Seconds left, from the wall time so far and the launches finished: elapsed ÷ finished ×
 * remaining (launches of one run take similar times; parallel jobs show up as a faster rate).
 * Undefined until a launch has finished, and whenever the figures would not make a number.
 * @param elapsedMs wall time since measuring began (ms)
 * @param finished launches finished (not merely begun)
 * @param total the current launch total
 */
export function estimateSecondsLeft(elapsedMs: number, finished: number, total: number): number | undefined {
  if (!(finished > 0) || !(elapsedMs >= 0) || !Number.isFinite(elapsedMs) || !Number.isFinite(total)) return undefined;
  const left = Math.max(0, total - finished);
  const s = (elapsedMs / 1000 / finished) * left;
  return Number.isFinite(s) ? s : undefined;
}

/**
 * An ETA as the terminal shows it: `5s`, `1m00s`, `12m00s`, `1h05m`; `?` when unknown (a
 * non-finite or negative input). Rounded to whole seconds first, so 59.6 s reads `1m00s`, never
 * `60s` or `0m60s`.
 */
export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
