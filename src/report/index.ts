import type { ResultsFile } from '../results/types.js';
import type { HistoryPoint } from '../results/history.js';
import { renderHtml } from './html/page.js';
import { renderMarkdown } from './markdown.js';
import { renderCsv } from './csv.js';
import { renderJson } from './json.js';
import { renderBmf } from './bmf.js';
import { renderGithubActionBenchmark } from './github-action-benchmark.js';
import { reportFormatInfo } from './formats.js';
import { maskBidi } from '../case/bidi.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * What a report may show beyond its results files, passed explicitly (never smuggled into a
 * results file): the ledger's history of the same cases, for the HTML "Across releases" section.
 */
export interface ReportContext {
  history?: readonly HistoryPoint[];
}

/** A report format: a pure renderer from one or several results files (and a context) to text, and its usual file name. */
export interface ReportExporter {
  /** what `--format` lists */
  description: string;
  /** file name `jsonbench report` writes next to nothing else; `--out` overrides */
  fileName: string;
  render(runs: readonly ResultsFile[], context?: ReportContext): string;
}

/**
 * An exporter whose text has its bidirectional formatting characters masked (case/bidi.ts), whatever
 * the format: in Markdown, HTML markup and CSV the escape is shown as text; in JSON (and in the HTML
 * page's data, which html/escape.ts jsonForScript escapes once more) it is the same string.
 */
function masked(e: ReportExporter): ReportExporter {
  return { ...e, render: (runs, context) => maskBidi(e.render(runs, context)) };
}

/**
 * Every report format, keyed by its `--format` name (the CLI's choices derive from these keys).
 * Adding a format is one file under src/report/ and one line here and in formats.ts (its name,
 * description and file name, which the CLI's help reads without loading the renderers).
 */
export const exporters = deepFreeze({
  html: masked({ ...reportFormatInfo.html, render: (r, context = {}) => renderHtml(r, { history: context.history }) }),
  md: masked({ ...reportFormatInfo.md, render: renderMarkdown }),
  csv: masked({ ...reportFormatInfo.csv, render: renderCsv }),
  json: masked({ ...reportFormatInfo.json, render: renderJson }),
  bmf: masked({ ...reportFormatInfo.bmf, render: renderBmf }),
  'github-action-benchmark': masked({
    ...reportFormatInfo['github-action-benchmark'],
    render: renderGithubActionBenchmark,
  }),
} satisfies Record<keyof typeof reportFormatInfo, ReportExporter>);

/** A `--format` name. */
export type ReportFormat = keyof typeof exporters;

/** The `--format` names, in registry order. */
export const reportFormats = deepFreeze(Object.keys(exporters) as ReportFormat[]);
