/**
 * reorder-joins: cost-based join order for each region of inner / cross joins (join-region.ts)
 * with at least three leaves. The region's conjuncts form a join graph — column-equality
 * conjuncts between two leaves are its edges, with selectivity 1 / max(key ndv) (estimate.ts);
 * the rest are predicates applied where all their leaves are joined — which join-enumerate.ts
 * orders (DP up to 12 relations per connected component, greedy beyond; cross products only
 * between unconnected components). The smaller side of each join is put on the right, the hash
 * join's build side.
 *
 * The rule replaces a region only when the new order is estimated strictly cheaper than the
 * current one under the same cost model, so it reaches a fixpoint (a reordered region is not
 * reordered again) and leaves hand-ordered plans alone when they are already best. Outer, semi
 * and anti joins are region leaves (barriers): nothing moves across them. A region with a
 * non-deterministic conjunct is left as written.
 *
 * Runs after push-down-filter (WHERE conjuncts are then inside the join conditions or on the
 * leaves) and before prune-columns (which narrows the new tree). Cache substitution happened
 * before the optimizer, so a cached subtree is a CacheSource leaf here and keeps its shape.
 */
import { inputs, withInputs, type Join, type RelNode } from '../../relnode/rel.js';
import type { RexNode } from '../../relnode/rex.js';
import { equiJoinSelectivity, estimateColumn, estimateRows } from '../estimate.js';
import { CardModel, enumerateJoins, type JoinGraph } from '../join-enumerate.js';
import { buildRegion, condLeaves, extractRegion, leafOf, replaceLeaves, type JoinRegion } from '../join-region.js';
import { columnOf, selectivity } from '../selectivity.js';
import { isDeterministicRex, type Rule } from '../rule.js';

/** Relative improvement below which the current order is kept. */
const MIN_GAIN = 1e-6;

export const reorderJoins: Rule = {
  name: 'reorder-joins',
  description: 'Orders each region of inner/cross joins by estimated cost (DP over connected subgraphs, greedy beyond 12 relations); runs after push-down-filter, before prune-columns.',
  rewrite(root) {
    return visit(root);
  },
};

function isInnerJoin(n: RelNode): n is Join {
  return n.kind === 'Join' && (n.joinType === 'inner' || n.joinType === 'cross');
}

function visit(n: RelNode): RelNode {
  if (!isInnerJoin(n)) {
    const ch = inputs(n);
    const nch = ch.map(visit);
    return nch.some((c, i) => c !== ch[i]) ? withInputs(n, nch) : n;
  }
  const region = extractRegion(n);
  const leaves = region.leaves.map(visit);
  const r: JoinRegion = leaves.some((l, i) => l !== region.leaves[i]) ? { ...region, leaves } : region;
  const names = n.schema.fields.map((f) => f.name);
  const reordered = r.leaves.length >= 3 && r.conds.every(isDeterministicRex) ? reorder(r, names) : undefined;
  if (reordered !== undefined) return reordered;
  return r === region ? n : replaceLeaves(n, r.leaves);
}

/** The region in its best order, or undefined when the current order is as cheap. */
function reorder(r: JoinRegion, names: readonly string[]): RelNode | undefined {
  const g = joinGraph(r);
  const best = enumerateJoins(g);
  const current = new CardModel(g).cost(r.tree);
  if (!(best.cost < current * (1 - MIN_GAIN))) return undefined;
  return buildRegion(r, best.tree, names);
}

/** The join graph of a region: leaf rows (after their own filters), equi edges, other predicates. */
export function joinGraph(r: JoinRegion): JoinGraph {
  const leafCol = (g: number): { leaf: number; col: number } => {
    const leaf = leafOf(r, g);
    return { leaf, col: g - r.base[leaf]! };
  };
  const lookup = (g: number) => {
    const { leaf, col } = leafCol(g);
    return estimateColumn(r.leaves[leaf]!, col);
  };
  const rows = r.leaves.map(estimateRows);
  const pairKeys = new Map<string, { a: number; b: number; ca: number[]; cb: number[] }>();
  const preds: { leaves: number[]; sel: number }[] = [];
  for (const c of r.conds) {
    const ls = condLeaves(r, c);
    const eq = equiColumns(c);
    if (ls.length === 2 && eq !== undefined) {
      let [x, y] = eq.map(leafCol) as [{ leaf: number; col: number }, { leaf: number; col: number }];
      if (x.leaf > y.leaf) [x, y] = [y, x];
      const key = `${x.leaf},${y.leaf}`;
      const e = pairKeys.get(key) ?? { a: x.leaf, b: y.leaf, ca: [], cb: [] };
      e.ca.push(x.col);
      e.cb.push(y.col);
      pairKeys.set(key, e);
      continue;
    }
    preds.push({ leaves: ls, sel: selectivity(c, lookup) });
  }
  const edges = [...pairKeys.values()].map((e) => ({
    a: e.a,
    b: e.b,
    sel: equiJoinSelectivity(rows[e.a]!, e.ca.map((c) => estimateColumn(r.leaves[e.a]!, c)?.ndv), rows[e.b]!, e.cb.map((c) => estimateColumn(r.leaves[e.b]!, c)?.ndv)),
  }));
  return { rows, edges, preds };
}

/** `a = b` over two columns (through casts): their global ids. */
function equiColumns(c: RexNode): [number, number] | undefined {
  if (c.kind !== 'Call' || c.op !== 'eq') return undefined;
  const a = columnOf(c.args[0]!), b = columnOf(c.args[1]!);
  return a !== undefined && b !== undefined ? [a, b] : undefined;
}
