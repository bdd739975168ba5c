import { describe, expect, it } from 'vitest';
import { ArgBestTree, MomentsTree, SumTree } from '../../../src/exec/operators/segment-tree.js';
import { Rng } from '../../diff/random/prng.js';

/** Every [l, r) of a few random arrays (sizes not powers of two) against a direct loop. */
describe('segment trees', () => {
  const r = new Rng(42);
  for (const m of [1, 2, 3, 7, 16, 33]) {
    const vals = Array.from({ length: m }, () => r.int(-50, 50));
    const present = Array.from({ length: m }, () => r.chance(0.8));
    it(`sums, arg-min and moments over every range of ${m} leaves`, () => {
      const sum = new SumTree(m, (j) => (present[j] ? vals[j]! : 0));
      const min = new ArgBestTree(m, (j) => present[j]!, (a, b) => vals[a]! < vals[b]!);
      const mom = new MomentsTree(m, (j) => present[j]!, (j) => vals[j]!);
      for (let l = 0; l <= m; l++) {
        for (let e = l; e <= m; e++) {
          const xs: number[] = [];
          let best = -1;
          for (let j = l; j < e; j++) if (present[j]) { xs.push(vals[j]!); if (best < 0 || vals[j]! < vals[best]!) best = j; }
          expect(sum.query(l, e)).toBe(xs.reduce((a, b) => a + b, 0));
          expect(min.query(l, e)).toBe(best);
          mom.query(l, e);
          expect(mom.count).toBe(xs.length);
          if (xs.length > 0) {
            const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
            expect(mom.avg).toBeCloseTo(mean, 9);
            expect(mom.sq).toBeCloseTo(xs.reduce((a, x) => a + (x - mean) ** 2, 0), 6);
          }
        }
      }
    });
  }

  it('arg-best keeps the leftmost of equal leaves', () => {
    const t = new ArgBestTree(5, () => true, (a, b) => [3, 1, 1, 2, 1][a]! < [3, 1, 1, 2, 1][b]!);
    expect(t.query(0, 5)).toBe(1);
    expect(t.query(2, 5)).toBe(2);
    expect(t.query(3, 4)).toBe(3);
  });
});
