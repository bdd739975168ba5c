/**
 * Lowering of an Iterate node onto the iteration runtime
 * (src/iteration/table/assemble.ts builds the loop around the body).
 *
 * The variables and data inputs are lowered once, outside the loop. The body
 * plans (next, until) are lowered by the ordinary lowering with their leaves
 * bound: FeedbackRef → the gate after the variable's head (or, view
 * `recurring`, the keyed table's reader), DataRef → the data vertex (its
 * replayer when replayed).
 *
 * Decision: a non-replayed data input is static — it arrives once, in round
 * 0 — so the body may read it only where an operator keeps it across rounds:
 * the build side of a join (a hash join's table is kept; this lowering makes
 * the static side the build side). Wherever else the body reads a static
 * subtree (a union branch, a set operation, the probe side of a nested-loop
 * join, a whole next value), that subtree goes through a replayer, so every
 * round sees it: the result is the relational meaning of the body whatever
 * `replay` says, and `replay` only chooses how data reaches a round.
 */
import type * as rel from '../relnode/rel.js';
import type { RelNode } from '../relnode/rel.js';
import { inputs } from '../relnode/rel.js';
import { InternalError } from '../relnode/errors.js';
import { digest } from '../relnode/digest.js';
import { structurallyEqual } from '../relnode/equal.js';
import type { JobGraph, JobGraphBuilder } from '../exec/job.js';
import { assembleTableLoop } from '../iteration/table/assemble.js';
import { fuseBodyNode } from './lower-iterate-fuse.js';
import type { PruneSpec } from '../iteration/table/pipeline-spec.js';
import type { SpillArea } from '../cache/spill.js';
import type { IterationStats } from '../iteration/table/state.js';

/** The default round cap of an iteration without maxRounds (`TableEnvironment.create({ maxIterationRounds })`). */
export const DEFAULT_MAX_ITERATION_ROUNDS = 10_000;

/** How lower.ts lowers the nodes of a body while its Iterate is lowered. */
export interface BodyBindings {
  /** The vertex a FeedbackRef or DataRef reads. */
  ref(n: rel.FeedbackRef | rel.DataRef): number;
  /** Lowers body node `n` (`lowerDefault` lowers it as any node); may wrap it in a replayer. */
  lower(n: RelNode, lowerDefault: () => number): number;
  /** The build side a body join must take (its static side), if any. */
  buildSide(n: rel.Join): 'left' | 'right' | undefined;
}

/** What lower.ts gives the Iterate lowering. */
export interface IterateLowering {
  readonly lowerNode: (n: RelNode, b: JobGraphBuilder, p: number) => number;
  readonly roundCap: number;
  /** Where replayed data may spill (absent: replays stay in memory). */
  readonly spill: SpillArea | undefined;
  readonly hashedJoin: (j: rel.Join) => boolean;
  readonly withBody: <T>(bindings: BodyBindings, f: () => T) => T;
}

const statsOf = new WeakMap<JobGraphBuilder, Map<number, IterationStats>>();
const graphStats = new WeakMap<JobGraph, Map<number, IterationStats>>();

/** Records that `exit` (a vertex of `b`) ends an iteration whose runs fill `stats` (EXPLAIN ANALYZE). */
export function registerIterationStats(b: JobGraphBuilder, exit: number, stats: IterationStats): void {
  let m = statsOf.get(b);
  if (m === undefined) { m = new Map(); statsOf.set(b, m); }
  m.set(exit, stats);
}

/** Moves the iteration statistics of a builder to the graph it built (lower.ts). */
export function attachIterationStats(b: JobGraphBuilder, g: JobGraph): void {
  const m = statsOf.get(b);
  if (m !== undefined) graphStats.set(g, m);
}

/** Per exit vertex of an iteration: `rounds=… round_ms=[…]` of the last run (EXPLAIN ANALYZE). */
export function iterationAnnotations(g: JobGraph): ReadonlyMap<number, string> {
  const m = graphStats.get(g);
  return new Map([...(m ?? [])].map(([v, s]) => [v, s.describe()]));
}

/** The message of an iteration stopped by the environment's round cap. */
export function roundCapMessage(cap: number): string {
  return `the iteration reached the round cap of ${cap} rounds without reaching a fixpoint (no maxRounds was given); ` +
    `give it a round limit (maxRounds, or RETURN AT RECURSION LIMIT in SQL), or raise the cap with TableEnvironment.create({ maxIterationRounds })`;
}

