/**
 * Which part of a plan runs on worker threads (docs/multi-core.md): an aggregate whose input
 * distributes over the morsels of one large scan, split into a partial aggregate (run by every
 * worker on the morsels it pulls) and a final aggregate over the partial rows.
 *
 * Decision: the split is a plan rewrite, not an operator mode — operators do not change
 * (DESIGN.md "Multi-core"). An input distributes over scan S when the union of its results over
 * disjoint parts of S is its result over S: S itself, filters and projections of it, and joins
 * whose side containing S keeps its rows independently (inner and cross: either side; left,
 * semi and anti: the left side; right: the right side) while the other side is computed whole
 * by each worker. Aggregates split when every call does: count and count(*) sum their partial
 * counts, sum sums, min/max/bool_and/bool_or repeat themselves, and avg becomes a sum and a
 * count divided at the end. A DOUBLE sum (and avg's) travels as two parts that add up to the
 * share's compensated sum exactly, and the final aggregate adds the parts and rounds once
 * (`sum_lo`, `sum_parts`, `avg_parts`: exec/operators/agg-sum-parts.ts), so its bits are one
 * thread's (a rounded partial sum per share differed from parallelism 1 in the last bit on TPC-H
 * Q1, Q6, Q14 and Q17). A BIGINT sum (and avg's) travels as two BIGINT words of the share's exact
 * 128-bit total (`sum_low64`, `sum_high64`), which the final `sum_parts` / `avg_parts` add exactly,
 * checking the BIGINT range once: a share's total past 2^63 does not fail where parallelism 1's
 * whole total fits (exec/operators/agg-int-sum.ts). Aggregates with many groups per input row, or with calls that do
 * not split (DISTINCT, ordered aggregates, medians, ...), shuffle their input rows by the group
 * keys instead; an aggregate without group keys whose calls do not split stays on the calling
 * thread. When such an aggregate reads its scan through filters and projections only, and a group
 * key is a scan column, it is *partitioned* instead of shuffled: every worker reads every morsel
 * and keeps the rows whose key hashes to it, so each aggregates its own groups in one round (a
 * hash per row of the key column instead of moving every input row through the coordinator and
 * a second round: TPC-H Q18's GROUP BY l_orderkey).
 */
import * as rel from '../relnode/rel.js';
import type { AggCall, RelNode, Scan } from '../relnode/rel.js';
import { aggReturnType, type AggFn } from '../relnode/functions.js';
import { inputRef, type RexNode } from '../relnode/rex.js';
import type { SqlType } from '../relnode/types.js';
import { equiPairs } from './estimate.js';
import { dropsUnmatchedProbe, traceToScan } from './runtime-filters.js';

/**
 * An aggregate to run as a stage on the workers. Round 1 runs `partial` on each worker's
 * morsels; round 2 runs `final` over the rows of round 1 (with group keys: worker j over the
 * rows whose keys hash to j). Two modes: 'partial' pre-aggregates in round 1 (few groups per
 * input row); 'shuffle' sends round 1's input rows themselves, and round 2 aggregates them as
 * the original aggregate would (many groups: pre-aggregation would hardly shrink the rows, and
 * the final aggregate would redo the work; also every aggregate function, split or not).
 */
export interface AggregateStage {
  /** The node of the plan that the stage's result replaces: the aggregate, a filter or projection above it, or a gathered join side. */
  readonly node: RelNode;
  /**
   * 'gather': round 1 only, its rows are the result (a join's build side, computed once instead of
   * by every worker). 'partitioned': one round of `final(partial)` in which every worker reads all
   * morsels but only the rows whose `partitionColumn` hashes to it.
   */
  readonly mode: 'partial' | 'shuffle' | 'gather' | 'partitioned';
  /** 'partitioned': the scanned table's column (ordinal in the table) whose hash picks a row's worker. */
  readonly partitionColumn?: number;
  /** The scan whose morsels the workers share. */
  readonly scan: Scan;
  /** What each worker runs on its morsels. */
  readonly partial: RelNode;
  /** The columns of `partial`'s output that round 2 partitions by (the group keys). */
  readonly keys: readonly number[];
  /** Round 2 over round 1's rows: the node's schema. */
  readonly final: (partialRows: RelNode) => RelNode;
  /**
   * 'gather': the aggregate whose stage reads the gathered side, and that stage's scan (ship-run.ts
   * skips the gather when that stage can co-partition the join instead: ship-copartition.ts).
   */
  readonly feeds?: { readonly aggregate: rel.Aggregate; readonly scan: Scan; readonly join: rel.Join };
}

