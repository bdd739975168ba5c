/**
 * Cache entries: a committed entry (the metadata of a materialized result)
 * and a pending one (being written by a running query's cache sink). A pending
 * entry writes its blocks straight into the instances, so it counts against
 * their budgets and can spill; it becomes an entry only at commit, after the
 * job succeeded and every block is verified present. Small incoming batches
 * are first coalesced into blocks of about the batch size (coalesce.ts).
 */
import type { RecordBatch } from 'apache-arrow';
import type { RelNode } from '../relnode/rel.js';
import type { Schema } from '../relnode/types.js';
import type { CacheServiceInstance } from './instance.js';
import { batchBytes } from './instance.js';
import { BlockCoalescer } from './coalesce.js';
import { compactForCache } from './compact.js';
import { LazyBlockStats } from './lazy-stats.js';
import type { BlockStats } from './stats.js';
import type { StorageLevel } from './storage.js';

/** One stored batch of a partition. */
export interface BlockRef {
  readonly key: string;
  readonly bytes: number;
  /** Zone maps, each column computed on its first request or when the block spills (lazy-stats.ts). */
  readonly stats: BlockStats;
}

/** One partition of an entry: where it lives and its blocks in order. */
export interface PartitionRef {
  readonly instance: number;
  readonly blocks: readonly BlockRef[];
}

/** What the manager knows about the subtree an entry holds. */
export interface EntryMeta {
  /** The subtree as built: a lookup by digest is confirmed against it (structurallyEqual). */
  readonly plan: RelNode;
  readonly schema: Schema;
  /** Ids of the source tables the subtree reads (`table:orders`), including through caches it read. */
  readonly sourceIds: readonly string[];
  /** Display names of those tables. */
  readonly tables: readonly string[];
  /** One line describing the subtree's root (`Filter(condition=[...])`). */
  readonly label: string;
}

/** A materialized cache entry. */
export interface CacheEntry extends EntryMeta {
  /** Display id (the digest's hash, `c` + 16 hex digits); unique among the manager's digests. */
  readonly id: string;
  /** The full digest: the key, compared in full. */
  readonly digest: string;
  /** Prefix of this materialization's block keys (distinct for every write of the same digest). */
  readonly store: string;
  readonly storageLevel: StorageLevel;
  readonly partitions: readonly PartitionRef[];
  readonly rows: number;
  /** In-memory size of all blocks. */
  readonly bytes: number;
  /** Entry ids this entry's query read from the cache while computing it. */
  readonly dependsOn: readonly string[];
  readonly createdAt: Date;
  /** Queries that read this entry. */
  hits: number;
}

interface PendingPartition {
  instance: number;
  readonly blocks: BlockRef[];
  /** Small batches not yet stored (fewer than the batch size rows). */
  readonly buffer: BlockCoalescer;
  finished: boolean;
}

/** The first block of `partitions` (stored under `store`) that its instance no longer holds, or undefined when every block is there. */
export function missingBlock(partitions: readonly { readonly instance: number; readonly blocks: readonly BlockRef[] }[], instances: readonly CacheServiceInstance[], store: string): { partition: number; block: number; instance: number } | undefined {
  for (let p = 0; p < partitions.length; p++) {
    const part = partitions[p]!;
    const inst = instances[part.instance]!;
    for (let b = 0; b < part.blocks.length; b++) if (!inst.has(part.blocks[b]!.key, store)) return { partition: p, block: b, instance: part.instance };
  }
  return undefined;
}

/** What is wrong with a committed entry's storage (a block missing), or undefined when it is intact. */
export function entryProblem(e: CacheEntry, instances: readonly CacheServiceInstance[]): string | undefined {
  const m = missingBlock(e.partitions, instances, e.store);
  return m === undefined ? undefined : `partition ${m.partition} (batch ${m.block}) on instance ${m.instance} is gone (instance killed, spill file deleted, or dropped under MEMORY_ONLY)`;
}

/** Block size when the sink's context does not say (the environment's default batch size). */
export const DEFAULT_BLOCK_ROWS = 65536;

/** An entry being written by one running query (single flight: at most one per digest). */
export class PendingEntry {
  private readonly parts: PendingPartition[] = [];
  private parallelism: number | undefined;
  /** Set when the entry must not be committed (invalidated, released or uncached while being written). */
  abandoned: string | undefined;
  /** Settles when the write ends (commit or abort): waiting queries then re-plan. */
  readonly done: Promise<void>;
  private settle!: () => void;

