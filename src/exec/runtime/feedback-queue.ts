/**
 * The queue of a feedback channel: unbounded in count, bounded in memory.
 *
 * Decision: a feedback channel must never block (its producer, the tail, is
 * downstream of its consumer, the head: blocking it deadlocks the loop), so
 * it queues without a count limit; what bounds it is bytes. All feedback
 * queues of a run share one memory budget (`RunOptions.feedback`); a batch
 * that would take them past it is written to the spill store at once (Arrow
 * IPC with a checksum, the cache's spill area — the store is injected, so
 * exec stays below cache) and read back when it reaches the head of the
 * queue. Order is kept: memory and spilled entries sit in one ring. When the
 * store refuses (its disk budget, a full volume) or there is none, the batch
 * stays in memory and counts against the query's memory limit — data is
 * never dropped; past the limit the query fails with a clear error.
 */
import type { RecordBatch } from 'apache-arrow';
import { batchBytes } from '../memory.js';
import type { QueryMemory } from '../memory.js';
import type { Event } from './channel.js';
import { Deque } from './deque.js';

/** Where feedback batches go past the memory budget (implemented by the cache layer's spill area). */
export interface BatchSpill {
  /** Writes a batch; returns a handle, or a string saying why it was not written. */
  write(batch: RecordBatch): object | string;
  /** Reads a written batch back (throws when the file is missing or corrupt). */
  read(handle: object): RecordBatch;
  /** Deletes a written batch. */
  remove(handle: object): void;
}

/** Feedback settings of a run. */
export interface FeedbackOptions {
  /** Bytes of batches all feedback queues of the run may hold in memory (default 64 MiB). */
  readonly budgetBytes?: number;
  /** Where batches past the budget go; without one they stay in memory (counted against the memory limit). */
  readonly spill?: BatchSpill;
}

/** The default in-memory budget of a run's feedback queues. */
export const DEFAULT_FEEDBACK_BUDGET = 64 * 1024 * 1024;

/** Shared by the feedback queues of one run: bytes in memory, bytes and batches spilled. */
export class FeedbackBudget {
  inMemory = 0;
  spilledBytes = 0;
  spilledBatches = 0;
  /** The most bytes held in memory at once. */
  peak = 0;
  readonly budget: number;
  constructor(readonly options: FeedbackOptions, readonly memory: QueryMemory, readonly owner: string) {
    this.budget = options.budgetBytes ?? DEFAULT_FEEDBACK_BUDGET;
  }
}

type Entry = { readonly ev: Event; readonly bytes: number; readonly over: number } | { readonly handle: object; readonly epoch: number; readonly bytes: number };

/** A FIFO of channel events with the Deque surface the scheduler uses. */
export class FeedbackQueue {
  private readonly q = new Deque<Entry>();
  constructor(private readonly b: FeedbackBudget) {}

  get length(): number {
    return this.q.length;
  }

  push(ev: Event): void {
    if (ev.t !== 'batch') { this.q.push({ ev, bytes: 0, over: 0 }); return; }
    const bytes = batchBytes(ev.batch);
    const b = this.b;
    if (b.inMemory + bytes > b.budget && b.options.spill !== undefined) {
      const h = b.options.spill.write(ev.batch);
      if (typeof h !== 'string') {
        b.spilledBytes += bytes;
        b.spilledBatches++;
        this.q.push({ handle: h, epoch: ev.epoch, bytes });
        return;
      }
    }
    // In memory: within the budget for free, past it (no store, or the store refused) from the query's memory limit.
    const over = Math.max(0, Math.min(bytes, b.inMemory + bytes - b.budget));
    if (over > 0) b.memory.reserve(`${b.owner} (feedback queue)`, over);
    b.inMemory += bytes;
    if (b.inMemory > b.peak) b.peak = b.inMemory;
    this.q.push({ ev, bytes, over });
  }

  shift(): Event | undefined {
    const e = this.q.shift();
    if (e === undefined) return undefined;
    return this.take(e);
  }

  /** The queued events in order, spilled batches read back (they stay spilled and queued). */
  toArray(): Event[] {
    return this.q.toArray().map((e) => ('ev' in e ? e.ev : { t: 'batch', batch: this.b.options.spill!.read(e.handle), epoch: e.epoch }));
  }

  clear(): void {
    for (let e = this.q.shift(); e !== undefined; e = this.q.shift()) this.release(e);
  }

  private take(e: Entry): Event {
    if ('ev' in e) { this.release(e); return e.ev; }
    const spill = this.b.options.spill!;
    const batch = spill.read(e.handle);
    spill.remove(e.handle);
    return { t: 'batch', batch, epoch: e.epoch };
  }

  private release(e: Entry): void {
    if ('ev' in e) {
      this.b.inMemory -= e.bytes;
      if (e.over > 0) this.b.memory.release(e.over);
    } else {
      this.b.options.spill!.remove(e.handle);
    }
  }
}
