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
 *
 * Table API trees are new objects on every call (`b.groupBy('k').select(...)`
 * builds its nodes again), so a plan is also found by structure: by the
 * tree's digest (memoized per node; the shared subtree below, `b`, is the
 * same object each time) and confirmed by `identical` (relnode/identical.ts):
 * the same rows AND the same names, displayed expressions and table names,
 * because the digest names no columns while the plan carries its tree's
 * names into EXPLAIN ANALYZE. Table versions are in the digest (a replaced
 * table is a different tree), settings and the cache in the stamp. This index
 * holds only plans of the current stamp (a new stamp empties it, so a plan
 * over a replaced table is not kept alive by it) and at most
 * MAX_BY_STRUCTURE of them, least recently used first out.
 */
import { digest, isDeterministic } from '../relnode/digest.js';
import { identical } from '../relnode/identical.js';
import { visit, type RelNode } from '../relnode/rel.js';
import type { PhysicalPlan } from '../planner/planner.js';

interface Entry {
  readonly stamp: string;
  readonly plan: PhysicalPlan;
  /** The tree it was planned for (what a tree found by structure must be identical to). */
  readonly tree: RelNode;
  inUse: boolean;
}

/** Plans kept by structure (current stamp only), and digests seen once, at most. */
const MAX_BY_STRUCTURE = 64;
const MAX_SEEN_DIGESTS = 256;

/** Counters of this process (tests check reuse with them); `byStructure`: hits found through another tree object. */
export const physicalPlanStats = { hits: 0, misses: 0, byStructure: 0 };

/** A leased plan: `release()` when its run ended (idempotent). */
export interface PlanLease {
  readonly plan: PhysicalPlan;
  release(): void;
}

/** Planned queries of one executor, by logical tree object, else by structure (see the header). */
export class PhysicalPlans {
  private readonly byTree = new WeakMap<RelNode, Entry>();
  /** Trees planned once: a plan is kept when its tree comes a second time (one-off trees skip the checks). */
  private readonly seen = new WeakSet<RelNode>();
  /** The stamp of `byDigest` and `seenDigests` (another stamp empties both). */
  private structureStamp = '';
  /** Kept plans by their tree's digest (a few trees of one digest may differ in names), least recently used first. */
  private readonly byDigest = new Map<string, Entry[]>();
  /** Digests of trees planned once under `structureStamp`: the second tree of a digest keeps its plan. */
  private readonly seenDigests = new Set<string>();

  /** The plan made for `tree` (or an identical tree) under `stamp`, leased to the caller, or undefined (plan it, then `keep`). */
  acquire(tree: RelNode, stamp: string): PlanLease | undefined {
    let e = this.byTree.get(tree);
    if (e === undefined || e.stamp !== stamp) {
      e = this.findByStructure(tree, stamp);
      if (e !== undefined && !e.inUse) { this.byTree.set(tree, e); physicalPlanStats.byStructure++; }
    }
    if (e === undefined || e.inUse || e.stamp !== stamp) { physicalPlanStats.misses++; return undefined; }
    physicalPlanStats.hits++;
    return lease(e);
  }

  /** Keeps a plan just made for `tree` (when reusable), leased to the caller until its run ends. */
  keep(tree: RelNode, stamp: string, plan: PhysicalPlan): PlanLease | undefined {
    if (!this.seenBefore(tree, stamp)) return undefined;
    if (this.byTree.get(tree)?.inUse === true || !reusable(plan)) return undefined;
    const e: Entry = { stamp, plan, tree, inUse: false };
    this.byTree.set(tree, e);
    this.index(e);
    return lease(e);
  }

  /** Whether `tree`, or a tree of its digest, was planned before under `stamp` (and notes this one). */
  private seenBefore(tree: RelNode, stamp: string): boolean {
    this.restamp(stamp);
    const d = digest(tree);
    const known = this.seen.has(tree) || this.seenDigests.has(d);
    this.seen.add(tree);
    if (!known) {
      this.seenDigests.add(d);
      if (this.seenDigests.size > MAX_SEEN_DIGESTS) this.seenDigests.delete(this.seenDigests.values().next().value!);
    }
    return known;
  }

  /** A kept plan of an identical tree under `stamp` (most recently used moves last). */
  private findByStructure(tree: RelNode, stamp: string): Entry | undefined {
    this.restamp(stamp); // a moved stamp lets go of the old plans (and the tables they hold) at once
    if (this.byDigest.size === 0) return undefined;
    const d = digest(tree);
    const list = this.byDigest.get(d);
    const e = list?.find((x) => identical(x.tree, tree));
    if (e !== undefined) { this.byDigest.delete(d); this.byDigest.set(d, list!); }
    return e;
  }

  private index(e: Entry): void {
    this.restamp(e.stamp);
    const d = digest(e.tree);
    const list = (this.byDigest.get(d) ?? []).filter((x) => !identical(x.tree, e.tree));
    list.push(e);
    this.byDigest.delete(d);
    this.byDigest.set(d, list);
    if (this.byDigest.size > MAX_BY_STRUCTURE) this.byDigest.delete(this.byDigest.keys().next().value!);
  }

  /** Empties the structure index when the stamp moved (its plans can never be reused again). */
  private restamp(stamp: string): void {
    if (stamp === this.structureStamp) return;
    this.structureStamp = stamp;
    this.byDigest.clear();
    this.seenDigests.clear();
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
