/**
 * A static history site built from the ledger (`jsonbench site`), as the studies' report site and
 * airspeed velocity's `asv publish` show one: an index of the runs and of the pages, one page per
 * workload × size × direction with each serializer's mean time per op (error bars) and its ratio
 * against the baseline (interval bars) run by run — one line per serializer × runtime — then every
 * point as a table, and the latest run's full report. Static HTML and inline SVG, no script: it
 * opens offline and deploys to GitHub Pages as it is. Pure: the caller reads the ledger; every
 * string from the data is escaped.
 */
import { pointTimeInterval, type HistoryPoint } from '../results/history.js';
import { formatRatio, formatTime, formatTimeInterval } from './units.js';
import { escapeHtml } from './html/escape.js';

/** One run of the ledger, as the site lists it. */
export interface SiteRun {
  id: number;
  startedAt: string;
  toolVersion: string;
  gitCommit: string | null;
  policy: string;
  node: string;
  cases: number;
  measured: number;
}

/** What the site is built from: the ledger's runs (oldest first), every point of their cases, and the latest run's HTML report (or null). */
export interface SiteInput {
  runs: readonly SiteRun[];
  points: readonly HistoryPoint[];
  latestReportHtml: string | null;
  /** a title for every page (default "jsonbench history") */
  title?: string;
}

/** The site's files: relative path → content. */
export type SiteFiles = Record<string, string>;

/** The page a point belongs on: its workload, size, shape and direction. */
export function pageKey(p: Pick<HistoryPoint, 'workload' | 'size' | 'shape' | 'direction'>): string {
  return `${p.workload}/${p.size}/${p.shape}/${p.direction}`;
}

/** The file of a page (a slug safe on every file system and in a URL). */
export function pageFile(key: string): string {
  return `pages/${key.replace(/[^A-Za-z0-9._-]+/g, '-')}.html`;
}

const W = 940;
const H = 260;
const PAD = { left: 70, right: 290, top: 16, bottom: 48 };
/** Okabe–Ito colours, colour-blind safe. */
const COLORS = ['#0072B2', '#D55E00', '#009E73', '#E69F00', '#CC79A7', '#56B4E9', '#000000', '#999999'];

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1000px;padding:0 16px;color:#222}
table{border-collapse:collapse;margin:8px 0 20px}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}
th{background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums}.dim{color:#666}
svg{display:block;margin:8px 0}nav a{margin-right:12px}`;

function page(title: string, body: string, root: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="generator" content="jsonbench">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><nav><a href="${root}index.html">index</a><a href="${root}latest/report.html">latest run</a></nav>
${body}
</body></html>
`;
}

/** The series a point is drawn in: serializer × runtime (one line each). */
function seriesOf(p: HistoryPoint): string {
  return `${p.serializer} · ${p.target} ${p.targetVersion}`;
}

interface Bar {
  value: number;
  low: number;
  high: number;
}

/**
 * A chart of one figure run by run: x is the run (in ledger order, labelled by date and commit),
 * one polyline per series with a vertical bar per point from `low` to `high`. Series absent from a
 * run skip it (the line joins the runs it has). `format` labels the y axis.
 */
