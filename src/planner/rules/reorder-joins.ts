/**
 * reorder-joins: cost-based join order for each region of inner / cross joins (join-region.ts)
 * with at least three leaves. The region's conjuncts form a join graph — column-equality
 * conjuncts between two leaves are its edges, with selectivity 1 / max(key ndv) (estimate.ts);
 * the rest are predicates applied where all their leaves are joined — which join-enumerate.ts
 * orders (DP up to 12 relations per connected component, greedy beyond; cross products only
 * between unconnected components). The smaller side of each join is put on the right, the hash
 * join's build side.
 *
 * Transitive key equalities (TPC-H Q9: `ps_partkey = l_partkey AND p_partkey = l_partkey`) are
 * closed over: two leaves whose columns are in one equivalence class of written `x = y` conjuncts
 * (plain columns of one type; no casts, so equality stays transitive) but that no written
 * equality links get an implied edge, so part ⋈ partsupp can join before lineitem. The implied
 * edge's selectivity counts once per class (join-enumerate.ts); its conjunct joins the region's
 * only when the new order wins, so a region left as written gains nothing.
 *
 * The rule replaces a region only when the new order is estimated strictly cheaper than the
 * current one under the same cost model, so it reaches a fixpoint (a reordered region is not
 * reordered again) and leaves hand-ordered plans alone when they are already best. Outer, semi
 * and anti joins are region leaves (barriers): nothing moves across them. A region with a
 * non-deterministic conjunct is left as written. A semi or anti join directly above a region whose
 * condition reads one leaf moves onto that leaf first when the cost model says so
 * (semi-join-placement.ts: TPC-H Q18's IN subquery then cuts orders before the region is ordered).
 *
 * Runs after push-down-filter (WHERE conjuncts are then inside the join conditions or on the
 * leaves) and before prune-columns (which narrows the new tree). Cache substitution happened
 * before the optimizer, so a cached subtree is a CacheSource leaf here and keeps its shape.
 */
import { inputs, withInputs, type Join, type RelNode } from '../../relnode/rel.js';
import { call, inputRef, type RexNode } from '../../relnode/rex.js';
import { equiJoinSelectivity, estimateColumn, estimateRows } from '../estimate.js';
import { ColumnClasses } from '../equivalence.js';
import { CardModel, enumerateJoins, type JoinGraph } from '../join-enumerate.js';
import { buildRegion, condLeaves, extractRegion, leafOf, plainEqui, replaceLeaves, type JoinRegion } from '../join-region.js';
import { pushSemiJoinIntoRegion } from '../semi-join-placement.js';
import { columnOf, selectivity } from '../selectivity.js';
import { isDeterministicRex, type Rule } from '../rule.js';

/** A class over more leaves gets no implied edges (n·(n-1)/2 of them would slow enumeration down). */
const MAX_CLASS_LEAVES = 6;

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
  if (n.kind === 'Join' && (n.joinType === 'semi' || n.joinType === 'anti')) {
    const region = pushSemiJoinIntoRegion(n, regionCost);
    if (region !== undefined) return visit(region);
  }
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

/** The cost of the order reorder-joins would give the region (C_out), and its estimated rows. */
function regionCost(r: JoinRegion): { cost: number; rows: number } {
  const model = new CardModel(joinGraph(r));
  const current = model.cost(r.tree);
  const rows = model.card(r.leaves.map((_, k) => k));
  if (r.leaves.length < 3 || !r.conds.every(isDeterministicRex)) return { cost: current, rows };
  const implied = impliedEqualities(r);
  const best = enumerateJoins(joinGraph(implied.conds.length ? { ...r, conds: [...r.conds, ...implied.conds] } : r, implied.classOf, r.conds.length));
  return { cost: Math.min(current, best.cost), rows };
}

/** The region in its best order, or undefined when the current order is as cheap. */
function reorder(r: JoinRegion, names: readonly string[]): RelNode | undefined {
  const implied = impliedEqualities(r);
  const withImplied: JoinRegion = implied.conds.length ? { ...r, conds: [...r.conds, ...implied.conds] } : r;
  const g = joinGraph(withImplied, implied.classOf, r.conds.length);
  const best = enumerateJoins(g);
  // The written order has no implied edges: cost it without them (a cross product stays one).
  const current = new CardModel(implied.conds.length ? joinGraph(r) : g).cost(r.tree);
  if (!(best.cost < current * (1 - MIN_GAIN))) return undefined;
  return buildRegion(withImplied, best.tree, names);
}