/** Per builder: the loops lowered so far, by their Iterate with output 0 (results of one iteration share a loop). */
const loopsOf = new WeakMap<JobGraphBuilder, { readonly key: rel.Iterate; readonly exit: (output: number) => number }[]>();

function withOutput0(n: rel.Iterate): rel.Iterate {
  return n.output === 0 ? n : { ...n, output: 0, schema: n.variables[0]!.schema };
}

export function lowerIterate(n: rel.Iterate, b: JobGraphBuilder, p: number, ctx: IterateLowering): number {
  if (n.mode === 'replace' && n.maxRounds === 0) return ctx.lowerNode(n.variables[n.output]!, b, p);
  const key = withOutput0(n);
  const d = digest(key);
  let loops = loopsOf.get(b);
  if (loops === undefined) { loops = []; loopsOf.set(b, loops); }
  const same = loops.find((l) => digest(l.key) === d && structurallyEqual(l.key, key));
  if (same !== undefined) return same.exit(n.output);
  const exit = lowerLoop(n, b, p, ctx);
  loops.push({ key, exit });
  return exit(n.output);
}

function lowerLoop(n: rel.Iterate, b: JobGraphBuilder, p: number, ctx: IterateLowering): (output: number) => number {
  // A distinct accumulating variable's initial rows pass a seen set (assemble.ts): a DISTINCT on top of
  // them (UNION's anchor) would drop the same duplicates a second time.
  const seenInitial = (i: number): boolean => n.mode === 'accumulate' && n.distinct && n.keys?.[i] === undefined;
  const variables = n.variables.map((v, i) => ({ vertex: ctx.lowerNode(v.kind === 'Distinct' && seenInitial(i) ? v.input : v, b, p), schema: v.schema }));
  const data = n.data.map((d, j) => ({ vertex: ctx.lowerNode(d, b, p), schema: d.schema, replay: n.replay[j] === true }));
  const dynamic = dynamicNodes(n);
  const isStatic = (m: RelNode): boolean => !dynamic.has(m);
  // Static subtrees the body reads where no operator keeps them across rounds: replayed every round.
  const replayed = new Set<RelNode>();
  const buildSides = new Map<rel.Join, 'left' | 'right'>();
  const roots = n.until === undefined ? n.next : [...n.next, n.until];
  for (const r of roots) if (isStatic(r)) replayed.add(r);
  const seen = new Set<RelNode>();
  const walk = (m: RelNode): void => {
    if (seen.has(m) || isStatic(m)) return;
    seen.add(m);
    const ch = inputs(m);
    if (m.kind === 'Join') {
      const ls = isStatic(m.left);
      const rs = isStatic(m.right);
      if (ls !== rs) {
        const staticSide = ls ? 'left' : 'right';
        if (ctx.hashedJoin(m)) buildSides.set(m, staticSide);
        else if (staticSide === 'left') replayed.add(m.left); // a nested-loop join keeps only its right side
      }
    } else {
      for (const c of ch) if (isStatic(c)) replayed.add(c);
    }
    ch.forEach(walk);
  };
  roots.forEach(walk);
  const keepMinAggs = keepMinAggregates(n);
  // Fused body pipelines (lower-iterate-fuse.ts) at parallelism 1; EDDY_BODY_FUSION=0 turns them off (tests compare both).
  const fuse = p === 1 && process.env.EDDY_BODY_FUSION !== '0';
  const limit = n.maxRounds ?? ctx.roundCap;
  const failure = n.maxRounds === undefined
    ? (): string => roundCapMessage(ctx.roundCap)
    : n.atMaxRounds === 'error' ? (rounds: number): string => `recursion limit ${rounds} reached` : undefined;
  return assembleTableLoop({
    b,
    parallelism: p,
    variables,
    data,
    mode: n.mode,
    distinct: n.distinct,
    ...(n.keys !== undefined ? { keys: n.keys } : {}),
    ...(n.keepMin !== undefined ? { keepMin: n.keepMin } : {}),
    limit,
    ...(ctx.spill !== undefined ? { replayCache: () => ({ spill: ctx.spill! }) } : {}),
    ...(failure !== undefined ? { failure } : {}),
    ...(n.keys !== undefined ? { uniqueKeysPerRound: n.next.map((x, i) => groupsByKeys(x, n.keys?.[i])) } : {}),
    onStats: (exit, stats) => registerIterationStats(b, exit, stats),
    body: (refs) => ctx.withBody({
      ref: (leaf) => {
        if (leaf.kind === 'DataRef') return refs.data(leaf.index);
        return leaf.view === 'recurring' ? refs.recurring(leaf.variable) : refs.current(leaf.variable);
      },
      lower: (m, lowerDefault) => {
        if (fuse && !replayed.has(m)) {
          const f = fuseBodyNode(m, {
            b, iterationId: refs.iterationId, isStatic, isReplayed: (x) => replayed.has(x), keysOf: (i) => n.keys?.[i], lowerNode: (x) => ctx.lowerNode(x, b, p),
            pruneOf: (a) => { const s = keepMinAggs.get(a); return s === undefined ? undefined : { iterationId: refs.iterationId, ...s }; },
          });
          if (f !== undefined) return f;
        }
        const v = lowerDefault();
        return replayed.has(m) ? refs.replay(v, m.schema) : v;
      },
      buildSide: (j) => buildSides.get(j),
    }, () => {
      const next = n.next.map((x) => ctx.lowerNode(x, b, p));
      const until = n.until !== undefined ? ctx.lowerNode(n.until, b, p) : undefined;
      return { next, ...(until !== undefined ? { until } : {}) };
    }),
  });
}

