/**
 * Semi and anti joins over a join region (reorder-joins.ts): a semi / anti join whose condition
 * reads, on its left, the columns of one region leaf only is a per-row test of that leaf's rows,
 * so it may run on the leaf before the region's inner joins instead of on their result:
 *
 *   (A ⋈ B ⋈ C) ⋉_{A.k = S.k} S   ≡   (A ⋉_{A.k = S.k} S) ⋈ B ⋈ C
 *
 * (an inner join keeps or drops a left row's copies together, and the test reads only A's
 * columns and S, which do not change; for an anti join alike, NULL-aware conditions included).
 *
 * Why: TPC-H Q18 (`o_orderkey IN (orders with sum(l_quantity) > 300)`) had the semi join on top
 * of customer ⋈ orders ⋈ lineitem: the region was ordered without knowing that ~60 of 1.5M
 * orders survive, so it built customer's 150K rows into a hash table that 60 probes used, and
 * the runtime filters of the joins above cut the scans only after that. With the semi join on
 * orders, the region starts from ~1% of orders, builds on it, and filters customer too.
 *
 * Decision: by cost, in the region's own model (C_out, join-enumerate.ts): the semi join's work is
 * counted as the rows it tests — the region's output where it is, the leaf's rows when pushed —
 * plus the cost of the best order of the region either way. Pushing wins when the semi join keeps
 * few rows of a leaf that the region multiplies (Q18); it loses when the region itself already
 * cuts the leaf down (TPC-H Q21's EXISTS on lineitem, whose region keeps 1/25 of the suppliers):
 * then the semi join stays on top, as written. Only deterministic conditions move.
 */
import { join, type Join, type RelNode } from '../relnode/rel.js';
import { rexInputs, rexShift } from '../relnode/rex.js';
import { estimateRows } from './estimate.js';
import { extractRegion, leafOf, replaceLeaves, type JoinRegion } from './join-region.js';
import { isDeterministicRex } from './rule.js';

/** How a region's cost is weighed: the cost of its best order and its estimated output rows. */
export type RegionCost = (r: JoinRegion) => { cost: number; rows: number };

/**
 * The region under the semi / anti join `n` with `n` moved onto the one leaf its condition reads,
 * when that is estimated cheaper (`regionCost` weighs the region's orders); undefined otherwise.
 */
export function pushSemiJoinIntoRegion(n: Join, regionCost: RegionCost): RelNode | undefined {
  if ((n.joinType !== 'semi' && n.joinType !== 'anti') || !isInnerRegionRoot(n.left) || !isDeterministicRex(n.condition)) return undefined;
  const r = extractRegion(n.left);
  const lw = n.left.schema.fields.length;
  let leaf = -1;
  for (const i of rexInputs(n.condition)) {
    if (i >= lw) continue;
    const k = leafOf(r, r.output[i]!);
    if (leaf !== -1 && k !== leaf) return undefined; // reads two leaves: not a test of one leaf's rows
    leaf = k;
  }
  if (leaf === -1) return undefined; // reads no left column (an uncorrelated EXISTS): nothing to place
  const target = r.leaves[leaf]!;
  const width = target.schema.fields.length;
  const base = r.base[leaf]!;
  // Left column i is global column output[i], leaf-local output[i] − base; right column j follows the leaf's columns.
  const cond = rexShift(n.condition, (i) => (i < lw ? r.output[i]! - base : width + (i - lw)));
  const pushed = join(target, n.right, n.joinType, cond);
  const leaves = r.leaves.map((l, k) => (k === leaf ? pushed : l));
  const here = regionCost(r);
  const there = regionCost({ ...r, leaves });
  if (!(there.cost + estimateRows(target) < here.cost + here.rows)) return undefined;
  return replaceLeaves(n.left, leaves);
}

function isInnerRegionRoot(n: RelNode): n is Join {
  return n.kind === 'Join' && (n.joinType === 'inner' || n.joinType === 'cross');
}
