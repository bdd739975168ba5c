/**
 * A cache service instance: stores blocks (one Arrow RecordBatch each, kept
 * as given: the writer compacts small slices of big buffers first, compact.ts)
 * of the partitions assigned to it, within a byte budget.
 *
 * Memory is an `lru-cache` bounded by `maxSize` with sizes from the batches'
 * buffer byte lengths. An evicted block spills to an Arrow IPC file
 * (MEMORY_AND_DISK) or is dropped (MEMORY_ONLY: its entry is then lost). A
 * block larger than the whole budget goes straight to disk (or is dropped).
 * Reading a spilled block loads it back into memory when that evicts no block
 * of the same store (free memory, or the least recently used blocks belong to
 * other entries); its file stays until the block is deleted, so evicting it
 * again costs no write. Otherwise the block is served from disk without
 * entering memory, reading only the columns asked for (spill-format.ts):
 * under plain LRU admission, scanning an entry larger than the budget evicted
 * each block just before it was needed again (every read of every query went
 * to disk); now the resident part stays resident. A spill the
 * disk budget refuses (spill.ts) drops the block, as MEMORY_ONLY would; a
 * spill file that changed on disk fails its checksum on read (the block is
 * lost, never misread).
 *
 * The unit of eviction is one batch rather than a whole partition: the budget
 * holds exactly, a partition larger than the budget can still be partly
 * resident, and a batch that statistics prune is never read from disk.
 */
import type { Data, RecordBatch } from 'apache-arrow';
import { LRUCache } from 'lru-cache';
import type { SpillArea, SpillFile } from './spill.js';
import type { StorageLevel } from './storage.js';

/** What happened to a block leaving memory. */
export interface EvictionEvent {
  readonly instance: number;
  readonly key: string;
  readonly bytes: number;
  /** 'spilled' to disk, or 'dropped' (MEMORY_ONLY, or the spill write failed). */
  readonly outcome: 'spilled' | 'dropped';
  /** Why a block was dropped although its level spills (disk budget, full volume, a failed write). */
  readonly reason?: string;
  /** Resident bytes of the instance when the event fired (after the block left). */
  readonly memoryBytes: number;
  readonly budgetBytes: number;
}

interface MemoryBlock {
  readonly batch: RecordBatch;
  readonly bytes: number;
  readonly level: StorageLevel;
  readonly store: string;
  /** Called with the batch just before it is written to a spill file (the writer's statistics take what they still need). */
  readonly beforeSpill?: (batch: RecordBatch) => void;
}

interface DiskBlock {
  readonly file: SpillFile;
  /** The block's size in memory (what loading it back costs). */
  readonly bytes: number;
}

/** Bytes of a column's buffers (children and dictionary included). */
function dataBytes(d: Data): number {
  let n = (d.values?.byteLength ?? 0) + (d.valueOffsets?.byteLength ?? 0) + (d.nullBitmap?.byteLength ?? 0) + (d.typeIds?.byteLength ?? 0);
  for (const c of d.children) n += dataBytes(c);
  if (d.dictionary) for (const c of d.dictionary.data) n += dataBytes(c);
  return n;
}

/** The memory a batch is charged for: the byte lengths of its buffers (views count their own length). */
export function batchBytes(batch: RecordBatch): number {
  let n = 0;
  for (const c of batch.data.children) n += dataBytes(c);
  return Math.max(1, n);
}

/** One cache service instance. */
export class CacheServiceInstance {
  private readonly memory: LRUCache<string, MemoryBlock>;
  private readonly disk = new Map<string, DiskBlock>();
  /** Live block keys per store (one store = one entry's blocks on this instance). */
  private readonly stores = new Map<string, Set<string>>();
  private diskTotal = 0;
  /** Blocks that left memory because of the budget. */
  evictions = 0;
  /** Times this instance was killed. */
  kills = 0;
  /** Blocks read from spill files. */
  diskReads = 0;

  constructor(
    /** Position among the environment's instances. */
    readonly index: number,
    /** Byte budget of this instance's memory. */
    readonly budgetBytes: number,
    private readonly spill: SpillArea,
    private readonly onEvict?: (e: EvictionEvent) => void,
  ) {
    this.memory = new LRUCache<string, MemoryBlock>({
      maxSize: Math.max(1, budgetBytes),
      sizeCalculation: (b) => b.bytes,
      dispose: (b, key, reason) => { if (reason === 'evict') this.evicted(key, b); },
    });
  }

  /**
   * Stores a block (already sized); it may evict older blocks, or go straight to disk when larger
   * than the budget. `beforeSpill` is called with the batch just before it is written to a spill
   * file (the first time only: a block loaded back keeps its file).
   */
  put(key: string, store: string, batch: RecordBatch, bytes: number, level: StorageLevel, beforeSpill?: (batch: RecordBatch) => void): void {
    let keys = this.stores.get(store);
    if (keys === undefined) { keys = new Set(); this.stores.set(store, keys); }
    keys.add(key);
    const block: MemoryBlock = { batch, bytes, level, store, ...(beforeSpill ? { beforeSpill } : {}) };
    if (bytes <= this.budgetBytes) this.memory.set(key, block);
    else this.evicted(key, block);
  }

