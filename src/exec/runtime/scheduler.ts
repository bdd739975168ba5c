/**
 * The scheduler: wires a job graph into instances and channels and runs it
 * with one cooperative loop on the main thread.
 *
 * Delivery is push-based and synchronous: an emitted batch is handed straight
 * to the consumer unless the consumer holds that input back (input
 * selection), is already running (re-entrancy), or the channel already has
 * queued events — then it queues, preserving order. The loop drains
 * deliverable queues and pulls sources.
 *
 * Deadlock avoidance (DESIGN.md), decided once here: a channel that its
 * consumer holds back buffers without bound, and the scheduler prefers to pull
 * sources whose output can be consumed now, so a hash join's build branch runs
 * to END before the probe branch is pulled. A source that feeds both (a
 * self-join, a shared subplan) is still pulled; the held-back copy buffers.
 *
 * Bounded steps: an operator hands back output it could not emit in one
 * batch (`ctx.defer`); while it has pending work it takes no input (its
 * channels queue) and its owed watermark waits behind the work. The loop
 * runs one step at a time, always of the furthest-downstream instance with
 * work: that instance's consumers have no work of their own, so every step
 * makes progress, queues between pending operators stay short, and no
 * ordering can deadlock. Pending steps of an instance whose outputs all
 * closed are dropped. Every pass of the loop does bounded work (one step,
 * deliveries up to a time budget, one source event), and the loop yields to
 * the event loop every ~10 ms. A delivery itself is bounded too: a batch is
 * cut to the rows its consumer's synchronous chain handles within a few
 * milliseconds (measured per channel), the rest queued (step-budget.ts).
 *
 * What a run is made of is built elsewhere: its instances and channels by
 * wiring.ts, its sources opened and everything closed by source-lifecycle.ts;
 * this file moves events along them.
 */
import { performance } from 'node:perf_hooks';
import type { RecordBatch } from 'apache-arrow';
import type { JobGraph } from '../job.js';
import { END } from '../operator.js';
import { QueryMemory } from '../memory.js';
import type { Channel, Event } from './channel.js';
import { Deque } from './deque.js';
import { FeedbackBudget } from './feedback-queue.js';
import { JobFailure, wrapFailure, type RunOptions } from './run-options.js';
import { evaluateWatermark } from './watermarks.js';

export { JobFailure, type RunOptions } from './run-options.js';
import { SourcePuller } from './sources.js';
import { MIN_SLICE_ROWS, cpuMs, deliveryRows, measureDelivery, observeDelivery } from './step-budget.js';
import { sliceBatch } from '../batch.js';
import { isSnapshottable, restoreBookkeeping, restoreOperator, takeSnapshot, type RunSnapshot } from './snapshot.js';
import { SourceInst, type Instance, type OpInstance, type RunHost } from './instance.js';
import { wire } from './wiring.js';
import { closeRun, openSources, stopSource } from './source-lifecycle.js';
import { SelfTimer, metricsByVertex, type VertexMetrics } from './metrics.js';
import type { Operator } from '../operator.js';

/** An operator method the scheduler calls with `this` = the operator (Run.call). */
export type OperatorMethod = (this: Operator, ...args: never[]) => unknown;

/** Runs one pending step (called as an OperatorMethod by `stepPending`); true while it has more. */
function runStep(this: Operator, item: { step: () => boolean }): boolean {
  return item.step();
}

/** One run of a job graph: its instances, channels and delivery rules. */
export class Run implements RunHost {
  readonly sources: SourceInst[];
  readonly ops: OpInstance[];
  readonly byVertex: Instance[][];
  /** Channels that have queued events (may hold stale entries; checked when drained). Feedback channels are in `pendingFeedback`. */
  readonly pending = new Set<Channel>();
  /** Feedback channels with queued events, in round-robin order (see drainFeedback). */
  private readonly pendingFeedback = new Set<Channel>();
  readonly out = new Deque<RecordBatch>();
  failed = false;
  rowsRead = 0;
  private readonly timer: SelfTimer | undefined;
  /** Instances whose inputs were closed and whose watermark the loop must re-evaluate. */
  private readonly deferredWatermarks = new Set<OpInstance>();
  /** Operator instances with pending work. */
  private readonly working = new Set<OpInstance>();
  readonly sharedObjects = new Map<string, unknown>();
  /** Checkpointed states of shared objects not yet re-created. */
  private readonly savedShared = new Map<string, unknown>();
  /** Per vertex: whether its output may carry more than one epoch (a multi-epoch source upstream). */
  private readonly multi: boolean[];

