/**
 * Lowering: RelNode → exec job graph, one small function per node kind.
 * Expressions are compiled here, once per query.
 *
 * Late materialization (kernels/fused-stage.ts): a Filter is fused into what
 * consumes it, so its selection vector is read in place instead of every
 * column being copied — `Aggregate ← [Project ←] Filter` becomes one
 * HashAggregate vertex when the aggregate's input edge would be forward
 * (parallelism 1), and `Project ← Filter` one FilterProject vertex otherwise.
 * When the expressions qualify, the aggregate's filter, projection and sums
 * also compile into one loop (operators/agg-fused-pass.ts; EXPLAIN: `one pass`).
 * A selection never crosses an edge, so every other operator (and every cache
 * sink) still sees materialized batches. Iteration bodies are not fused
 * (their nodes lower one by one through lower-iterate.ts).
 */
import { InternalError } from '../relnode/errors.js';
import type * as rel from '../relnode/rel.js';
import type { JoinType, RelNode } from '../relnode/rel.js';
import { assertNever, andAll, rexInputs, type RexNode } from '../relnode/rex.js';
import { rangeJoinConfig } from './range-join-keys.js';
import { formatRex } from '../relnode/explain.js';
import { columnLabel } from '../relnode/display.js';
import { compilePredicate } from '../exec/kernels/index.js';
import { JobGraphBuilder, type JobGraph } from '../exec/job.js';
import type { OperatorFactory, SourceFactory } from '../exec/operator.js';
import { compileStage } from '../exec/kernels/fused-stage.js';
import { transientArgs } from '../exec/operators/agg-fused.js';
import { compileFusedPass, type FusedPass } from '../exec/operators/agg-fused-pass.js';
import { aggregateReads, exprInputs, fusableInput, range, union, unusedDetail, usedMask } from './lower-columns.js';
import { markAggregated, passAggregated, passAggregatedToProbe, peekUsed, setUsed, takeAggregated, takeUsed } from './lower-marks.js';
import { addFilter, addFilterProject, addProject, projectDetail } from './lower-vertices.js';
import { limitOperator } from '../exec/operators/limit.js';
import { groupLimitOperator } from '../exec/operators/group-limit.js';
import { unionOperator } from '../exec/operators/union.js';
import { valuesSource } from '../exec/operators/values.js';
import { hashAggregate } from '../exec/operators/hash-aggregate.js';
import { hashJoin } from '../exec/operators/hash-join.js';
import { nestedLoopJoin } from '../exec/operators/nested-loop-join.js';
import { sort } from '../exec/operators/sort.js';
import { distinct } from '../exec/operators/distinct.js';
import { setOp } from '../exec/operators/set-op.js';
import { windowOperator } from '../exec/operators/window.js';
import type { TableSource } from '../io/source.js';
import type { SpillArea } from '../cache/spill.js';
import { tableScanSource } from './scan-source.js';
import { estimateRows } from './estimate.js';
import { addNullAwareJoin, joinShape } from './lower-not-in.js';
import { chooseBuildSide, splitJoinCondition } from './join-keys.js';
import { runtimeFilteredSource } from '../exec/runtime-filter.js';
import { scanPrefilter } from './runtime-filters.js';
import { planRuntimeFilter, runtimeFiltersOf } from './lower-runtime-filters.js';
import { attachIterationStats, registerIterationStats, lowerIterate, DEFAULT_MAX_ITERATION_ROUNDS, type BodyBindings } from './lower-iterate.js';
import { SharedSubplans } from './lower-shared.js';
import { compileHaving, fusesInto, isHaving, type HavingFilter } from './lower-having.js';
import type { IterationStatsSink } from '../iteration/table/state.js';

/** How cache nodes lower; provided by whoever owns the cache manager (absent: cache nodes cannot be lowered). */
export interface CacheBindings {
  /** The source of a CacheSource: a factory and the entry's number of partitions. */
  source(node: rel.CacheSource): { readonly factory: SourceFactory; readonly partitions: number };
  /** The operator factory of a CacheSink (one instance per partition). */
  sink(node: rel.CacheSink): OperatorFactory;
}

