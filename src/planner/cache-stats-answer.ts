/**
 * Ungrouped min / max / count over a cached entry answered from the entry's
 * per-batch statistics (zone maps, cache/stats.ts) instead of its rows:
 * `b.max('revenue')` on a cached `b` reads no batch at all.
 *
 * Why after optimization, as a plan rewrite to Values: the optimizer has
 * pushed projections and filters into the CacheSource by then, so the shape
 * is plain (`Aggregate ← [Project of columns] ← [Filter] ← CacheSource`), and
 * a Values node lowers, runs on workers and shows in EXPLAIN like any other.
 * The answer is fixed at planning, which is sound because plans over cache
 * entries are planned per run (or reused only while the cache manager's
 * version is unchanged) and the entry read stays among the plan's cache
 * sources: the run path still verifies that every block is present before it
 * runs, so a lost partition is detected, recorded and recomputed as for a read.
 *
 * What is answered: count(*) and count(x) always (rows − NULLs); min/max only
 * when every batch with a non-NULL value of the column has bounds (none for a
 * NaN — eddy orders NaN above every number, and the statistics do not say
 * where the other values lie — nor for DATE/TIMESTAMP, whose statistics are in
 * the batch's physical unit), and only for BOOLEAN, INTEGER, BIGINT, DOUBLE and
 * VARCHAR. A filter is answered when the statistics decide it for every batch:
 * each batch is either skipped (provably no row passes) or provably passes
 * whole; otherwise the query reads the cache as before.
 */
import { inputs, values, withInputs, type Aggregate, type RelNode } from '../relnode/rel.js';
import type { CacheSource } from '../relnode/cache-nodes.js';
import type { LiteralValue, RexNode } from '../relnode/rex.js';
import type { SqlType } from '../relnode/types.js';
import { canSkipBlock, compareStatValues, provablyTrue, type BlockStats, type StatValue } from '../io/prune.js';

/** What answering from statistics asks of the cache: the statistics of an intact entry. */
export interface CacheStatsLookup {
  /** The statistics of every batch of an entry (all partitions), or undefined when it is gone or a block is missing. */
  blockStatsOf?(entryId: string): readonly BlockStats[] | undefined;
}

/** An aggregate answered from statistics, for EXPLAIN. */
export interface StatsAnswer {
  readonly entryId: string;
  /** Batches whose statistics were used (the rest were skipped by the filter). */
  readonly blocks: number;
  readonly skipped: number;
}

/** The plan with every answerable aggregate replaced, and what was answered (keyed by the Values node). */
export interface StatsAnswers {
  readonly plan: RelNode;
  readonly answered: ReadonlyMap<RelNode, StatsAnswer>;
}

const NONE: ReadonlyMap<RelNode, StatsAnswer> = new Map();

/** Replaces ungrouped min/max/count aggregates over cache sources by their answers where the statistics decide them. */
export function answerFromCacheStats(plan: RelNode, lookup: CacheStatsLookup): StatsAnswers {
  if (lookup.blockStatsOf === undefined || !hasCacheSource(plan)) return { plan, answered: NONE };
  const answered = new Map<RelNode, StatsAnswer>();
  const walk = (n: RelNode): RelNode => {
    if (n.kind === 'Aggregate') {
      const a = answer(n, lookup);
      if (a !== undefined) { answered.set(a.node, a.info); return a.node; }
    }
    // Iteration bodies read their cache sources once per round under their own rules: left alone.
    if (n.kind === 'Iterate') return n;
    const ins = inputs(n);
    if (ins.length === 0) return n;
    const next = ins.map(walk);
    return next.every((x, i) => x === ins[i]) ? n : withInputs(n, next);
  };
  const out = walk(plan);
  return answered.size === 0 ? { plan, answered: NONE } : { plan: out, answered };
}

function hasCacheSource(n: RelNode): boolean {
  if (n.kind === 'CacheSource') return true;
  return inputs(n).some(hasCacheSource);
}

