import {
  formatAllocation,
  formatAllocRatio,
  formatBytes,
  formatRatio,
  formatTime,
  formatTimeInterval,
  ratioNumber,
  sig,
} from '../units.js';
import {
  allocClause,
  ciLabel,
  fasterThanBaseline,
  formatInterval,
  pointRange,
  joinNames,
  measurablyFaster,
  ratioInterval,
  takeawayText,
  leaderClause,
  tiedClause,
  allUncertain,
  unrankedReason,
  unrankedFinding,
  isWide,
  tooUncertain,
  withinNoise,
  borderlineFaster,
  borderlineReach,
  losingClause,
} from '../takeaway.js';
import { decisionBounds, ratioCall, ratioVerdict, unresolved } from '../../results/decision.js';
import { escapeHtml } from './escape.js';
import { caseKey, defaultState, effectiveBaseline, indexCases, isShown, labelOf, sectionRows } from './rebase.js';
import { deltaCell, renderTable, statusBadge, targetCells } from './table.js';
import { sentenceMark } from '../rows.js';
import {
  renderBody,
  renderCode,
  renderFindings,
  renderGroup,
  renderNotes,
  renderProblems,
  sectionTakeaway,
  sectionTargets,
  shownTargets,
} from './sections.js';
import { binaryTicks, chartColor, ratioChartOption, scalingChartOption, scatterChartOption } from './charts.js';
import { ratioOptionFor, scalingOptionFor, scatterOptionFor } from './chart-data.js';
import { boot, parseState, renderControls, stateHash } from './client.js';
import { deepFreeze } from '../../case/frozen.js';

/**
 * Every function the page's script needs, shipped as its own source text. The report renders its
 * body at build time and in the page from the same functions, so what a reader sees after a click
 * is computed exactly as the first view was. Each must be a function declaration that calls only
 * others in this list (or browser globals): a test evaluates the bundle alone and compares its
 * output with the build-time render.
 */
export const SHIPPED_FUNCTIONS: readonly ((...args: never[]) => unknown)[] = deepFreeze([
  formatTime,
  formatBytes,
  formatTimeInterval,
  formatAllocation,
  formatAllocRatio,
  formatRatio,
  ratioNumber,
  sig,
  joinNames,
  ciLabel,
  pointRange,
  formatInterval,
  ratioInterval,
  isWide,
  decisionBounds,
  ratioVerdict,
  unresolved,
  ratioCall,
  tooUncertain,
  fasterThanBaseline,
  borderlineFaster,
  borderlineReach,
  measurablyFaster,
  unrankedFinding,
  unrankedReason,
  withinNoise,
  allocClause,
  leaderClause,
  tiedClause,
  allUncertain,
  losingClause,
  takeawayText,
  escapeHtml,
  caseKey,
  indexCases,
  isShown,
  defaultState,
  labelOf,
  effectiveBaseline,
  sectionRows,
  statusBadge,
  targetCells,
  deltaCell,
  renderTable,
  sentenceMark,
  shownTargets,
  sectionTargets,
  sectionTakeaway,
  renderFindings,
  renderProblems,
  renderNotes,
  renderCode,
  renderGroup,
  renderBody,
  chartColor,
  binaryTicks,
  ratioChartOption,
  scatterChartOption,
  scalingChartOption,
  ratioOptionFor,
  scatterOptionFor,
  scalingOptionFor,
  parseState,
  stateHash,
  renderControls,
  boot,
]);

/** The functions' source, one after another (no entry call). @throws Error if one is not a named function declaration */
export function shippedSource(): string {
  return SHIPPED_FUNCTIONS.map((f) => {
    const src = f.toString();
    if (!src.startsWith(`function ${f.name}(`))
      throw new Error(`report script: ${f.name || 'an anonymous function'} is not a function declaration`);
    return src;
  }).join('\n');
}

/** The page's script: the shipped functions in a closure, then `boot` on the embedded data and the inlined ECharts. */
export function clientScript(): string {
  return `(function () {\n'use strict';\n${shippedSource()}\nboot(JSON.parse(document.getElementById('jb-data').textContent), window.echarts);\n})();`;
}