/** A join side is gathered only when estimated at most this fraction of its largest scan's rows. */
export const GATHER_MAX_FRACTION = 0.25;

/**
 * Above this estimated ratio of groups to input rows, an aggregate with group keys does not
 * pre-aggregate: it partitions (or shuffles) its input by the keys and aggregates each group once.
 * A new group costs ~10× a row added to an existing one, and pre-aggregation makes every group
 * twice (per worker in round 1, again in round 2), while partitioning costs about a hash per row.
 * Measured on TPC-H Q18 (GROUP BY l_orderkey, ratio 0.26, SF 1, per worker CPU): pre-aggregating
 * 790 + 600 ms, shuffling 310 + 700 ms, partitioning ~750 ms in one round.
 */
export const SHUFFLE_GROUP_RATIO = 0.1;

/** The scans the input distributes over (see the header), outermost candidates last. */
export function distributingScans(n: RelNode): Scan[] {
  switch (n.kind) {
    case 'Scan': return [n];
    case 'Filter': case 'Project': return distributingScans(n.input);
    case 'Join': {
      const notIn = (side: RelNode) => (s: Scan) => !contains(side, s);
      const left = distributingScans(n.left).filter(notIn(n.right));
      const right = distributingScans(n.right).filter(notIn(n.left));
      switch (n.joinType) {
        case 'inner': case 'cross': return [...left, ...right];
        case 'left': case 'semi': case 'anti': return left;
        case 'right': return right;
        default: return [];
      }
    }
    default: return [];
  }
}

function contains(n: RelNode, target: RelNode): boolean {
  if (n === target) return true;
  return rel.inputs(n).some((c) => contains(c, target));
}

interface SplitCall {
  readonly partial: readonly AggCall[];
  /** The final value over the final aggregate's output, given the ordinal of the first final column for this call. */
  readonly finalCalls: (firstPartial: number) => readonly AggCall[];
  readonly value: (firstFinal: number, types: (i: number) => SqlType) => RexNode;
}

function aggCall(fn: AggFn, args: readonly number[], type: SqlType, name: string): AggCall {
  return { fn, args, distinct: false, type, name };
}

function typeOf(fn: AggFn, arg: SqlType | undefined): SqlType | undefined {
  const t = aggReturnType(fn, arg);
  return typeof t === 'string' ? t : undefined;
}