const ANSWERABLE_TYPES: ReadonlySet<SqlType> = new Set<SqlType>(['BOOLEAN', 'INTEGER', 'BIGINT', 'DOUBLE', 'VARCHAR']);

/** The Values node answering `agg`, or undefined when its shape or the statistics do not allow it. */
function answer(agg: Aggregate, lookup: CacheStatsLookup): { node: RelNode; info: StatsAnswer } | undefined {
  if (agg.groupKeys.length > 0 || agg.aggCalls.length === 0) return undefined;
  for (const c of agg.aggCalls) {
    if (c.order !== undefined && c.order.length > 0) return undefined;
    if (c.fn === 'count_star') continue;
    if (c.fn === 'count' && !c.distinct && c.args.length === 1) continue;
    if ((c.fn === 'min' || c.fn === 'max') && c.args.length === 1 && ANSWERABLE_TYPES.has(c.type)) continue;
    return undefined;
  }
  // Aggregate ← [Project of column references] ← [Filter] ← CacheSource.
  let below = agg.input;
  let argCols: (i: number) => number = (i) => i;
  if (below.kind === 'Project') {
    const refs: number[] = [];
    for (const e of below.exprs) { if (e.kind !== 'InputRef') return undefined; refs.push(e.index); }
    argCols = (i) => refs[i]!;
    below = below.input;
  }
  let condition: RexNode | undefined;
  if (below.kind === 'Filter') { condition = below.condition; below = below.input; }
  if (below.kind !== 'CacheSource') return undefined;
  const src: CacheSource = below;
  const all = lookup.blockStatsOf!(src.entryId);
  if (all === undefined) return undefined;
  // Arguments and the filter see the source's output columns; the statistics are by entry column.
  const proj = src.projection;
  const entryCol = (c: number): number => (proj === undefined ? c : proj[c]!);
  let used: readonly BlockStats[] = all;
  let skipped = 0;
  if (condition !== undefined) {
    const kept: BlockStats[] = [];
    for (const s of all) {
      const view: BlockStats = proj === undefined ? s : { rows: s.rows, column: (i) => (i < proj.length ? s.column(proj[i]!) : undefined) };
      if (s.rows === 0 || canSkipBlock(view, [condition])) { skipped++; continue; }
      if (!provablyTrue(condition, view)) return undefined;
      kept.push(s);
    }
    used = kept;
  }
  const row: LiteralValue[] = [];
  for (const c of agg.aggCalls) {
    const v = c.fn === 'count_star' ? BigInt(used.reduce((n, s) => n + s.rows, 0)) : aggregateOf(c.fn, entryCol(argCols(c.args[0]!)), used);
    if (v === undefined) return undefined;
    row.push(v);
  }
  return { node: values([row], agg.schema), info: { entryId: src.entryId, blocks: used.length, skipped } };
}

/** count, min or max of one column over the blocks; undefined when the statistics cannot tell. */
function aggregateOf(fn: string, col: number, blocks: readonly BlockStats[]): LiteralValue | undefined {
  if (fn === 'count') {
    let n = 0;
    for (const s of blocks) { const cs = s.column(col); if (cs === undefined) return undefined; n += s.rows - cs.nullCount; }
    return BigInt(n);
  }
  let best: StatValue | undefined;
  for (const s of blocks) {
    const cs = s.column(col);
    if (cs === undefined) return undefined;
    if (cs.nullCount >= s.rows) continue; // no value in this block
    const v = fn === 'min' ? cs.min : cs.max;
    if (v === undefined) return undefined; // a NaN, or a type without bounds
    if (best === undefined) { best = v; continue; }
    const cmp = compareStatValues(v, best);
    if (cmp === undefined) return undefined;
    if (fn === 'min' ? cmp < 0 : cmp > 0) best = v;
  }
  return best ?? null;
}
