/**
 * The stream API's sources: rows given up front, and an async iterable of
 * rows or record batches (bounded or never-ending).
 *
 * Decision: `fromRows` encodes (and so checks) its rows when the stream is
 * made — a bad value fails at the call, not when the job runs — and splits
 * them over its subtasks in contiguous ranges. An async iterable is read by
 * one shared iterator (one per run, via ctx.shared) that every subtask
 * pulls from, so a parallel source splits the items between its subtasks.
 * Rows that arrive together are gathered into one batch: after the first row
 * of a batch, the reader keeps taking rows while the next one is ready by
 * the next turn of the event loop, up to the batch size — a fast producer
 * makes full batches, a slow one is not kept waiting. A pull that waits
 * returns a promise, so the runtime goes on with other work meanwhile.
 * Both sources give the runtime's checkpoints their position (`snapshot()`)
 * and resume from `ctx.restored`.
 */
import { RecordBatch } from 'apache-arrow';
import { ExecutionError, ValidationError } from '../../relnode/errors.js';
import type { Schema } from '../../relnode/types.js';
import { batchFromColumns, sliceBatch } from '../../exec/batch.js';
import type { SourceContext, SourceFactory, SourceInstance } from '../../exec/operator.js';
import type { Row } from './process.js';
import { batchOfRows, checkBatch } from './rows.js';

/** A source context, with the checkpoint position a restored run hands back (exec/operator.ts). */
type RestorableContext = SourceContext & { readonly restored?: unknown };

/** A source instance with its checkpoint position. */
type RestorableSource = SourceInstance & { snapshot(): unknown };

/**
 * A source of the rows of `batch`, split over the subtasks in contiguous
 * ranges. Its checkpoint position is the next row's index.
 */
export function rowsSource(batch: RecordBatch): SourceFactory {
  return (ctx: RestorableContext) => {
    const n = batch.numRows;
    const end = Math.floor((n * (ctx.subtaskIndex + 1)) / ctx.parallelism);
    let pos = typeof ctx.restored === 'number' ? ctx.restored : Math.floor((n * ctx.subtaskIndex) / ctx.parallelism);
    const source: RestorableSource = {
      next() {
        if (pos >= end) return null;
        const to = Math.min(end, pos + ctx.batchSize);
        const b = sliceBatch(batch, pos, to);
        pos = to;
        return b;
      },
      close() { pos = end; },
      snapshot: () => pos,
    };
    return source;
  };
}

/** An item of an async iterable source. */
export type StreamItem = Row | RecordBatch;

const TICK = Symbol('tick');

/** The per-run reader of one async iterable, shared by the source's subtasks. */
class SharedReader {
  private readonly it: AsyncIterator<StreamItem> | Iterator<StreamItem>;
  private pull: Promise<IteratorResult<StreamItem>> | undefined;
  private stash: RecordBatch | undefined;
  private done = false;
  private open: number;
  private closed = false;
  /** Items in the batches handed out so far (the checkpoint position). */
  delivered = 0;
  /** Items to skip before reading (a restored run resumes after them). */
  private skip: number;
  /** The call in progress: subtasks read one after another, never the same item twice. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(iterable: AsyncIterable<StreamItem> | Iterable<StreamItem>, private readonly schema: Schema, private readonly name: string, parallelism: number, private readonly batchSize: number, restored: number) {
    this.skip = restored;
    this.delivered = restored;
    const asyncIt = (iterable as AsyncIterable<StreamItem>)[Symbol.asyncIterator];
    this.it = asyncIt !== undefined ? asyncIt.call(iterable) : (iterable as Iterable<StreamItem>)[Symbol.iterator]();
    this.open = parallelism;
  }

  private nextItem(): Promise<IteratorResult<StreamItem>> {
    return (this.pull ??= Promise.resolve(this.it.next()));
  }

  /** The next batch, or null when the iterable is exhausted (for every subtask). */
  next(): Promise<RecordBatch | null> {
    const p = this.chain.then(() => this.read());
    this.chain = p.catch(() => {});
    return p;
  }

  private async read(): Promise<RecordBatch | null> {
    while (this.skip > 0 && !this.done) {
      const r = await this.nextItem();
      this.pull = undefined;
      if (r.done) this.done = true; else this.skip--;
    }
    if (this.stash !== undefined) { const b = this.stash; this.stash = undefined; this.delivered++; return b; }
    if (this.done) return null;
    const rows: Row[] = [];
    let tick: Promise<typeof TICK> | undefined;
    for (;;) {
      const p = this.nextItem();
      const r = tick === undefined ? await p : await Promise.race([p, tick]);
      if (r === TICK) break; // the producer is slow: emit what we have; the pull stays outstanding
      this.pull = undefined;
      if (this.closed) return null;
      if (r.done) { this.done = true; break; }
      const item = r.value;
      if (item instanceof RecordBatch) {
        checkBatch(item, this.schema, this.name);
        const b = batchFromColumns(this.schema, item.data.children, item.numRows);
        if (rows.length === 0) { this.delivered++; if (b.numRows === 0) continue; return b; }
        this.stash = b;
        break;
      }
      rows.push(item);
      if (rows.length >= this.batchSize) break;
      tick ??= new Promise((resolve) => setImmediate(() => resolve(TICK)));
    }
    if (rows.length === 0) return null;
    const batch = batchOfRows(rows, this.schema, this.name);
    this.delivered += rows.length;
    return batch;
  }

  /** One subtask stopped; the iterator is closed once (early: when it was not exhausted). */
  close(): void {
    if (--this.open > 0 && !this.done) return;
    if (this.closed) return;
    this.closed = true;
    if (!this.done) {
      this.done = true;
      try { void Promise.resolve(this.it.return?.()).catch(() => {}); } catch { /* a failing return() does not fail the cancelled job */ }
    }
  }
}

let readerIds = 0;

/**
 * A source over an async (or sync) iterable of rows or record batches of
 * `schema`. Each run reads the iterable afresh through its iterator method
 * (an async generator object can be read by one run only). The checkpoint
 * position is the number of items handed out (shared by the subtasks); a
 * restored run skips that many items of a fresh iteration, so restoring
 * needs an iterable that yields the same items again.
 */
export function iterableSource(iterable: AsyncIterable<StreamItem> | Iterable<StreamItem>, schema: Schema): SourceFactory {
  if (iterable === null || typeof iterable !== 'object' || (typeof (iterable as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function' && typeof (iterable as Iterable<unknown>)[Symbol.iterator] !== 'function')) {
    throw new ValidationError(`fromAsyncIterable needs an async iterable (or iterable) of rows or record batches, got ${String(iterable)}`);
  }
  const key = `stream-source:${readerIds++}`;
  return (ctx: RestorableContext): SourceInstance => {
    const restored = typeof ctx.restored === 'number' ? ctx.restored : 0;
    const reader = ctx.shared(key, () => new SharedReader(iterable, schema, ctx.name.replace(/\[\d+\]$/, ''), ctx.parallelism, ctx.batchSize, restored));
    let stopped = false;
    const source: RestorableSource = {
      snapshot: () => reader.delivered,
      next: async () => {
        if (stopped) return null;
        try {
          return await reader.next();
        } catch (e) {
          if (e instanceof ValidationError) throw new ExecutionError(`source ${ctx.name} failed: ${e.message}`, { cause: e });
          const err = e instanceof Error ? e : new Error(String(e));
          throw new ExecutionError(`source ${ctx.name} failed: ${err.name}: ${err.message}`, { cause: err });
        }
      },
      close: () => {
        if (stopped) return;
        stopped = true;
        reader.close();
      },
    };
    return source;
  };
}
