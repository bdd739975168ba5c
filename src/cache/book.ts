/**
 * What the cache holds, keyed by full digest: marks, committed entries, writes
 * in flight, why a digest's last entry was dropped and how often it was lost,
 * and the entry ids (entry-ids.ts) — with the lookups, each confirmed by
 * structural equality with the subtree asked about (a key is never proof).
 *
 * Why a file of its own: this is the state every decision reads (cache
 * substitution looks up marks and entries through it, EXPLAIN and SHOW CACHES
 * describe it), while the manager (manager.ts, which extends it) holds the
 * protocol that changes it: single-flight writes, commits, failover, release.
 */
import { digest as digestOf } from '../relnode/digest.js';
import { structurallyEqual } from '../relnode/equal.js';
import type { RelNode } from '../relnode/rel.js';
import type { CacheEntry, PendingEntry } from './entry.js';
import { EntryIds } from './entry-ids.js';
import type { CacheMark } from './marks.js';

/** The digest-keyed metadata of one environment's cache, and its confirmed lookups. */
export class CacheBook {
  protected readonly markMap = new Map<string, CacheMark>();
  protected readonly entries = new Map<string, CacheEntry>();
  protected readonly ids = new EntryIds();
  protected readonly inflight = new Map<string, PendingEntry>();
  protected readonly dropped = new Map<string, string>();
  protected readonly losses = new Map<string, number>();

  /** The entry id of a subtree (entry-ids.ts). */
  idFor(n: RelNode): string {
    return this.ids.idFor(n);
  }

  /** The mark of a digest (by key only; `markFor` confirms the subtree). */
  markOf(d: string): CacheMark | undefined {
    return this.markMap.get(d);
  }

  /** The mark of a subtree: found by its digest, confirmed by structural equality. */
  markFor(n: RelNode): CacheMark | undefined {
    const m = this.markMap.get(digestOf(n));
    return m?.plan !== undefined && (m.plan === n || structurallyEqual(m.plan, n)) ? m : undefined;
  }

  /** Every mark. */
  marks(): CacheMark[] {
    return [...this.markMap.values()];
  }

  /** True when there is no mark, committed entry or write in progress (cache substitution has nothing to find). */
  isEmpty(): boolean {
    return this.markMap.size === 0 && this.entries.size === 0 && this.inflight.size === 0;
  }

  /** The committed entry of a digest key (unconfirmed: prefer `entryFor`, which checks the subtree). */
  entryOf(d: string): CacheEntry | undefined {
    return this.entries.get(d);
  }

  /** The committed entry of a subtree: found by its digest, confirmed by structural equality with the subtree it holds. */
  entryFor(n: RelNode): CacheEntry | undefined {
    const e = this.entries.get(digestOf(n));
    return e !== undefined && (e.plan === n || structurallyEqual(e.plan, n)) ? e : undefined;
  }

  /**
   * When the digest of `n` is the key of a mark, entry or write of a structurally
   * different subtree, what holds it ('mark', 'entry', 'write'); undefined otherwise.
   * Such a key is neither read nor written for `n` (it would mean the digest lost
   * information; structural equality keeps that from giving a wrong answer).
   */
  conflictOf(n: RelNode): 'mark' | 'entry' | 'write' | undefined {
    const d = digestOf(n);
    const differs = (plan: RelNode | undefined): boolean => plan !== undefined && plan !== n && !structurallyEqual(plan, n);
    if (differs(this.entries.get(d)?.plan)) return 'entry';
    if (differs(this.inflight.get(d)?.meta.plan)) return 'write';
    if (differs(this.markMap.get(d)?.plan)) return 'mark';
    return undefined;
  }

  /** The committed entry with this id. */
  entryById(id: string): CacheEntry | undefined {
    const d = this.ids.digestOf(id);
    return d === undefined ? undefined : this.entries.get(d);
  }

  /** True while some query writes this digest. */
  isWriting(d: string): boolean {
    return this.inflight.has(d);
  }

  /** Why the last entry of a digest was dropped ('invalidated', 'lost', 'changed source', ...). */
  dropReason(d: string): string | undefined {
    return this.dropped.get(d);
  }

  /** Forgets drop reasons, loss counts and the id of a digest that has no mark, entry or write. */
  protected forgetDigest(d: string): void {
    if (this.markMap.has(d) || this.entries.has(d) || this.inflight.has(d)) return;
    this.dropped.delete(d);
    this.losses.delete(d);
    this.ids.forget(d);
  }

  /** Sizes of the manager's bookkeeping (tests check that it stays bounded). */
  bookkeeping(): { marks: number; staleMarks: number; digests: number; dropReasons: number; lossCounts: number } {
    let staleMarks = 0;
    for (const m of this.markMap.values()) if (m.plan === undefined) staleMarks++;
    return { marks: this.markMap.size, staleMarks, digests: this.ids.size, dropReasons: this.dropped.size, lossCounts: this.losses.size };
  }
}
