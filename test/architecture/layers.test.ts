import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The one-way house, pinned: which folder of src/ may import which. Data flows plan → run →
 * results → reports (and the ledger); the folders a folder may import are listed here, and any
 * other import between folders fails this test. The case vocabulary (src/case/) is the ground
 * floor; results/ knows only the vocabulary; reports and the ledger know only results (they are
 * pure readers of a results file); the run session (run/) is the one place that calls them all;
 * nothing imports the CLI. files/ (making folders safely) is a helper any room that writes may use;
 * its makeFolder lives in case/ (case/make-folder.ts), so results/ may use it too. Adding an arrow means adding it here, on purpose.
 */
const ALLOWED: Record<string, readonly string[]> = {
  case: [],
  // files/make-folder.ts re-exports case/make-folder.ts makeFolder (there so results/ can make the integrity key's folder)
  files: ['case'],
  stats: [],
  registry: [],
  types: [],
  // calls into user code in jsonbench's own process: watchdog, scope of what it leaves running
  host: [],
  versions: ['files'],
  workloads: ['case', 'registry'],
  serializers: ['files', 'case', 'registry', 'workloads'],
  payload: ['host', 'files', 'case', 'workloads'],
  results: ['case'],
  analysers: ['case', 'results', 'stats'],
  measure: ['case', 'stats', 'workloads', 'serializers'],
  // probes: the catalog, the judge and one probe side through measure's prepareCase (run inside workers); host's
  // describe-thrown.ts says what a serializer threw without calling its code (hx37 a08)
  probes: ['host', 'case', 'workloads', 'serializers', 'measure'],
  config: ['host', 'files', 'case', 'workloads', 'serializers'],
  worker: ['host', 'case', 'measure', 'workloads', 'serializers', 'config', 'probes'],
  // a .NET target compiles the run's workload schemas into its worker's DTOs (serializers/dotnet/dto-generator.ts)
  // and checks the worker's output against those workloads on the host (runtimes/dotnet/gate.ts)
  runtimes: ['host', 'files', 'case', 'measure', 'results', 'worker', 'workloads', 'serializers'],
  plan: ['host', 'files', 'case', 'measure', 'workloads', 'serializers', 'config', 'versions', 'probes'],
  instructions: ['case', 'measure', 'workloads', 'serializers', 'config', 'results'],
  ledger: ['files', 'results', 'versions'],
  report: ['files', 'case', 'results', 'stats', 'versions'],
  compare: ['results', 'stats', 'report'],
  run: [
    'files',
    'host',
    'case',
    'stats',
    'workloads',
    'serializers',
    'config',
    'measure',
    'worker',
    'results',
    'analysers',
    'runtimes',
    'plan',
    'instructions',
    'ledger',
    'report',
    'payload',
    'probes',
  ],
  cli: [
    'files',
    'host',
    'case',
    'stats',
    'workloads',
    'serializers',
    'config',
    'results',
    'runtimes',
    'plan',
    'run',
    'ledger',
    'report',
    'compare',
  ],
  'index.ts': ['case', 'workloads', 'serializers', 'run', 'results', 'report', 'config', 'plan', 'payload'],
};

/** src/ in the source tree (tests run from build/test/architecture/). */
const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The room of a file: its first folder under src/, or the file's own name for a file at the top. */
const roomOf = (file: string) => relative(SRC, file).split(sep)[0];

/** Every relative import of a file (static `from '…'`, side-effect `import '…'`, dynamic `import('…')`), resolved to a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm))
    out.push(normalize(join(dirname(file), m[1])));
  return out;
}

const edges = sourceFiles(SRC)
  .flatMap((file) => importsOf(file).map((to) => ({ file, from: roomOf(file), to: roomOf(to) })))
  .filter((e) => e.from !== e.to);

test('every import between folders of src/ is one the house allows (the one-way house)', () => {
  const rooms = new Set(edges.flatMap((e) => [e.from, e.to]));
  for (const r of rooms)
    assert.ok(
      r in ALLOWED,
      `src/${r} is not in the house plan (test/architecture/layers.test.ts): say what it may import`,
    );
  const bad = edges
    .filter((e) => !ALLOWED[e.from].includes(e.to))
    .map((e) => `${relative(SRC, e.file)} imports ${e.to}/`);
  assert.deepEqual([...new Set(bad)], []);
});

test('results/ imports only the case vocabulary; reports and the ledger read only results; nothing imports the CLI', () => {
  assert.deepEqual([...new Set(edges.filter((e) => e.from === 'results').map((e) => e.to))].sort(), ['case']);
  for (const room of ['report', 'ledger']) {
    assert.deepEqual(
      edges
        .filter(
          (e) =>
            e.from === room &&
            ['run', 'plan', 'runtimes', 'worker', 'measure', 'cli', 'ledger', 'report'].includes(e.to) &&
            e.to !== room,
        )
        .map((e) => relative(SRC, e.file)),
      [],
      `${room}/ reaches past results`,
    );
  }
  assert.deepEqual(
    edges.filter((e) => e.to === 'cli').map((e) => relative(SRC, e.file)),
    [],
  );
});

test('the worker and measure/ stay small: no report, ledger, CLI, run or plan inside a worker', () => {
  const heavy = ['report', 'ledger', 'cli', 'run', 'plan', 'compare'];
  assert.deepEqual(
    edges
      .filter((e) => (e.from === 'worker' || e.from === 'measure') && heavy.includes(e.to))
      .map((e) => `${relative(SRC, e.file)} → ${e.to}`),
    [],
  );
});

test('the house has no circle between folders', () => {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, new Set());
    next.get(e.from)!.add(e.to);
  }
  const visiting = new Set<string>();
  const done = new Set<string>();
  const cycle: string[] = [];
  const visit = (n: string, path: string[]): boolean => {
    if (done.has(n)) return false;
    if (visiting.has(n)) {
      cycle.push(...path.slice(path.indexOf(n)), n);
      return true;
    }
    visiting.add(n);
    for (const m of next.get(n) ?? []) if (visit(m, [...path, n])) return true;
    visiting.delete(n);
    done.add(n);
    return false;
  };
  for (const n of next.keys()) if (visit(n, [])) break;
  assert.deepEqual(cycle, []);
});

test('no two files of src/ import each other, directly or round a circle', () => {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const next = new Map(
    files.map((f) => [
      f,
      importsOf(f)
        .map((to) => to.replace(/\.js$/, '.ts'))
        .filter((to) => known.has(to)),
    ]),
  );
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (f: string, path: string[]): void => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      circles.push([...path.slice(path.indexOf(f)), f].map((x) => relative(SRC, x)).join(' → '));
      return;
    }
    state.set(f, 'open');
    for (const to of next.get(f) ?? []) visit(to, [...path, f]);
    state.set(f, 'done');
  };
  for (const f of files) visit(f, []);
  assert.deepEqual(circles, []);
});
