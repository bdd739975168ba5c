/**
 * Reuse of planned queries: the optimized plan and its job graph, kept per
 * logical tree object, so a query run again — `env.sql(text)` of a text seen
 * before (its bound plan is the same object, bound-plans.ts), a prepared
 * statement run with values it saw before, a Table collected twice — skips
 * cache substitution, the optimizer and lowering (~60% of a 10-row query).
 *
 * When a plan may be reused (each condition is checked at every reuse):
 * - the stamp it was planned under holds: the environment's binding
 *   generation (tables, views, settings: a registration, INSERT, DROP, view
 *   change or SET plans again);
 * - the cache manager's version is the one it was planned under (and
 *   `cacheAllSubtrees` is off): no mark, entry or write appeared or went since,
 *   so cache substitution finds what it found then and the plan is exactly
 *   what planning again would give (CACHE-SEMANTICS.md). A plan that writes a
 *   cache entry (a CacheSink: its pending entry is per run) is never kept; one
 *   that reads entries (CacheSource, or an aggregate answered from an entry's
 *   statistics) is, and the executor checks those entries' blocks before each
 *   reuse, as before each planned run (a loss is detected and recomputed);
 * - the tree is deterministic (`now()` is compiled as a constant at
 *   lowering), has no table function (opaque lowering) and no iteration
 *   (per-run iteration state hangs off the graph);
 * - no other run uses the graph now: runtime-filter slots and metrics are
 *   per-run state of the graph, so a concurrent run of the same tree plans a
 *   graph of its own (a lease, released when the run ends).
 * Operators are created from the graph's factories per run; compiled kernels
 * keep no per-run state (subtasks of one run already share them).
 * A plan is kept when its tree is planned the second time (a tree run once,
 * like each new value list of a prepared statement, costs no checks), in a
 * WeakMap: a plan lives as long as its tree.
 */
import { isDeterministic } from '../relnode/digest.js';
import { visit, type RelNode } from '../relnode/rel.js';
import type { PhysicalPlan } from '../planner/planner.js';

interface Entry {
  readonly stamp: string;
  readonly plan: PhysicalPlan;
  inUse: boolean;
}

/** Counters of this process (tests check reuse with them). */
export const physicalPlanStats = { hits: 0, misses: 0 };

/** A leased plan: `release()` when its run ended (idempotent). */
export interface PlanLease {
  readonly plan: PhysicalPlan;
  release(): void;
}

/** Planned queries of one executor, by logical tree. */
export class PhysicalPlans {
  private readonly byTree = new WeakMap<RelNode, Entry>();
  /** Trees planned once: a plan is kept when its tree comes a second time (one-off trees skip the checks). */
  private readonly seen = new WeakSet<RelNode>();

  /** The plan made for `tree` under `stamp`, leased to the caller, or undefined (plan it, then `keep`). */
  acquire(tree: RelNode, stamp: string): PlanLease | undefined {
    const e = this.byTree.get(tree);
    if (e === undefined || e.inUse || e.stamp !== stamp) { physicalPlanStats.misses++; return undefined; }
    physicalPlanStats.hits++;
    return lease(e);
  }

  /** Keeps a plan just made for `tree` (when reusable), leased to the caller until its run ends. */
  keep(tree: RelNode, stamp: string, plan: PhysicalPlan): PlanLease | undefined {
    if (!this.seen.has(tree)) { this.seen.add(tree); return undefined; }
    if (this.byTree.get(tree)?.inUse === true || !reusable(plan)) return undefined;
    const e: Entry = { stamp, plan, inUse: false };
    this.byTree.set(tree, e);
    return lease(e);
  }
}

function lease(e: Entry): PlanLease {
  e.inUse = true;
  let done = false;
  return { plan: e.plan, release: () => { if (!done) { done = true; e.inUse = false; } } };
}

/** No cache write, table function or iteration, and nothing non-deterministic (logical and optimized trees). */
function reusable(p: PhysicalPlan): boolean {
  if ((p.cache?.sinks.length ?? 0) > 0) return false;
  let ok = isDeterministic(p.logical);
  const check = (root: RelNode): void => visit(root, (n) => {
    if (n.kind === 'TableFunction' || n.kind === 'Iterate' || n.kind === 'CacheSink') ok = false;
  });
  if (ok) check(p.optimized);
  return ok;
}
