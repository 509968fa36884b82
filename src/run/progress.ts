/**
 * The run's progress as numbers a display can trust (issue 9 "Misleading displays", issue 13 item
 * 7): launches and cases done out of totals that move with the run — a relaunch or an adaptive
 * extra launch adds one, a case that ends early (incorrect, failed, unsupported) takes its
 * remaining launches away — so the counter never passes its total and ends on it; and an ETA from the wall time per finished launch,
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
  /** cases to measure: planned and runnable (the counter's total) */
  casesTotal: number;
  /** every case of the plan, the unsupported and the unrunnable too (the run's summary counts these) */
  casesPlanned: number;
  /**
   * The ETA's work, in case-launches (a launch carrying 7 cases in one process is 7): finished, and
   * expected in all ({@link ProgressCounter} `counts`). Absent: the launch counts stand in.
   */
  workFinished?: number;
  workExpected?: number;
  /** extra launches (relaunches, a third where launches disagree) may still come and no group has finished to show how many: the ETA is a floor (`≥`) */
  etaIsFloor?: boolean;
}

/**
 * Launch and case counts of a run whose launch total changes as it goes. Each group has its
 * planned launches; a running group counts as the larger of its plan and what it has begun
 * (relaunches and extra launches push it up), a finished group as exactly what it took (a case
 * that ended early brings it down). So the total never falls behind the launches begun, and at the
 * end it equals them.
 */
export class ProgressCounter {
  private readonly planned: number[];
  private readonly used: number[];
  private readonly done: boolean[];
  private readonly plannedWork: number[];
  private readonly usedWork: number[];
  private begun = 0;
  private finished = 0;
  private workFinished = 0;
  private cases = 0;
  /**
   * @param plannedPerGroup planned launches of each group, in plan order
   * @param casesTotal cases to measure
   * @param casesPlanned every case of the plan (default: `casesTotal`)
   * @param workPerGroup planned work of each group in case-launches (its runnable cases × the
   *   policy's launches: a group whose cases share one process does as much work per launch as it
   *   has cases); default: `plannedPerGroup`
   * @param extraPossible launches beyond the plan may come (relaunches, extra launches where
   *   launches disagree): until a group has finished, the ETA is a floor
   */
  constructor(
    plannedPerGroup: readonly number[],
    private readonly casesTotal: number,
    private readonly casesPlanned = casesTotal,
    workPerGroup?: readonly number[],
    private readonly extraPossible = false,
  ) {
    this.planned = [...plannedPerGroup];
    this.used = this.planned.map(() => 0);
    this.done = this.planned.map(() => false);
    this.plannedWork = [...(workPerGroup ?? plannedPerGroup)];
    this.usedWork = this.planned.map(() => 0);
  }
  /** a launch of group `g` carrying `work` cases begins: returns its number (1-based), never above the total */
  start(g: number, work = 1): number {
    this.begun++;
    this.used[g]++;
    this.usedWork[g] += work;
    return this.begun;
  }
  /** a launch carrying `work` cases has ended */
  end(work = 1): void {
    this.finished = Math.min(this.begun, this.finished + 1);
    this.workFinished += work;
  }
  /** `n` planned launches of group `g` (one case each) will not happen (a case ended early); never below what it began */
  drop(g: number, n: number): void {
    this.planned[g] = Math.max(this.used[g], this.planned[g] - n);
    this.plannedWork[g] = Math.max(this.usedWork[g], this.plannedWork[g] - n);
  }
  /** group `g` is finished: it counts as the launches it took */
  groupDone(g: number): void {
    this.done[g] = true;
  }
  caseDone(): void {
    this.cases = Math.min(this.casesTotal, this.cases + 1);
  }
  counts(): ProgressCounts {
    const total = this.planned.reduce((n, p, g) => n + (this.done[g] ? this.used[g] : Math.max(p, this.used[g])), 0);
    // the finished groups' work over their plan (relaunches and extra launches push it above 1) scales the plans of the
    // groups still to come: a default run on a noisy machine takes a third launch for many cases, which no plan holds
    const doneGroups = this.done.flatMap((d, g) => (d ? [g] : []));
    const planDone = doneGroups.reduce((n, g) => n + this.plannedWork[g], 0);
    const inflation = planDone > 0 ? Math.max(1, doneGroups.reduce((n, g) => n + this.usedWork[g], 0) / planDone) : 1;
    // a running group: what it did, plus what its plan still holds scaled the same way (its extra launches come after its plan)
    const workExpected = this.plannedWork.reduce(
      (n, p, g) => n + this.usedWork[g] + (this.done[g] ? 0 : Math.max(0, p - this.usedWork[g]) * inflation),
      0,
    );
    return {
      launchesDone: this.begun,
      launchesFinished: this.finished,
      launchesTotal: total,
      casesDone: this.cases,
      casesTotal: this.casesTotal,
      casesPlanned: this.casesPlanned,
      workFinished: this.workFinished,
      workExpected,
      etaIsFloor: this.extraPossible && doneGroups.length === 0,
    };
  }
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
 * The ETA text of a run's counts: {@link estimateSecondsLeft} over its work in case-launches (a
 * launch of 7 cases in one process is 7 units: launches of different groups differ that much in
 * length), the groups to come scaled by the finished groups' extra launches; `≥` while it is a floor
 * (`etaIsFloor`). Without work counts, the launch counts.
 * @param elapsedMs wall time since measuring began (ms)
 */
export function etaText(counts: ProgressCounts, elapsedMs: number): string {
  const s =
    counts.workExpected !== undefined && counts.workFinished !== undefined
      ? estimateSecondsLeft(elapsedMs, counts.workFinished, counts.workExpected)
      : estimateSecondsLeft(elapsedMs, counts.launchesFinished, counts.launchesTotal);
  const text = formatEta(s);
  return counts.etaIsFloor && text !== '?' ? `≥${text}` : text;
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