/** How one call splits, or undefined when it does not. */
function splitCall(c: AggCall, input: RelNode, j: number): SplitCall | undefined {
  if (c.distinct || (c.order !== undefined && c.order.length > 0)) return undefined;
  const argType = c.args.length > 0 ? input.schema.fields[c.args[0]!]!.type : undefined;
  const same = (fn: AggFn): SplitCall | undefined => {
    const t = typeOf(fn, c.type);
    if (t !== c.type) return undefined;
    return {
      partial: [c],
      finalCalls: (p) => [aggCall(fn, [p], c.type, c.name)],
      value: (f, types) => inputRef(f, types(f)),
    };
  };
  switch (c.fn) {
    case 'count': case 'count_star': return { ...same('sum')!, partial: [{ ...c, name: `__p${j}` }] };
    case 'sum':
      // BIGINT: a share's exact total as two BIGINT words of a 128-bit integer, added exactly and
      // checked once by the final sum_parts (a share's total may pass 2^63 where the whole does not;
      // exec/operators/agg-int-sum.ts). INTEGER: a share's sum cannot pass 2^63 below 2^32 rows, and
      // the final sum adds the shares' sums exactly.
      if (c.type === 'BIGINT' && argType === 'BIGINT') {
        return {
          partial: [aggCall('sum_low64', c.args, 'BIGINT', c.name), aggCall('sum_high64', c.args, 'BIGINT', `__p${j}h`)],
          finalCalls: (p) => [aggCall('sum_parts', [p, p + 1], 'BIGINT', c.name)],
          value: (f, types) => inputRef(f, types(f)),
        };
      }
      if (c.type !== 'DOUBLE') return same('sum');
      return {
        partial: [c, aggCall('sum_lo', c.args, 'DOUBLE', `__p${j}l`)],
        finalCalls: (p) => [aggCall('sum_parts', [p, p + 1], 'DOUBLE', c.name)],
        value: (f, types) => inputRef(f, types(f)),
      };
    case 'min': case 'max': case 'bool_and': case 'bool_or': case 'any_value': return same(c.fn);
    case 'avg': {
      const sumType = typeOf('sum', argType);
      if (sumType === undefined || c.type !== 'DOUBLE') return undefined;
      if (sumType === 'DOUBLE') {
        return {
          partial: [aggCall('sum', c.args, 'DOUBLE', `__p${j}s`), aggCall('sum_lo', c.args, 'DOUBLE', `__p${j}l`), aggCall('count', c.args, 'BIGINT', `__p${j}c`)],
          finalCalls: (p) => [aggCall('avg_parts', [p, p + 1, p + 2], 'DOUBLE', c.name)],
          value: (f, types) => inputRef(f, types(f)),
        };
      }
      // BIGINT: the shares' exact totals as 128-bit words (as sum's above) and counts; INTEGER: the
      // shares' exact BIGINT sums (a share's sum cannot pass 2^63 below 2^32 rows) and counts. Both
      // divided once as AvgIntState divides (exec/operators/agg-int-sum.ts).
      if (argType === 'BIGINT') {
        return {
          partial: [aggCall('sum_low64', c.args, 'BIGINT', `__p${j}s`), aggCall('sum_high64', c.args, 'BIGINT', `__p${j}h`), aggCall('count', c.args, 'BIGINT', `__p${j}c`)],
          finalCalls: (p) => [aggCall('avg_parts', [p, p + 1, p + 2], 'DOUBLE', c.name)],
          value: (f, types) => inputRef(f, types(f)),
        };
      }
      return {
        partial: [aggCall('sum', c.args, sumType, `__p${j}s`), aggCall('count', c.args, 'BIGINT', `__p${j}c`)],
        finalCalls: (p) => [aggCall('avg_parts', [p, p + 1], 'DOUBLE', c.name)],
        value: (f, types) => inputRef(f, types(f)),
      };
    }
    default: return undefined;
  }
}

/** The shuffle stage of a keyed aggregate: round 1 computes its input, round 2 the aggregate itself. */
export function shuffleAggregate(node: rel.Aggregate, scan: Scan): AggregateStage {
  return { node, mode: 'shuffle', scan, partial: node.input, keys: node.groupKeys, final: (rows) => rel.withInputs(node, [rows]) };
}

/**
 * The partitioned stage of a keyed aggregate that reads `scan` through filters and projections
 * only, with a group key that is a column of the scan (unchanged): the shuffle stage's plan, run in
 * one round over rows picked by that column's hash. Undefined when the input is anything else (a
 * join side would be recomputed by every worker for all of the scan's rows).
 */
export function partitionedAggregate(node: rel.Aggregate, scan: Scan): AggregateStage | undefined {
  let n: RelNode = node.input;
  while (n.kind === 'Filter' || n.kind === 'Project') n = n.input;
  if (n !== scan) return undefined;
  for (const k of node.groupKeys) {
    const t = traceToScan(node.input, k);
    if (t === undefined || t.scan !== scan) continue;
    const column = scan.projection ? scan.projection[t.column]! : t.column;
    return { ...shuffleAggregate(node, scan), mode: 'partitioned', partitionColumn: column };
  }
  return undefined;
}

