import { test } from 'node:test';
import type { ResultsFile } from '../../src/results/types.js';
import { exporters, reportFormats } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html/page.js';
import { assertSnapshot, fixture } from './support.js';

/**
 * Snapshot tests of every format from saved results: a run with measured, failed, incorrect,
 * timed-out, crashed and unsupported cases; a two-target run; a two-size run; and two files merged.
 * The HTML snapshots stub the inlined chart library and page script (tested on their own).
 */
const inputs: Record<string, ResultsFile[]> = {
  single: [fixture('single')],
  'two-targets': [fixture('two-targets')],
  scaling: [fixture('scaling')],
  merged: [fixture('single'), fixture('scaling')],
};
const stub = {
  chartLibrary: { name: 'ECharts (stub)', version: '0', license: 'Apache-2.0', source: '/* chart library */' },
  script: '/* page script */',
};

for (const [name, runs] of Object.entries(inputs)) {
  for (const format of reportFormats) {
    test(`the ${format} report of the ${name} results matches its snapshot`, () => {
      const text = format === 'html' ? renderHtml(runs, stub) : exporters[format].render(runs);
      assertSnapshot(`${name}.${exporters[format].fileName.replace(/^report\./, '')}`, text);
    });
  }
}