  /** The query's memory account (operators reserve their state from it). */
  readonly memory: QueryMemory;
  /** Bytes the run's feedback queues hold in memory and have spilled. */
  readonly feedbackBudget: FeedbackBudget;

  /** Whether deliveries are cut to the step budget (RunOptions.sliceDeliveries). */
  private readonly slicing: boolean;

  constructor(readonly graph: JobGraph, readonly options: RunOptions) {
    this.slicing = options.sliceDeliveries !== false;
    this.timer = options.selfTime === false ? undefined : new SelfTimer();
    this.memory = new QueryMemory(options.memoryLimit ?? Infinity);
    this.feedbackBudget = new FeedbackBudget(options.feedback ?? {}, this.memory, 'iteration');
    const w = wire(this, graph, this.feedbackBudget);
    this.sources = w.sources;
    this.ops = w.ops;
    this.byVertex = w.byVertex;
    this.multi = w.multi;
    const outInsts = this.byVertex[graph.output]!;
    for (const i of outInsts) i.sink = this.out;
    if (options.restore !== undefined) {
      restoreBookkeeping(this, options.restore);
      for (const [k, v] of options.restore.shared) this.savedShared.set(k, v);
    }
  }

  /** Every channel, in a fixed order (consumer instance, input, producer subtask). */
  channels(): Channel[] {
    const out: Channel[] = [];
    for (const o of this.ops) for (const chs of o.inputChannels) out.push(...chs);
    return out;
  }

  markPending(ch: Channel): void {
    (ch.feedback ? this.pendingFeedback : this.pending).add(ch);
  }

  /** True between steps when nothing is owed: no pending work, no deferred watermark, no unhandled source result. */
  quiescent(): boolean {
    return this.working.size === 0 && this.deferredWatermarks.size === 0 && this.ops.every((o) => !o.running && o.work.length === 0);
  }

  /** A consistent cut of the run (snapshot.ts), or undefined when it is not quiescent now. */
  snapshot(): RunSnapshot | undefined {
    return this.quiescent() ? takeSnapshot(this) : undefined;
  }

  get batchSize(): number { return this.options.batchSize; }

  multiEpoch(vertex: number): boolean {
    return this.multi[vertex]!;
  }

  /** Runs `f` attributing its own time to `inst` (nested calls are subtracted). */
  timed<T>(inst: Instance, f: () => T): T {
    return this.timer === undefined ? f() : this.timer.timed(inst.metrics, f);
  }

  /** A source's event, timed as its own (`timed` without a closure: three of these per source per query). */
  sourceEmit(inst: Instance, batch: RecordBatch, epoch: number): void {
    const timer = this.timer;
    timer?.enter(inst.metrics);
    try {
      inst.emit(batch, epoch);
    } finally {
      timer?.exit();
    }
  }

  /** A source's watermark, timed as its own (see sourceEmit). */
  sourceWatermark(inst: Instance, epoch: number): void {
    const timer = this.timer;
    timer?.enter(inst.metrics);
    try {
      inst.forwardWatermark(epoch);
    } finally {
      timer?.exit();
    }
  }

  push(ch: Channel, ev: Event): void {
    if (ch.closed) return;
    if (ch.feedback) { ch.queue.push(ev); this.pendingFeedback.add(ch); return; }
    if (ch.queue.length === 0 && ch.consumer.accepts(ch.input)) this.deliver(ch, ev);
    else { ch.queue.push(ev); this.pending.add(ch); }
  }

