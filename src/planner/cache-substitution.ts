/**
 * Cache substitution (DESIGN.md "planner", step 2): on the tree as the user
 * built it, before any optimization, top-down. The first (largest) subtree
 * whose full digest matches a committed entry becomes a CacheSource; a subtree
 * marked with `cache()` but not materialized gets a CacheSink (this run writes
 * it) and its children are still searched, so caches inside caches work.
 * Subtrees with non-deterministic expressions are never substituted or sunk,
 * nor those that read an outer query (part of a correlated subquery: their
 * rows depend on the outer row); the plans of subqueries are searched too.
 * The optimizer later pushes projections and filters into the CacheSources.
 * The test switch `cacheAllSubtrees` skips subtrees that may never end (an
 * unlimited recursion an outer LIMIT stops).
 *
 * A digest only finds candidates: the lookup confirms every mark and entry by
 * structural equality with the subtree (relnode/equal.ts), and a digest key
 * held by a different subtree is left alone (no read, no sink, an EXPLAIN note).
 *
 * The per-subtree facts the walk asks (does it read an outer query or a free
 * iteration ref, is it deterministic) are memoized per node object: plan nodes
 * are immutable, and a query over a cached Table reaches the same subtree
 * objects on every run (`outerRefsOf` and `isDeterministic` each walk the whole
 * subtree, and were ~40% of a cached max()'s planning).
 */
import { digest, isDeterministic } from '../relnode/digest.js';
import { structurallyEqual } from '../relnode/equal.js';
import { explainNode } from '../relnode/explain.js';
import { cacheSink, cacheSource, filter, hasFreeIterationRefs, inputs, nodeRexes, outerRefsOf, project, visit, withInputs, type RelNode } from '../relnode/rel.js';
import { hasSubquery, rexTransform, rexVisit, type RexNode } from '../relnode/rex.js';
import { looseDigest, nonDeterministicCalls } from '../cache/marks.js';
import type { CacheStatsLookup } from './cache-stats-answer.js';

/** A subtree marked with `cache()`, as the lookup reports it. */
export interface MarkedSubtree {
  readonly id: string;
  readonly digest: string;
  /** The digest without source versions. */
  readonly loose: string;
  readonly tables: readonly string[];
  /** Non-deterministic calls of the subtree (never cached), if any. */
  readonly nonDeterministic: string | undefined;
}

/** What substitution asks of the cache (the cache manager implements it; the planner does not depend on the API). */
export interface CacheLookup extends CacheStatsLookup {
  /** Test switch: every deterministic subtree counts as marked. */
  readonly cacheAllSubtrees: boolean;
  /** The entry id a subtree's result gets. */
  idFor(n: RelNode): string;
  /** The committed entry holding this subtree's result (found by digest, confirmed by structural equality). */
  entryFor(n: RelNode): { readonly id: string } | undefined;
  /** The mark of this subtree (found by digest, confirmed by structural equality). */
  markFor(n: RelNode): MarkedSubtree | undefined;
  /** What holds this subtree's digest key when it is a structurally different subtree, if anything. */
  conflictOf(n: RelNode): string | undefined;
  marks(): readonly MarkedSubtree[];
  /** True while another query writes this digest. */
  isWriting(digest: string): boolean;
  /** Why the last entry of this digest was dropped, if it was. */
  dropReason(digest: string): string | undefined;
  /** `rows=… bytes=… tier=…` of an entry (EXPLAIN). */
  describe(id: string): string | undefined;
  /** True when no mark, entry or write exists: substitution has nothing to find (small queries skip the digests). */
  isEmpty?(): boolean;
}

/** A cache sink placed by substitution. */
export interface PlacedSink {
  readonly entryId: string;
  readonly digest: string;
  /** The subtree as built (its digest is the entry's key). */
  readonly node: RelNode;
}

/** The result of substitution. */
export interface CacheSubstitution {
  readonly plan: RelNode;
  /** "cache for <id> not used: <why>" lines for EXPLAIN. */
  readonly notes: readonly string[];
  readonly sinks: readonly PlacedSink[];
  /** Entry ids read by CacheSources. */
  readonly sources: readonly string[];
}

/** Per node: true when it reads an outer query or holds a free iteration ref (never cached). */
const boundElsewhere = new WeakMap<RelNode, boolean>();
/** Per node: isDeterministic. */
const deterministic = new WeakMap<RelNode, boolean>();

/**
 * `outerRefsOf(n).size > 0 || hasFreeIterationRefs(n)`, memoized per node and built from the
 * children's answers (a new root over a known subtree costs one node); a Correlate (only its
 * left side's refs count) and iteration nodes (an Iterate binds its body's refs) ask the walks.
 */
function readsOutside(n: RelNode): boolean {
  let v = boundElsewhere.get(n);
  if (v !== undefined) return v;
  if (n.kind === 'Correlate' || n.kind === 'Iterate' || n.kind === 'FeedbackRef' || n.kind === 'DataRef') v = outerRefsOf(n).size > 0 || hasFreeIterationRefs(n);
  else v = nodeRexes(n).some(hasOuterRef) || inputs(n).some(readsOutside);
  boundElsewhere.set(n, v);
  return v;
}

