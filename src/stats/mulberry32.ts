/**
 * mulberry32 (Tommy Ettinger's 32-bit generator, as in the statistical review's scripts): the seeded uniform draws
 * of the studies (studies/lib re-exports it), the benches (bench/coverage.ts) and the tests. `mulberry32(seed)`
 * returns a function whose calls give the seeded sequence of numbers in [0, 1), multiples of 2⁻³² (the seed is taken
 * as an unsigned 32-bit integer). Here, on the ground floor, so a bench never imports a study. Not cryptographic;
 * never throws.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
