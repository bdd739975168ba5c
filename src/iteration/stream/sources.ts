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
 */
import { RecordBatch } from 'apache-arrow';
import { ExecutionError, ValidationError } from '../../relnode/errors.js';
import type { Schema } from '../../relnode/types.js';
import { batchFromColumns, sliceBatch } from '../../exec/batch.js';
import type { SourceFactory, SourceInstance } from '../../exec/operator.js';
import type { Row } from './process.js';
import { batchOfRows, checkBatch } from './rows.js';

/** A source of the rows of `batch`, split over the subtasks in contiguous ranges. */
export function rowsSource(batch: RecordBatch): SourceFactory {
  return (ctx) => {
    const n = batch.numRows;
    let pos = Math.floor((n * ctx.subtaskIndex) / ctx.parallelism);
    const end = Math.floor((n * (ctx.subtaskIndex + 1)) / ctx.parallelism);
    return {
      next() {
        if (pos >= end) return null;
        const to = Math.min(end, pos + ctx.batchSize);
        const b = sliceBatch(batch, pos, to);
        pos = to;
        return b;
      },
      close() { pos = end; },
    };
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
  /** The call in progress: subtasks read one after another, never the same item twice. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(iterable: AsyncIterable<StreamItem> | Iterable<StreamItem>, private readonly schema: Schema, private readonly name: string, parallelism: number, private readonly batchSize: number) {
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
    if (this.stash !== undefined) { const b = this.stash; this.stash = undefined; return b; }
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
        if (rows.length === 0) { if (b.numRows === 0) continue; return b; }
        if (b.numRows > 0) this.stash = b;
        break;
      }
      rows.push(item);
      if (rows.length >= this.batchSize) break;
      tick ??= new Promise((resolve) => setImmediate(() => resolve(TICK)));
    }
    if (rows.length === 0) return null;
    return batchOfRows(rows, this.schema, this.name);
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
 * (an async generator object can be read by one run only).
 */
export function iterableSource(iterable: AsyncIterable<StreamItem> | Iterable<StreamItem>, schema: Schema): SourceFactory {
  if (iterable === null || typeof iterable !== 'object' || (typeof (iterable as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function' && typeof (iterable as Iterable<unknown>)[Symbol.iterator] !== 'function')) {
    throw new ValidationError(`fromAsyncIterable needs an async iterable (or iterable) of rows or record batches, got ${String(iterable)}`);
  }
  const key = `stream-source:${readerIds++}`;
  return (ctx): SourceInstance => {
    const reader = ctx.shared(key, () => new SharedReader(iterable, schema, ctx.name.replace(/\[\d+\]$/, ''), ctx.parallelism, ctx.batchSize));
    let stopped = false;
    return {
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
  };
}
