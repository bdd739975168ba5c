/**
 * Co-partitioned joins in a worker stage (docs/multi-core.md "Co-partitioned joins").
 *
 * A stage distributes one large scan S over the workers; the other side of each join on the way
 * to S is computed whole by every worker (or first gathered by a stage of its own, then built into
 * a hash table by every worker). When S is clustered by an integer join key (every batch sorted,
 * the batches' key intervals disjoint: TPC-H lineitem by l_orderkey) and the join's other side
 * reads a scan T clustered by the matching key (orders by o_orderkey), worker w reads a
 * contiguous key range of S cut at key changes (ship-sorted.ts) and only the rows of T whose keys
 * fall in that range. A row of S in worker w's range can match only rows of T in the same range,
 * so each worker joins its part of S with its part of T and the union is the whole join: each
 * worker builds its part of the table only, and the gather stage (its round trip, its shared
 * copy, every worker's build of all its rows) is not needed. When a group key of the stage's
 * aggregate is that key too, every group is on one worker and one round computes it.
 *
 * Decision: clustered keys only, no hashing. Hash co-partitioning would make every worker read
 * and hash all of S and T (as a partitioned aggregate does); key ranges read each row once. The
 * clustering test is one pass per table version and column, cached (SharedTables). It holds for
 * inner and cross joins on either side and for left, semi and anti joins whose left side leads
 * to S (right joins: the right side): the rows S keeps or drops depend only on the matching
 * rows of T, all of which are on the same worker. T must be a scan that the other side
 * distributes over (ship-stages.ts), with the key read unchanged, so that the other side over a
 * part of T is the other side's rows with those keys. Anything else keeps the old path (every
 * worker computes the other side whole, or a gather stage).
 *
 * Rows reach a worker in key order, not table order: a DOUBLE sum over a group whose rows span
 * batches stored out of key order may differ from one thread's in the last bits (as any split
 * aggregate's may); the cut depends on the data and W only, so runs are reproducible.
 */
import type { Data } from 'apache-arrow';
import * as rel from '../relnode/rel.js';
import type { RelNode, Scan } from '../relnode/rel.js';
import { equiPairs } from './estimate.js';
import { traceToScan } from './runtime-filters.js';
import { distributingScans } from './ship-stages.js';
import { cutAtKeyChanges, rangesForKeys } from './ship-sorted.js';

/** One join on a stage's path to its scan whose other side can be cut by the same keys. */
export interface CoPartitionPair {
  /** The stage scan's table column (ordinal in the table) of the join key. */
  readonly column: number;
  readonly join: rel.Join;
  /** The scan on the join's other side, and its table column of the matching key. */
  readonly other: { readonly scan: Scan; readonly column: number };
}

/** The co-partitioning a stage uses: S cut by `column`, each of `pairs`' other scans by its key. */
export interface CoPartition {
  readonly column: number;
  readonly pairs: readonly CoPartitionPair[];
}

function tableColumn(scan: Scan, column: number): number {
  return scan.projection ? scan.projection[column]! : column;
}

function occurrences(n: RelNode, target: RelNode): number {
  return (n === target ? 1 : 0) + rel.inputs(n).reduce((a, c) => a + occurrences(c, target), 0);
}

function contains(n: RelNode, target: RelNode): boolean {
  return n === target || rel.inputs(n).some((c) => contains(c, target));
}

/**
 * The joins on the way from `root` (a stage's round-1 plan: an aggregate, filters, projections,
 * joins) down to `scan` whose equi-keys read a column of `scan` unchanged on one side and a column
 * of a scan that the other side distributes over on the other.
 */
