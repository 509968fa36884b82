/**
 * What bench/gate-rejects.ts and bench/cache-cost.ts share: their flag reader, the load average line and the payloads
 * they walk (the quick suite's cases, extra users sizes, and the shared corpus documents). Imported, not run.
 */
import { loadavg } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { workloads } from '../src/workloads/index.js';
import { renderPayload } from '../src/plan/payloads.js';
import { resolvePayload } from '../src/payload/workload.js';
import type { Shape } from '../src/case/coordinates.js';
import type { Workload } from '../src/workloads/types.js';

/** The value after flag `name` on the command line (`--only a,b` → `'a,b'`), or undefined when the flag is absent. */
export const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/** The 1, 5 and 15 minute load averages (os.loadavg), two decimals each, space-separated: `'5.12 4.80 4.33'`. */
export const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** One payload a bench walks: the workload, its size and shape, and the payload's JSON text (seed 42). */
export interface Subject {
  workload: Workload;
  size: number;
  shape: Shape;
  text: string;
}

/**
 * The payloads: every workload's smallest size × every shape it has, plus, for `users`, each of `usersSizes` × the
 * shapes `keep(size, shape, smallest)` lets through (it is asked of every size, the smallest too); then the shared
 * corpus documents canada.json and citm_catalog.json (../shared/data/corpus beside the checkout, as size 1 · single
 * with the schema a run infers), each skipped with a line on stdout when absent. Payload texts from renderPayload
 * (src/plan/payloads.ts), seed 42. Throws what workloads.load or resolvePayload throw.
 */
export async function benchSubjects(
  usersSizes: readonly number[],
  keep: (size: number, shape: Shape, smallest: number) => boolean,
): Promise<Subject[]> {
  const subjects: Subject[] = [];
  for (const id of workloads.ids) {
    const w = await workloads.load(id);
    const smallest = Math.min(...w.sizes);
    const sizes = [smallest, ...(id === 'users' ? usersSizes : [])];
    for (const size of sizes)
      for (const shape of w.shapes) {
        if (!keep(size, shape, smallest)) continue;
        subjects.push({ workload: w, size, shape, text: renderPayload(w, size, 42) });
      }
  }
  const corpus = new URL('../../../shared/data/corpus/', import.meta.url);
  for (const file of ['canada.json', 'citm_catalog.json']) {
    const path = new URL(file, corpus);
    if (!existsSync(path)) {
      console.log(`${file}: not found under ${corpus.pathname} (skipped)`);
      continue;
    }
    const resolved = await resolvePayload(path.pathname);
    subjects.push({ workload: resolved.workloads[0], size: 1, shape: 'single', text: readFileSync(path, 'utf8') });
  }
  return subjects;
}
