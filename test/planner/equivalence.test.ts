import { describe, expect, it } from 'vitest';
import { ColumnClasses } from '../../src/planner/equivalence.js';

describe('ColumnClasses', () => {
  it('closes equalities transitively and says when one is already implied', () => {
    const c = new ColumnClasses();
    expect(c.unite(1, 2)).toBe(true);
    expect(c.unite(3, 4)).toBe(true);
    expect(c.unite(2, 3)).toBe(true);
    expect(c.unite(4, 1)).toBe(false); // 4 = 3 = 2 = 1 already
    expect(new Set([1, 2, 3, 4].map((x) => c.find(x))).size).toBe(1);
    expect(c.find(9)).toBe(9);
    expect(c.unite(9, 9)).toBe(false);
    expect([...c.ids()]).toEqual([1, 2, 3, 4, 9]);
  });

  it('keeps separate classes apart over a long chain', () => {
    const c = new ColumnClasses();
    for (let i = 0; i < 1000; i++) c.unite(2 * i, 2 * i + 2);   // evens
    for (let i = 0; i < 1000; i++) c.unite(2 * i + 1, 2 * i + 3); // odds
    expect(c.find(0)).toBe(c.find(2000));
    expect(c.find(1)).toBe(c.find(2001));
    expect(c.find(0)).not.toBe(c.find(1));
    expect(c.unite(0, 1)).toBe(true);
    expect(c.find(2000)).toBe(c.find(2001));
  });
});
