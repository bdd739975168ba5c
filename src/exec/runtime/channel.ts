/**
 * Channels: one per (producer subtask, consumer subtask, input) triple.
 *
 * Decision: a channel is a plain FIFO of events (batches tagged with an
 * epoch, and watermarks) plus the last watermark its consumer saw. Delivery
 * is synchronous when the consumer can take the event now and nothing is
 * queued ahead of it; otherwise the event queues, so order is always kept.
 * The queue is a ring (deque.ts): dequeue is O(1) however long it gets.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Partitioner } from '../job.js';
import { Deque } from './deque.js';
import type { Instance, OpInstance } from './instance.js';

/** What travels on a channel, in order. */
export type Event = { readonly t: 'batch'; readonly batch: RecordBatch; readonly epoch: number } | { readonly t: 'wm'; readonly epoch: number };

/** The queue surface the scheduler uses: a Deque, or a feedback queue that spills (feedback-queue.ts). */
export interface EventQueue {
  readonly length: number;
  push(ev: Event): void;
  shift(): Event | undefined;
  clear(): void;
  /** The queued events in order, left in the queue (a checkpoint's copy). */
  toArray(): Event[];
}

/** A channel from one producer subtask to one consumer subtask. */
export class Channel {
  readonly queue: EventQueue;
  /** Last watermark seen by the consumer on this channel (−1 = none). */
  wm = -1;
  /**
   * Measured CPU ms per row of delivering on this channel (the consumer's call and its
   * synchronous downstream chain); −1 = not measured yet (step-budget.ts).
   */
  msPerRow = -1;
  /** Deliveries of batches over MIN_SLICE_ROWS rows so far (which of them are measured: step-budget.ts). */
  deliveries = 0;
  /** Consumer no longer wants data (LIMIT satisfied). */
  closed = false;
  /**
   * @param feedbackQueue for an iteration's feedback channel, its queue: the channel then always
   * queues (never delivers re-entrantly) and spills past the run's feedback budget
   */
  constructor(readonly producer: Instance, readonly consumer: OpInstance, readonly input: number, feedbackQueue?: EventQueue) {
    this.feedback = feedbackQueue !== undefined;
    this.queue = feedbackQueue ?? new Deque<Event>();
  }
  readonly feedback: boolean;

  /** Puts an event back at the head of the queue (the rest of a sliced batch; never on a feedback channel). */
  unshift(ev: Event): void {
    (this.queue as Deque<Event>).unshift(ev);
  }
}

/** Where a producer's output goes: one entry per consumer vertex. */
export interface OutEdge {
  readonly partitioner: Partitioner;
  /** The producer's output this edge reads (0 = main, i = side output i). */
  readonly output: number;
  readonly channels: Channel[];
  /** Round-robin cursor for rebalance. */
  next: number;
}