/**
 * How a TableFunction node runs (its opaque `impl`): adds its vertices to the job graph,
 * reading the already-lowered input vertices, and returns the vertex of its output.
 */
export interface TableFunctionImpl {
  /**
   * Adds the function's vertices to `b` and returns its output vertex; an iterative function tells
   * `onStats` its exit vertex and the statistics its runs fill (rounds and round times in EXPLAIN ANALYZE).
   */
  lower(b: JobGraphBuilder, inputs: readonly number[], parallelism: number, node: rel.TableFunction, onStats?: IterationStatsSink): number;
}

/** Options for lowering. */
export interface LowerOptions {
  /** Parallelism of parallel vertices (scans, filters, hash exchanges). */
  readonly parallelism: number;
  /** Lowering of CacheSource / CacheSink nodes. */
  readonly cache?: CacheBindings;
  /** Told which plan node each returned vertex computes (EXPLAIN annotates vertices with the node's estimate). */
  readonly onVertex?: (vertex: number, node: RelNode) => void;
  /** Hash joins pass runtime filters of their build keys to probe-side scans (default true; planner/runtime-filters.ts). */
  readonly runtimeFilters?: boolean;
  /** The round cap of iterations without maxRounds (default 10,000; lower-iterate.ts). */
  readonly maxIterationRounds?: number;
  /** Where iterations' replayed data may spill (the cache's spill area); without it replays stay in memory. */
  readonly iterationSpill?: SpillArea;
  /**
   * The fraction of each keyed aggregate's groups this job computes (default 1): a worker of a stage
   * whose groups are split between the workers (ship-run.ts) sizes its group tables for its share,
   * not for every group its table statistics count. A sizing hint only.
   */
  readonly groupsShare?: number;
}

/** Cache bindings of the builder being lowered (kept off the recursive signatures). */
const cacheOf = new WeakMap<JobGraphBuilder, CacheBindings>();
/** The vertex listener of the builder being lowered. */
const vertexListenerOf = new WeakMap<JobGraphBuilder, (vertex: number, node: RelNode) => void>();
/** The round cap and replay spill area of the builder being lowered. */
const roundCapOf = new WeakMap<JobGraphBuilder, number>();
const spillOf = new WeakMap<JobGraphBuilder, SpillArea>();
/** The groups share of the builder being lowered (LowerOptions.groupsShare). */
const groupsShareOf = new WeakMap<JobGraphBuilder, number>();
/** The body of the iteration being lowered: how its leaves, static subtrees and joins lower (lower-iterate.ts). */
const bodyOf = new WeakMap<JobGraphBuilder, BodyBindings>();
/** Repeated subtrees of the plan being lowered, lowered once (lower-shared.ts). */
const sharedOf = new WeakMap<JobGraphBuilder, SharedSubplans>();

/** Lowers an optimized plan to a job graph. */
export function lower(plan: RelNode, options: LowerOptions): JobGraph {
  const b = new JobGraphBuilder();
  if (options.cache) cacheOf.set(b, options.cache);
  if (options.onVertex) vertexListenerOf.set(b, options.onVertex);
  if (options.runtimeFilters !== false) runtimeFiltersOf.set(b, { pending: new Map(), next: 1 });
  roundCapOf.set(b, options.maxIterationRounds ?? DEFAULT_MAX_ITERATION_ROUNDS);
  if (options.iterationSpill !== undefined) spillOf.set(b, options.iterationSpill);
  if (options.groupsShare !== undefined) groupsShareOf.set(b, options.groupsShare);
  const shared = SharedSubplans.of(plan);
  if (shared !== undefined) sharedOf.set(b, shared);
  const p = Math.max(1, Math.floor(options.parallelism));
  const out = lowerNode(plan, b, p);
  const graph = b.build(out);
  attachIterationStats(b, graph);
  return graph;
}