  private evicted(key: string, b: MemoryBlock): void {
    this.evictions++;
    let outcome: EvictionEvent['outcome'] = 'dropped';
    let reason: string | undefined;
    if (this.disk.has(key)) outcome = 'spilled'; // loaded back earlier: the file is still there
    else if (b.level === 'MEMORY_AND_DISK') {
      try {
        b.beforeSpill?.(b.batch);
        const r = this.spill.write(this.index, key, b.batch);
        if (typeof r === 'string') reason = r;
        else {
          this.disk.set(key, { file: r, bytes: b.bytes });
          this.diskTotal += r.fileBytes;
          outcome = 'spilled';
        }
      } catch (e) {
        reason = `the spill write failed: ${e instanceof Error ? e.message : String(e)}`; // the block is lost (its entry on read)
      }
    }
    if (outcome === 'dropped') this.stores.get(b.store)?.delete(key);
    this.onEvict?.({ instance: this.index, key, bytes: b.bytes, outcome, ...(reason !== undefined ? { reason } : {}), memoryBytes: this.memory.calculatedSize, budgetBytes: this.budgetBytes });
  }

  /**
   * The batch of a block: from memory, else loaded from its spill file (and
   * kept in memory when `admits` says so). Undefined when the block is gone;
   * throws when its spill file cannot be read.
   */
  get(key: string, store: string): RecordBatch | undefined {
    const m = this.memory.get(key);
    if (m !== undefined) return m.batch;
    const d = this.diskBlock(key, store);
    if (d === undefined) return undefined;
    return this.load(key, store, d);
  }

  /** The batch of a block when it is in memory (undefined otherwise); leaves the LRU order as it is and never reads disk. */
  peek(key: string, store: string): RecordBatch | undefined {
    if (!this.stores.get(store)?.has(key)) return undefined;
    return this.memory.peek(key)?.batch;
  }

  /**
   * Columns `ordinals` of a block (in that order) and its row count: from memory, else from its
   * spill file — the whole block when it is admitted to memory, else only those columns.
   * Undefined when the block is gone; throws when its spill file cannot be read.
   */
  getColumns(key: string, store: string, ordinals: readonly number[]): { readonly columns: readonly Data[]; readonly rows: number } | undefined {
    const m = this.memory.get(key);
    const pick = (b: RecordBatch) => ({ columns: ordinals.map((i) => b.data.children[i]!), rows: b.numRows });
    if (m !== undefined) return pick(m.batch);
    const d = this.diskBlock(key, store);
    if (d === undefined) return undefined;
    if (this.admits(d.bytes, store)) return pick(this.load(key, store, d));
    this.diskReads++;
    return { columns: this.spill.readColumns(d.file, ordinals), rows: d.file.rows };
  }

  private diskBlock(key: string, store: string): DiskBlock | undefined {
    const d = this.disk.get(key);
    return d === undefined || !this.stores.get(store)?.has(key) ? undefined : d;
  }

  /** Reads a whole spilled block, keeping it in memory when admitted. */
  private load(key: string, store: string, d: DiskBlock): RecordBatch {
    const batch = this.spill.read(d.file);
    this.diskReads++;
    if (this.admits(d.bytes, store)) this.memory.set(key, { batch, bytes: d.bytes, level: 'MEMORY_AND_DISK', store });
    return batch;
  }

  /**
   * Whether a block of `store` read from disk may enter memory: it fits the budget, and making
   * room evicts no block of the same store (the least recently used blocks go first).
   */
  private admits(bytes: number, store: string): boolean {
    if (bytes > this.budgetBytes) return false;
    let need = this.memory.calculatedSize + bytes - this.budgetBytes;
    if (need <= 0) return true;
    for (const [, b] of this.memory.rentries()) {
      if (b === undefined || typeof b !== 'object' || !('store' in b)) continue;
      if (b.store === store) return false;
      need -= b.bytes;
      if (need <= 0) return true;
    }
    return true;
  }

  /** True when the block is in memory or its spill file exists. */
  has(key: string, store: string): boolean {
    if (!this.stores.get(store)?.has(key)) return false;
    if (this.memory.has(key)) return true;
    const d = this.disk.get(key);
    return d !== undefined && this.spill.exists(d.file.path);
  }

  /** Where a block is now. */
  tierOf(key: string): 'memory' | 'disk' | undefined {
    if (this.memory.has(key)) return 'memory';
    return this.disk.has(key) ? 'disk' : undefined;
  }

  /** Deletes every block of a store, in memory and on disk; settles when the files are gone. */
  async deleteStore(store: string): Promise<void> {
    const keys = this.stores.get(store);
    if (keys === undefined) return;
    this.stores.delete(store);
    const files: Promise<void>[] = [];
    for (const key of keys) {
      this.memory.delete(key);
      files.push(this.dropFile(key));
    }
    // Files of blocks dropped from the key set earlier (failed spills) are not tracked; none exist.
    await Promise.all(files);
  }

  private async dropFile(key: string): Promise<void> {
    const d = this.disk.get(key);
    if (d === undefined) return;
    this.disk.delete(key);
    this.diskTotal -= d.file.fileBytes;
    await this.spill.remove(d.file);
  }

  /** Fault injection: the instance loses everything it holds, in memory and on disk (it stays usable, empty). */
  kill(): void {
    this.kills++;
    this.memory.clear();
    for (const d of this.disk.values()) this.spill.removeSync(d.file);
    this.disk.clear();
    this.diskTotal = 0;
    this.stores.clear();
  }

  /** Resident bytes (always ≤ the budget). */
  memoryBytes(): number {
    return this.memory.calculatedSize;
  }

  /** Bytes of spill files. */
  diskBytes(): number {
    return this.diskTotal;
  }

  /** Number of stores (entries, committed or being written) with blocks here. */
  entryCount(): number {
    let n = 0;
    for (const s of this.stores.values()) if (s.size > 0) n++;
    return n;
  }

  /** Number of live blocks (in memory or on disk). */
  blockCount(): number {
    let n = 0;
    for (const s of this.stores.values()) n += s.size;
    return n;
  }

  /** Number of spill files. */
  fileCount(): number {
    return this.disk.size;
  }
}
