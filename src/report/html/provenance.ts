import { PROFILE_DESCRIPTIONS } from '../../case/profile.js';
import { profileOf } from '../../results/profile.js';
import { CASE_STATUSES, type ResultsFile } from '../../results/types.js';
import { unreadSentences } from '../rows.js';
import type { ReportModel } from '../model.js';
import { escapeHtml } from './escape.js';
import { countOf, formatBytes } from '../units.js';
import { noiseReasons } from '../noise.js';
import { caseReason } from '../reason.js';

function row(label: string, value: string, wide = false): string {
  return `<div class="kv${wide ? ' wide' : ''}"><span class="k">${escapeHtml(label)}</span><span class="v">${value}</span></div>`;
}

function duration(a: string, b?: string): string {
  if (!b) return '';
  const s = (Date.parse(b) - Date.parse(a)) / 1000;
  return Number.isFinite(s) ? ` (${s < 120 ? `${s.toFixed(0)} s` : `${(s / 60).toFixed(1)} min`})` : '';
}

/** The run's runtime profile as a sentence (case/profile.ts): its name and what it means. */
function profileText(p: ResultsFile['policy']): string {
  const name = profileOf(p);
  const known = (PROFILE_DESCRIPTIONS as Record<string, string | undefined>)[name];
  return `<b>${escapeHtml(name)}</b>${known ? ` · ${escapeHtml(known)}` : ''}${p.profile === undefined ? ' <span class="dim">(not recorded: written before profiles, when every run used the steady settings)</span>' : ''}`;
}

/** The Integrity row of a file read with no record of its hash, or with a sidecar this user's jsonbench did not sign (results/integrity.ts, hx7 F4, hx8), said where its provenance is read; '' for a checked one. */
function integrityRow(run: ResultsFile): string {
  return run.unchecked
    ? row(
        'Integrity',
        `<b class="warn">unchecked (${escapeHtml(run.unchecked)})</b>: nothing this user's jsonbench wrote (a signed results.json.sha256, the ledger's record of the run) vouches for this file's SHA-256; its numbers are read as they are`,
        true,
      )
    : '';
}

/** The provenance of one results file: date, machine, load, runtimes, versions, policy, payloads, and its noise warning. */
export function renderRunProvenance(run: ResultsFile, i: number, model: ReportModel): string {
  const e = run.environment;
  const p = run.policy;
  const load = (xs?: number[]) => (xs ? xs.map((x) => x.toFixed(2)).join(' / ') : 'not recorded');
  const targets = [...new Set(model.cases.filter((c) => c.source === i).map((c) => c.targetKey))];
  // the libraries and their versions; a runtime's own JSON (the built-in json, whose version is its
  // target's runtime) is no library: the Targets row names those runtimes (a report of a run on node and
  // bun once read "Libraries: json bun 1.4.5")
  const ownJson = (c: ResultsFile['cases'][number]) =>
    c.family === 'builtin' && c.serializerVersion === `${c.target.runtime} ${c.target.version}`;
  const libs = new Map<string, Set<string>>();
  for (const c of run.cases)
    if (!ownJson(c)) libs.set(c.serializer, (libs.get(c.serializer) ?? new Set()).add(c.serializerVersion));
  const builtins = [...new Set(run.cases.filter(ownJson).map((c) => c.serializer))];
  const payloads = new Map(run.cases.map((c) => [`${c.workload} · ${c.size}`, c.payload]));
  const noise = noiseReasons(run);
  return (
    `<div class="run">${model.runs.length > 1 ? `<h3>Results file #${i + 1}</h3>` : ''}` +
    (noise.length
      ? `<p class="noise">⚠ Busy machine: ${noise.map(escapeHtml).join('; ')}. Differences inside the error bars are not evidence of a difference.</p>`
      : '') +
    `<div class="kvs">${integrityRow(run)}` +
    row(
      'Date',
      `${escapeHtml(run.startedAt)}${run.finishedAt ? ` → ${escapeHtml(run.finishedAt)}` : ''}${escapeHtml(duration(run.startedAt, run.finishedAt))}`,
    ) +
    row(
      'Machine',
      `${escapeHtml(e.cpuModel)} · ${escapeHtml(e.cores)} cores · ${escapeHtml(e.arch)} · ${escapeHtml(formatBytes(e.totalMemoryBytes))} RAM · ${escapeHtml(e.os)}`,
    ) +
    row('Load average', `${load(e.loadAverage.start)} (1/5/15 min) at start; ${load(e.loadAverage.end)} at end`) +
    row(
      'Runtime',
      `${escapeHtml(e.runtime)} · V8 ${escapeHtml(e.v8)} · flags <code>${escapeHtml(e.flags.join(' ') || 'none')}</code>${Object.entries(
        e.variables ?? {},
      )
        .map(([k, v]) => ` · workers ran with <code>${escapeHtml(`${k}=${JSON.stringify(v)}`)}</code>`)
        .join(
          '',
        )} · timer resolution ${escapeHtml(e.timerResolutionNs.toFixed(0))} ns · pointer compression ${e.pointerCompression ? 'on' : 'off'}`,
    ) +
    row(
      'Targets',
      run.targets?.length
        ? run.targets
            .map(
              (t) =>
                `<span class="lib">${escapeHtml(t.id)}: ${escapeHtml(t.runtime)} ${escapeHtml(t.version)} <span class="dim">(${escapeHtml(t.engine)} ${escapeHtml(t.engineVersion)})</span>${t.fault ? ` <b class="warn">${escapeHtml(t.fault)}</b>` : ''}</span>`,
            )
            .join(' ')
        : targets.map(escapeHtml).join(', '),
    ) +
    row('jsonbench', escapeHtml(e.jsonbenchVersion)) +
    row('Profile', profileText(p)) +
    row(
      'Policy',
      `${escapeHtml(p.name)} · ${escapeHtml(p.launches)} launch${p.launches === 1 ? '' : 'es'} · seed ${escapeHtml(p.seed)} · ${escapeHtml((p.measure.confidence * 100).toFixed(1))}% confidence · error target ${escapeHtml((p.measure.targetRelativeError * 100).toFixed(0))}% · time cap ${escapeHtml(p.measure.timeCapMs)} ms · case timeout ${escapeHtml(p.caseTimeoutMs)} ms · baselines ${Object.entries(
        p.baselines,
      )
        .map(([k, v]) => `${escapeHtml(k)}: ${escapeHtml(v)}`)
        .join(', ')}`,
      true,
    ) +
    row(
      'Libraries',
      [
        ...[...libs].map(
          ([s, v]) =>
            `<span class="lib">${escapeHtml(s)} <span class="dim">${escapeHtml([...v].join(', '))}</span></span>`,
        ),
        ...builtins.map(
          (s) => `<span class="lib">${escapeHtml(s)} <span class="dim">(each target's own: see Targets)</span></span>`,
        ),
      ].join(' '),
      true,
    ) +
    row(
      'Payloads',
      [...payloads]
        .map(
          ([k, pl]) =>
            `<span class="lib">${escapeHtml(k)}: ${escapeHtml(formatBytes(pl.bytes))} <code title="sha256 ${escapeHtml(pl.sha256)}">${escapeHtml(pl.sha256.slice(0, 16))}</code></span>`,
        )
        .join(' '),
      true,
    ) +
    `</div></div>`
  );
}

