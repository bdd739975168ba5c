/**
 * The planner pipeline for one query (DESIGN.md "planner"): the validated
 * tree as built → cache substitution (when a cache lookup is given) →
 * optimize (rules to a digest fixpoint) → answer ungrouped min/max/count over
 * cache sources from their statistics (cache-stats-answer.ts) → lower to a
 * job graph.
 *
 * Decision: the job graph is lowered when first read, not while planning. At parallelism > 1 a
 * plan that runs no worker stage runs lowered at parallelism 1 (api/run-graphs.ts): lowering
 * the parallelism-P graph too cost each new plan a second lowering it never ran (0.5–1 ms for
 * TPC-H Q2, Q3, Q8, Q22 at SF 1).
 *
 * Decision: EXPLAIN prints the graph a run executes on the calling thread, which need not be the
 * planned one (`explainPlan`'s `physical`): at parallelism > 1 that is the parallelism-1 graph
 * of what the worker stages leave (api/run-graphs.ts), so EXPLAIN ANALYZE's figures and
 * EXPLAIN's shape describe the run a user gets, not a graph that never runs.
 */
import type { RelNode } from '../relnode/rel.js';
import { explainTree } from '../relnode/explain.js';
import type { JobGraph } from '../exec/job.js';
import { explainJob } from '../exec/job.js';
import { DECORRELATION_RULES, finalizePlan, optimize } from './optimizer.js';
import { lower, type CacheBindings } from './lower.js';
import { substituteCaches, type CacheLookup, type CacheSubstitution } from './cache-substitution.js';
import { answerFromCacheStats, type StatsAnswer } from './cache-stats-answer.js';
import { estimateRows } from './estimate.js';
import type { SpillArea } from '../cache/spill.js';

/** Planner options. */
export interface PlanOptions {
  readonly parallelism: number;
  /** Skip the optimizer (for debugging and differential tests of the rules); subqueries are still decorrelated. */
  readonly optimize?: boolean;
  /** The round cap of iterations without maxRounds (default 10,000). */
  readonly maxIterationRounds?: number;
  /** Where iterations' replayed data may spill (the cache's spill area). */
  readonly iterationSpill?: SpillArea;
  /** Cache substitution and the lowering of cache nodes (absent: no caching). */
  readonly cache?: { readonly lookup: CacheLookup; readonly bindings: CacheBindings };
}

/** A planned query: the logical tree, the optimized tree and the job graph. */
export interface PhysicalPlan {
  readonly logical: RelNode;
  readonly optimized: RelNode;
  /** The graph at the planned parallelism, lowered when first read (a lowering error is thrown then). */
  readonly graph: JobGraph;
  /** The plan node each job vertex computes; EXPLAIN shows its estimated rows (computed only then; never in a digest). */
  readonly vertexNodes: ReadonlyMap<number, RelNode>;
  /** What cache substitution did (absent without caching); `describe` annotates cache sources in EXPLAIN. */
  readonly cache?: CacheSubstitution & {
    readonly describe: (entryId: string) => string | undefined;
    /** Aggregates answered from cache statistics: the Values node that replaced each (EXPLAIN says so). */
    readonly answered: ReadonlyMap<RelNode, StatsAnswer>;
  };
}

/** A job graph with the plan node each vertex computes (EXPLAIN's estimates): what one run executes. */
export interface RunGraph {
  readonly graph: JobGraph;
  readonly vertexNodes: ReadonlyMap<number, RelNode>;
}

/** Plans a query: cache substitution on the tree as built, then optimization; the graph is lowered when first read. */
export function planQuery(logical: RelNode, options: PlanOptions): PhysicalPlan {
  const c = options.cache;
  const sub = c ? substituteCaches(logical, c.lookup) : undefined;
  const input = sub ? sub.plan : logical;
  const rewritten = options.optimize === false ? optimize(input, DECORRELATION_RULES) : finalizePlan(optimize(input));
  const stats = c && options.optimize !== false ? answerFromCacheStats(rewritten, c.lookup) : undefined;
  const optimized = stats?.plan ?? rewritten;
  const vertexNodes = new Map<number, RelNode>();
  let graph: JobGraph | undefined;
  const lowered = (): JobGraph => (graph ??= lowerPlan(optimized, options, options.parallelism, (v, n) => { vertexNodes.set(v, n); }));
  const cache = c && sub ? { ...sub, describe: (id: string) => c.lookup.describe(id), answered: stats?.answered ?? new Map<RelNode, StatsAnswer>() } : undefined;
  return {
    logical, optimized,
    get graph(): JobGraph { return lowered(); },
    get vertexNodes(): ReadonlyMap<number, RelNode> { lowered(); return vertexNodes; },
    ...(cache ? { cache } : {}),
  };
}

