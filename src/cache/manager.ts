/**
 * The CacheServiceManager (one per environment, FLIP-36): the metadata of
 * cached results — marks, committed entries keyed by full digest, writes in
 * flight — and the N cache service instances that store the data.
 *
 * Materialization is single flight: `beginWrite` hands one query the pending
 * entry of a digest and tells any other query to wait for it (`busy`); the
 * waiter re-plans once the write ends and then reads the committed entry (or,
 * if the write failed, writes it itself). A write commits only after its job
 * succeeded and every block is verified present; otherwise it is discarded.
 *
 * Marks, entries and writes are keyed by the full digest string, but a key
 * is never taken as proof: `markFor`, `entryFor` and `beginWrite` confirm
 * that the stored subtree is structurally equal to the one asked about
 * (relnode/equal.ts). A key held by a different subtree (`conflictOf`) is
 * a miss and is neither read nor overwritten. That digest-keyed state and its
 * lookups are the CacheBook (book.ts) this class extends; this file is the
 * protocol that changes it (writes, commits, failover, release, reporting).
 */
import { digest as digestOf } from '../relnode/digest.js';
import type { RelNode } from '../relnode/rel.js';
import type { RexNode } from '../relnode/rex.js';
import { InternalError } from '../relnode/errors.js';
import type { SourceFactory } from '../exec/operator.js';
import { entryProblem, PendingEntry, type CacheEntry } from './entry.js';
import { CacheBook } from './book.js';
import { CacheServiceInstance, type EvictionEvent } from './instance.js';
import { labelOf, makeMark, MAX_STALE_MARKS, sourceTablesOf, staleMarksToForget, type CacheMark } from './marks.js';
import { cacheSourceFactory, type BlockReadInfo } from './source.js';
import { SpillArea } from './spill.js';
import type { BlockStats } from './stats.js';
import { feedbackSpill } from './feedback-spill.js';
import type { BatchSpill } from '../exec/runtime.js';
import type { CacheOptions, ResolvedCacheOptions } from './storage.js';
import { CacheEventLog } from './events.js';
import { describeEntry, listCaches, type CacheEntryInfo, type CacheEvent, type CacheStats } from './report.js';

/** Test and monitoring hooks. */
export interface CacheHooks {
  /** Called before each cached block is read (fault injection: kill an instance here). */
  beforeRead?: (info: BlockReadInfo) => void;
  /** Called after a block left memory (spilled or dropped). */
  onEvict?: (e: EvictionEvent) => void;
}

/** The cache service manager of one environment. */
export class CacheServiceManager extends CacheBook {
  /** The cache service instances. */
  readonly instances: readonly CacheServiceInstance[];
  /** Hooks (tests set them). */
  readonly hooks: CacheHooks = {};
  private readonly spill: SpillArea;
  private readonly eventLog = new CacheEventLog();
  private readonly counters = { hits: 0, misses: 0, lost: 0, blocksRead: 0, blocksSkipped: 0 };
  private writes = 0;
  private changes = 0;

  constructor(readonly options: ResolvedCacheOptions) {
    super();
    this.spill = new SpillArea(options.spillDir, options.diskBudgetBytes);
    const per = Math.floor(options.memoryBudgetBytes / options.instances);
    this.instances = Array.from({ length: options.instances }, (_, i) => new CacheServiceInstance(i, per, this.spill, (e) => this.evicted(e)));
  }

  /** A block left memory: a drop the storage level did not ask for (disk budget, full volume) gets one 'dropped' event per write. */
  private evicted(e: EvictionEvent): void {
    if (e.outcome === 'dropped' && e.reason !== undefined) {
      const store = e.key.slice(0, e.key.indexOf('/'));
      if (this.eventLog.firstDropOf(store)) {
        this.event('dropped', store.slice(0, store.lastIndexOf('.')), `a block of instance ${e.instance} was dropped instead of spilled: ${e.reason}`);
      }
      // A write that lost a block can never commit: stop it from filling memory and disk any further.
      for (const w of this.inflight.values()) {
        if (w.store !== store || w.abandoned !== undefined) continue;
        w.abandoned = `a block was dropped instead of spilled: ${e.reason}`;
        queueMicrotask(() => { void Promise.all(this.instances.map((i) => i.deleteStore(store))); });
      }
    }
    this.hooks.onEvict?.(e);
  }

