/**
 * The caching half of TableEnvironment (FLIP-36, docs/caching.md): tables
 * cached by name (`cacheTable`, SQL `CACHE [LAZY] TABLE name`), marks and
 * invalidation of plans (`Table.cache`, `Table.invalidateCache`).
 *
 * Decision: a cache follows its name (as in Spark), so after an INSERT into
 * the table or a replacement the new version is marked again and re-created
 * lazily by the next query that reads it; the environment calls `remark()`
 * on every catalog change. Kept apart from the environment so its file holds
 * one concept (registration and queries), the cache bookkeeping another.
 */
import * as rel from '../relnode/rel.js';
import { digest } from '../relnode/digest.js';
import type { CacheServiceManager } from '../cache/manager.js';
import { checkStorageLevel, type CacheOptions } from '../cache/storage.js';

/** What the named caches need of their environment. */
export interface NamedCacheHost {
  readonly cacheManager: CacheServiceManager;
  /** The current plan of a table or view name (throws when it does not resolve). */
  planOf(name: string): rel.RelNode;
  hasTable(name: string): boolean;
}

/** Names cached through `cacheTable`, with their options, and the mark / invalidate operations on plans. */
export class NamedCaches {
  private readonly names = new Map<string, CacheOptions>();

  constructor(private readonly host: NamedCacheHost) {}

  /** Remembers `name` as cached (its plan is marked by the caller). */
  add(name: string, options: CacheOptions): void {
    this.names.set(name.toLowerCase(), options);
  }

  /** Marks every cached name's current plan (idempotent); names that no longer resolve are forgotten. */
  remark(): void {
    const m = this.host.cacheManager;
    for (const [name, options] of this.names) {
      let plan: rel.RelNode;
      try {
        plan = this.host.planOf(name);
      } catch {
        this.names.delete(name); // dropped (or a view over a dropped table)
        continue;
      }
      if (m.conflictOf(plan) === undefined) m.mark(plan, options);
    }
  }

  /** Un-marks a named table and drops its cache; false when it was not cached. */
  async uncache(name: string, ifExists: boolean): Promise<boolean> {
    this.names.delete(name.toLowerCase());
    if (!this.host.hasTable(name) && ifExists) return false;
    const plan = this.host.planOf(name);
    // A digest key held by a structurally different plan is not this table's (see CacheServiceManager.conflictOf).
    if (this.host.cacheManager.conflictOf(plan) !== undefined) return false;
    return this.host.cacheManager.unmark(digest(plan));
  }

  /** Drops every cached result and mark; settles when storage is released. */
  clear(): Promise<void> {
    this.names.clear();
    return this.host.cacheManager.clear();
  }

  /** Marks a plan's result for caching; runs nothing. */
  mark(plan: rel.RelNode, options?: CacheOptions): void {
    if (options?.storageLevel !== undefined) checkStorageLevel(options.storageLevel);
    this.host.cacheManager.mark(plan, options);
  }

  /** Drops a plan's cached result; the mark stays. */
  invalidate(plan: rel.RelNode): Promise<void> {
    if (this.host.cacheManager.conflictOf(plan) !== undefined) return Promise.resolve();
    return this.host.cacheManager.invalidate(digest(plan));
  }
}