function schemaText(n: RelNode): string {
  return n.schema.fields.map((f) => f.name).join(', ');
}

function lowerNode(n: RelNode, b: JobGraphBuilder, p: number): number {
  const body = bodyOf.get(b);
  const shared = body === undefined ? sharedOf.get(b) : undefined;
  const pending = runtimeFiltersOf.get(b)?.pending;
  const key = shared?.key(n, peekUsed(n), (s) => pending?.has(s as rel.Scan) === true);
  const hit = key === undefined ? undefined : shared!.find(key, n);
  if (hit !== undefined) return hit;
  const v = body === undefined ? lowerKind(n, b, p) : body.lower(n, () => lowerKind(n, b, p));
  if (key !== undefined) shared!.add(key, n, v);
  vertexListenerOf.get(b)?.(v, n);
  return v;
}

function lowerKind(n: RelNode, b: JobGraphBuilder, p: number): number {
  switch (n.kind) {
    case 'Scan': {
      const source = n.table.handle as TableSource;
      const par = Math.max(1, Math.min(p, source.partitions));
      const detail = (): string => `${n.table.name}${n.projection ? `: ${schemaText(n)}` : ''}${n.pushedFilters ? `, filters=${n.pushedFilters.map((f) => formatRex(f, n.table.schema)).join(' AND ')}` : ''}`;
      const scan = tableScanSource(source, n.projection, n.pushedFilters);
      const uses = runtimeFiltersOf.get(b)?.pending.get(n);
      if (uses === undefined) return b.addSource('Scan', par, n.schema, scan, detail);
      const rf = uses.map((u) => `rf${u.slot.id}(${n.schema.fields[u.column]!.name})`).join(', ');
      return b.addSource('Scan', par, n.schema, runtimeFilteredSource(scan, uses, scanPrefilter(n)), () => `${detail()}, runtime_filters=[${rf}]`);
    }
    case 'Values':
      return b.addSource('Values', 1, n.schema, valuesSource(n.rows, n.schema), `${n.rows.length} rows`);
    case 'Filter': {
      if (isHaving(n) && fusesHaving(n, b)) return lowerAggregate(n.input, b, p, n);
      const used = takeUsed(n);
      passAggregated(b, n, n.input);
      return addFilter(n, lowerUsing(n.input, used && union(used, rexInputs(n.condition)), b, p), b, used);
    }
    case 'Project': {
      const used = exprInputs(n.exprs);
      if (isHaving(n.input) && fusesHaving(n.input, b)) return addProject(n, lowerAggregate(n.input.input, b, p, n.input), b);
      passAggregated(b, n, n.input.kind === 'Filter' && !bodyOf.has(b) ? n.input.input : n.input);
      if (n.input.kind === 'Filter' && !bodyOf.has(b)) return addFilterProject(n, n.input, lowerUsing(n.input.input, union(used, rexInputs(n.input.condition)), b, p), b);
      return addProject(n, lowerUsing(n.input, used, b, p), b);
    }
    case 'Aggregate': return lowerAggregate(n, b, p);
    case 'Join': return lowerJoin(n, b, p);
    case 'Sort': {
      const input = lowerNode(n.input, b, p);
      const detail = (): string => explainDetail(n);
      return b.addOperator(n.fetch !== undefined ? 'TopK' : 'Sort', 1, n.schema, () => sort({ keys: [...n.keys], ...(n.fetch !== undefined ? { fetch: n.fetch } : {}), ...(n.offset ? { offset: n.offset } : {}) }), [{ from: input, partitioner: { kind: 'global' } }], detail);
    }
    case 'Limit': {
      const input = lowerNode(n.input, b, p);
      return b.addOperator('Limit', 1, n.schema, () => limitOperator(n.fetch, n.offset), [{ from: input, partitioner: { kind: 'global' } }], `fetch=${n.fetch}${n.offset ? `, offset=${n.offset}` : ''}`);
    }
    case 'GroupLimit': {
      const input = lowerNode(n.input, b, p);
      return b.addOperator('GroupLimit', 1, n.schema, () => groupLimitOperator(n.keys, n.fetch, n.offset), [{ from: input, partitioner: { kind: 'global' } }], `keys=${n.keys.map((k) => n.schema.fields[k]!.name).join(', ')}, fetch=${n.fetch}${n.offset ? `, offset=${n.offset}` : ''}`);
    }
    case 'Union': {
      const ins = n.inputs.map((i) => lowerNode(i, b, p));
      const u = b.addOperator('Union', p, n.schema, () => unionOperator(), ins.map((from) => ({ from, partitioner: b.parallelismOf(from) === p ? { kind: 'forward' as const } : { kind: 'rebalance' as const } })));
      if (n.all) return u;
      return addDistinct(b, u, n, p);
    }
    case 'Distinct': return addDistinct(b, lowerNode(n.input, b, p), n, p);
    case 'SetOp': {
      const l = lowerNode(n.left, b, p);
      const r = lowerNode(n.right, b, p);
      const keys = n.schema.fields.map((_, i) => i);
      const part = p === 1 && b.parallelismOf(l) === 1 ? { kind: 'forward' as const } : { kind: 'hash' as const, keys };
      const partR = p === 1 && b.parallelismOf(r) === 1 ? { kind: 'forward' as const } : { kind: 'hash' as const, keys };
      return b.addOperator(n.op === 'intersect' ? 'Intersect' : 'Except', p, n.schema, () => setOp({ op: n.op, all: n.all }), [{ from: l, partitioner: part }, { from: r, partitioner: partR }], n.all ? 'ALL' : undefined);
    }
    case 'Window': {
      // One partition never spans two subtasks: hash on the partition keys, or one subtask without them.
      const input = lowerNode(n.input, b, p);
      const keyed = n.partitionKeys.length > 0;
      const par = keyed ? p : 1;
      const part = keyed ? (par === 1 && b.parallelismOf(input) === 1 ? { kind: 'forward' as const } : { kind: 'hash' as const, keys: n.partitionKeys }) : { kind: 'global' as const };
      const config = { partitionKeys: n.partitionKeys, orderKeys: n.orderKeys, calls: n.calls, inputTypes: n.input.schema.fields.map((f) => f.type) };
      const detail = (): string => `partition=[${n.partitionKeys.map((k) => columnLabel(k, n.input.schema)).join(', ')}], order=[${n.orderKeys.map((k) => `${columnLabel(k.index, n.input.schema)}${k.desc ? ' DESC' : ''}`).join(', ')}], calls=[${n.calls.map((c) => c.name).join(', ')}]`;
      return b.addOperator('Window', par, n.schema, () => windowOperator(config), [{ from: input, partitioner: part }], detail);
    }
    case 'CacheSource': case 'CacheSink': return lowerCache(n, b, p);
    case 'Correlate': throw new InternalError(`a correlated subquery (Correlate, type ${n.joinType}) survived optimization; the decorrelation rules must remove every one`);
    case 'Iterate': {
      if (bodyOf.has(b)) throw new InternalError('an iteration inside the body of another iteration cannot be lowered');
      return lowerIterate(n, b, p, {
        lowerNode,
        roundCap: roundCapOf.get(b) ?? DEFAULT_MAX_ITERATION_ROUNDS,
        spill: spillOf.get(b),
        hashedJoin: (j) => j.joinType !== 'cross' && splitJoinCondition(j.condition, j.left.schema.fields.length).leftKeys.length > 0,
        withBody: (bindings, f) => {
          bodyOf.set(b, bindings);
          try { return f(); } finally { bodyOf.delete(b); }
        },
      });
    }
    case 'TableFunction': {
      const ins = n.inputs.map((i) => lowerNode(i, b, p));
      return (n.impl as TableFunctionImpl).lower(b, ins, p, n, (exit, stats) => registerIterationStats(b, exit, stats));
    }
    case 'FeedbackRef': case 'DataRef': {
      const body = bodyOf.get(b);
      if (body === undefined) throw new InternalError(`${n.kind} outside its Iterate cannot be lowered`);
      return body.ref(n);
    }
    default:
      return assertNever(n, 'RelNode');
  }
}

