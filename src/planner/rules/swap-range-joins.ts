/**
 * swap-range-joins: an inner join with no equality between its sides whose best range key
 * (range-join-keys.ts: a lone INTEGER/DATE column bounded by expressions over the other side) is on
 * the LEFT input swaps its inputs, so the column is on the right, the side the nested-loop join
 * buffers and sorts; a Project restores the column order. "Best": bounded on more sides (BETWEEN
 * beats the one-sided key the mirrored comparison gives the other way round).
 *
 * Why: `FROM lineitem l JOIN orders o ON l.l_shipdate BETWEEN o.o_orderdate AND o.o_orderdate + 1`
 * bounds a lineitem column, but lineitem is written first; without the swap the join compared every
 * pair. Inner joins only (the other types are not symmetric under a swap without changing their
 * type); a final-phase rule (optimizer.ts FINAL_RULES), after expand-or-joins and
 * join-key-expressions, which may leave hash keys that make the swap unnecessary.
 */
import { join, projectOrdinals, transformUp, type Join, type RelNode } from '../../relnode/rel.js';
import { conjuncts, rexShift } from '../../relnode/rex.js';
import { splitJoinCondition } from '../join-keys.js';
import { rangeKey, type RangeKey } from '../range-join-keys.js';
import type { Rule } from '../rule.js';

/** How many sides a range key bounds (0: no key). */
function bounds(k: RangeKey | undefined): number {
  return k === undefined ? 0 : (k.lo !== undefined ? 1 : 0) + (k.hi !== undefined ? 1 : 0);
}

function swap(j: Join): RelNode {
  if (j.joinType !== 'inner') return j;
  const lw = j.left.schema.fields.length;
  const rw = j.right.schema.fields.length;
  if (splitJoinCondition(j.condition, lw).leftKeys.length > 0) return j;
  const cs = conjuncts(j.condition);
  if (cs.length === 0) return j;
  // Swapped layout: right columns first, then left ones. Swap when that bounds a column on more sides.
  const cond = rexShift(j.condition, (i) => (i < lw ? i + rw : i - lw));
  if (bounds(rangeKey(conjuncts(cond), rw)) <= bounds(rangeKey(cs, lw))) return j;
  const swapped = join(j.right, j.left, 'inner', cond);
  const order = [...Array.from({ length: lw }, (_, i) => rw + i), ...Array.from({ length: rw }, (_, i) => i)];
  return projectOrdinals(swapped, order, j.schema.fields.map((x) => x.name));
}

/** Puts a range join's bounded column on the right input (inner joins). */
export const swapRangeJoins: Rule = {
  name: 'swap-range-joins',
  description: 'Join(inner, l.x BETWEEN r.a AND r.b) → Project(Join(r, l)) so the bounded column is on the buffered side; a final phase after join-key-expressions.',
  rewrite(root) {
    return transformUp(root, (n) => (n.kind === 'Join' ? swap(n) : n));
  },
};