/** Splits `node` into partial and final aggregates over `scan`, or undefined when a call does not split. */
export function splitAggregate(node: rel.Aggregate, scan: Scan): AggregateStage | undefined {
  const splits: SplitCall[] = [];
  for (const [j, c] of node.aggCalls.entries()) {
    const s = splitCall(c, node.input, j);
    if (s === undefined) return undefined;
    // The partial and final calls raise about the call they compute (the final sum_parts finds a BIGINT overflow).
    splits.push({ ...s, partial: rel.withCallSpan(s.partial, c.at), finalCalls: (p) => rel.withCallSpan(s.finalCalls(p), c.at) });
  }
  const partial = rel.aggregate(node.input, node.groupKeys, splits.flatMap((s) => s.partial));
  const k = node.groupKeys.length;
  const final = (rows: RelNode): RelNode => {
    const finalCalls: AggCall[] = [];
    const firsts: number[] = [];
    let p = k;
    for (const s of splits) {
      firsts.push(k + finalCalls.length);
      finalCalls.push(...s.finalCalls(p));
      p += s.partial.length;
    }
    const agg = rel.aggregate(rows, node.groupKeys.map((_, i) => i), finalCalls);
    const types = (i: number): SqlType => agg.schema.fields[i]!.type;
    const exprs: RexNode[] = [...node.groupKeys.map((_, i) => inputRef(i, types(i))), ...splits.map((s, j) => s.value(firsts[j]!, types))];
    return rel.project(agg, exprs, node.schema.fields.map((f) => f.name));
  };
  return { node, mode: 'partial', scan, partial, keys: node.groupKeys.map((_, i) => i), final };
}

/**
 * The lowest aggregate of the plan (no candidate below it) that runs as a worker stage: its
 * input distributes over a scan for which `large` holds (the largest such scan is chosen) and
 * its calls split. `skip` names aggregates already found not shippable.
 */
export function findAggregateStage(plan: RelNode, large: (s: Scan) => number | undefined, skip: ReadonlySet<RelNode> = new Set(), groupRatio: (a: rel.Aggregate) => number = () => 0, rowsOf: (n: RelNode) => number = () => 0): AggregateStage | undefined {
  for (const c of rel.inputs(plan)) {
    const below = findAggregateStage(c, large, skip, groupRatio, rowsOf);
    if (below !== undefined) return below;
  }
  if (plan.kind !== 'Aggregate' || skip.has(plan)) return undefined;
  let best: { scan: Scan; rows: number } | undefined;
  for (const s of distributingScans(plan.input)) {
    const rows = large(s);
    if (rows !== undefined && (best === undefined || rows > best.rows)) best = { scan: s, rows };
  }
  if (best === undefined) return undefined;
  const gather = gatherStage(plan, plan.input, best.scan, large, skip, rowsOf);
  if (gather !== undefined) return gather;
  const keyed = plan.groupKeys.length > 0;
  const split = keyed && groupRatio(plan) > SHUFFLE_GROUP_RATIO ? undefined : splitAggregate(plan, best.scan);
  if (split !== undefined || !keyed) return split;
  return partitionedAggregate(plan, best.scan) ?? shuffleAggregate(plan, best.scan);
}

/**
 * A join side that every worker of a stage over `scan` would compute whole, when it distributes
 * over a large scan of its own: it runs first as a gather stage, and the workers then read its
 * rows instead of each recomputing it (TPC-H Q3's customer ⋈ orders build side).
 */
function gatherStage(aggregate: rel.Aggregate, n: RelNode, scan: Scan, large: (s: Scan) => number | undefined, skip: ReadonlySet<RelNode>, rowsOf: (n: RelNode) => number): AggregateStage | undefined {
  if (n.kind === 'Filter' || n.kind === 'Project') return gatherStage(aggregate, n.input, scan, large, skip, rowsOf);
  if (n.kind !== 'Join') return undefined;
  const [path, whole] = contains(n.left, scan) ? [n.left, n.right] : [n.right, n.left];
  const below = gatherStage(aggregate, path, scan, large, skip, rowsOf);
  if (below !== undefined || skip.has(whole)) return below;
  let best: { scan: Scan; rows: number } | undefined;
  for (const s of distributingScans(whole)) {
    const rows = large(s);
    if (rows !== undefined && (best === undefined || rows > best.rows)) best = { scan: s, rows };
  }
  // Only a side that its own filters shrink well: one that the plan above filters (a runtime
  // filter from a semi join, TPC-H Q18) is cheap in every worker and large when gathered alone.
  if (best === undefined || rowsOf(whole) > GATHER_MAX_FRACTION * best.rows) return undefined;
  return { node: whole, mode: 'gather', scan: best.scan, partial: whole, keys: [], final: (rows) => rows, feeds: { aggregate, scan, join: n } };
}