/** Whether the HAVING `f` runs inside its aggregate's vertex (lower-having.ts). */
function fusesHaving(f: HavingFilter, b: JobGraphBuilder): boolean {
  return fusesInto(f, bodyOf.has(b), sharedOf.get(b), runtimeFiltersOf.get(b)?.pending);
}

/**
 * A hash aggregate. Over `[Project ←] Filter` whose input runs at parallelism 1 (so the aggregate's
 * edge is forward), the filter and projection run inside the aggregate (fused-stage.ts); otherwise
 * they lower as their own vertices and the aggregate takes their materialized batches. With
 * `having` (a Filter directly above it), that filter runs inside the aggregate's emit (lower-having.ts).
 */
function lowerAggregate(n: rel.Aggregate, b: JobGraphBuilder, p: number, having?: HavingFilter): number {
  const keyed = n.groupKeys.length > 0;
  const par = keyed ? p : 1;
  const fusable = bodyOf.has(b) || (keyed && par !== 1) ? undefined : fusableInput(n);
  let input: number;
  let stage: ReturnType<typeof compileStage> | undefined;
  let pass: FusedPass | undefined;
  let fusedDetail = (): string => '';
  const aggUsed = new Set([...n.groupKeys, ...n.aggCalls.flatMap((a) => a.args)]);
  const reads = fusable === undefined && sharedOf.get(b) === undefined && !bodyOf.has(b) ? aggregateReads(n) : n.input;
  if (keyed && par === 1 && !bodyOf.has(b) && sharedOf.get(b) === undefined) markAggregated(b, fusable?.below ?? reads);
  if (fusable === undefined) input = lowerUsing(reads, aggUsed, b, p);
  else {
    const { filter, project } = fusable;
    const below = lowerUsing(fusable.below, union(project ? exprInputs(project.exprs) : aggUsed, rexInputs(filter.condition)), b, p);
    if (b.parallelismOf(below) === 1) {
      input = below;
      stage = compileStage(filter.condition, project?.exprs, filter.input.schema, transientArgs(n.groupKeys, n.aggCalls, n.input.schema));
      pass = compileFusedPass(filter.condition, project?.exprs, filter.input.schema, n.groupKeys, n.aggCalls);
      const onePass = pass !== undefined ? '; one pass' : '';
      fusedDetail = () => `; fused: ${project ? `Project(${projectDetail(project)}), ` : ''}Filter(${formatRex(filter.condition, filter.input.schema)})${onePass}`;
    } else {
      input = project ? addFilterProject(project, filter, below, b) : addFilter(filter, below, b, aggUsed);
      vertexListenerOf.get(b)?.(input, n.input);
    }
  }
  const part = keyed ? (par === 1 && b.parallelismOf(input) === 1 ? { kind: 'forward' as const } : { kind: 'hash' as const, keys: n.groupKeys }) : { kind: 'global' as const };
  const h = having && compileHaving(having);
  const detail = (): string => `group=[${n.groupKeys.map((k) => n.input.schema.fields[k]!.name).join(', ')}], aggs=[${n.aggCalls.map((a) => a.name).join(', ')}]${fusedDetail()}${h ? `; ${h.detail}` : ''}`;
  const config = {
    ...(h ? { having: h.config } : {}),
    groupKeys: [...n.groupKeys], aggCalls: [...n.aggCalls], ...(stage ? { input: { stage, schema: n.input.schema, ...(pass ? { pass } : {}) } } : {}),
    ...(keyed ? { expectedGroups: Math.ceil((estimateRows(n) * (groupsShareOf.get(b) ?? 1)) / par) } : {}),
    ...(n.aggCalls.some((a) => a.distinct) ? { expectedInputRows: Math.ceil(estimateRows(n.input) / par) } : {}),
  };
  const v = b.addOperator('HashAggregate', par, n.schema, () => hashAggregate(config), [{ from: input, partitioner: part }], detail);
  if (having) vertexListenerOf.get(b)?.(v, having); // the vertex computes the Filter's rows (EXPLAIN's estimate)
  return v;
}