/**
 * Lowers an optimized plan at `parallelism` with the planning options (cache bindings, the
 * iterations' round cap and spill area): the planned graph, and the parallelism-1 graph that a
 * plan runs at parallelism > 1 after its worker stages, or when it has none.
 */
export function lowerPlan(optimized: RelNode, options: PlanOptions, parallelism: number, onVertex?: (v: number, n: RelNode) => void): JobGraph {
  const c = options.cache;
  return lower(optimized, {
    parallelism, ...(onVertex ? { onVertex } : {}), ...(c ? { cache: c.bindings } : {}),
    ...(options.maxIterationRounds !== undefined ? { maxIterationRounds: options.maxIterationRounds } : {}),
    ...(options.iterationSpill !== undefined ? { iterationSpill: options.iterationSpill } : {}),
  });
}

/** `lowerPlan` that also records each vertex's plan node (for EXPLAIN of a graph other than the planned one). */
export function lowerWithNodes(optimized: RelNode, options: PlanOptions, parallelism: number): RunGraph {
  const vertexNodes = new Map<number, RelNode>();
  const graph = lowerPlan(optimized, options, parallelism, (v, n) => { vertexNodes.set(v, n); });
  return { graph, vertexNodes };
}

/** The "== Cache ==" section: entries read, sinks written, and why marked caches were not used. */
function cacheSection(p: PhysicalPlan): string[] {
  const c = p.cache;
  if (!c || (c.notes.length === 0 && c.sources.length === 0 && c.sinks.length === 0)) return [];
  const lines = [
    ...[...new Set(c.sources)].map((id) => `reads ${id} (${c.describe(id) ?? 'gone'})`),
    ...c.sinks.map((s) => `writes ${s.entryId}`),
    ...c.notes,
  ];
  return ['== Cache ==', ...lines, ''];
}

/** Cache sinks are side branches the physical tree (walked from the output) does not reach: list them. */
function sideOutputs(g: JobGraph, metrics?: ReadonlyMap<number, string>): string[] {
  const out: string[] = [];
  for (const v of g.vertices) {
    if (v.kind !== 'operator' || v.name !== 'CacheSink') continue;
    const from = g.vertices[v.inputs[0]!.from]!;
    const m = metrics?.get(v.id);
    out.push(`${v.name}(${v.detail ?? ''}) [p=${v.parallelism}] tees ${from.name}#${from.id}${m ? `  ${m}` : ''}`);
  }
  return out;
}

/** `answered from the statistics of …` for a Values node that replaced an aggregate over a cache entry. */
function answeredNote(p: PhysicalPlan, n: RelNode): string | undefined {
  const a = p.cache?.answered.get(n);
  if (a === undefined) return undefined;
  const skipped = a.skipped > 0 ? `, ${a.skipped} skipped by the filter` : '';
  return `answered from the statistics of cache entry ${a.entryId} (${a.blocks} batch${a.blocks === 1 ? '' : 'es'}${skipped}; no rows read)`;
}

/** An estimate as EXPLAIN prints it: a whole number, in exponent form when huge. */
function formatEstimate(x: number): string {
  return x >= 1e12 ? x.toExponential(1) : String(Math.round(x));
}

/** Per vertex: the run's metrics when analyzed (`rows=` …), then the estimate `est=N`, so actual and estimated rows sit on one line. */
function annotations(r: RunGraph, metrics?: ReadonlyMap<number, string>): Map<number, string> {
  const out = new Map<number, string>();
  for (const v of r.graph.vertices) {
    const node = r.vertexNodes.get(v.id);
    const e = node === undefined ? undefined : estimateRows(node);
    const m = metrics?.get(v.id);
    const parts = [...(m !== undefined ? [m] : []), ...(e !== undefined ? [`est=${formatEstimate(e)}`] : [])];
    if (parts.length > 0) out.set(v.id, parts.join(' '));
  }
  return out;
}

/**
 * EXPLAIN text: logical, optimized and physical plans. Each physical vertex shows its estimated
 * rows (`est=`); `metrics` adds the run's figures before it (EXPLAIN ANALYZE: `rows=M ... est=N`).
 * `physical` is the graph shown (default: the planned graph), the one the calling thread runs.
 */
export function explainPlan(p: PhysicalPlan, metrics?: ReadonlyMap<number, string>, physical: RunGraph = p): string {
  const notes = annotations(physical, metrics);
  return [
    '== Logical Plan ==',
    explainTree(p.logical),
    '',
    ...cacheSection(p),
    '== Optimized Plan ==',
    explainTree(p.optimized, (n) => (n.kind === 'CacheSource' ? p.cache?.describe(n.entryId) : n.kind === 'Values' ? answeredNote(p, n) : undefined)),
    '',
    metrics ? '== Physical Plan (analyzed) ==' : '== Physical Plan ==',
    explainJob(physical.graph, notes),
    ...sideOutputs(physical.graph, notes),
  ].join('\n');
}
