/**
 * What the cache reports: one row per entry or mark (SHOW CACHES), totals
 * (metrics), events (commits, losses, invalidations) and the EXPLAIN
 * annotation of a cache source.
 */
import type { CacheEntry, PendingEntry } from './entry.js';
import type { CacheServiceInstance } from './instance.js';
import type { CacheMark } from './marks.js';
import type { StorageLevel } from './storage.js';

/** Where an entry's blocks are: all in memory, all on disk, both, partly gone, or nowhere (not materialized). */
export type CacheTier = 'memory' | 'disk' | 'memory+disk' | 'lost' | 'none';

/** One row of SHOW CACHES. */
export interface CacheEntryInfo {
  readonly id: string;
  /** The full digest (show a prefix). */
  readonly digest: string;
  /** 'materialized'; 'marked' (cache() called, not computed yet); 'writing' (a query computes it now); 'not cacheable' (non-deterministic). */
  readonly state: 'materialized' | 'marked' | 'writing' | 'not cacheable';
  readonly rows: number;
  /** In-memory size of all blocks. */
  readonly bytes: number;
  /** Bytes resident in memory now. */
  readonly memoryBytes: number;
  /** In-memory size of the blocks that are only on disk now (spilled). */
  readonly diskBytes: number;
  readonly tier: CacheTier;
  readonly hits: number;
  readonly partitions: number;
  /** Source tables the cached subtree reads. */
  readonly tables: readonly string[];
  readonly storageLevel: StorageLevel;
  /** "cache lost" events of this digest so far. */
  readonly losses: number;
  /** True when `cache()` marked it (false for entries made by the cache-everything test switch). */
  readonly marked: boolean;
  /** The subtree's root, one line. */
  readonly label: string;
  /** Why a mark is not materialized (last drop reason, or non-determinism). */
  readonly reason?: string;
}

/** Totals of a cache manager. */
export interface CacheStats {
  readonly entries: number;
  readonly marks: number;
  /** Writes in flight. */
  readonly writing: number;
  readonly memoryBytes: number;
  readonly diskBytes: number;
  /** Queries that read an entry (one per entry read). */
  readonly hits: number;
  /** Entries a query had to compute (one per cache sink run). */
  readonly misses: number;
  /** "cache lost" events. */
  readonly lost: number;
  /** Blocks that left memory for the budget (spilled or dropped). */
  readonly evictions: number;
  readonly blocksRead: number;
  /** Blocks skipped by min/max/null statistics. */
  readonly blocksSkipped: number;
}

/** Something that happened to an entry. */
export interface CacheEvent {
  readonly at: Date;
  /** 'dropped': a block was dropped instead of spilled (disk budget or a full volume); its entry is lost when next read. */
  readonly kind: 'committed' | 'lost' | 'invalidated' | 'dropped';
  readonly entryId: string;
  readonly detail: string;
}

interface Placement {
  readonly tier: CacheTier;
  readonly memoryBytes: number;
  readonly diskBytes: number;
}

function placement(e: CacheEntry, instances: readonly CacheServiceInstance[]): Placement {
  let mem = 0;
  let disk = 0;
  let memBytes = 0;
  let missing = 0;
  for (const p of e.partitions) {
    const inst = instances[p.instance]!;
    for (const b of p.blocks) {
      const t = inst.tierOf(b.key);
      if (t === 'memory') { mem++; memBytes += b.bytes; } else if (t === 'disk') disk++; else missing++;
    }
  }
  const tier: CacheTier = missing > 0 ? 'lost' : disk === 0 ? 'memory' : mem === 0 ? 'disk' : 'memory+disk';
  return { tier, memoryBytes: memBytes, diskBytes: e.bytes - memBytes };
}

/** A SHOW CACHES row of a committed entry. */
export function entryInfo(e: CacheEntry, instances: readonly CacheServiceInstance[], losses: number, marked: boolean): CacheEntryInfo {
  const pl = placement(e, instances);
  return {
    id: e.id, digest: e.digest, state: 'materialized', rows: e.rows, bytes: e.bytes, memoryBytes: pl.memoryBytes, diskBytes: pl.tier === 'memory' ? 0 : pl.diskBytes,
    tier: pl.tier, hits: e.hits, partitions: e.partitions.length, tables: e.tables, storageLevel: e.storageLevel, losses, marked, label: e.label,
  };
}

/** Formats a byte count (`1.5 MiB`). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${v.toFixed(1)} ${units[u]}`;
}

/** The EXPLAIN annotation of a cache source: rows, bytes, tier. */
export function describeEntry(e: CacheEntry, instances: readonly CacheServiceInstance[]): string {
  return `rows=${e.rows} bytes=${formatBytes(e.bytes)} tier=${placement(e, instances).tier} partitions=${e.partitions.length}`;
}

/** What SHOW CACHES reads from the manager. */
export interface CacheListing {
  readonly entries: ReadonlyMap<string, CacheEntry>;
  readonly marks: ReadonlyMap<string, CacheMark>;
  readonly inflight: ReadonlyMap<string, PendingEntry>;
  readonly losses: ReadonlyMap<string, number>;
  readonly dropped: ReadonlyMap<string, string>;
  readonly instances: readonly CacheServiceInstance[];
}

/** SHOW CACHES: materialized entries, then marks not materialized. */
export function listCaches(c: CacheListing): CacheEntryInfo[] {
  const out = [...c.entries.values()].map((e) => entryInfo(e, c.instances, c.losses.get(e.digest) ?? 0, c.marks.has(e.digest)));
  for (const m of c.marks.values()) {
    if (c.entries.has(m.digest)) continue;
    out.push({
      id: m.id, digest: m.digest, state: c.inflight.has(m.digest) ? 'writing' : m.nonDeterministic ? 'not cacheable' : 'marked',
      rows: 0, bytes: 0, memoryBytes: 0, diskBytes: 0, tier: 'none', hits: 0, partitions: 0, tables: m.tables,
      storageLevel: m.storageLevel, losses: c.losses.get(m.digest) ?? 0, marked: true, label: m.label,
      ...(m.nonDeterministic ? { reason: `non-deterministic: ${m.nonDeterministic}` } : c.dropped.has(m.digest) ? { reason: c.dropped.get(m.digest)! } : {}),
    });
  }
  return out;
}