export function coPartitionPairs(root: RelNode, scan: Scan): CoPartitionPair[] {
  const out: CoPartitionPair[] = [];
  const walk = (n: RelNode): void => {
    if (n === scan) return;
    if (n.kind === 'Aggregate' || n.kind === 'Filter' || n.kind === 'Project') { walk(n.input); return; }
    if (n.kind !== 'Join') return;
    const onLeft = contains(n.left, scan);
    const [path, other] = onLeft ? [n.left, n.right] : [n.right, n.left];
    const keeps = n.joinType === 'inner' || n.joinType === 'cross' || (onLeft ? ['left', 'semi', 'anti'].includes(n.joinType) : n.joinType === 'right');
    if (keeps && !contains(other, scan)) {
      const candidates = distributingScans(other);
      for (const [l, r] of equiPairs(n.condition, n.left.schema.fields.length).pairs) {
        const s = traceToScan(path, onLeft ? l : r);
        const t = traceToScan(other, onLeft ? r : l);
        if (s === undefined || s.scan !== scan || t === undefined || !candidates.includes(t.scan)) continue;
        // A scan node read twice in the plan would be cut in both places.
        if (occurrences(root, t.scan) !== 1) continue;
        out.push({ column: tableColumn(scan, s.column), join: n, other: { scan: t.scan, column: tableColumn(t.scan, t.column) } });
      }
    }
    walk(path);
  };
  walk(root);
  return out;
}

/**
 * The co-partitioning of a stage over `scan` (round-1 plan `root`), or undefined when no join
 * qualifies: among the pairs whose both columns are sorted (`sorted(scan, tableColumn)`), those of
 * the stage-scan column with the most pairs (one other scan once).
 */
export function chooseCoPartition(root: RelNode, scan: Scan, sorted: (s: Scan, column: number) => boolean): CoPartition | undefined {
  const byColumn = new Map<number, CoPartitionPair[]>();
  for (const p of coPartitionPairs(root, scan)) {
    if (!sorted(scan, p.column) || !sorted(p.other.scan, p.other.column)) continue;
    const list = byColumn.get(p.column) ?? [];
    if (!list.some((q) => q.other.scan === p.other.scan)) list.push(p);
    byColumn.set(p.column, list);
  }
  let best: CoPartition | undefined;
  for (const [column, pairs] of byColumn) if (best === undefined || pairs.length > best.pairs.length) best = { column, pairs };
  return best;
}

/** A clustered column: its data per batch, and the batches in key order. */
export interface Clustered {
  readonly cols: readonly Data[];
  readonly order: readonly number[];
}

/**
 * Whether a group key of the stage's round-1 plan (`keys`: output columns of `root`) reads the
 * co-partitioned column of `scan` unchanged: every group's rows are then on one worker (its key
 * range), and each worker can compute whole groups in one round, as a partitioned stage does —
 * no second round trip through the coordinator (TPC-H Q3's GROUP BY l_orderkey, ...).
 */
export function groupsOnOneWorker(root: RelNode, keys: readonly number[], scan: Scan, co: CoPartition): boolean {
  return keys.some((k) => {
    const t = traceToScan(root, k);
    return t !== undefined && t.scan === scan && tableColumn(scan, t.column) === co.column;
  });
}

/** The key under which a stage task carries the `j`th pair's other scan (StageTask.restricted). */
export function restrictedKey(j: number): string {
  return `co${j}`;
}

/**
 * Per worker, the row ranges of the stage scan (cut at key changes of `co.column`, about equal
 * rows) and of each pair's other scan (the rows whose keys fall in the same worker's key range).
 * `clustered` gives a clustered column's data per batch and its batches in key order (ship-sorted.ts
 * `clusteredOrder`); `rows` the largest piece for a table of n rows.
 */
export function cutCoPartition(co: CoPartition, scan: Scan, workers: number, clustered: (s: Scan, column: number) => Clustered, rows: (n: number) => number): { scan: Int32Array[]; others: Int32Array[][] } {
  const total = (cols: readonly Data[]): number => cols.reduce((a, d) => a + d.length, 0);
  const own = clustered(scan, co.column);
  const cut = cutAtKeyChanges(own.cols, workers, rows(total(own.cols)), own.order);
  const others = co.pairs.map((p) => { const c = clustered(p.other.scan, p.other.column); return rangesForKeys(c.cols, cut.bounds, rows(total(c.cols)), c.order); });
  return { scan: cut.ranges, others: Array.from({ length: workers }, (_, w) => others.map((o) => o[w]!)) };
}
