/**
 * Join regions: a maximal tree of inner / cross joins (with the Filters and column-only Projects
 * between them, which push-down-filter and prune-columns leave there) seen as a set of leaves and
 * a set of conjuncts. Columns are renumbered globally (leaf k's column c is base[k] + c), so a
 * conjunct no longer depends on where it sat in the tree, and the region's output is a list of
 * global columns. Outer, semi and anti joins, aggregates and everything else are leaves: join
 * ordering never moves a predicate or a row across them.
 *
 * `buildRegion` turns a join tree over the leaves back into a plan: each conjunct lands on the
 * lowest join that covers the leaves it reads, and a Project restores the region's original
 * column order and names, so the schema above does not change. A plain column equality whose
 * columns the equalities already applied below (or earlier at the same join) make equal is
 * dropped: it is implied (reorder-joins adds transitive equalities, and the written one it
 * replaces would otherwise become a redundant hash key and runtime filter).
 */
import { filter, join, project, type Join, type RelNode } from '../relnode/rel.js';
import { andAll, conjuncts, inputRef, literal, rexInputs, rexShift, type RexNode } from '../relnode/rex.js';
import { ColumnClasses } from './equivalence.js';
import type { JoinTree } from './join-enumerate.js';

/** `a = b` over two plain columns of one type (no casts: equality stays transitive): their global ids. */
export function plainEqui(c: RexNode): [number, number] | undefined {
  if (c.kind !== 'Call' || c.op !== 'eq') return undefined;
  const [a, b] = c.args;
  return a?.kind === 'InputRef' && b?.kind === 'InputRef' && a.type === b.type && a.index !== b.index ? [a.index, b.index] : undefined;
}

/** A join region as leaves and conjuncts over global column ids. */
export interface JoinRegion {
  readonly leaves: readonly RelNode[];
  /** Global id of leaf k's first column. */
  readonly base: readonly number[];
  /** Conjuncts over global column ids. */
  readonly conds: readonly RexNode[];
  /** The region root's output columns, as global ids. */
  readonly output: readonly number[];
  /** The shape the region has now (to cost the current order). */
  readonly tree: JoinTree;
}

function isInnerJoin(n: RelNode): n is Join {
  return n.kind === 'Join' && (n.joinType === 'inner' || n.joinType === 'cross');
}

/** True for a node that belongs to the region of the join below it. */
function inRegion(n: RelNode): boolean {
  if (isInnerJoin(n)) return true;
  if (n.kind === 'Filter') return inRegion(n.input);
  if (n.kind === 'Project') return n.exprs.every((e) => e.kind === 'InputRef') && inRegion(n.input);
  return false;
}

/** The region rooted at an inner / cross join. */
export function extractRegion(root: Join): JoinRegion {
  const leaves: RelNode[] = [];
  const base: number[] = [];
  const conds: RexNode[] = [];
  let width = 0;
  const walk = (n: RelNode): { out: number[]; tree: JoinTree } => {
    if (isInnerJoin(n)) {
      const l = walk(n.left), r = walk(n.right);
      const all = [...l.out, ...r.out];
      for (const c of conjuncts(n.condition)) if (!(c.kind === 'Literal' && c.value === true)) conds.push(rexShift(c, (i) => all[i]!));
      return { out: all, tree: { left: l.tree, right: r.tree } };
    }
    if (n.kind === 'Filter' && inRegion(n.input)) {
      const x = walk(n.input);
      for (const c of conjuncts(n.condition)) conds.push(rexShift(c, (i) => x.out[i]!));
      return x;
    }
    if (n.kind === 'Project' && inRegion(n)) {
      const x = walk(n.input);
      return { out: n.exprs.map((e) => x.out[(e as { index: number }).index]!), tree: x.tree };
    }
    const k = leaves.length;
    leaves.push(n);
    base.push(width);
    const w = n.schema.fields.length;
    width += w;
    return { out: Array.from({ length: w }, (_, i) => base[k]! + i), tree: { leaf: k } };
  };
  const { out, tree } = walk(root);
  return { leaves, base, conds, output: out, tree };
}

