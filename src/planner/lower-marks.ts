/**
 * Per-lowering marks a parent leaves for the child it lowers (split from lower.ts): which of the
 * child's columns the parent reads (late materialization) and whether only a single-instance
 * grouped aggregate reads it (dictionary-coded join output). Marks are set just before the child
 * is lowered and consumed by it, so they never outlive one lowering.
 */
import type { JobGraphBuilder } from '../exec/job.js';
import type { Join, RelNode } from '../relnode/rel.js';
import { rexInputs, type RexNode } from '../relnode/rex.js';

/**
 * Which output columns of a node its parent reads (late materialization): set by the parent for the
 * moment its child is lowered, and read by Filter and Join lowering, whose operators then skip the
 * other columns (all-NULL placeholders). Only parents that know all their reads set it (Project,
 * Aggregate, Filter, hash Join); any other parent — a cache sink, a sort, the query's output —
 * leaves it absent, and every column is produced. Not used inside iteration bodies.
 */
const usedOf = new WeakMap<RelNode, ReadonlySet<number>>();

/** Sets (or, with undefined, clears) the columns of `n` its parent reads, while `n` is lowered. */
export function setUsed(n: RelNode, used: ReadonlySet<number> | undefined): void {
  if (used === undefined) usedOf.delete(n);
  else usedOf.set(n, used);
}

/** The columns of `n` its parent reads, left in place (shared-subplan keys). */
export function peekUsed(n: RelNode): ReadonlySet<number> | undefined {
  return usedOf.get(n);
}

/**
 * Nodes whose output only one single-instance grouped aggregate reads, through Projects, Filters and
 * the probe sides of hash joins (set by the aggregate, passed down by those; `passAggregatedToProbe`
 * says which joins pass it): a hash join among them emits its build side's
 * strings as dictionary codes whatever the build side's size (join-output.ts "Dictionary gather").
 * No exchange, cache sink, sort or result sees those batches — consumers that would redo work per
 * dictionary per batch. Not set inside iteration bodies or in plans with shared subplans (a shared
 * vertex has other readers). Marks belong to one lowering (per builder): a mark no Join consumed
 * (it reached a Scan, a Sort, ...) dies with it, and never reaches a later plan that reuses the node.
 */
const aggregatedOf = new WeakMap<JobGraphBuilder, Set<RelNode>>();

export function markAggregated(b: JobGraphBuilder, n: RelNode): void {
  let marks = aggregatedOf.get(b);
  if (marks === undefined) { marks = new Set(); aggregatedOf.set(b, marks); }
  marks.add(n);
}

/** Whether `n` carries the mark in this lowering (consumed: read once). */
export function takeAggregated(b: JobGraphBuilder, n: RelNode): boolean {
  return aggregatedOf.get(b)?.delete(n) ?? false;
}

/** Passes a parent's aggregated mark to the child it is lowered from. */
export function passAggregated(b: JobGraphBuilder, parent: RelNode, child: RelNode): void {
  if (takeAggregated(b, parent)) markAggregated(b, child);
}

/** Whether marks pass to a join's probe side (mutable for benchmarks: bench/probe-dictionary.ts turns it off for the A/B). */
export const probeMarkTuning = { enabled: true };

/**
 * Passes a marked hash join's mark on to its probe side, whose rows the join emits in place (their
 * columns gathered with their encoding kept, batch.ts takeData): a join below it then emits its
 * build strings as dictionary codes too, and this join gathers codes instead of bytes (TPC-H Q16:
 * partsupp ⋈ part feeds the NOT IN anti join, then the aggregate; 118K rows of p_brand and p_type
 * were copied twice). Not when the join reads a probe-side VARCHAR itself (a key or the residual:
 * a per-batch dictionary there is hashed or tested per batch), not for outer joins (their NULL
 * padding of probe columns), and not for a semi/anti join that emits its build side.
 */
export function passAggregatedToProbe(b: JobGraphBuilder, n: Join, buildSide: 'left' | 'right', probeKeys: readonly number[], residual: readonly RexNode[]): void {
  const jt = n.joinType;
  if (!probeMarkTuning.enabled) return;
  if (jt !== 'inner' && !((jt === 'semi' || jt === 'anti') && buildSide === 'right')) return;
  const probe = buildSide === 'right' ? n.left : n.right;
  const lw = n.left.schema.fields.length;
  const probeCol = (c: number): number => (buildSide === 'right' ? c : c - lw);
  const reads = [...probeKeys, ...residual.flatMap((r) => [...rexInputs(r)].map(probeCol))];
  if (reads.some((c) => probe.schema.fields[c]?.type === 'VARCHAR')) return;
  markAggregated(b, probe);
}

/** The columns of `n` its parent reads (consumed: read once by the node's own lowering). */
export function takeUsed(n: RelNode): ReadonlySet<number> | undefined {
  const u = usedOf.get(n);
  usedOf.delete(n);
  return u;
}