  constructor(
    readonly id: string,
    readonly digest: string,
    readonly store: string,
    readonly level: StorageLevel,
    readonly meta: EntryMeta,
    readonly dependsOn: readonly string[],
    private readonly instances: readonly CacheServiceInstance[],
  ) {
    this.done = new Promise<void>((r) => { this.settle = r; });
  }

  /** Marks the write as ended (idempotent). */
  end(): void {
    this.settle();
  }

  /** Starts partition `p` of `parallelism` (one per sink subtask); its blocks aim at `blockRows` rows. */
  open(p: number, parallelism: number, blockRows = DEFAULT_BLOCK_ROWS): void {
    if (this.parallelism === undefined) this.parallelism = parallelism;
    this.parts[p] = { instance: p % this.instances.length, blocks: [], buffer: new BlockCoalescer(Math.max(1, blockRows)), finished: false };
  }

  /** Appends a batch to partition `p`: buffered while small, stored as part of a block of about the batch size (coalesce.ts). */
  append(p: number, batch: RecordBatch): void {
    const part = this.parts[p]!;
    if (this.abandoned !== undefined) { part.buffer.discard(); return; } // it will not be committed: store nothing more
    for (const block of part.buffer.add(batch)) this.store1(p, part, block);
  }

  /**
   * Stores one block (compacted when it is a small view of big buffers) on the partition's
   * instance. Its statistics are computed later: per column on the first request, all of them if
   * it spills first (lazy-stats.ts).
   */
  private store1(p: number, part: PendingPartition, block: RecordBatch): void {
    const key = `${this.store}/${p}/${part.blocks.length}`;
    const stored = compactForCache(block);
    const bytes = batchBytes(stored);
    const inst = this.instances[part.instance]!;
    const store = this.store;
    const stats = new LazyBlockStats(stored.numRows, stored.data.children.length, () => inst.peek(key, store));
    part.blocks.push({ key, bytes, stats });
    inst.put(key, store, stored, bytes, this.level, (b) => stats.seal(b));
  }

  /** Partition `p` received all its input: its buffered rows are stored (an empty partition keeps one empty block). */
  finish(p: number): void {
    const part = this.parts[p]!;
    const last = this.abandoned === undefined ? part.buffer.flush() : undefined;
    part.buffer.discard();
    if (last !== undefined && (last.numRows > 0 || part.blocks.length === 0)) this.store1(p, part, last);
    part.finished = true;
  }

  /** True once any sink subtask opened (false when the optimizer removed the sink from the plan). */
  get started(): boolean {
    return this.parallelism !== undefined;
  }

  /** Why the written data is not a complete entry, or undefined when it is. */
  problem(): string | undefined {
    if (this.abandoned !== undefined) return this.abandoned;
    if (this.parallelism === undefined) return 'the sink never ran';
    const parts = this.parts.slice(0, this.parallelism);
    for (let p = 0; p < this.parallelism; p++) if (parts[p] === undefined || !parts[p]!.finished) return `partition ${p} was not completed`;
    const m = missingBlock(parts, this.instances, this.store);
    return m === undefined ? undefined : `partition ${m.partition} (batch ${m.block}) on instance ${m.instance} was lost while it was written (instance killed, or dropped under MEMORY_ONLY)`;
  }

  /** The committed entry (call only when `problem()` is undefined). */
  toEntry(): CacheEntry {
    const partitions: PartitionRef[] = this.parts.slice(0, this.parallelism).map((p) => ({ instance: p.instance, blocks: p.blocks }));
    let rows = 0;
    let bytes = 0;
    for (const p of partitions) for (const b of p.blocks) { rows += b.stats.rows; bytes += b.bytes; }
    return {
      ...this.meta, id: this.id, digest: this.digest, store: this.store, storageLevel: this.level,
      partitions, rows, bytes, dependsOn: this.dependsOn, createdAt: new Date(), hits: 0,
    };
  }

  /** The instances holding this write's blocks. */
  instancesUsed(): CacheServiceInstance[] {
    return [...new Set(this.parts.filter((p) => p !== undefined).map((p) => this.instances[p.instance]!))];
  }
}