  /** Bytes of spill files now, and the disk budget (computed at the first spill when not configured). */
  diskUsage(): { usedBytes: number; budgetBytes: number | undefined } {
    return { usedBytes: this.spill.usedBytes, budgetBytes: this.spill.directory === undefined ? this.options.diskBudgetBytes : this.spill.budgetBytes };
  }

  /**
   * Changes with every mark, unmark, write begun or ended, commit, invalidation, loss and
   * release: a plan made under one version finds the same marks, entries and writes as
   * planning again would (plans over cache entries are reused only under their version:
   * api/physical-plans.ts).
   */
  get version(): number {
    return this.changes;
  }

  /** True when every subtree counts as marked (the test switch). */
  get cacheAllSubtrees(): boolean {
    return this.options.cacheAllSubtrees;
  }

  /** @internal The spill area: stream list state and replayed iteration data spill here too (src/iteration/list-state.ts). */
  get spillArea(): SpillArea {
    return this.spill;
  }

  /** The private spill directory, once something was spilled. */
  get spillDirectory(): string | undefined {
    return this.spill.directory;
  }

  /** A spill store for one run's iteration feedback queues, in this cache's spill area (same disk budget). */
  feedbackSpill(): BatchSpill {
    return feedbackSpill(this.spill);
  }

  // ---------------------------------------------------------------- ids and marks

  /** Marks a subtree for caching (lazy: runs nothing); marking it again only updates its options. */
  mark(n: RelNode, options?: CacheOptions): CacheMark {
    const d = digestOf(n);
    const level = options?.storageLevel ?? this.options.storageLevel;
    const m = this.markMap.get(d);
    if (m !== undefined) { if (options?.storageLevel) m.storageLevel = level; return m; }
    const mark = makeMark(n, this.idFor(n), level);
    for (const old of [...this.markMap.values()]) if (old.plan === undefined && old.loose === mark.loose) this.forgetMark(old.digest);
    this.markMap.set(d, mark);
    this.changes++;
    return mark;
  }

  /** Removes a mark and its entry (UNCACHE); returns false when the digest was not marked. */
  async unmark(d: string): Promise<boolean> {
    const had = this.markMap.delete(d);
    this.changes++;
    await this.invalidate(d, 'uncached');
    return had;
  }

  // ---------------------------------------------------------------- lookup

  /** `rows=… bytes=… tier=…` of an entry, for EXPLAIN. */
  describe(id: string): string | undefined {
    const e = this.entryById(id);
    return e === undefined ? undefined : describeEntry(e, this.instances);
  }

  // ---------------------------------------------------------------- writing

  /**
   * Starts writing the entry of `n` (the subtree as built; `dependsOn`: entries
   * its optimized plan reads). Returns the pending entry, or `busy` — a Promise
   * that settles when another query's write of the same digest ends.
   */
  beginWrite(n: RelNode, dependsOn: readonly string[]): { pending: PendingEntry } | { busy: Promise<void> } {
    const d = digestOf(n);
    const conflict = this.conflictOf(n);
    if (conflict !== undefined) throw new InternalError(`cache write of ${this.idFor(n)} refused: its digest key belongs to a different plan (${conflict})`);
    const running = this.inflight.get(d);
    if (running !== undefined) return { busy: running.done };
    if (this.entries.has(d)) return { busy: Promise.resolve() };
    const id = this.idFor(n);
    const t = sourceTablesOf(n);
    const level = this.markMap.get(d)?.storageLevel ?? this.options.storageLevel;
    const pending = new PendingEntry(id, d, `${id}.${++this.writes}`, level, { plan: n, schema: n.schema, sourceIds: t.ids, tables: t.names, label: labelOf(n) }, dependsOn, this.instances);
    this.inflight.set(d, pending);
    this.changes++;
    this.counters.misses++;
    return { pending };
  }

