/**
 * expand-or-joins: an inner join whose condition has no equality between its sides, but an OR
 * whose every branch has one (`ON a.x = b.x OR a.y = b.y`), becomes a UNION ALL of one join per
 * branch, each keyed on its branch's equality: branch k keeps `rest AND d_k AND NOT
 * coalesce(d_1, FALSE) AND ... AND NOT coalesce(d_{k-1}, FALSE)`, so a pair that satisfies several
 * branches comes out of the first one only (a branch that is NULL does not count as satisfied, as
 * in the OR). Every pair the OR keeps is kept exactly once.
 *
 * Why: such a join has no hash key, so it ran as a nested loop: TPC-H SF 0.1 orders ⋈ customer on
 * `o_custkey = c_custkey OR o_orderkey = c_custkey` compared 2.25 billion pairs in 83 s. Two hash
 * joins read each input twice instead.
 *
 * Semi and anti joins (EXISTS / NOT EXISTS over an OR) split by rows of the left side: the rows
 * with a match for branch 1, then, of the rows without, those with a match for branch 2, ...
 * (UNION ALL of semi joins over a chain of anti joins); NOT EXISTS is the chain itself. Each left
 * row comes out at most once, as it would from the one semi join.
 *
 * Decision: inner, semi and anti joins (an outer join would need the branches' matches combined
 * per row); at most MAX_BRANCHES branches; deterministic conditions only (each
 * branch evaluates them again). A final-phase rule (optimizer.ts FINAL_RULES), before
 * join-key-expressions, which then keys a branch on `a.x + 1 = b.y` as on plain columns.
 */
import { join, transformUp, type Join, type RelNode } from '../../relnode/rel.js';
import { andAll, call, conjuncts, disjuncts, literal, type RexNode } from '../../relnode/rex.js';
import { inputSide } from '../join-keys.js';
import { union } from '../../relnode/set-ops.js';
import { isDeterministicRex, type Rule } from '../rule.js';

const MAX_BRANCHES = 4;

/** Whether `c` is an equality between an expression over the left input and one over the right. */
function crossEquality(c: RexNode, leftWidth: number): boolean {
  if (c.kind !== 'Call' || c.op !== 'eq') return false;
  const a = inputSide(c.args[0]!, leftWidth);
  const b = inputSide(c.args[1]!, leftWidth);
  return (a === 'left' && b === 'right') || (a === 'right' && b === 'left');
}

function expand(j: Join): RelNode {
  if (j.joinType !== 'inner' && j.joinType !== 'semi' && j.joinType !== 'anti') return j;
  const lw = j.left.schema.fields.length;
  const cs = conjuncts(j.condition);
  if (cs.some((c) => crossEquality(c, lw)) || !isDeterministicRex(j.condition)) return j;
  const at = cs.findIndex((c) => {
    if (c.kind !== 'Call' || c.op !== 'or') return false;
    const ds = disjuncts(c);
    return ds.length <= MAX_BRANCHES && ds.every((d) => conjuncts(d).some((x) => crossEquality(x, lw)));
  });
  if (at < 0) return j;
  const rest = cs.filter((_, k) => k !== at);
  const branches = disjuncts(cs[at]!);
  if (j.joinType !== 'inner') {
    // EXISTS (p1 OR p2) = EXISTS p1 OR EXISTS p2: the left rows matching p1, then those of the rest
    // matching p2, ...; NOT EXISTS (p1 OR p2) = NOT EXISTS p1 AND NOT EXISTS p2: a chain of anti joins.
    let remaining: RelNode = j.left;
    const parts: RelNode[] = [];
    for (const d of branches) {
      const cond = andAll([...rest, ...conjuncts(d)]);
      if (j.joinType === 'semi') parts.push(join(remaining, j.right, 'semi', cond));
      remaining = join(remaining, j.right, 'anti', cond);
    }
    return j.joinType === 'anti' ? remaining : union(parts, true);
  }
  const FALSE = literal(false, 'BOOLEAN');
  const notBefore = (k: number): RexNode[] => branches.slice(0, k).map((d) => call('not', [call('coalesce', [d, FALSE], 'BOOLEAN')], 'BOOLEAN'));
  const joins = branches.map((d, k) => join(j.left, j.right, 'inner', andAll([...rest, ...conjuncts(d), ...notBefore(k)])));
  return union(joins, true);
}

/** Expands an inner join on an OR of equalities into a UNION ALL of hash joins. */
export const expandOrJoins: Rule = {
  name: 'expand-or-joins',
  description: 'Join(inner, (l1 = r1) OR (l2 = r2)) → UNION ALL of a join per branch, later branches excluding earlier matches; a final phase before join-key-expressions.',
  rewrite(root) {
    return transformUp(root, (n) => (n.kind === 'Join' ? expand(n) : n));
  },
};
