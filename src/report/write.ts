import { writeFileAtomic } from '../files/write-file.js';
import { makeFolder } from '../files/make-folder.js';
import { join } from 'node:path';
import type { ResultsFile } from '../results/types.js';
import { exporters, type ReportContext, type ReportExporter, type ReportFormat } from './index.js';

/** What {@link writeReports} did: the files written, and each format that failed with its error. */
export interface WrittenReports {
  written: Partial<Record<ReportFormat, string>>;
  failed: { format: ReportFormat; error: string }[];
}

/**
 * Renders each format (pure exporters) and writes it under `dir` with the format's file name: the
 * IO edge of reporting. One exporter failing does not stop the others: its error is returned, and
 * the rest are still written. Each is written atomically (files/write-file.ts): a full disk leaves
 * no truncated report, and its error names the file. `registry` is the exporter map (tests pass one with a failing exporter).
 */
export function writeReports(
  dir: string,
  runs: readonly ResultsFile[],
  formats: readonly ReportFormat[],
  context: ReportContext = {},
  registry: Record<ReportFormat, ReportExporter> = exporters,
): WrittenReports {
  const out: WrittenReports = { written: {}, failed: [] };
  makeFolder(dir);
  for (const format of formats) {
    try {
      const path = join(dir, registry[format].fileName);
      writeFileAtomic(path, registry[format].render(runs, context));
      out.written[format] = path;
    } catch (e) {
      out.failed.push({ format, error: (e as Error).message });
    }
  }
  return out;
}