function lowerUsing(n: RelNode, used: ReadonlySet<number> | undefined, b: JobGraphBuilder, p: number): number {
  if (used === undefined || bodyOf.has(b)) return lowerNode(n, b, p);
  setUsed(n, used);
  try { return lowerNode(n, b, p); } finally { setUsed(n, undefined); }
}


/**
 * A CacheSource is a source vertex (parallelism: the entry's partitions, at most p). A CacheSink
 * is a side branch: a sink vertex on a forward edge from its input's vertex, which the parent
 * consumes directly (see src/cache/sink.ts for why the sink is not in line).
 */
function lowerCache(n: rel.CacheSource | rel.CacheSink, b: JobGraphBuilder, p: number): number {
  const c = cacheOf.get(b);
  if (c === undefined) throw new InternalError(`${n.kind} cannot be lowered without a cache service`);
  if (n.kind === 'CacheSource') {
    const s = c.source(n);
    const detail = (): string => `entry=${n.entryId}${n.projection ? `: ${schemaText(n)}` : ''}${n.pushedFilters ? `, filters=${n.pushedFilters.map((f) => formatRex(f, n.original.schema)).join(' AND ')}` : ''}`;
    return b.addSource('CacheSource', Math.max(1, Math.min(p, s.partitions)), n.schema, s.factory, detail);
  }
  const input = lowerNode(n.input, b, p);
  b.addOperator('CacheSink', b.parallelismOf(input), n.schema, c.sink(n), [{ from: input, partitioner: { kind: 'forward' } }], `entry=${n.entryId}`);
  return input;
}

