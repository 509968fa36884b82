import type { ResultsFile } from '../../results/types.js';
import {
  costGroupsOf,
  costLines,
  payloadLines,
  probedState,
  keepingLine,
  recommend,
  settleLine,
  suiteRecommendation,
  type CostSource,
} from '../recommend.js';
import { escapeHtml } from './escape.js';

/**
 * The recommendation block at the top of the HTML report, for each results file of a run on a
 * user's payload (report/recommend.ts): the payload's facts and the machine's load, then one
 * sentence per direction × class with its cost lines (one per kind, every cost of a kind behind a
 * disclosure) and the serializers that gave no number, then what settles the unsettled calls. Rendered
 * once at build time (it does not follow the page's filters: it is the run's answer). Empty when
 * no file has a payload.
 */
export function renderRecommendationSection(runs: readonly ResultsFile[], costSources?: readonly CostSource[]): string {
  const blocks = runs
    .map((r, i) => {
      if (!r.payloads?.length) {
        // the built-in suite: the terminal's text, one item per class (nu6: the HTML had none)
        const suite = suiteRecommendation(r, costSources);
        if (!suite) return '';
        const lines = suite.lines.map((l) => {
          const at = l.indexOf(': ');
          return `<li class="none"><b>${escapeHtml(l.slice(0, at))}:</b> <span class="sentence">${escapeHtml(l.slice(at + 2))}</span></li>`;
        });
        return `<h2>Recommendation${runs.length > 1 ? ` (#${i + 1})` : ''}</h2><p class="dim">${escapeHtml(suite.title.replace(/^Recommendation per/, 'Per'))}</p><ul class="recommend">${lines.join('')}</ul>${suite.settle ? `<p class="dim">${escapeHtml(suite.settle)}</p>` : ''}`;
      }
      const load = r.environment.loadAverage.start.map((x) => x.toFixed(2)).join('/');
      const facts = r.payloads
        .flatMap(payloadLines)
        .map((l) => `<li>${escapeHtml(l)}</li>`)
        .join('');
      const recs = recommend(r, costSources);
      const probed = probedState(r);
      const settle = settleLine(recs, r.policy.name);
      const items = recs
        .map((rec) => {
          // one line per kind of cost (the output defects first), every cost of a kind under it
          const groups = costGroupsOf(rec);
          const details = [
            ...costLines(rec, probed).map((line, i) => {
              const all = groups[i] && groups[i].items.length > 1 ? groups[i].items : [];
              return `<li>${escapeHtml(line)}${all.length ? `<details><summary>all ${all.length}</summary><ul>${all.map((k) => `<li>${escapeHtml(k.text)}</li>`).join('')}</ul></details>` : ''}</li>`;
            }),
            ...(keepingLine(rec) ? [`<li>${escapeHtml(keepingLine(rec)!)}</li>`] : []),
            ...rec.excluded.map(
              (e) =>
                `<li class="st-${escapeHtml(e.status)}">not a candidate: <b>${escapeHtml(e.serializer)}</b> ${escapeHtml(e.status)}: ${escapeHtml(e.reason)}</li>`,
            ),
          ].join('');
          const label = rec.direction === 'serialize' ? 'serialize' : `deserialize, ${rec.caseClass}`;
          return `<li class="${rec.pick ? 'pick' : 'none'}"><b>${escapeHtml(label)}:</b> <span class="sentence">${escapeHtml(rec.sentence)}</span>${details ? `<ul>${details}</ul>` : ''}</li>`;
        })
        .join('');
      return `<h2>Recommendation${runs.length > 1 ? ` (#${i + 1})` : ''}</h2><p class="dim">Measured on ${escapeHtml(r.environment.cores)} cores, load average ${escapeHtml(load)} at the start (1/5/15 min), policy ${escapeHtml(r.policy.name)}.</p><ul class="facts">${facts}</ul><ul class="recommend">${items}</ul>${settle ? `<p class="dim">${escapeHtml(settle)}</p>` : ''}`;
    })
    .join('');
  return blocks ? `<section class="recommendation">${blocks}</section>` : '';
}
