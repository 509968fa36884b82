import { DIRECTIONS } from '../../case/coordinates.js';
import type { ProbeRecord, ResultsFile } from '../../results/types.js';
import { escapeHtml } from './escape.js';
import {
  behaviourNotes,
  behaviourSentences,
  cellText,
  describeVerdict,
  isFailing,
  PROBES_UNFINISHED,
  dotnetTargetIds,
  probeMatrix,
  probeSideFor,
  summaryLine,
  versionChanges,
  type MatrixColumn,
  type MatrixRow,
} from '../probes.js';
import { countOf } from '../units.js';

/**
 * The HTML section of the probe matrix (issue 11), per results file that has probes: per direction
 * a table of probe groups × serializer rows whose cells are marks or counts, every cell holding a
 * failing verdict a `<details>` that opens on its probes' title, input, expected and actual (one
 * click away); the rows without a column with their reason; the verdicts that change between
 * versions of a library; and, for a timed run, what each serializer's output costs in behaviour on
 * each payload (its failed relevant probes). Static HTML (no script needed); every string escaped.
 */

function cell(
  r: MatrixRow,
  c: MatrixColumn,
  byId: Map<string, ProbeRecord>,
  dotnetTargets: ReadonlySet<string>,
): string {
  const vs = r.cells.get(c.key) ?? [];
  const text = escapeHtml(cellText(vs.map((v) => v.verdict)));
  const failing = vs.filter((v) => isFailing(v.verdict));
  if (!failing.length) {
    const title =
      vs.length === 1 && vs[0].verdict.mark !== '✔' ? ` title="${escapeHtml(describeVerdict(vs[0].verdict))}"` : '';
    // a labelled mark (`✔ rejects $.status sent as a string: …`) wraps in a column of its own width, not one line
    // as wide as its label (nu6: a 680 px column at 800 px)
    const long = text.length > 24 ? ' long' : '';
    return `<td class="pm m${vs.length === 1 ? escapeHtml(vs[0].verdict.mark) : ''}${long}"${title}>${text}</td>`;
  }
  const items = failing.map((v) => {
    const { title, side } = probeSideFor(byId.get(v.probe), v, dotnetTargets);
    const vd = v.verdict;
    const what =
      vd.mark === '✗'
        ? `<b>✗ ${escapeHtml(vd.fault)}</b> at <code>${escapeHtml(vd.path)}</code>: expected <code>${escapeHtml(vd.expected)}</code>, got <code>${escapeHtml(vd.actual)}</code>`
        : `<b>${escapeHtml(describeVerdict(vd))}</b>`;
    return `<li><code>${escapeHtml(v.probe)}</code> <span class="dim">${escapeHtml(title)}</span><br>${what}${side ? `<br><span class="dim">input</span> <code>${escapeHtml(side.input)}</code> <span class="dim">expected</span> ${escapeHtml(side.expected)}` : ''}</li>`;
  });
  return `<td class="pm bad"><details><summary>${text}</summary><ul>${items.join('')}</ul></details></td>`;
}