/** The leaf a global column belongs to. */
export function leafOf(r: JoinRegion, g: number): number {
  let k = r.base.length - 1;
  while (r.base[k]! > g) k--;
  return k;
}

/** The leaves a conjunct reads, ascending. */
export function condLeaves(r: JoinRegion, c: RexNode): number[] {
  return [...new Set([...rexInputs(c)].map((g) => leafOf(r, g)))].sort((a, b) => a - b);
}

/**
 * The plan for a join tree over the region's leaves: conjuncts at the lowest covering join
 * (single-leaf ones as a Filter on the leaf, constant ones at the root), then a Project back to
 * the region's output order and the root's names.
 */
export function buildRegion(r: JoinRegion, t: JoinTree, names: readonly string[]): RelNode {
  const sets = r.conds.map((c) => new Set(condLeaves(r, c)));
  const used = new Array<boolean>(r.conds.length).fill(false);
  const build = (t: JoinTree): { node: RelNode; cols: number[]; leaves: Set<number>; eqs: [number, number][] } => {
    if ('leaf' in t) {
      const k = t.leaf;
      const leaf = r.leaves[k]!;
      const cols = Array.from({ length: leaf.schema.fields.length }, (_, i) => r.base[k]! + i);
      const own = r.conds.filter((_, i) => !used[i] && sets[i]!.size === 1 && sets[i]!.has(k) && (used[i] = true));
      const node = own.length ? filter(leaf, andAll(own.map((c) => rexShift(c, (g) => g - r.base[k]!)))) : leaf;
      return { node, cols, leaves: new Set([k]), eqs: [] };
    }
    const l = build(t.left), x = build(t.right);
    const cols = [...l.cols, ...x.cols];
    const leaves = new Set([...l.leaves, ...x.leaves]);
    const pos = new Map(cols.map((g, i) => [g, i]));
    const eqs = [...l.eqs, ...x.eqs];
    const classes = new ColumnClasses();
    for (const [a, b] of eqs) classes.unite(a, b);
    const here = r.conds.filter((c, i) => {
      if (used[i] || ![...sets[i]!].every((k) => leaves.has(k))) return false;
      used[i] = true;
      const eq = plainEqui(c);
      if (eq === undefined) return true;
      if (!classes.unite(eq[0], eq[1])) return false; // implied by the equalities already applied
      eqs.push(eq);
      return true;
    });
    const cond = here.length ? andAll(here.map((c) => rexShift(c, (g) => pos.get(g)!))) : literal(true, 'BOOLEAN');
    return { node: join(l.node, x.node, here.length ? 'inner' : 'cross', cond), cols, leaves, eqs };
  };
  const top = build(t);
  const pos = new Map(top.cols.map((g, i) => [g, i]));
  const exprs = r.output.map((g) => inputRef(pos.get(g)!, top.node.schema.fields[pos.get(g)!]!.type));
  const identity = exprs.length === top.cols.length && exprs.every((e, i) => e.index === i) && top.node.schema.fields.every((f, i) => f.name === names[i]);
  return identity ? top.node : project(top.node, exprs, names);
}

/** The region's plan as it is, with its leaves (in extraction order) replaced. */
export function replaceLeaves(root: Join, leaves: readonly RelNode[]): RelNode {
  let next = 0;
  const walk = (n: RelNode): RelNode => {
    if (isInnerJoin(n)) return join(walk(n.left), walk(n.right), n.joinType, n.condition);
    if (n.kind === 'Filter' && inRegion(n.input)) return filter(walk(n.input), n.condition);
    if (n.kind === 'Project' && inRegion(n)) return project(walk(n.input), n.exprs, n.schema.fields.map((f) => f.name));
    return leaves[next++]!;
  };
  return walk(root);
}