/**
 * Equivalence classes of the region's plain column equalities (class id by global column) and,
 * for each pair of leaves that share a class but have no written equality between them, one
 * implied `x = y` conjunct.
 */
export function impliedEqualities(r: JoinRegion): { conds: RexNode[]; classOf: Map<number, number> } {
  const classes = new ColumnClasses();
  const types = new Map<number, RexNode['type']>();
  const linked = new Set<string>();
  for (const c of r.conds) {
    const eq = equiColumns(c);
    if (eq !== undefined) {
      const [la, lb] = [leafOf(r, eq[0]), leafOf(r, eq[1])].sort((x, y) => x - y);
      linked.add(`${la},${lb}`);
    }
    const p = plainEqui(c);
    if (p === undefined) continue;
    const [a, b] = p;
    types.set(a, (c as { args: readonly RexNode[] }).args[0]!.type);
    types.set(b, (c as { args: readonly RexNode[] }).args[1]!.type);
    classes.unite(a, b);
  }
  const classOf = new Map<number, number>();
  const members = new Map<number, number[]>();
  for (const g of classes.ids()) {
    const root = classes.find(g);
    classOf.set(g, root);
    if (!members.has(root)) members.set(root, []);
    members.get(root)!.push(g);
  }
  const conds: RexNode[] = [];
  for (const cols of members.values()) {
    const byLeaf = new Map<number, number>();
    for (const g of cols.sort((x, y) => x - y)) if (!byLeaf.has(leafOf(r, g))) byLeaf.set(leafOf(r, g), g);
    const ls = [...byLeaf.keys()].sort((x, y) => x - y);
    if (ls.length > MAX_CLASS_LEAVES) continue;
    for (let i = 0; i < ls.length; i++) {
      for (let j = i + 1; j < ls.length; j++) {
        if (linked.has(`${ls[i]},${ls[j]}`)) continue;
        const a = byLeaf.get(ls[i]!)!, b = byLeaf.get(ls[j]!)!;
        linked.add(`${ls[i]},${ls[j]}`); // one implied equality per leaf pair: its edge stands for one class
        conds.push(call('eq', [inputRef(a, types.get(a)!), inputRef(b, types.get(b)!)], 'BOOLEAN'));
      }
    }
  }
  return { conds, classOf };
}

/** The join graph of a region: leaf rows (after their own filters), equi edges, other predicates. */
export function joinGraph(r: JoinRegion, classOf: ReadonlyMap<number, number> = new Map(), written = r.conds.length): JoinGraph {
  const leafCol = (g: number): { leaf: number; col: number } => {
    const leaf = leafOf(r, g);
    return { leaf, col: g - r.base[leaf]! };
  };
  const lookup = (g: number) => {
    const { leaf, col } = leafCol(g);
    return estimateColumn(r.leaves[leaf]!, col);
  };
  const rows = r.leaves.map(estimateRows);
  const pairKeys = new Map<string, { a: number; b: number; ca: number[]; cb: number[]; classes: number[]; implied?: number }>();
  const preds: { leaves: number[]; sel: number }[] = [];
  for (const [i, c] of r.conds.entries()) {
    const ls = condLeaves(r, c);
    const eq = equiColumns(c);
    if (ls.length === 2 && eq !== undefined) {
      let [x, y] = eq.map(leafCol) as [{ leaf: number; col: number }, { leaf: number; col: number }];
      if (x.leaf > y.leaf) [x, y] = [y, x];
      const key = `${x.leaf},${y.leaf}`;
      const e = pairKeys.get(key) ?? { a: x.leaf, b: y.leaf, ca: [], cb: [], classes: [] };
      e.ca.push(x.col);
      e.cb.push(y.col);
      const k = classOf.get(eq[0]);
      if (i >= written) e.implied = k;
      else if (k !== undefined) e.classes.push(k);
      pairKeys.set(key, e);
      continue;
    }
    preds.push({ leaves: ls, sel: selectivity(c, lookup) });
  }
  const edges = [...pairKeys.values()].map((e) => ({
    a: e.a,
    b: e.b,
    classes: e.classes,
    ...(e.implied === undefined ? {} : { implied: e.implied }),
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
