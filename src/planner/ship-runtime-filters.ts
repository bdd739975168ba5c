/**
 * Runtime filters as the stage cost model sees them (ship-cost.ts): a hash join's build keys
 * filter the scan below its probe side (exec/runtime-filter.ts), so the operators between that
 * scan and the join see only the rows whose key the build side has, not the scan's estimate.
 *
 * Decision: the fraction a filter keeps is the build side's distinct keys over the probe scan's
 * (each probe key value the build side has is kept: containment, as the join estimate assumes),
 * applied to every node on the path from the scan up to the join. Lowering's own choices decide
 * which joins filter which scans (the build side by `chooseBuildSide`, the targets by
 * `runtimeFilterTargets`), so the model and the run agree; a fraction above the scan's adaptive
 * cut (90%) keeps every row, as the scan stops testing. Without this the model counted TPC-H Q8's
 * lineitem probe at 6M rows (est. 118 ms on one thread, measured ~50) where the part filter
 * keeps ~40k, and shipped a stage that lost.
 *
 * With W workers, a filter whose build side is divided among them (it lies on the stage's
 * distributed path) keeps on each worker only the rows matching that worker's keys: a probe side
 * off the path, which every worker reads whole, still has its kept rows divided; only the key
 * tests of its scan are repeated (TPC-H Q21's two lineitem sides of the EXISTS joins).
 */
import * as rel from '../relnode/rel.js';
import type { RelNode, Scan } from '../relnode/rel.js';
import { estimateColumn, estimateRows } from './estimate.js';
import { chooseBuildSide, splitJoinCondition } from './join-keys.js';
import { runtimeFilterTargets } from './runtime-filters.js';
import { KEEP_RATIO } from '../exec/runtime-filter.js';


/** A scan that runtime filters reach: its rows before them, and how many key tests each row takes. */
export interface FilteredScan {
  readonly rows: number;
  readonly tests: number;
}

/** The rows of a fragment's nodes after runtime filters. */
export interface FilteredRows {
  /** Estimated output rows of `n` after the filters of the joins above it. */
  readonly rowsOf: (n: RelNode) => number;
  /** The scans the filters reach. */
  readonly scans: ReadonlyMap<Scan, FilteredScan>;
  /** Nodes whose kept rows follow the keys of a build side that `divides` (divided among the workers). */
  readonly dividedByFilter: ReadonlySet<RelNode>;
}

function pathDown(n: RelNode, target: RelNode): RelNode[] | undefined {
  if (n === target) return [n];
  for (const c of rel.inputs(n)) {
    const p = pathDown(c, target);
    if (p !== undefined) return [n, ...p];
  }
  return undefined;
}

/**
 * The rows of `fragment`'s nodes once its joins' runtime filters apply, over the estimates
 * `base`; `divides(side)` says whether a join side's rows are divided among the workers (a build
 * side that does makes the rows its filter keeps divided too).
 */
export function runtimeFilteredRows(fragment: RelNode, base: (n: RelNode) => number = estimateRows, divides: (side: RelNode) => boolean = () => false): FilteredRows {
  const factor = new Map<RelNode, number>();
  const scans = new Map<Scan, FilteredScan>();
  const dividedByFilter = new Set<RelNode>();
  const rowsOf = (n: RelNode): number => {
    const f = factor.get(n);
    return f === undefined ? base(n) : Math.max(1, base(n) * f);
  };
  // Parents first (rel.visit): a build side cut by a join above has its kept rows here, and
  // filters the scans below it by those (TPC-H Q18's second stage: the IN-subquery's ~57 keys cut
  // orders, whose ~100 kept rows then cut lineitem to a few hundred; counted with orders' 1.5M
  // estimated keys, lineitem kept every row and the stage was estimated at 107 ms, not ~30).
  rel.visit(fragment, (n) => {
    if (n.kind !== 'Join' || n.joinType === 'cross') return;
    const { leftKeys, rightKeys } = splitJoinCondition(n.condition, n.left.schema.fields.length);
    if (leftKeys.length === 0) return;
    const side = chooseBuildSide(n);
    const [build, buildKeys, probe] = side === 'left' ? [n.left, leftKeys, n.right] : [n.right, rightKeys, n.left];
    for (const t of runtimeFilterTargets(n, side, leftKeys, rightKeys)) {
      const buildNdv = Math.min(rowsOf(build), estimateColumn(build, buildKeys[t.key]!)?.ndv ?? Infinity);
      const probeNdv = estimateColumn(t.scan, t.column)?.ndv ?? base(t.scan);
      const keep = Math.min(1, buildNdv / Math.max(1, probeNdv));
      if (keep > KEEP_RATIO) continue; // the scan stops testing such a filter (its adaptive cut)
      const prev = scans.get(t.scan);
      scans.set(t.scan, { rows: base(t.scan), tests: (prev?.tests ?? 0) + 1 });
      const path = pathDown(probe, t.scan) ?? [];
      const splits = divides(build) && !divides(probe);
      for (const m of path) {
        factor.set(m, (factor.get(m) ?? 1) * keep);
        if (splits) dividedByFilter.add(m);
      }
    }
  });
  return { rowsOf, scans, dividedByFilter };
}
