/**
 * Which timed calls the checks while timing take a result from (timed-check.ts `picked`): in each timed sample,
 * `picksFor(ops)` positions drawn at random among its ops (and, in an op over several units, a random unit of each),
 * from a generator seeded once per worker process — per launch — from the platform's cryptographic random source
 * (`crypto.getRandomValues`, taken when this module loads, before any adapter code runs; `Math.random` where the
 * runtime has no `crypto`). Its state lives in this module's closure: nothing a config or a serializer can read
 * (not the run's seed, which a config can read from the plan), and each side of a launch, each sample and each
 * launch draws its own positions.
 *
 * Why (hx7 F3, hx8 section 5): the sample's last op was the only timed call whose whole output was compared, and
 * only after a round's last sample; a serializer wrong on every 97th call was caught when those fixed positions
 * happened to land on a wrong call (alone, round 3 or 4), not when its launch's pilot chose other ops per sample
 * (beside typia: "within noise", exit 0 under `--fail-on incorrect`). And a serializer that counts its calls and
 * finds the samples' ends by the pauses between them could be wrong on every call but the last of each sample.
 *
 * Detection: a serializer wrong on one call in N (every Nth, or any fixed residue of its call count) has each
 * checked call wrong with probability 1/N, whatever it can see of the schedule, since the positions are drawn
 * independently of its calls; over C checked calls it is caught with probability 1 − (1 − 1/N)^C ≥ 1 − e^(−C/N):
 * 95% once C ≥ 3N, 99% once C ≥ 4.6N. A serializer wrong on a fraction p of its calls, whichever they are, is
 * caught with probability 1 − (1 − p)^C.
 */

/** The result of one timed call taken at a random position of its sample: its value and its unit index in the op's inputs. */
export interface PickedResult {
  value: unknown;
  unit: number;
}

/** At most this many checked calls per sample (each one's result is kept until the sample ends). */
export const PICKS_PER_SAMPLE = 16;
/** One checked call per this many ops of a sample (at least one per sample): a sample keeps at most half its results alive while it is timed. */
const OPS_PER_PICK = 2;

/** The platform's random source, taken at load. */
const fill: ((a: Uint32Array) => unknown) | undefined = (() => {
  const c = (globalThis as { crypto?: { getRandomValues?: (a: Uint32Array) => unknown } }).crypto;
  const f = c?.getRandomValues;
  return typeof f === 'function' ? (a: Uint32Array) => f.call(c, a) : undefined;
})();
const mathRandom = Math.random;
const { floor, min, max } = Math;

/** xoshiro128** state (Blackman and Vigna, 2018), seeded from {@link fill} (never all zero). */
const state = new Uint32Array(4);
if (fill) fill(state);
else for (let i = 0; i < 4; i++) state[i] = floor(mathRandom() * 2 ** 32);
if (!(state[0] | state[1] | state[2] | state[3])) state[0] = 0x9e3779b9;

/** The next 32-bit unsigned random integer of this process's generator (xoshiro128**). */
export function randomUint32(): number {
  const s = state;
  const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
  const t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return result;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** A random integer in [0, n) (n ≥ 1, up to 2^32), by the multiply-shift method (bias under n / 2^32). */
export function randomBelow(n: number): number {
  return floor((randomUint32() / 2 ** 32) * n);
}

/** How many calls of a sample of `ops` ops are checked: one per {@link OPS_PER_PICK} ops, at least 1, at most {@link PICKS_PER_SAMPLE}. */
export function picksFor(ops: number): number {
  return ops < 1 ? 0 : max(1, min(PICKS_PER_SAMPLE, floor(ops / OPS_PER_PICK)));
}

/**
 * The checked positions of one sample of `ops` ops: {@link picksFor}(ops) distinct op indices in [0, ops), drawn
 * uniformly at random, in increasing order (empty when `ops` < 1).
 */
export function pickPositions(ops: number): number[] {
  const m = picksFor(ops);
  const set = new Set<number>();
  while (set.size < m) set.add(randomBelow(ops));
  return [...set].sort((a, b) => a - b);
}

/** `k` of `xs` drawn at random without replacement, in their order in `xs` (all of them when there are at most `k`). */
export function drawn<T>(xs: readonly T[], k: number): T[] {
  if (xs.length <= k) return [...xs];
  const idx = xs.map((_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + randomBelow(idx.length - i);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx
    .slice(0, k)
    .sort((a, b) => a - b)
    .map((i) => xs[i]);
}
