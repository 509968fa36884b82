import { UsageError } from '../config/usage-error.js';

/** The most shards `--shard` takes (results/merge.ts MAX_SHARDS: merge refuses more). */
const MAX_SHARDS = 10_000;

/** One shard of a run's plan: the `index`-th (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Parses `--shard index/count` (`2/3`: the second of three shards), as Playwright's and Jest's
 * `--shard` spell it. @throws UsageError naming `--shard` when it is not two integers with
 * 1 ≤ index ≤ count ≤ {@link MAX_SHARDS}.
 */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UsageError('--shard', `expected index/count, e.g. 1/3, got "${text}"`);
  const [index, count] = [Number(m[1]), Number(m[2])];
  // hx20 a37b: `1/0` read "the index must be 1 to the count (1/1 … 1/1)", the count being the fault
  if (count < 1)
    throw new UsageError('--shard', `the count must be at least 1 (1/1 runs everything), got ${text.trim()}`);
  if (index < 1 || index > count)
    throw new UsageError(
      '--shard',
      `the index must be 1 to the count (1/${count || 1} … ${count || 1}/${count || 1}), got ${text.trim()}`,
    );
  // hx5: 1/99999999999999999999 was taken (merge then crashed), 1/10000000 made merge list 9,999,999 missing shards
  if (count > MAX_SHARDS)
    throw new UsageError(
      '--shard',
      `the count must be at most ${MAX_SHARDS} (a shard holds whole groups), got ${count}`,
    );
  return { index, count };
}

/**
 * The groups of a plan that shard `index/count` runs: every `count`-th group, starting at the
 * `index`-th, so the shards are disjoint, together the whole plan, and each the same on every
 * machine for the same plan. A group is the unit (a case and the baseline it is paired with stay
 * together). A shard may be empty when the plan has fewer groups than shards. Pure.
 */
export function shardGroups<G>(groups: readonly G[], shard: Shard): G[] {
  return groups.filter((_, i) => i % shard.count === shard.index - 1);
}