/**
 * True when `next` is (a projection of columns of) an aggregate grouping by exactly the columns that
 * become the variable's keys: each key then comes once per round (the round's dedup can be skipped).
 */
function groupsByKeys(next: RelNode, keys: readonly number[] | undefined): boolean {
  if (keys === undefined) return false;
  let m = next;
  let cols = keys;
  while (m.kind === 'Project') {
    const exprs = m.exprs;
    const mapped = cols.map((c) => { const e = exprs[c]; return e !== undefined && e.kind === 'InputRef' ? e.index : -1; });
    if (mapped.some((c) => c < 0)) return false;
    cols = mapped;
    m = m.input;
  }
  if (m.kind !== 'Aggregate' || m.groupKeys.length !== cols.length) return false;
  const outKeys = new Set(cols);
  // The aggregate's output column k < groupKeys.length is group key k: every group column must be a key column.
  return cols.every((c) => c < m.groupKeys.length) && outKeys.size === m.groupKeys.length;
}

/**
 * Per keep-min variable whose next value is (column picks of) an aggregate grouping by its one key: that
 * aggregate, with the min aggregate that yields the kept column (the fused pipeline prunes by it).
 */
function keepMinAggregates(n: rel.Iterate): Map<rel.Aggregate, Omit<PruneSpec, 'iterationId'>> {
  const out = new Map<rel.Aggregate, Omit<PruneSpec, 'iterationId'>>();
  n.keepMin?.forEach((column, i) => {
    const keys = n.keys?.[i];
    if (column === undefined || keys === undefined || keys.length !== 1) return;
    let m = n.next[i]!;
    let cols = [keys[0]!, column];
    while (m.kind === 'Project') {
      const exprs = m.exprs;
      const mapped = cols.map((c) => { const e = exprs[c]; return e !== undefined && e.kind === 'InputRef' ? e.index : -1; });
      if (mapped.some((c) => c < 0)) return;
      cols = mapped;
      m = m.input;
    }
    if (m.kind !== 'Aggregate' || m.groupKeys.length !== 1 || cols[0] !== 0 || cols[1]! < 1) return;
    const agg = cols[1]! - 1;
    if (m.aggCalls[agg]?.fn !== 'min') return;
    out.set(m, { variable: i, keys, types: n.variables[i]!.schema.fields.map((f) => f.type), column, agg });
  });
  return out;
}

/** The body nodes whose rows change from round to round: they read a variable or replayed data. */
function dynamicNodes(n: rel.Iterate): Set<RelNode> {
  const memo = new Map<RelNode, boolean>();
  const dyn = new Set<RelNode>();
  const visit = (m: RelNode): boolean => {
    const known = memo.get(m);
    if (known !== undefined) return known;
    let d: boolean;
    if (m.kind === 'FeedbackRef') d = true;
    else if (m.kind === 'DataRef') {
      if (m.index >= n.data.length) throw new InternalError(`data reference ${m.index} of an iteration with ${n.data.length} data inputs`);
      d = n.replay[m.index] === true;
    } else d = inputs(m).map(visit).some((x) => x); // every child visited (no short cut): all get memoized
    memo.set(m, d);
    if (d) dyn.add(m);
    return d;
  };
  for (const r of n.next) visit(r);
  if (n.until !== undefined) visit(n.until);
  return dyn;
}