  /**
   * Delivers queued events of every channel whose consumer accepts them, until
   * `deadline` (performance.now() ms); returns true if anything was delivered.
   */
  drain(deadline = Infinity): boolean {
    if (this.pending.size === 0) return false;
    let any = false;
    for (const ch of [...this.pending]) {
      while (ch.queue.length > 0 && !ch.closed && ch.consumer.accepts(ch.input)) {
        this.deliver(ch, ch.queue.shift()!);
        any = true;
        if (deadline !== Infinity && performance.now() > deadline) break;
      }
      if (ch.queue.length === 0 || ch.closed) { ch.queue.clear(); this.pending.delete(ch); }
    }
    return any;
  }

  /**
   * Delivers one event of one feedback channel (round-robin over them);
   * false if none could be delivered. Feedback has the lowest priority: the
   * loop calls this when no other channel, posted task, pending step or
   * source can make progress, so a record going round an iteration never
   * overtakes the watermarks and coordinator decisions of its round (the
   * terminating round's feedback is dropped deterministically: S1, S2) and
   * never starves sources. So that a source that never stops cannot starve
   * the loop either, feedback also goes after 256 passes without it.
   */
  drainFeedback(): boolean {
    for (const ch of this.pendingFeedback) {
      if (ch.closed || ch.queue.length === 0) { ch.queue.clear(); this.pendingFeedback.delete(ch); continue; }
      if (!ch.consumer.accepts(ch.input)) continue;
      this.pendingFeedback.delete(ch);
      this.deliver(ch, ch.queue.shift()!);
      if (ch.queue.length > 0 && !ch.closed) this.pendingFeedback.add(ch); // to the back: round-robin
      return true;
    }
    return false;
  }

  /** Runs `f` as a callback of `inst`: marked running, its time attributed to it, errors wrapped with its name. */
  private guard(inst: OpInstance, what: string, f: () => void): void {
    this.call(inst, what, f as OperatorMethod);
  }

  /**
   * Calls `f` with `this` = the operator (a method of it) and up to three
   * arguments, as a callback of `inst` (see guard). The hot paths use this
   * form: it allocates no closure per call. Returns what `f` returns. Internal to the runtime (watermarks.ts).
   */
  call(inst: OpInstance, what: string, f: OperatorMethod, a?: unknown, b?: unknown, c?: unknown): unknown {
    inst.running = true;
    const timer = this.timer;
    timer?.enter(inst.metrics);
    try {
      return (f as (this: Operator, a: unknown, b: unknown, c: unknown) => unknown).call(inst.op, a, b, c);
    } catch (e) {
      throw wrapFailure(inst, what, e);
    } finally {
      timer?.exit();
      inst.running = false;
    }
  }

  private deliver(ch: Channel, ev: Event): void {
    const c = ch.consumer;
    if (ev.t === 'batch') {
      let batch = ev.batch;
      const n = batch.numRows;
      // At most what the consumer's chain handles within the step budget; the rest waits at the head of the queue.
      const take = ch.feedback || !this.slicing ? n : deliveryRows(ch, n);
      if (take < n) {
        ch.unshift({ t: 'batch', batch: sliceBatch(batch, take, n), epoch: ev.epoch });
        this.pending.add(ch);
        batch = sliceBatch(batch, 0, take);
      }
      c.metrics.rowsIn += take;
      c.metrics.batchesIn++;
      c.epoch = ev.epoch;
      if (ev.epoch > c.maxEpochIn) c.maxEpochIn = ev.epoch;
      if (n <= MIN_SLICE_ROWS || !this.slicing || ch.feedback || !measureDelivery(ch)) { this.call(c, 'processBatch', c.processBatch as OperatorMethod, ch.input, batch, ev.epoch); return; }
      const t0 = cpuMs();
      this.call(c, 'processBatch', c.processBatch as OperatorMethod, ch.input, batch, ev.epoch);
      observeDelivery(ch, take, cpuMs() - t0);
      return;
    }
    if (ev.epoch <= ch.wm) return; // watermarks only rise per channel
    ch.wm = ev.epoch;
    evaluateWatermark(this, c, ch.input);
  }

  wake(c: OpInstance): void {
    this.working.add(c);
  }