  /** Commits a write after its job succeeded; returns false (and discards it) when it is incomplete. */
  async commit(p: PendingEntry): Promise<boolean> {
    const problem = p.started ? p.problem() : undefined;
    if (!p.started || problem !== undefined) {
      if (problem !== undefined && p.abandoned === undefined) this.recordLoss(p.digest, p.id, `not committed: ${problem}`);
      // Why the mark stays unmaterialized (SHOW CACHES note), e.g. a block dropped to the disk budget.
      else if (p.abandoned !== undefined && p.abandoned !== 'cleared') this.dropped.set(p.digest, `not committed: ${p.abandoned}`);
      await this.abort(p);
      return false;
    }
    const e = p.toEntry();
    this.entries.set(p.digest, e);
    this.changes++;
    this.dropped.delete(p.digest);
    this.inflight.delete(p.digest);
    this.event('committed', e.id, `${e.rows} rows, ${e.partitions.length} partitions`);
    p.end();
    return true;
  }

  /** Discards a write (its job failed or was cancelled, or it is incomplete); settles when its storage is freed. */
  async abort(p: PendingEntry): Promise<void> {
    if (this.inflight.get(p.digest) === p) this.inflight.delete(p.digest);
    this.changes++;
    p.end();
    await Promise.all(this.instances.map((i) => i.deleteStore(p.store)));
  }

  // ---------------------------------------------------------------- reading and failover

  /** A source factory reading an entry, and its number of partitions. */
  sourceFor(id: string, projection?: readonly number[], filters?: readonly RexNode[]): { factory: SourceFactory; partitions: number } | undefined {
    const e = this.entryById(id);
    if (e === undefined) return undefined;
    const factory = cacheSourceFactory(e, this.instances, {
      ...(projection ? { projection } : {}), ...(filters ? { filters } : {}),
      beforeRead: (info) => this.hooks.beforeRead?.(info), counters: this.counters,
    });
    return { factory, partitions: e.partitions.length };
  }

  /** Counts a query that reads these entries. */
  recordHits(ids: readonly string[]): void {
    for (const id of ids) {
      const e = this.entryById(id);
      if (e !== undefined) { e.hits++; this.counters.hits++; }
    }
  }

  /** What is wrong with an entry's storage (a block missing), or undefined when it is intact. */
  verify(e: CacheEntry): string | undefined {
    return entryProblem(e, this.instances);
  }

  /**
   * The statistics of every block of an entry, partition by partition, when every block is
   * present (an ungrouped min/max/count is answered from them: planner/cache-stats-answer.ts);
   * undefined when the entry is gone or broken (the query then reads it, and the loss is handled there).
   */
  blockStatsOf(id: string): BlockStats[] | undefined {
    const e = this.entryById(id);
    if (e === undefined || this.verify(e) !== undefined) return undefined;
    const out: BlockStats[] = [];
    for (const p of e.partitions) for (const b of p.blocks) out.push(b.stats);
    return out;
  }

  /** Checks entries (all when `ids` is undefined); each broken one gets a "cache lost" event and is dropped. Returns how many. */
  dropBroken(ids?: readonly string[]): number {
    const list = ids === undefined ? [...this.entries.values()] : ids.map((id) => this.entryById(id)).filter((e): e is CacheEntry => e !== undefined);
    let n = 0;
    for (const e of new Set(list)) {
      const problem = this.verify(e);
      if (problem === undefined) continue;
      this.lost(e.id, problem);
      n++;
    }
    return n;
  }

  /**
   * Records a "cache lost" event for an entry and drops it (its mark stays, so the next run
   * re-creates it). With `store`, only if that materialization is still the committed one; returns
   * false when there was nothing to lose (the entry was invalidated or replaced meanwhile).
   */
  lost(id: string, detail: string, store?: string): boolean {
    const e = this.entryById(id);
    if (e === undefined || (store !== undefined && e.store !== store)) return false;
    this.recordLoss(e.digest, id, detail);
    void this.invalidate(e.digest, 'lost');
    return true;
  }

