/**
 * RoundGroups.sortByValue (src/iteration/table/pipeline-groups.ts): the round's groups ordered by a min aggregate's
 * value, smallest first, a group without a value as INTEGER's largest — over direct-mapped and hashed keys, negative values and the
 * INTEGER extremes; the group ids and their state are unchanged (only `order` is permuted).
 */
import { describe, expect, it } from 'vitest';
import { RoundGroups } from '../../../src/iteration/table/pipeline-groups.js';
import { rng } from '../../helpers/rng.js';

describe('RoundGroups.sortByValue', () => {
  it('orders the groups by value, NULL-valued groups as the largest', () => {
    const r = rng(3);
    const g = new RoundGroups(1, ['min', 'count_star'], 0, 5_000);
    const want = new Map<number, number | null>();
    for (let i = 0; i < 20_000; i++) {
      const key = r() < 0.8 ? Math.floor(r() * 5_000) : 100_000 + Math.floor(r() * 3_000); // direct and hashed keys
      const id = g.gid1(key, 0);
      g.counts[1]![id]!++;
      if (r() < 0.05) { if (!want.has(key)) want.set(key, null); continue; } // no value (yet)
      const pick = r();
      const v = pick < 0.01 ? -0x80000000 : pick < 0.02 ? 0x7fffffff : Math.floor((r() - 0.5) * 2 ** 32) | 0;
      if (v < g.vals[0]![id]! || g.has[0]![id] === 0) { g.vals[0]![id] = Math.min(v, g.has[0]![id] === 1 ? g.vals[0]![id]! : v); g.has[0]![id] = 1; }
      const old = want.get(key);
      want.set(key, old === undefined || old === null ? v : Math.min(old, v));
    }
    g.sortByValue(0);
    const cols = g.columns(0, g.size);
    const keys = cols[0]!.values as Int32Array;
    const vals = cols[1]!.values as Int32Array;
    const valid = (i: number): boolean => cols[1]!.nullBitmap == null || cols[1]!.nullCount === 0 || ((cols[1]!.nullBitmap![i >> 3]! >> (i & 7)) & 1) === 1;
    expect(g.size).toBe(want.size);
    let seenNull = false;
    for (let i = 0; i < g.size; i++) {
      const w = want.get(keys[i]!);
      if (!valid(i)) { expect(w).toBeNull(); seenNull = true; continue; }
      if (seenNull) expect(vals[i], 'after a NULL-valued group only the largest INTEGER').toBe(0x7fffffff);
      expect(vals[i]).toBe(w);
      if (i > 0 && valid(i - 1)) expect(vals[i - 1]!).toBeLessThanOrEqual(vals[i]!);
    }
    expect(seenNull).toBe(true);
    g.reset(); // clears the direct flags of every group (the sorted order holds the same ids)
    expect(g.directFlags!.every((x) => x === 0)).toBe(true);
  });
});