/**
 * The stage extended over the filters and projections directly above its aggregate (a HAVING,
 * the SELECT list): round 2 computes them too, so only their rows come back (TPC-H Q18's
 * subquery returns its few orders, not 1.5M groups).
 */
export function extendUpward(plan: RelNode, st: AggregateStage): AggregateStage {
  if (st.mode === 'gather') return st;
  const path = pathTo(plan, st.node);
  if (path === undefined) return st;
  const chain: RelNode[] = [];
  for (let i = path.length - 2; i >= 0 && (path[i]!.kind === 'Filter' || path[i]!.kind === 'Project'); i--) chain.push(path[i]!);
  if (chain.length === 0) return st;
  const final = (rows: RelNode): RelNode => chain.reduce((cur, n) => rel.withInputs(n, [cur]), st.final(rows));
  return { ...st, node: chain[chain.length - 1]!, final };
}

/**
 * The stage with the top-k directly above its node (a Sort with a fetch: ORDER BY … LIMIT k) also
 * applied to each worker's final rows, `fetch + offset` rows each: the calling thread then decodes
 * and sorts W·k rows instead of every group (TPC-H Q3: ~11k groups for 10 rows, Q10: ~37k for 20).
 * Each worker's final rows are whole rows of the node (whole groups), so the top k of their union
 * is among the workers' top k; the Sort above still runs over them. Only for a node read once.
 */
export function topKFromAbove(plan: RelNode, st: AggregateStage): AggregateStage {
  if (st.mode === 'gather' || occurrences(plan, st.node) !== 1) return st;
  const path = pathTo(plan, st.node);
  const parent = path !== undefined && path.length >= 2 ? path[path.length - 2]! : undefined;
  if (parent?.kind !== 'Sort' || parent.fetch === undefined) return st;
  const k = parent.fetch + (parent.offset ?? 0);
  return { ...st, final: (rows) => rel.sort(st.final(rows), parent.keys, k) };
}

function occurrences(n: RelNode, target: RelNode): number {
  return (n === target ? 1 : 0) + rel.inputs(n).reduce((a, c) => a + occurrences(c, target), 0);
}

/** The nodes from `plan` down to `target` (both included), or undefined when it is not in the plan. */
function pathTo(plan: RelNode, target: RelNode): RelNode[] | undefined {
  if (plan === target) return [plan];
  for (const c of rel.inputs(plan)) {
    const p = pathTo(c, target);
    if (p !== undefined) return [plan, ...p];
  }
  return undefined;
}

/**
 * Whether a join above `node` would give `scan` a runtime filter: it drops `node`'s rows without a
 * match, one of its equi-keys on `node`'s side reads `scan`'s column unchanged, and its other side
 * is estimated smaller (so lowering builds on it). Such a scan is cut down to the few keys the
 * join can match (TPC-H Q17, Q20, Q2: a selective part filter above an aggregate over lineitem);
 * a stage below the join would not see that filter and aggregate the whole scan instead — 2–6×
 * slower than one thread. Such an aggregate stays in the plan the calling thread runs.
 */
export function runtimeFilteredFromAbove(plan: RelNode, node: RelNode, scan: Scan, rowsOf: (n: RelNode) => number): boolean {
  if (plan === node) return false;
  if (plan.kind === 'Join') {
    const onLeft = contains(plan.left, node);
    const onRight = !onLeft && contains(plan.right, node);
    if (onLeft || onRight) {
      const [mine, other] = onLeft ? [plan.left, plan.right] : [plan.right, plan.left];
      if (dropsUnmatchedProbe(plan.joinType, onLeft ? 'left' : 'right') && rowsOf(other) < rowsOf(mine)) {
        const { pairs } = equiPairs(plan.condition, plan.left.schema.fields.length);
        if (pairs.some(([l, r]) => traceToScan(mine, onLeft ? l : r)?.scan === scan)) return true;
      }
    }
  }
  return rel.inputs(plan).some((c) => runtimeFilteredFromAbove(c, node, scan, rowsOf));
}