/** The probe section of one results file, or '' when it has none. */
export function renderProbesSection(run: ResultsFile, index = 0, several = false): string {
  const section = run.probes;
  if (!section)
    return run.probePending
      ? `<section class="probes" id="probes${index}"><h2>Probes relevant to the payloads${several ? ` <span class="dim">(results file #${index + 1})</span>` : ''}</h2><p>${escapeHtml(PROBES_UNFINISHED)}</p></section>`
      : '';
  const byId = new Map(section.probes.map((p) => [p.id, p]));
  const dotnetTargets = dotnetTargetIds(run);
  const parts: string[] = [
    `<section class="probes" id="probes${index}"><h2>Probes${section.selection === 'relevant' ? ' relevant to the payloads' : ''}${several ? ` <span class="dim">(results file #${index + 1})</span>` : ''}</h2>`,
    `<p>${escapeHtml(summaryLine(section))}. ${escapeHtml(`${section.launches} worker launch${section.launches === 1 ? '' : 'es'} in ${(section.elapsedMs / 1000).toFixed(1)} s, timeout ${(section.timeoutMs / 1000).toFixed(0)} s per probe side (one that has not answered by then is stopped and marked ✗ hang).`)}</p>`,
    '<p class="dim">✔ does it · ✘ cannot (declared by the adapter) · ✗ wrong (silent loss, invalid or ill-formed JSON, wrong value) · ⚠ throws · – not expressible in jsonbench yet. A cell that groups probes counts the marks; a red cell opens on its failing probes.</p>',
  ];
  if (section.conformance)
    parts.push(
      `<p class="dim">Conformance: ${escapeHtml(section.conformance.folder)} (${countOf(section.conformance.files, 'file')}${section.conformance.skipped.length ? `; skipped ${section.conformance.skipped.map((s) => `${escapeHtml(s.file)} (${escapeHtml(s.reason)})`).join(', ')}` : ''})</p>`,
    );
  if (section.relevantTo) {
    const workloads = [...new Set(Object.values(section.relevantTo).flat())];
    const rowsOf = [...new Set(section.verdicts.map((v) => v.serializer))];
    const targets = [...new Set(section.verdicts.map((v) => v.target))];
    const notes: string[] = [];
    for (const w of workloads)
      for (const d of DIRECTIONS)
        for (const t of targets) {
          for (const s of behaviourSentences(behaviourNotes(run, w, d, t, rowsOf)))
            notes.push(
              `<li><b>${escapeHtml(w)}</b> ${escapeHtml(d)}${targets.length > 1 ? ` on ${escapeHtml(t)}` : ''}: ${escapeHtml(s)}</li>`,
            );
        }
    parts.push(
      notes.length
        ? `<h3>What the numbers cost in behaviour</h3><ul class="problems">${notes.join('')}</ul>`
        : '<p>No serializer failed a probe relevant to these payloads.</p>',
    );
  }
  for (const direction of DIRECTIONS) {
    const m = probeMatrix(section, direction);
    if (!m.rows.length) continue;
    parts.push(`<h3>${escapeHtml(direction)}</h3>`);
    if (m.columns.length) {
      const head = `<tr><th>Probe</th>${m.columns.map((c) => `<th title="${escapeHtml(`${c.serializer} ${c.version} on ${c.target}`)}">${escapeHtml(c.header)}<br><span class="ver">${escapeHtml(c.version)}</span></th>`).join('')}</tr>`;
      let family = '';
      const body = m.rows
        .map((r) => {
          const sep =
            r.family !== family
              ? `<tr class="fam"><th colspan="${m.columns.length + 1}">${escapeHtml((family = r.family))}</th></tr>`
              : '';
          // a probe id may break after its dots (`safety.parse.undeclared.constructor.escaped` held a 290 px column)
          return `${sep}<tr><th class="probe" title="${escapeHtml(r.probes.length > 1 ? `${r.probes.length} probes` : (byId.get(r.probes[0])?.title ?? ''))}">${escapeHtml(r.group).replace(/\./g, '.<wbr>')}</th>${m.columns.map((c) => cell(r, c, byId, dotnetTargets)).join('')}</tr>`;
        })
        .join('');
      parts.push(
        `<div class="table-wrap"><table class="results probe-matrix"><thead>${head}</thead><tbody>${body}</tbody></table></div>`,
      );
    }
    if (m.absent.length)
      parts.push(
        `<p class="dim">Not probed (its supports() declined every probe of this direction: ✘): ${m.absent.map((a) => `${escapeHtml(a.header)} — ${escapeHtml(a.reason)}`).join('; ')}</p>`,
      );
  }
  const changes = versionChanges(section);
  if (changes.length) {
    const rows = [...new Set(changes.flatMap((c) => c.verdicts.map((v) => v.serializer)))];
    parts.push(
      `<h3>Verdicts that change between versions</h3><div class="table-wrap"><table class="results"><thead><tr><th>Probe</th><th>Direction</th>${rows.map((r) => `<th>${escapeHtml(r)}</th>`).join('')}</tr></thead><tbody>${changes
        .map(
          (c) =>
            `<tr><td><code>${escapeHtml(c.probe)}</code></td><td>${escapeHtml(c.direction)}</td>${rows
              .map((r) => {
                const v = c.verdicts.find((x) => x.serializer === r)?.verdict;
                return `<td title="${escapeHtml(v ? describeVerdict(v) : '')}">${escapeHtml(v ? (v.mark === '✗' ? `✗ ${v.fault}` : v.mark) : '')}</td>`;
              })
              .join('')}</tr>`,
        )
        .join('')}</tbody></table></div>`,
    );
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** Every results file's probe section. */
export function renderProbesHtml(runs: readonly ResultsFile[]): string {
  return runs.map((r, i) => renderProbesSection(r, i, runs.length > 1)).join('\n');
}
