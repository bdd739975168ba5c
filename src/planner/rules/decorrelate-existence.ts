/**
 * A semi / anti Correlate whose right side is Projects over a Filter over an
 * uncorrelated input (the usual `EXISTS (SELECT ... FROM t WHERE t.k = o.k
 * AND ...)`, `x IN (SELECT ...)`): the conjuncts that read outer columns move
 * into the join condition, which becomes a semi / anti join on them (any
 * condition: equalities become hash keys, the rest a residual). The
 * Projects are inlined into the condition: a semi / anti join outputs only
 * the left columns, so nothing else reads them.
 */
import * as rel from '../../relnode/rel.js';
import { andAll, conjuncts, inputRef, rexShift, rexTransform, rexVisit, type RexNode } from '../../relnode/rex.js';
import type { Rule } from '../rule.js';

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

function rewrite(c: rel.Correlate): rel.RelNode | undefined {
  if (c.joinType !== 'semi' && c.joinType !== 'anti') return undefined;
  const lw = c.left.schema.fields.length;
  // Right column i as an expression over the node below the Projects.
  let exprs: readonly RexNode[] = c.right.schema.fields.map((f, i) => inputRef(i, f.type, f.name));
  let r: rel.RelNode = c.right;
  while (r.kind === 'Project') {
    const p = r;
    exprs = exprs.map((e) => rexTransform(e, (x) => (x.kind === 'InputRef' ? p.exprs[x.index]! : x)));
    r = p.input;
  }
  let correlated: RexNode[] = [];
  let below: rel.RelNode = r;
  if (r.kind === 'Filter') {
    const cs = conjuncts(r.condition);
    correlated = cs.filter(readsOuter);
    const local = cs.filter((x) => !readsOuter(x));
    below = local.length > 0 ? rel.filter(r.input, andAll(local)) : r.input;
  }
  if (rel.outerRefsOf(below).size > 0) return undefined;
  // The Correlate's condition reads right columns (the Projects' outputs): inline them.
  const cond = rexTransform(c.condition, (x) => (x.kind === 'InputRef' && x.index >= lw ? overJoin(exprs[x.index - lw]!, lw) : x));
  const all = [...conjuncts(cond), ...correlated.map((x) => overJoin(x, lw))];
  return rel.join(c.left, below, c.joinType, andAll(all));
}

export const decorrelateExistence: Rule = {
  name: 'decorrelate-existence',
  description: 'A semi / anti Correlate over Projects and a Filter with correlated conjuncts → a semi / anti join on them; after decorrelate-uncorrelated.',
  rewrite: (node) => rel.transformUp(node, (n) => (n.kind === 'Correlate' ? rewrite(n) ?? n : n)),
};