function hasOuterRef(e: RexNode): boolean {
  let found = false;
  rexVisit(e, (x) => { if (x.kind === 'OuterRef') found = true; });
  return found;
}

function isDeterministicNode(n: RelNode): boolean {
  let v = deterministic.get(n);
  if (v === undefined) { v = isDeterministic(n); deterministic.set(n, v); }
  return v;
}

/** Replaces cached subtrees by CacheSources and puts CacheSinks on marked, unmaterialized ones. */
export function substituteCaches(root: RelNode, lookup: CacheLookup): CacheSubstitution {
  // Nothing cached or marked: no digest of any subtree can match (a 10-row query spent ~12% of its time here).
  if (!lookup.cacheAllSubtrees && lookup.isEmpty?.() === true) return { plan: root, notes: [], sinks: [], sources: [] };
  const notes: string[] = [];
  const sinks: PlacedSink[] = [];
  const sources: string[] = [];
  const seenMarks = new Set<string>();
  const inSubqueries = (e: RexNode): RexNode => rexTransform(e, (x) => (x.kind === 'Subquery' ? { ...x, rel: walk(x.rel) } : x));
  /** The node over new inputs, with the plans of its subqueries substituted too. */
  const rebuild = (n: RelNode): RelNode => {
    const m = withInputs(n, inputs(n).map(walk));
    if (m.kind === 'Filter' && hasSubquery(m.condition)) return filter(m.input, inSubqueries(m.condition));
    if (m.kind === 'Project' && m.exprs.some(hasSubquery)) return project(m.input, m.exprs.map(inSubqueries), m.schema.fields.map((f) => f.name));
    return m;
  };
  const walk = (n: RelNode): RelNode => {
    // A fragment of an iteration body (free FeedbackRef / DataRef) has no rows of its own: never cached.
    if (readsOutside(n)) return rebuild(n);
    const d = digest(n);
    const entry = lookup.entryFor(n);
    const mark = lookup.markFor(n);
    if (mark !== undefined) seenMarks.add(d);
    const conflict = entry === undefined ? lookup.conflictOf(n) : undefined;
    if (conflict !== undefined) {
      seenMarks.add(d);
      notes.push(`subtree ${explainNode(n)} not cached: its digest is the key of a different plan's ${conflict}`);
    } else if (entry !== undefined || mark !== undefined || (lookup.cacheAllSubtrees && !mayNotEnd(n))) {
      if (mark?.nonDeterministic !== undefined || !isDeterministicNode(n)) {
        if (mark !== undefined) notes.push(`cache for ${mark.id} not used: non-deterministic (${mark.nonDeterministic ?? nonDeterministicCalls(n)} give a different result on every run)`);
      } else if (entry !== undefined) {
        sources.push(entry.id);
        return cacheSource(entry.id, n);
      } else if (sinks.some((s) => s.digest === d && !structurallyEqual(s.node, n))) {
        notes.push(`subtree ${explainNode(n)} not cached: its digest is the key of a different subtree of this plan`);
      } else if (!sinks.some((s) => s.digest === d)) {
        const id = mark?.id ?? lookup.idFor(n);
        if (mark !== undefined) notes.push(`cache for ${id} not used: ${whyNotMaterialized(lookup, d)}`);
        const inner = rebuild(n);
        sinks.push({ entryId: id, digest: d, node: n });
        return cacheSink(inner, id);
      }
    }
    return rebuild(n);
  };
  const plan = walk(root);
  notes.push(...changedSourceNotes(root, lookup, seenMarks));
  return { plan, notes, sinks, sources };
}

/**
 * True when the subtree may produce rows forever: an accumulating iteration
 * with no round limit (a recursive CTE that only an outer LIMIT stops) not
 * already cut by a LIMIT inside the subtree. The test switch
 * `cacheAllSubtrees` puts no sink on it: a sink would read the whole
 * (endless) result where the query reads a prefix.
 */
function mayNotEnd(n: RelNode): boolean {
  if (n.kind === 'Limit' || (n.kind === 'Sort' && n.fetch !== undefined)) return false;
  if (n.kind === 'Iterate') return n.mode === 'accumulate' && n.maxRounds === undefined;
  return inputs(n).some(mayNotEnd);
}

function whyNotMaterialized(lookup: CacheLookup, d: string): string {
  if (lookup.isWriting(d)) return 'not yet materialized (another query is writing it; this run waits for it)';
  const reason = lookup.dropReason(d);
  if (reason !== undefined) return `${reason} (this run re-creates it)`;
  return 'not yet materialized (this run writes it)';
}

/** Notes for marks that match a subtree of the plan except for source versions: the table changed since. */
function changedSourceNotes(root: RelNode, lookup: CacheLookup, seen: ReadonlySet<string>): string[] {
  const unseen = lookup.marks().filter((m) => !seen.has(m.digest));
  if (unseen.length === 0) return [];
  const loose = new Set<string>();
  visit(root, (n) => { loose.add(looseDigest(digest(n))); });
  return unseen
    .filter((m) => loose.has(m.loose))
    .map((m) => `cache for ${m.id} not used: changed source (${m.tables.join(', ')} changed since cache() was called; call cache() on a table built from the current data)`);
}