  /** Runs one piece of pending work of the furthest-downstream instance that has some; false if none has. */
  stepPending(): boolean {
    if (this.working.size === 0) return false;
    let c: OpInstance | undefined;
    for (const w of this.working) if (c === undefined || w.order > c.order) c = w;
    const inst = c!;
    const item = inst.work[0];
    if (item === undefined) { this.working.delete(inst); return true; }
    if ('step' in item) {
      if (inst.outputsClosed()) {
        while (inst.work.length > 0 && 'step' in inst.work[0]!) inst.work.shift();
      } else {
        let more = false;
        inst.insertAt = 1;
        inst.epoch = item.epoch;
        try {
          // A function of the module, not a closure per step (whose optimized code was dropped and compiled again in timed runs).
          more = this.call(inst, 'pending output', runStep as OperatorMethod, item) === true;
        } finally {
          inst.insertAt = -1;
        }
        if (!more) inst.work.shift();
      }
    } else if ('task' in item) {
      inst.work.shift();
      inst.epoch = inst.watermark < 0 ? 0 : Math.min(inst.watermark + 1, END);
      this.guard(inst, 'a posted task', item.task);
    } else {
      inst.work.shift();
      item.after();
    }
    if (inst.work.length === 0) this.working.delete(inst);
    return true;
  }

  shared<T>(key: string, create: () => T): T {
    if (!this.sharedObjects.has(key)) {
      const obj = create();
      const saved = this.savedShared.get(key);
      if (saved !== undefined) {
        this.savedShared.delete(key);
        if (isSnapshottable(obj)) obj.restoreState(saved);
      }
      this.sharedObjects.set(key, obj);
    }
    return this.sharedObjects.get(key) as T;
  }

  /** An operator needs no more input: close its input channels and stop producers nobody reads. */
  satisfy(c: OpInstance): void {
    for (const chs of c.inputChannels) {
      for (const ch of chs) {
        if (ch.closed) continue;
        ch.closed = true;
        ch.queue.clear();
        this.pending.delete(ch);
        this.pendingFeedback.delete(ch);
        const p = ch.producer;
        if (p.outputsClosed()) {
          if (p instanceof SourceInst) stopSource(p);
          else this.satisfy(p as OpInstance);
        }
      }
    }
    // Closed channels count as ended: the operator finishes (from the scheduler loop, not re-entrantly).
    for (const chs of c.inputChannels) for (const ch of chs) ch.wm = END;
    this.deferredWatermarks.add(c);
  }

  /** Re-evaluates deferred watermarks; returns true if any instance was updated. */
  flushDeferred(): boolean {
    if (this.deferredWatermarks.size === 0) return false;
    let any = false;
    for (const c of [...this.deferredWatermarks]) {
      if (c.running) continue;
      this.deferredWatermarks.delete(c);
      if (!c.finished) { c.inputChannels.forEach((_, i) => evaluateWatermark(this, c, i)); any = true; }
    }
    return any;
  }

  /**
   * Opens the operators and creates the source instances. Synchronous (undefined) unless a source
   * factory returns a promise: then the rest waits for it (a small query's run awaits nothing here).
   */
  open(): Promise<void> | undefined {
    for (const o of this.ops) this.call(o, 'open', o.op.open, o);
    const restore = this.options.restore;
    if (restore !== undefined) this.ops.forEach((o, i) => this.guard(o, 'restoreState', () => restoreOperator(o, restore.operators[i]!.state)));
    // Operators without inputs (none today) and sources with nothing downstream are handled by the loop.
    return openSources(this, 0);
  }

  /** Pulls sources (sources.ts). */
  readonly puller = new SourcePuller(this);

  allFinished(): boolean {
    return this.sources.every((s) => s.done) && this.ops.every((o) => o.finished || o.vertex.inputs.length === 0);
  }

  /** Closes every operator and source once (source-lifecycle.ts). */
  closeAll(): void {
    closeRun(this);
  }

  metricsByVertex(): VertexMetrics[] {
    return metricsByVertex(this.graph, this.byVertex);
  }

  /** Names of operator instances that never finished (for a stall report). */
  unfinished(): string {
    return this.ops.filter((o) => !o.finished).map((o) => o.name).join(', ');
  }
}
