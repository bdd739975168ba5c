/**
 * A small seeded PRNG (mulberry32) with the helpers the query generator
 * needs. Every random choice goes through one instance, so a seed fixes the
 * whole generated query.
 */

/** A deterministic pseudo-random source. */
export class Rng {
  private state: number;

  /** Creates a generator for `seed` (any integer; equal seeds give equal sequences). */
  constructor(seed: number) {
    // Mix the seed so that nearby seeds start far apart.
    let s = (seed ^ 0x9e3779b9) >>> 0;
    s = Math.imul(s ^ (s >>> 16), 0x85ebca6b) >>> 0;
    s = Math.imul(s ^ (s >>> 13), 0xc2b2ae35) >>> 0;
    this.state = (s ^ (s >>> 16)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A uniformly chosen element (the array must not be empty). */
  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('Rng.pick: empty array');
    return xs[Math.floor(this.next() * xs.length)]!;
  }

  /** An element chosen with the given weights (pairs of weight and value; weights ≤ 0 are never chosen). */
  weighted<T>(choices: readonly (readonly [number, T])[]): T {
    let total = 0;
    for (const [w] of choices) if (w > 0) total += w;
    if (total <= 0) throw new Error('Rng.weighted: no positive weight');
    let r = this.next() * total;
    for (const [w, v] of choices) {
      if (w <= 0) continue;
      r -= w;
      if (r < 0) return v;
    }
    return choices.filter(([w]) => w > 0).at(-1)![1];
  }

  /** `k` distinct elements in random order (fewer if the array is shorter). */
  sample<T>(xs: readonly T[], k: number): T[] {
    const copy = [...xs];
    const out: T[] = [];
    while (out.length < k && copy.length > 0) out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0]!);
    return out;
  }

  /** A new generator seeded from this one (for independent sub-streams). */
  fork(): Rng {
    return new Rng(Math.floor(this.next() * 2 ** 31));
  }
}
