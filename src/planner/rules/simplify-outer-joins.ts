/**
 * simplify-outer-joins: a Filter over an outer join whose condition rejects
 * the NULLs the join pads a side with turns the join into an inner one (or a
 * full join into a one-sided one): the padded rows would be filtered out
 * anyway.
 *
 * Why: decorrelated scalar subqueries become `Filter(x < agg, Join(left, outer,
 * Aggregate))` (TPC-H Q2, Q17, Q20); as an inner join the aggregate side joins
 * the region the join-order rule arranges, the smaller side builds, and a
 * runtime filter can reach the aggregate's input through its group keys
 * (planner/runtime-filters.ts). Runs after merge-filters (one Filter carries
 * every conjunct) and before push-down-filter, which then moves the conjuncts
 * into the now-inner join.
 *
 * A conjunct rejects NULLs of a side when it is NULL or FALSE whenever every
 * column of that side is NULL: it is strict in such a column (comparisons,
 * arithmetic, casts, NOT, LIKE, IN's probe propagate NULL), or IS NOT NULL of
 * a strict expression, or an AND with such a part, or an OR whose parts all are.
 */
import { filter, join, transformUp, type JoinType } from '../../relnode/rel.js';
import { conjuncts, type RexNode } from '../../relnode/rex.js';
import type { Rule } from '../rule.js';

/** Functions that return NULL when any argument is NULL. */
const STRICT = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'plus', 'minus', 'times', 'divide', 'int_divide', 'mod', 'neg', 'not', 'like', 'ilike']);

/** True when `e` is NULL whenever every input column in [lo, hi) is NULL. */
function strictIn(e: RexNode, lo: number, hi: number): boolean {
  switch (e.kind) {
    case 'InputRef': return e.index >= lo && e.index < hi;
    case 'Cast': return strictIn(e.arg, lo, hi);
    case 'Call':
      if (e.op === 'in') return strictIn(e.args[0]!, lo, hi);
      return STRICT.has(e.op) && e.args.some((a) => strictIn(a, lo, hi));
    default: return false;
  }
}

/** True when the condition `e` is NULL or FALSE whenever every input column in [lo, hi) is NULL. */
export function rejectsNulls(e: RexNode, lo: number, hi: number): boolean {
  if (strictIn(e, lo, hi)) return true;
  if (e.kind !== 'Call') return false;
  if (e.op === 'is_not_null') return strictIn(e.args[0]!, lo, hi);
  if (e.op === 'and') return e.args.some((a) => rejectsNulls(a, lo, hi));
  if (e.op === 'or') return e.args.every((a) => rejectsNulls(a, lo, hi));
  return false;
}

function simplified(type: JoinType, rejectsLeft: boolean, rejectsRight: boolean): JoinType {
  switch (type) {
    case 'left': return rejectsRight ? 'inner' : type;
    case 'right': return rejectsLeft ? 'inner' : type;
    case 'full':
      if (rejectsLeft && rejectsRight) return 'inner';
      if (rejectsRight) return 'right'; // rows padded on the right (left-only rows) go
      if (rejectsLeft) return 'left';
      return type;
    default: return type;
  }
}

/** Turns outer joins under NULL-rejecting filters into inner (or one-sided) joins. */
export const simplifyOuterJoins: Rule = {
  name: 'simplify-outer-joins',
  description: 'Filter(c, outer join) → Filter(c, inner join) when c rejects the padded NULLs; after merge-filters, before push-down-filter.',
  rewrite(root) {
    return transformUp(root, (n) => {
      if (n.kind !== 'Filter' || n.input.kind !== 'Join') return n;
      const j = n.input;
      if (j.joinType !== 'left' && j.joinType !== 'right' && j.joinType !== 'full') return n;
      const lw = j.left.schema.fields.length;
      const w = j.schema.fields.length;
      const cs = conjuncts(n.condition);
      const type = simplified(j.joinType, cs.some((c) => rejectsNulls(c, 0, lw)), cs.some((c) => rejectsNulls(c, lw, w)));
      if (type === j.joinType) return n;
      return filter(join(j.left, j.right, type, j.condition), n.condition);
    });
  },
};