function runChart(
  label: string,
  runs: readonly SiteRun[],
  series: Map<string, Map<number, Bar>>,
  format: (v: number) => string,
  floorAtZero: boolean,
): string {
  const all = [...series.values()].flatMap((m) => [...m.values()]);
  if (all.length === 0) return `<p class="dim">No ${escapeHtml(label)} to chart.</p>`;
  const runIds = runs.map((r) => r.id).filter((id) => [...series.values()].some((m) => m.has(id)));
  const top = Math.max(...all.map((b) => b.high)) * 1.08;
  const bottom = floorAtZero ? 0 : Math.min(...all.map((b) => b.low)) * 0.92;
  const x = (id: number) => {
    const i = runIds.indexOf(id);
    return (
      PAD.left +
      (runIds.length === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (runIds.length - 1))
    );
  };
  const y = (v: number) => PAD.top + (1 - (v - bottom) / (top - bottom || 1)) * (H - PAD.top - PAD.bottom);
  const out = [
    `<svg class="site-chart" data-figure="${escapeHtml(label)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(label)} run by run, one line per serializer and runtime">`,
  ];
  for (let k = 0; k <= 4; k++) {
    const v = bottom + ((top - bottom) * k) / 4;
    out.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e4e4e4"/><text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" font-size="11">${escapeHtml(format(v))}</text>`,
    );
  }
  for (const id of runIds) {
    const r = runs.find((x) => x.id === id)!;
    const tag = `${r.startedAt.slice(0, 10)}${r.gitCommit ? ` ${r.gitCommit.slice(0, 7)}` : ''}`;
    out.push(
      `<text x="${x(id).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle" font-size="10">#${id}</text><text x="${x(id).toFixed(1)}" y="${H - PAD.bottom + 30}" text-anchor="middle" font-size="9" fill="#666">${escapeHtml(tag)}</text>`,
    );
  }
  [...series.entries()].forEach(([name, points], si) => {
    const color = COLORS[si % COLORS.length];
    const ordered = runIds.filter((id) => points.has(id)).map((id) => [id, points.get(id)!] as const);
    out.push(
      `<polyline class="series" data-series="${escapeHtml(name)}" fill="none" stroke="${color}" stroke-width="2" points="${ordered.map(([id, b]) => `${x(id).toFixed(1)},${y(b.value).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const [id, b] of ordered)
      out.push(
        `<line class="error-bar" x1="${x(id).toFixed(1)}" x2="${x(id).toFixed(1)}" y1="${y(b.low).toFixed(1)}" y2="${y(b.high).toFixed(1)}" stroke="${color}"/><circle cx="${x(id).toFixed(1)}" cy="${y(b.value).toFixed(1)}" r="3" fill="${color}"><title>${escapeHtml(`${name}, run #${id}: ${format(b.value)} [${format(b.low)}–${format(b.high)}]`)}</title></circle>`,
      );
    out.push(
      `<text x="${W - PAD.right + 8}" y="${PAD.top + 14 * si + 10}" font-size="11" fill="${color}">${escapeHtml(name)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('');
}

/** One page: time and ratio charts for the points of one workload × size × shape × direction, then the table. */
function renderPage(key: string, points: readonly HistoryPoint[], runs: readonly SiteRun[], title: string): string {
  const measured = points.filter((p) => p.status === 'measured' && p.meanNs !== null);
  const time = new Map<string, Map<number, Bar>>();
  const ratio = new Map<string, Map<number, Bar>>();
  for (const p of measured) {
    const s = seriesOf(p);
    if (!time.has(s)) time.set(s, new Map());
    // the mean's interval as recorded (log scale, asymmetric), never mean ± error
    const [low, high] = pointTimeInterval(p) ?? [p.meanNs!, p.meanNs!];
    time.get(s)!.set(p.runId, { value: p.meanNs!, low, high });
    if (p.ratio !== null && p.ratio > 0) {
      if (!ratio.has(s)) ratio.set(s, new Map());
      const [low, high] = p.ratioInterval ?? [p.ratio, p.ratio];
      ratio.get(s)!.set(p.runId, { value: p.ratio, low, high });
    }
  }
  const rows = points
    .map(
      (p) =>
        `<tr><td>#${p.runId}</td><td>${escapeHtml(p.startedAt.slice(0, 16).replace('T', ' '))}</td><td>${escapeHtml(p.gitCommit?.slice(0, 7) ?? '–')}</td><td>${escapeHtml(p.serializer)}</td><td>${escapeHtml(p.serializerVersion)}</td><td>${escapeHtml(`${p.target} ${p.targetVersion}`)}</td><td>${escapeHtml(p.status)}</td><td class="n">${p.meanNs === null ? '–' : escapeHtml(`${formatTime(p.meanNs)}${pointTimeInterval(p) ? ` [${formatTimeInterval(pointTimeInterval(p))}]` : ''}`)}</td><td class="n">${p.ratio === null ? '–' : escapeHtml(formatRatio(p.ratio, p.ratioInterval ?? null))}</td></tr>`,
    )
    .join('\n');
  const body = `<h1>${escapeHtml(key)}</h1>
<p class="dim">${points.length} points from ${new Set(points.map((p) => p.runId)).size} runs. Time is the mean per op with its 99.9% interval as the error bar (log scale, asymmetric); the ratio is against the class baseline in the same process, with its interval (&lt; 1 is faster). One line per serializer and runtime.</p>
<h2>Time per op</h2>
${runChart('time per op', runs, time, formatTime, true)}
<h2>Ratio against the baseline</h2>
${runChart('ratio', runs, ratio, (v) => `${v.toFixed(2)}×`, false)}
<h2>Every point</h2>
<table><thead><tr><th>Run</th><th>Started (UTC)</th><th>Commit</th><th>Serializer</th><th>Version</th><th>Runtime</th><th>Status</th><th>Mean [CI]</th><th>Ratio [CI]</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
  return page(`${key} · ${title}`, body, '../');
}

/**
 * Builds the site: `index.html`, one `pages/<workload-size-shape-direction>.html` per page (see
 * {@link pageFile}), and `latest/report.html` (the latest run's report, or a page saying there is
 * none). Pages and series come in the order of first appearance in `points`. Pure.
 */
export function renderSite(input: SiteInput): SiteFiles {
  const title = input.title ?? 'jsonbench history';
  const byPage = new Map<string, HistoryPoint[]>();
  for (const p of input.points) {
    const k = pageKey(p);
    if (!byPage.has(k)) byPage.set(k, []);
    byPage.get(k)!.push(p);
  }
  const files: SiteFiles = {};
  for (const [k, ps] of byPage) files[pageFile(k)] = renderPage(k, ps, input.runs, title);
  const pages = [...byPage.entries()]
    .map(
      ([k, ps]) =>
        `<tr><td><a href="${escapeHtml(pageFile(k))}">${escapeHtml(k)}</a></td><td class="n">${new Set(ps.map((p) => p.serializer)).size}</td><td class="n">${new Set(ps.map((p) => p.runId)).size}</td></tr>`,
    )
    .join('\n');
  const runs = [...input.runs]
    .reverse()
    .map(
      (r) =>
        `<tr><td>#${r.id}</td><td>${escapeHtml(r.startedAt.slice(0, 16).replace('T', ' '))}</td><td>${escapeHtml(r.gitCommit?.slice(0, 7) ?? '–')}</td><td>${escapeHtml(r.toolVersion)}</td><td>${escapeHtml(r.policy)}</td><td>${escapeHtml(r.node)}</td><td class="n">${r.measured} / ${r.cases}</td></tr>`,
    )
    .join('\n');
  files['index.html'] = page(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${input.runs.length} runs in the ledger. <a href="latest/report.html">The latest run's report</a>.</p>
<h2>Pages</h2>
<table><thead><tr><th>Workload / size / shape / direction</th><th>Serializers</th><th>Runs</th></tr></thead><tbody>
${pages}
</tbody></table>
<h2>Runs</h2>
<table><thead><tr><th>Run</th><th>Started (UTC)</th><th>Commit</th><th>jsonbench</th><th>Policy</th><th>Host runtime</th><th>Measured / cases</th></tr></thead><tbody>
${runs}
</tbody></table>`,
    '',
  );
  files['latest/report.html'] =
    input.latestReportHtml ?? page(title, '<h1>No run yet</h1><p>The ledger holds no run to report.</p>', '../');
  return files;
}