  private recordLoss(d: string, id: string, detail: string): void {
    this.counters.lost++;
    this.losses.set(d, (this.losses.get(d) ?? 0) + 1);
    this.event('lost', id, detail);
  }

  // ---------------------------------------------------------------- releasing

  /** Drops the entry of a digest (idempotent); settles when its memory and files are released. A write in flight is not committed. */
  async invalidate(d: string, reason = 'invalidated'): Promise<void> {
    this.changes++;
    const w = this.inflight.get(d);
    if (w !== undefined) w.abandoned = reason;
    const e = this.entries.get(d);
    if (e === undefined) return;
    this.entries.delete(d);
    this.dropped.set(d, reason);
    if (reason !== 'lost') this.event('invalidated', e.id, reason);
    await Promise.all(this.instances.map((i) => i.deleteStore(e.store)));
  }

  /**
   * Drops every entry (and write in flight) that reads the source table `tableId`, including caches
   * built on caches; marks over it let go of their subtree and are pruned (MAX_STALE_MARKS), and
   * what the manager remembered about dropped digests nothing marks any more is forgotten.
   */
  async releaseDependents(tableId: string): Promise<void> {
    this.changes++;
    for (const m of this.markMap.values()) if (m.sourceIds.includes(tableId)) m.plan = undefined;
    for (const w of this.inflight.values()) if (w.meta.sourceIds.includes(tableId)) w.abandoned = 'changed source';
    const gone = [...this.entries.values()].filter((e) => e.sourceIds.includes(tableId));
    await Promise.all(gone.map((e) => this.invalidate(e.digest, 'changed source')));
    for (const d of staleMarksToForget(this.markMap.values(), MAX_STALE_MARKS)) this.forgetMark(d);
    for (const e of gone) if (!this.markMap.has(e.digest)) this.forgetDigest(e.digest);
  }

  /** Removes a mark and what is remembered about its digest (nothing is materialized for a stale mark). */
  private forgetMark(d: string): void {
    this.markMap.delete(d);
    this.changes++;
    this.forgetDigest(d);
  }

  /** Drops every entry and mark (CLEAR CACHE). */
  async clear(): Promise<void> {
    this.markMap.clear();
    this.changes++;
    await Promise.all([...this.entries.keys()].map((d) => this.invalidate(d, 'cleared')));
    for (const w of this.inflight.values()) w.abandoned = 'cleared';
  }

  /** Releases everything, spill directory included. */
  async close(): Promise<void> {
    await this.clear();
    for (const w of [...this.inflight.values()]) await this.abort(w);
    for (const i of this.instances) i.kill();
    await this.spill.close();
  }

  // ---------------------------------------------------------------- reporting

  /** Entries and marks, one row each (SHOW CACHES): materialized entries, then marks not materialized. */
  list(): CacheEntryInfo[] {
    return listCaches({ entries: this.entries, marks: this.markMap, inflight: this.inflight, losses: this.losses, dropped: this.dropped, instances: this.instances });
  }

  /** Totals over the manager and its instances. */
  stats(): CacheStats {
    let memoryBytes = 0, diskBytes = 0, evictions = 0;
    for (const i of this.instances) { memoryBytes += i.memoryBytes(); diskBytes += i.diskBytes(); evictions += i.evictions; }
    return { entries: this.entries.size, marks: this.markMap.size, writing: this.inflight.size, memoryBytes, diskBytes, evictions, ...this.counters };
  }

  /** Recent events (commits, losses, invalidations), oldest first. */
  events(): readonly CacheEvent[] {
    return this.eventLog.events();
  }

  private event(kind: CacheEvent['kind'], entryId: string, detail: string): void {
    this.eventLog.push(kind, entryId, detail);
  }
}
