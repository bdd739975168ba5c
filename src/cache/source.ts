/**
 * The cache source: reads a committed entry's partitions (subtask i of P
 * reads partitions i, i+P, ...), selecting the projected columns without
 * copying (from disk, only those columns are read) and skipping batches whose statistics prove a pushed-down filter
 * false (the projected batch is a view built by batch-view.ts). A missing
 * block or an unreadable spill file throws CacheLostError.
 */
import type { Data, RecordBatch } from 'apache-arrow';
import type { SourceFactory } from '../exec/operator.js';
import { CancelledError } from '../relnode/errors.js';
import type { RexNode } from '../relnode/rex.js';
import { BatchProjector } from './batch-view.js';
import type { CacheEntry } from './entry.js';
import { CacheLostError } from './errors.js';
import type { CacheServiceInstance } from './instance.js';
import { canSkipBlock } from './stats.js';

/** A block about to be read (for fault injection and tests). */
export interface BlockReadInfo {
  readonly entryId: string;
  readonly partition: number;
  readonly block: number;
  readonly instance: number;
}

/** Counters the source updates. */
export interface ReadCounters {
  blocksRead: number;
  blocksSkipped: number;
}

/** How to read an entry. */
export interface CacheReadOptions {
  /** Ordinals of the entry's columns to output (undefined = all). */
  readonly projection?: readonly number[];
  /** Conjuncts over the entry's full schema used to skip batches (a Filter above still applies them). */
  readonly filters?: readonly RexNode[];
  /** Called before each block is read. */
  readonly beforeRead?: (info: BlockReadInfo) => void;
  readonly counters: ReadCounters;
}

/** A source factory over an entry. */
export function cacheSourceFactory(entry: CacheEntry, instances: readonly CacheServiceInstance[], o: CacheReadOptions): SourceFactory {
  const names = entry.schema.fields.map((f) => f.name);
  const outNames = o.projection ? o.projection.map((i) => names[i]!) : names;
  const filters = o.filters && o.filters.length > 0 ? o.filters : undefined;
  return (ctx) => {
    const parts: number[] = [];
    for (let p = ctx.subtaskIndex; p < entry.partitions.length; p += ctx.parallelism) parts.push(p);
    const projector = o.projection ? new BatchProjector(outNames) : undefined;
    let pi = 0;
    let bi = 0;
    let done = false;
    const next = (): RecordBatch | null => {
      while (!done) {
        if (ctx.signal.aborted) throw new CancelledError(`reading cache entry ${entry.id} cancelled`);
        const p = parts[pi];
        if (p === undefined) { done = true; break; }
        const part = entry.partitions[p]!;
        const block = part.blocks[bi];
        if (block === undefined) { pi++; bi = 0; continue; }
        const b = bi++;
        if (filters && canSkipBlock(block.stats, filters)) { o.counters.blocksSkipped++; continue; }
        o.beforeRead?.({ entryId: entry.id, partition: p, block: b, instance: part.instance });
        const inst = instances[part.instance]!;
        let got: RecordBatch | { readonly columns: readonly Data[]; readonly rows: number } | undefined;
        try {
          got = o.projection ? inst.getColumns(block.key, entry.store, o.projection) : inst.get(block.key, entry.store);
        } catch (e) {
          throw new CacheLostError(entry.id, `the spill file of partition ${p} (batch ${b}) on instance ${part.instance} is unreadable: ${e instanceof Error ? e.message : String(e)}`, entry.store);
        }
        if (got === undefined) throw new CacheLostError(entry.id, `partition ${p} (batch ${b}) on instance ${part.instance} is gone (instance killed, spill file deleted, or dropped under MEMORY_ONLY)`, entry.store);
        o.counters.blocksRead++;
        if ('columns' in got) return projector!.view(got.columns, got.rows);
        return got;
      }
      return null;
    };
    return { next, close() { done = true; } };
  };
}
