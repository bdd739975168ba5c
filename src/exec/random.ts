/**
 * One small seeded PRNG (mulberry32), and murmur3's 32-bit finalizer (the TPC-H generator's streams and
 * USING SAMPLE's row keys hash with it), for everything that must draw the same
 * numbers for the same seed: k-means' initial centroids, the tests' and the
 * benchmarks' generated data. Not for anything that needs real randomness.
 */
import { hash32 } from './kernels/hyperloglog.js';

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

/** murmur3's 32-bit finalizer: a cheap bijective avalanche mix (the HyperLogLog sketches' hash32, one function). */
export const mix32: (x: number) => number = hash32;