function explainDetail(n: rel.Sort): string {
  const keys = n.keys.map((k) => `${columnLabel(k.index, n.input.schema)} ${k.desc ? 'DESC' : 'ASC'}${k.nullsFirst ? ' NULLS FIRST' : ''}`).join(', ');
  return `${keys}${n.fetch !== undefined ? `, fetch=${n.fetch}` : ''}${n.offset ? `, offset=${n.offset}` : ''}`;
}

function addDistinct(b: JobGraphBuilder, input: number, n: RelNode, p: number): number {
  const keys = n.schema.fields.map((_, i) => i);
  const part = p === 1 && b.parallelismOf(input) === 1 ? { kind: 'forward' as const } : { kind: 'hash' as const, keys };
  return b.addOperator('Distinct', p, n.schema, () => distinct(), [{ from: input, partitioner: part }]);
}

function lowerJoin(n: rel.Join, b: JobGraphBuilder, p: number): number {
  const lw = n.left.schema.fields.length;
  const joinedSchema = { fields: [...n.left.schema.fields, ...n.right.schema.fields] };
  // NOT IN over nullable columns: a hash join that applies the NULL rules itself (not-in-join.ts, lower-not-in.ts).
  const { na, notIn, multi, leftKeys, rightKeys, kinds, residual } = joinShape(n, lw);
  // Columns of the joined row read above the join or by its residual; semi/anti output no right column.
  const parentUsed = takeUsed(n);
  const dictionaryOutput = takeAggregated(b, n);
  const semiAnti = n.joinType === 'semi' || n.joinType === 'anti';
  const residualUsed = exprInputs(residual);
  const joinedUsed = parentUsed === undefined ? (semiAnti ? union(range(0, lw), residualUsed) : undefined) : union(parentUsed, residualUsed);
  const leftUsed = joinedUsed && union(new Set([...joinedUsed].filter((c) => c < lw)), new Set(leftKeys));
  const rightUsed = joinedUsed && union(new Set([...joinedUsed].filter((c) => c >= lw).map((c) => c - lw)), new Set(rightKeys));
  const hashed = leftKeys.length > 0 && n.joinType !== 'cross';
  const buildSide = notIn || multi ? 'right' : bodyOf.get(b)?.buildSide(n) ?? chooseBuildSide(n);
  if (dictionaryOutput && hashed && !multi) passAggregatedToProbe(b, n, buildSide, buildSide === 'right' ? leftKeys : rightKeys, residual);
  const rf = hashed && !multi ? planRuntimeFilter(n, b, buildSide, leftKeys, rightKeys) : undefined;
  // The probe side's scans apply the filter: its uses are pending while that side is lowered.
  const hashedUse = hashed ? { l: leftUsed, r: rightUsed } : { l: undefined, r: undefined };
  const l = rf && buildSide === 'right' ? rf.whileProbing(() => lowerUsing(n.left, hashedUse.l, b, p)) : lowerUsing(n.left, hashedUse.l, b, p);
  const r = rf && buildSide === 'left' ? rf.whileProbing(() => lowerUsing(n.right, hashedUse.r, b, p)) : lowerUsing(n.right, hashedUse.r, b, p);
  const residualPred = residual.length > 0 ? compilePredicate(andAll(residual), joinedSchema) : undefined;
  const condText = formatRex(n.condition, joinedSchema);
  if (!hashed) {
    const always = (n.joinType === 'cross' && residual.length === 0) || (n.condition.kind === 'Literal' && n.condition.value === true);
    const pred = always ? undefined : compilePredicate(n.condition, joinedSchema);
    const jt: JoinType = n.joinType;
    const rj = always ? undefined : rangeJoinConfig(n);
    return b.addOperator('NestedLoopJoin', 1, n.schema, () => nestedLoopJoin({ joinType: jt, ...(pred ? { condition: pred } : {}), ...(rj ? { range: rj.range } : {}) } as Parameters<typeof nestedLoopJoin>[0]), [{ from: l, partitioner: { kind: 'global' } }, { from: r, partitioner: { kind: 'global' } }], `${n.joinType}, ${condText}${rj?.text ?? ''}${na?.kind === 'nested' ? `; ${na.reason}` : ''}`);
  }
  if (multi) return addNullAwareJoin(b, n, multi, l, r, p, usedMask(n.schema, joinedUsed && new Set([...joinedUsed].filter((c) => c < lw))), condText);
  const single = p === 1 && b.parallelismOf(l) === 1 && b.parallelismOf(r) === 1;
  // A NULL-aware join decides on the whole build side: one instance, as a nested-loop join.
  const lp = single ? { kind: 'forward' as const } : notIn ? { kind: 'global' as const } : { kind: 'hash' as const, keys: leftKeys };
  const rp = single ? { kind: 'forward' as const } : notIn ? { kind: 'global' as const } : { kind: 'hash' as const, keys: rightKeys };
  const jt = n.joinType as 'inner' | 'left' | 'right' | 'full' | 'semi' | 'anti';
  const slot = rf?.slot;
  if (slot) slot.subtasks = single ? 1 : p;
  const factory = (i: number): ReturnType<typeof hashJoin> => {
    slot?.instantiated(i);
    return hashJoin({ joinType: jt, leftKeys, rightKeys, keyKinds: kinds, buildSide, ...(residualPred ? { residual: residualPred } : {}), ...(slot ? { runtimeFilter: slot } : {}), ...(keep ? { used: keep } : {}), ...(notIn ? { nullAware: true } : {}), ...(dictionaryOutput ? { dictionaryOutput } : {}) });
  };
  const keep = usedMask(joinedSchema, joinedUsed);
  return b.addOperator('HashJoin', single || notIn ? 1 : p, n.schema, factory, [{ from: l, partitioner: lp }, { from: r, partitioner: rp }], `${n.joinType}, ${condText}, build=${buildSide}${notIn ? ', null_aware' : ''}${rf ? `, ${rf.detail}` : ''}${unusedDetail(n.schema, semiAnti ? usedMask(n.schema, joinedUsed && new Set([...joinedUsed].filter((c) => c < lw))) : keep)}`);
}
