/**
 * Join enumeration over an abstract join graph: leaves with estimated rows, equi-join edges
 * between two leaves (each with its selectivity) and other predicates over a set of leaves.
 * - Each connected component (leaves linked by equi edges or two-leaf predicates) is ordered by dynamic programming over
 *   connected subgraphs (DPsub restricted to connected csg-cmp pairs, the set of pairs DPccp
 *   enumerates) when it has at most DP_LIMIT leaves, else greedily (GOO: repeatedly join the
 *   connected pair with the smallest result).
 * - Components are then combined by cross products, smallest result first — so a cross product
 *   only ever appears where no equi predicate connects the inputs.
 * Implied edges (`implied: c`, from transitive key equalities: `a = b AND b = c` implies `a = c`)
 * connect leaves the written predicates do not, but their selectivity counts only where the two
 * leaves are not already linked through edges of the same equivalence class inside the set — so
 * each class filters once per leaf it joins, not once per pair.
 * Cost is C_out (sum of intermediate result sizes) plus |L|·|R| for a join without an equi key
 * (it runs as a nested loop); the cardinality of a leaf set does not depend
 * on the order, so it is computed once per set. Each join puts the smaller estimated side on the
 * right, the hash join's default build side.
 */

/** Up to this many leaves per component, exact dynamic programming; beyond, greedy. */
export const DP_LIMIT = 12;

/** The join graph. Leaves are 0..rows.length-1. */
export interface JoinGraph {
  readonly rows: readonly number[];
  readonly edges: readonly JoinEdge[];
  /** Predicates that are not single equi edges: their leaves and selectivity (applied once all are joined). */
  readonly preds: readonly { readonly leaves: readonly number[]; readonly sel: number }[];
}

/** An equi edge between leaves a and b. */
export interface JoinEdge {
  readonly a: number;
  readonly b: number;
  readonly sel: number;
  /** Equivalence classes the edge's key columns belong to (written edges; used to skip implied ones). */
  readonly classes?: readonly number[];
  /** Set on an implied edge: the one class it stands for. */
  readonly implied?: number;
}

/** A join tree: a leaf index or a join of two trees (left: probe, right: build). */
export type JoinTree = { readonly leaf: number } | { readonly left: JoinTree; readonly right: JoinTree };

interface Planned {
  readonly tree: JoinTree;
  readonly leaves: readonly number[];
  readonly card: number;
  readonly cost: number;
}

/** The leaves of a tree, left to right. */
export function treeLeaves(t: JoinTree): number[] {
  return 'leaf' in t ? [t.leaf] : [...treeLeaves(t.left), ...treeLeaves(t.right)];
}

/** Cardinality model of a graph: rows of a set of leaves (order-independent). */
export class CardModel {
  private readonly member: Uint8Array;
  private readonly parent: Int32Array;
  private readonly impliedClasses: readonly number[];
  constructor(readonly g: JoinGraph) {
    this.member = new Uint8Array(g.rows.length);
    this.parent = new Int32Array(g.rows.length);
    this.impliedClasses = [...new Set(g.edges.flatMap((e) => (e.implied === undefined ? [] : [e.implied])))];
  }

  /** Estimated rows of the join of `leaves` with every predicate inside them applied. */
  card(leaves: readonly number[]): number {
    const m = this.member;
    m.fill(0);
    let c = 1;
    for (const l of leaves) { m[l] = 1; c *= this.g.rows[l]!; }
    for (const e of this.g.edges) if (e.implied === undefined && m[e.a] && m[e.b]) c *= e.sel;
    for (const k of this.impliedClasses) c *= this.impliedSel(k);
    for (const p of this.g.preds) if (p.leaves.every((l) => m[l])) c *= p.sel;
    // Huge products of rows times a zero selectivity give NaN: count them as huge, not as cheap.
    return Number.isNaN(c) ? Number.MAX_VALUE : Math.min(Math.max(c, 1e-9), Number.MAX_VALUE);
  }

  /**
   * The selectivity of class k's implied edges inside the current member set: an implied edge
   * counts only when its leaves are not yet linked by the class's written or counted edges.
   */
  private impliedSel(k: number): number {
    const m = this.member, p = this.parent;
    for (let i = 0; i < p.length; i++) p[i] = i;
    const find = (x: number): number => { while (p[x] !== x) x = p[x] = p[p[x]!]!; return x; };
    for (const e of this.g.edges) if (e.implied === undefined && m[e.a] && m[e.b] && e.classes?.includes(k)) p[find(e.a)] = find(e.b);
    let s = 1;
    for (const e of this.g.edges) {
      if (e.implied !== k || !m[e.a] || !m[e.b]) continue;
      const x = find(e.a), y = find(e.b);
      if (x !== y) { s *= e.sel; p[x] = y; }
    }
    return s;
  }

  /** True when an equi edge links a leaf of `x` with a leaf of `y`. */
  equiBetween(x: readonly number[], y: readonly number[]): boolean {
    const m = this.member;
    m.fill(0);
    for (const l of x) m[l] = 1;
    for (const l of y) m[l] = 2;
    return this.g.edges.some((e) => m[e.a]! + m[e.b]! === 3);
  }

  /** The cost of a tree as `join` counts it (C_out plus nested-loop pairs). */
  cost(t: JoinTree): number {
    if ('leaf' in t) return 0;
    const l = treeLeaves(t.left), r = treeLeaves(t.right);
    const loop = this.equiBetween(l, r) ? 0 : this.card(l) * this.card(r);
    return this.card([...l, ...r]) + loop + this.cost(t.left) + this.cost(t.right);
  }
}

