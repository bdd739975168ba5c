/**
 * derive-join-filters: an inner join's condition conjunct that is an OR of
 * conjunctions mixing both sides (TPC-H Q19: `p_partkey = l_partkey AND
 * ((p_brand = 'Brand#12' AND ... AND l_quantity <= 11) OR (...) OR (...))`)
 * implies, for each side, the OR over the disjuncts of their one-sided
 * conjuncts (`(p_brand = 'Brand#12' AND ...) OR (...) OR (...)` on part).
 * The rule adds that implied predicate as a Filter on the side and keeps the
 * join condition whole, so the side is filtered before it is joined: Q19's
 * part side keeps ~0.2% of its rows, its join's runtime filter then drops
 * almost all of lineitem at the scan, and the residual OR runs on a few
 * hundred pairs instead of 200 thousand.
 *
 * Decision: only when every disjunct has a one-sided conjunct for that side
 * (else the side implies nothing), only for a side that is a Scan under
 * Filters (there the added Filter stays, merged with the others, so the rule
 * sees it on the next pass and does not add it again: idempotent by the
 * canonical text of the conjuncts), and only with conjuncts that cannot fail
 * on rows the join would never have tested (comparisons, IN, LIKE, IS NULL,
 * AND/OR/NOT over columns and literals; no arithmetic or casts of columns).
 * Runs after push-down-filter and reorder-joins (the OR sits in the join
 * condition then); push-down-filter copies the new Filter into the scan.
 */
import { canonicalRex } from '../../relnode/digest.js';
import { filter, join, transformUp, type Join, type RelNode } from '../../relnode/rel.js';
import { andAll, call, conjuncts, disjuncts, rexInputs, rexShift, type RexNode } from '../../relnode/rex.js';
import { isDeterministicRex, type Rule } from '../rule.js';

const SAFE_OPS = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'and', 'or', 'not', 'is_null', 'is_not_null', 'in', 'like']);

/** Adds each side's implied filter of an inner join's OR-of-conjunctions condition. */
export const deriveJoinFilters: Rule = {
  name: 'derive-join-filters',
  description: 'Adds to each side of an inner join the filter its OR-of-conjunctions condition implies for that side (TPC-H Q19); after push-down-filter and reorder-joins, which then moves it into the scan.',
  rewrite(root) {
    return transformUp(root, (n) => (n.kind === 'Join' && n.joinType === 'inner' ? derive(n) : n));
  },
};

function derive(j: Join): RelNode {
  const ors = conjuncts(j.condition).filter((c) => c.kind === 'Call' && c.op === 'or' && isDeterministicRex(c));
  if (ors.length === 0) return j;
  const lw = j.left.schema.fields.length;
  const width = lw + j.right.schema.fields.length;
  let left = j.left;
  let right = j.right;
  for (const o of ors) {
    left = addImplied(left, implied(o, 0, lw, 0));
    right = addImplied(right, implied(o, lw, width, lw));
  }
  return left === j.left && right === j.right ? j : join(left, right, j.joinType, j.condition);
}

/** The OR over the disjuncts of `o` of their conjuncts reading only ordinals [lo, hi), renumbered by −shift; undefined when a disjunct has none. */
function implied(o: RexNode, lo: number, hi: number, shift: number): RexNode | undefined {
  const parts: RexNode[] = [];
  for (const d of disjuncts(o)) {
    const own = conjuncts(d).filter((c) => {
      const ins = rexInputs(c);
      return ins.size > 0 && [...ins].every((i) => i >= lo && i < hi) && safe(c);
    });
    if (own.length === 0) return undefined;
    parts.push(rexShift(andAll(own), (i) => i - shift));
  }
  return parts.length === 1 ? parts[0]! : call('or', parts, 'BOOLEAN');
}

/** Evaluating it on any row cannot raise an error (no arithmetic, no cast of a column). */
function safe(e: RexNode): boolean {
  switch (e.kind) {
    case 'InputRef': case 'Literal': return true;
    case 'Cast': return e.arg.kind === 'Literal';
    case 'Call': return SAFE_OPS.has(e.op) && e.args.every(safe);
    default: return false;
  }
}

/** `side` with a Filter of `p` added, unless `p` is absent, the side is not Filters over a Scan, or they have it already. */
function addImplied(side: RelNode, p: RexNode | undefined): RelNode {
  if (p === undefined) return side;
  const have = new Set<string>();
  let n = side;
  while (n.kind === 'Filter') { for (const c of conjuncts(n.condition)) have.add(canonicalRex(c)); n = n.input; }
  if (n.kind !== 'Scan' || have.has(canonicalRex(p))) return side;
  return filter(side, p);
}
