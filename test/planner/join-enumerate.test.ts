import { describe, expect, it } from 'vitest';
import { CardModel, enumerateJoins, treeLeaves, type JoinGraph, type JoinTree } from '../../src/planner/join-enumerate.js';

/** Every join of the tree with the leaf sets of its two sides. */
function joins(t: JoinTree): { left: number[]; right: number[] }[] {
  if ('leaf' in t) return [];
  return [{ left: treeLeaves(t.left), right: treeLeaves(t.right) }, ...joins(t.left), ...joins(t.right)];
}

/** True when some join of the tree has no edge between its sides. */
function hasCrossProduct(g: JoinGraph, t: JoinTree): boolean {
  return joins(t).some(({ left, right }) => !g.edges.some((e) => (left.includes(e.a) && right.includes(e.b)) || (left.includes(e.b) && right.includes(e.a))));
}

describe('join enumeration', () => {
  it('DP finds the cheapest order of a star: the selective dimension joins the fact table first', () => {
    // Fact table 0 (1e6 rows); dimensions 1 (10 rows: a filtered one), 2 (1e4 rows) and 3 (1e5 rows), each joined on its key.
    const g: JoinGraph = {
      rows: [1e6, 10, 1e4, 1e5],
      edges: [{ a: 0, b: 1, sel: 1 / 1000 }, { a: 0, b: 2, sel: 1 / 1e4 }, { a: 0, b: 3, sel: 1 / 1e5 }],
      preds: [],
    };
    const { tree, cost } = enumerateJoins(g);
    expect(hasCrossProduct(g, tree)).toBe(false);
    const deepest = joins(tree).find((j) => j.left.length + j.right.length === 2)!;
    expect([...deepest.left, ...deepest.right].sort()).toEqual([0, 1]);
    // No other order without cross products is cheaper.
    expect(cost).toBeLessThanOrEqual(new CardModel(g).cost({ left: { left: { left: { leaf: 0 }, right: { leaf: 2 } }, right: { leaf: 1 } }, right: { leaf: 3 } }));
  });

  it('puts the smaller side of every join on the right (build side)', () => {
    const g: JoinGraph = { rows: [5, 5000, 50], edges: [{ a: 0, b: 2, sel: 0.02 }, { a: 1, b: 2, sel: 0.02 }], preds: [] };
    const model = new CardModel(g);
    const check = (t: JoinTree): void => {
      if ('leaf' in t) return;
      expect(model.card(treeLeaves(t.left))).toBeGreaterThanOrEqual(model.card(treeLeaves(t.right)));
      check(t.left);
      check(t.right);
    };
    check(enumerateJoins(g).tree);
  });

  it('cross products only between unconnected parts, smallest first', () => {
    const g: JoinGraph = { rows: [100, 100, 3, 7], edges: [{ a: 0, b: 1, sel: 0.01 }], preds: [] };
    const { tree } = enumerateJoins(g);
    const pairs = joins(tree).filter((j) => j.left.length + j.right.length === 2).map((j) => [...j.left, ...j.right].sort());
    expect(pairs).toContainEqual([0, 1]);
    expect(pairs).toContainEqual([2, 3]);
  });

  it('orders 64 relations (greedy) quickly and without cross products, also with zero selectivities and huge inputs', () => {
    const n = 64;
    const edges = Array.from({ length: n - 1 }, (_, i) => ({ a: (i * 37) % n, b: ((i + 1) * 37) % n, sel: i === 5 ? 0 : 0.1 }));
    const g: JoinGraph = { rows: Array.from({ length: n }, (_, i) => 1e6 + i), edges, preds: [{ leaves: [0, 1, 2], sel: 0.5 }] };
    const t0 = performance.now();
    const { tree } = enumerateJoins(g);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(treeLeaves(tree).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(hasCrossProduct(g, tree)).toBe(false);
  });

  it('counts an implied edge only where its class does not already link the two leaves', () => {
    // Leaf 0 (fact) joins 1 and 2 on one key class 7; 1 – 2 is the implied edge of that class.
    const g: JoinGraph = {
      rows: [6000, 800, 100],
      edges: [{ a: 0, b: 1, sel: 1 / 6000, classes: [7] }, { a: 0, b: 2, sel: 1 / 200, classes: [7] }, { a: 1, b: 2, sel: 1 / 200, implied: 7 }],
      preds: [],
    };
    const model = new CardModel(g);
    expect(model.card([1, 2])).toBeCloseTo(800 * 100 / 200);
    expect(model.card([0, 1, 2])).toBeCloseTo(6000 * 800 * 100 / 6000 / 200); // the implied 1/200 is not applied again
    expect(treeLeaves(enumerateJoins(g).tree).slice(1).sort()).toEqual([1, 2]); // 1 ⋈ 2 first, the fact table probes it
  });
});
