/**
 * Views of a Correlate's right side shared by the decorrelation rules (existence, lateral, scalar
 * aggregate): outer-column tests, moving right-side expressions over the join's columns, looking
 * through the right side's Projects, and splitting a Filter into its correlated and local conjuncts.
 */
import * as rel from '../../relnode/rel.js';
import { andAll, conjuncts, inputRef, rexShift, rexTransform, rexVisit, type RexNode } from '../../relnode/rex.js';
import { isDeterministicRex, substituteRefs } from '../rule.js';

/** Whether an expression reads an outer column. */
export function readsOuter(e: RexNode): boolean {
  let found = false;
  rexVisit(e, (x) => { if (x.kind === 'OuterRef') found = true; });
  return found;
}

/** An expression over the right side's columns (OuterRefs to the left), moved over left ++ right: InputRefs shifted by the left width, OuterRefs to left columns. */
export function overJoin(e: RexNode, leftWidth: number): RexNode {
  return rexTransform(rexShift(e, (i) => i + leftWidth), (x) => (x.kind === 'OuterRef' ? inputRef(x.index, x.type, x.name) : x));
}

/** The right side seen through its Projects: each right column as an expression over `node`, the first non-Project below them. */
export function throughProjects(right: rel.RelNode): { readonly exprs: readonly RexNode[]; readonly node: rel.RelNode } {
  let exprs: readonly RexNode[] = right.schema.fields.map((f, i) => inputRef(i, f.type, f.name));
  let r = right;
  while (r.kind === 'Project') {
    const p = r;
    exprs = exprs.map((e) => rexTransform(e, (x) => (x.kind === 'InputRef' ? p.exprs[x.index]! : x)));
    r = p.input;
  }
  return { exprs, node: r };
}

/** A Filter's conjuncts that read the outer row, and what stays below them (the Filter's input with the other conjuncts); any other node is all local. */
export function splitOuterFilter(r: rel.RelNode): { readonly correlated: RexNode[]; readonly below: rel.RelNode } {
  if (r.kind !== 'Filter') return { correlated: [], below: r };
  const cs = conjuncts(r.condition);
  const local = cs.filter((x) => !readsOuter(x));
  return { correlated: cs.filter(readsOuter), below: local.length > 0 ? rel.filter(r.input, andAll(local)) : r.input };
}

/**
 * The right side seen through its Projects and Filters, in any order: each right column as an
 * expression over `below`, the Filters' conjuncts that read the outer row (over `below` too), and
 * `below`, the first other node under the Filters' other conjuncts. A row IN binds to a Filter over
 * the subquery's Project over the subquery's own WHERE (sql/binder/row-subquery.ts), so a correlated
 * one has outer references on both sides of a Project. Undefined when a Filter sits above a Project
 * computing a non-deterministic expression (inlining it into the conjuncts would move or repeat it).
 */
export function pullCorrelated(right: rel.RelNode): { readonly exprs: readonly RexNode[]; readonly correlated: RexNode[]; readonly below: rel.RelNode } | undefined {
  let exprs: readonly RexNode[] = right.schema.fields.map((f, i) => inputRef(i, f.type, f.name));
  let conds: RexNode[] = [];
  let r = right;
  for (;;) {
    if (r.kind === 'Project') {
      const p = r;
      if (conds.length > 0 && !p.exprs.every(isDeterministicRex)) return undefined;
      exprs = exprs.map((e) => substituteRefs(e, p.exprs));
      conds = conds.map((e) => substituteRefs(e, p.exprs));
      r = p.input;
    } else if (r.kind === 'Filter') {
      conds = [...conjuncts(r.condition), ...conds]; // inner conjuncts first, as merge-filters orders them
      r = r.input;
    } else break;
  }
  const local = conds.filter((x) => !readsOuter(x));
  return { exprs, correlated: conds.filter(readsOuter), below: local.length > 0 ? rel.filter(r, andAll(local)) : r };
}
