/**
 * Marks: the subtrees a user asked to cache (`table.cache()`), keyed by full
 * digest, and what the manager derives from a subtree: the source tables it
 * reads, its version-free ("loose") digest for "changed source" notes, and
 * why it cannot be cached when it is non-deterministic; and which stale
 * marks (over a changed source) to forget.
 */
import { digest } from '../relnode/digest.js';
import { explainNode, termExpressions } from '../relnode/explain.js';
import { FUNCTIONS } from '../relnode/functions.js';
import { visit, type RelNode } from '../relnode/rel.js';
import { rexVisit } from '../relnode/rex.js';
import type { StorageLevel } from './storage.js';

/** A subtree marked with `cache()`. */
export interface CacheMark {
  /** The entry id its result gets. */
  readonly id: string;
  readonly digest: string;
  /**
   * The subtree as marked: a lookup by digest is confirmed against it (structurallyEqual).
   * Cleared once a source it reads changed: the mark can never match again (its digest
   * holds the old version), and the old data should not stay reachable through it.
   */
  plan: RelNode | undefined;
  /** The digest without source versions: equal for the same query over a replaced table. */
  readonly loose: string;
  storageLevel: StorageLevel;
  /** One line describing the subtree's root. */
  readonly label: string;
  readonly tables: readonly string[];
  readonly sourceIds: readonly string[];
  /** Set when the subtree calls a non-deterministic function: it is never cached. */
  readonly nonDeterministic: string | undefined;
  readonly createdAt: Date;
}

/** The digest with every scan's version removed (`version=table:orders#3` → `version=table:orders`). */
export function looseDigest(d: string): string {
  return d.replace(/(version=[^;\]]*?)#\d+/g, '$1');
}

/** Source table ids and names a subtree reads; cache sources count through the subtree they replaced. */
export function sourceTablesOf(n: RelNode): { ids: string[]; names: string[] } {
  const ids = new Map<string, string>();
  const walk = (root: RelNode): void => visit(root, (m) => {
    if (m.kind === 'Scan') ids.set(m.table.id, m.table.name);
    else if (m.kind === 'CacheSource') walk(m.original);
  });
  walk(n);
  return { ids: [...ids.keys()].sort(), names: [...new Set(ids.values())].sort() };
}

/** The non-deterministic functions a subtree calls (`random()`), or undefined when it is deterministic. */
export function nonDeterministicCalls(n: RelNode): string | undefined {
  const found = new Set<string>();
  visit(n, (m) => {
    for (const e of termExpressions(m)) rexVisit(e, (x) => { if (x.kind === 'Call' && FUNCTIONS.get(x.op)?.deterministic === false) found.add(`${x.op}()`); });
  });
  return found.size > 0 ? [...found].sort().join(', ') : undefined;
}

/** A one-line label of a subtree's root, at most 100 characters. */
export function labelOf(n: RelNode): string {
  const s = explainNode(n);
  return s.length > 100 ? `${s.slice(0, 97)}...` : s;
}

/** Creates a mark for a subtree. */
export function makeMark(n: RelNode, id: string, storageLevel: StorageLevel): CacheMark {
  const d = digest(n);
  const t = sourceTablesOf(n);
  return {
    id, digest: d, plan: n, loose: looseDigest(d), storageLevel, label: labelOf(n), tables: t.names, sourceIds: t.ids,
    nonDeterministic: nonDeterministicCalls(n), createdAt: new Date(),
  };
}

/**
 * Marks over a changed source (stale: their subtree was let go) are kept for EXPLAIN's "changed
 * source" notes, but only the newest per query (loose digest) and at most MAX_STALE_MARKS in all,
 * so replacing or dropping tables in a loop does not grow the manager.
 */
export const MAX_STALE_MARKS = 32;

/** Digests of the stale marks to forget: all but the newest per loose digest, then the oldest beyond `max`. */
export function staleMarksToForget(marks: Iterable<CacheMark>, max: number): string[] {
  const forget: string[] = [];
  const newest = new Map<string, CacheMark>();
  for (const m of marks) {
    if (m.plan !== undefined) continue;
    const o = newest.get(m.loose);
    if (o !== undefined && o.createdAt > m.createdAt) { forget.push(m.digest); continue; }
    if (o !== undefined) forget.push(o.digest);
    newest.set(m.loose, m);
  }
  const kept = [...newest.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (let i = 0; i < kept.length - max; i++) forget.push(kept[i]!.digest);
  return forget;
}