/**
 * Joins two plans. Cost: C_out, plus |x|·|y| when no equi edge links them — that join runs as a
 * nested loop (a predicate-only link, or a cross product), whose work is every pair.
 */
function join(model: CardModel, x: Planned, y: Planned, knownCard?: number): Planned {
  const leaves = [...x.leaves, ...y.leaves];
  const card = knownCard ?? model.card(leaves);
  const [l, r] = x.card >= y.card ? [x, y] : [y, x];
  const loop = model.equiBetween(x.leaves, y.leaves) ? 0 : x.card * y.card;
  return { tree: { left: l.tree, right: r.tree }, leaves, card, cost: card + x.cost + y.cost + loop };
}

/** The best join tree of the whole graph. */
export function enumerateJoins(g: JoinGraph): { tree: JoinTree; cost: number } {
  const model = new CardModel(g);
  const n = g.rows.length;
  // Adjacency: equi edges and predicates over exactly two leaves (a predicate connects, too; cost decides).
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (const e of links(g)) { adj[e.a]!.push(e.b); adj[e.b]!.push(e.a); }
  const seen = new Uint8Array(n);
  const parts: Planned[] = [];
  for (let s = 0; s < n; s++) {
    if (seen[s]) continue;
    const comp: number[] = [];
    const stack = [s];
    seen[s] = 1;
    while (stack.length) {
      const v = stack.pop()!;
      comp.push(v);
      for (const w of adj[v]!) if (!seen[w]) { seen[w] = 1; stack.push(w); }
    }
    comp.sort((a, b) => a - b);
    const leaves = comp.map((l) => leafPlan(model, l));
    parts.push(comp.length <= DP_LIMIT ? dpComponent(model, comp, adj) : greedy(model, leaves, true));
  }
  const all = greedy(model, parts, false);
  return { tree: all.tree, cost: all.cost };
}

/** Pairs of leaves a predicate links: equi edges and two-leaf predicates. */
function links(g: JoinGraph): { a: number; b: number }[] {
  return [...g.edges, ...g.preds.filter((p) => p.leaves.length === 2).map((p) => ({ a: p.leaves[0]!, b: p.leaves[1]! }))];
}

function leafPlan(model: CardModel, l: number): Planned {
  return { tree: { leaf: l }, leaves: [l], card: model.card([l]), cost: 0 };
}

/** Exact DP over the connected subsets of one component (bitmasks over its local numbering). */
function dpComponent(model: CardModel, comp: readonly number[], adj: readonly number[][]): Planned {
  const k = comp.length;
  const local = new Map(comp.map((l, i) => [l, i]));
  const nbr = comp.map((l) => adj[l]!.reduce((m, w) => m | (1 << local.get(w)!), 0));
  const full = (1 << k) - 1;
  const best: (Planned | undefined)[] = new Array(full + 1);
  for (let i = 0; i < k; i++) best[1 << i] = leafPlan(model, comp[i]!);
  const neighbours = (s: number): number => {
    let m = 0;
    for (let i = 0; i < k; i++) if (s & (1 << i)) m |= nbr[i]!;
    return m & ~s;
  };
  for (let s = 1; s <= full; s++) {
    if ((s & (s - 1)) === 0) continue;
    let top: Planned | undefined;
    let card: number | undefined;
    // Every split of s into two non-empty halves, each half once (the one holding the lowest bit is s1).
    const low = s & -s;
    for (let s1 = (s - 1) & s; s1 > 0; s1 = (s1 - 1) & s) {
      if ((s1 & low) === 0) continue;
      const s2 = s ^ s1;
      const p1 = best[s1], p2 = best[s2];
      if (p1 === undefined || p2 === undefined) continue;
      if ((neighbours(s1) & s2) === 0) continue;
      card ??= model.card(comp.filter((_, i) => s & (1 << i)));
      const cand = join(model, p1, p2, card);
      if (top === undefined || cand.cost < top.cost) top = cand;
    }
    best[s] = top;
  }
  return best[full]!;
}

/**
 * Greedy operator ordering: join the cheapest pair (its result, plus the pairs of a nested loop)
 * until one plan is left. `connectedOnly`: pairs must be linked by a predicate while any such
 * pair exists (inside a component there always is one); otherwise (combining components) every
 * pair is a candidate.
 */
function greedy(model: CardModel, start: readonly Planned[], connectedOnly: boolean): Planned {
  const plans = [...start];
  const owner = new Int32Array(model.g.rows.length).fill(-1);
  while (plans.length > 1) {
    plans.forEach((p, i) => { for (const l of p.leaves) owner[l] = i; });
    const linked = new Set<number>();
    const W = plans.length;
    for (const e of links(model.g)) {
      const i = owner[e.a]!, j = owner[e.b]!;
      if (i !== j && i >= 0 && j >= 0) linked.add(Math.min(i, j) * W + Math.max(i, j));
    }
    let best: Planned | undefined, bi = 0, bj = 1, bestStep = Infinity;
    for (let i = 0; i < W; i++) {
      for (let j = i + 1; j < W; j++) {
        if (connectedOnly && linked.size > 0 && !linked.has(i * W + j)) continue;
        const cand = join(model, plans[i]!, plans[j]!);
        const step = cand.cost - plans[i]!.cost - plans[j]!.cost;
        if (best === undefined || step < bestStep) { best = cand; bestStep = step; bi = i; bj = j; }
      }
    }
    const merged = best ?? join(model, plans[0]!, plans[1]!);
    plans.splice(bj, 1);
    plans[bi] = merged;
  }
  return plans[0]!;
}