/** Counts by status and every case without numbers (incorrect, failed, timeout, crashed listed; unsupported folded). */
export function renderSummary(model: ReportModel): string {
  const counts = new Map<string, number>();
  for (const c of model.cases) counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
  const order = CASE_STATUSES;
  const chips = order
    .filter((s) => counts.has(s))
    .map((s) => `<span class="badge ${s}">${counts.get(s)} ${s}</span>`)
    .join(' ');
  const broken = model.cases.filter((c) => c.status !== 'measured' && c.status !== 'unsupported');
  const unsupported = model.cases.filter((c) => c.status === 'unsupported');
  const unread = unreadSentences(model.runs);
  const item = (c: (typeof model.cases)[number]) =>
    `<li title="${escapeHtml(caseReason(c))}"><span class="badge ${escapeHtml(c.status)}">${escapeHtml(c.status)}</span> <code>${escapeHtml(c.id)}</code>${model.targets.length > 1 ? ` <span class="dim">${escapeHtml(c.targetKey)}</span>` : ''}${c.mismatch ? ` at <code>${escapeHtml(c.mismatch.path)}</code>: expected <code>${escapeHtml(c.mismatch.expected)}</code>, got <code>${escapeHtml(c.mismatch.actual)}</code>` : ''} — <span class="why">${escapeHtml(caseReason(c))}</span></li>`;
  return (
    `<section class="summary"><p>${countOf(model.cases.length, 'case')}: ${chips}</p>` +
    (broken.length
      ? `<details open class="broken"><summary>${broken.length} case${broken.length === 1 ? '' : 's'} without numbers (never ranked)</summary><ul class="problems">${broken.map(item).join('')}</ul></details>`
      : '') +
    (unsupported.length
      ? `<details><summary>${unsupported.length} unsupported pair${unsupported.length === 1 ? '' : 's'}</summary><ul class="problems">${unsupported.map(item).join('')}</ul></details>`
      : '') +
    (unread.length
      ? `<details open class="broken"><summary>${unread.length} case${unread.length === 1 ? '' : 's'} not read (written by a newer jsonbench)</summary><ul class="problems">${unread.map((u) => `<li>${escapeHtml(u)}</li>`).join('')}</ul></details>`
      : '') +
    `</section>`
  );
}
