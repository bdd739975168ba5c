/**
 * Zone maps of a cached block computed on the first question instead of at
 * write time.
 *
 * Decision: the first action on a `cache()`d table computes the subtree,
 * writes it and answers, and the target is that it costs at most 10% more
 * than the same action without the cache. Computing every column's min, max
 * and null count while writing was the largest share of what the write added
 * (FLIP-36's `b` at SF 1: ~60 ms of a ~560 ms action, bench/cache.ts), yet
 * most columns are never asked about: a column's statistics serve only a
 * pushed-down filter on that column (source.ts) or an ungrouped min/max/count
 * answered from them (planner/cache-stats-answer.ts). So a block's statistics
 * hold only its row count at first; column i is computed on the first
 * question from the block's batch, read from its instance's memory without
 * touching the LRU order (`peek`), and remembered.
 *
 * A spilled block must not be read back from disk to answer a question whose
 * purpose is to avoid reading it, so the instance calls `seal(batch)` just
 * before a block leaves memory for disk: the columns not yet computed are
 * computed then, from the batch in hand, and the block's statistics never
 * need the data again. A block dropped (MEMORY_ONLY, disk budget) or lost
 * (instance killed) is not sealed: a question about a column not yet computed
 * gets `undefined`, which proves nothing (the block is read, and the loss is
 * reported there, as before).
 *
 * Answers are those of the eager `blockStats` (stats.ts): the same function
 * computes each column, over the same stored batch.
 */
import type { RecordBatch } from 'apache-arrow';
import type { BlockStats, ColumnStats } from '../io/prune.js';
import { columnStats } from './stats.js';

/** Statistics of one cached block, each column computed on its first request (or when the block spills). */
export class LazyBlockStats implements BlockStats {
  private readonly cols: (ColumnStats | undefined)[];
  private source: (() => RecordBatch | undefined) | undefined;

  constructor(
    readonly rows: number,
    /** Number of columns of the block. */
    readonly width: number,
    /** The block's batch while it is in memory (undefined once it is not). */
    source: () => RecordBatch | undefined,
  ) {
    this.cols = new Array<ColumnStats | undefined>(width).fill(undefined);
    this.source = source;
  }

  column(i: number): ColumnStats | undefined {
    if (!(i >= 0 && i < this.width)) return undefined;
    const known = this.cols[i];
    if (known !== undefined || this.source === undefined) return known;
    const batch = this.source();
    if (batch === undefined) return undefined;
    return (this.cols[i] = columnStats(batch.data.children[i]!));
  }

  /** Computes every column not yet computed from `batch` (the block's data, about to leave memory); later requests need no data. */
  seal(batch: RecordBatch): void {
    for (let i = 0; i < this.width; i++) if (this.cols[i] === undefined) this.cols[i] = columnStats(batch.data.children[i]!);
    this.source = undefined;
  }

  /** Number of columns computed so far (for tests and reports). */
  get computed(): number {
    let n = 0;
    for (const c of this.cols) if (c !== undefined) n++;
    return n;
  }
}
