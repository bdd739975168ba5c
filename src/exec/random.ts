/**
 * One small seeded PRNG (mulberry32) for everything that must draw the same
 * numbers for the same seed: k-means' initial centroids, the tests' and the
 * benchmarks' generated data. Not for anything that needs real randomness.
 */

/** `mulberry32(seed)()` is a float in [0, 1); equal seeds give equal sequences. */
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
