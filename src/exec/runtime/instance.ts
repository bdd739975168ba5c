/**
 * Instances: the run-time object of one subtask of a vertex.
 *
 * Decision: an instance owns its output edges and does the routing itself
 * (partitioning by the edge's partitioner), then hands each event to the run
 * (`RunHost.push`), which decides between synchronous delivery and queueing.
 * An operator instance is also the operator's `OperatorContext`, so the
 * contract the operator sees is exactly this class's public surface.
 */
import type { RecordBatch } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import { outputSchema, type JobGraph, type OperatorVertex, type SourceVertex } from '../job.js';
import type { Operator, OperatorContext, OperatorMetrics, PendingStep, SourceEvent, SourceInstance } from '../operator.js';
import type { QueryMemory } from '../memory.js';
import { partitionBatch } from '../partition.js';
import type { Channel, Event, OutEdge } from './channel.js';
import type { Deque } from './deque.js';
import { newMetrics } from './metrics.js';

/** What instances need from the run they belong to. */
export interface RunHost {
  readonly graph: JobGraph;
  readonly batchSize: number;
  /** True once the job was cancelled or failed. */
  readonly failed: boolean;
  push(ch: Channel, ev: Event): void;
  /** The operator needs no more input. */
  satisfy(op: OpInstance): void;
  /** The operator has pending work for the loop to run. */
  wake(op: OpInstance): void;
  /** Whether vertex `v`'s output may carry more than one epoch. */
  multiEpoch(vertex: number): boolean;
  /** The per-run object for `key`, created by `create` on first use. */
  shared<T>(key: string, create: () => T): T;
  /** The query's memory account. */
  readonly memory: QueryMemory;
}

/**
 * An operator's pending work, run in order by the scheduler: bounded output
 * steps, then (at most) one continuation the runtime queued behind them —
 * forwarding a watermark or re-evaluating one.
 */
export type WorkItem =
  | { readonly step: PendingStep; readonly epoch: number }
  | { readonly after: () => void }
  /** A task posted to this operator's mailbox (`ctx.post`): runs as one of its callbacks. */
  | { readonly task: () => void };

export abstract class Instance {
  readonly outputs: OutEdge[] = [];
  /** Collected result batches when this is the job's output vertex. */
  sink: Deque<RecordBatch> | undefined;
  readonly metrics: OperatorMetrics = newMetrics();
  /** The epoch of the current callback (see OperatorContext.epoch). */
  epoch = 0;
  /** The last watermark forwarded downstream (−1 = none). */
  forwarded = -1;
  constructor(readonly run: RunHost, readonly name: string, readonly vertexId: number, readonly subtask: number) {}

  /** True when every output channel is closed (no consumer wants more), and this is not the job output. */
  outputsClosed(): boolean {
    return this.sink === undefined && this.outputs.every((o) => o.channels.every((c) => c.closed));
  }

  emit(batch: RecordBatch, epoch: number = this.epoch, output = 0): void {
    if (epoch <= this.forwarded) throw new InternalError(`${this.name} emitted a batch of epoch ${epoch} after forwarding watermark ${this.forwarded}`);
    if (batch.numRows === 0) return;
    this.metrics.rowsOut += batch.numRows;
    this.metrics.batchesOut++;
    if (this.sink !== undefined && output === 0) this.sink.push(batch);
    let ev: Event | undefined; // one immutable event for every channel it goes to
    for (const o of this.outputs) {
      if (o.output !== output) continue;
      const n = o.channels.length;
      const p = o.partitioner;
      if (n === 1 || p.kind === 'global') this.run.push(o.channels[0]!, ev ??= { t: 'batch', batch, epoch });
      else if (p.kind === 'forward') this.run.push(o.channels[this.subtask]!, ev ??= { t: 'batch', batch, epoch });
      else if (p.kind === 'broadcast') for (const c of o.channels) this.run.push(c, ev ??= { t: 'batch', batch, epoch });
      else if (p.kind === 'rebalance') { this.run.push(o.channels[o.next]!, ev ??= { t: 'batch', batch, epoch }); o.next = (o.next + 1) % n; }
      else {
        const parts = partitionBatch(batch, p.keys, n);
        for (let i = 0; i < n; i++) { const b = parts[i]; if (b !== undefined && b.numRows > 0) this.run.push(o.channels[i]!, { t: 'batch', batch: b, epoch }); }
      }
    }
  }

  /** Forwards a watermark on every output (the runtime's own forwarding, and manual heads/tails). */
  forwardWatermark(epoch: number): void {
    if (epoch > this.forwarded) this.forwarded = epoch;
    const ev: Event = { t: 'wm', epoch };
    for (const o of this.outputs) for (const c of o.channels) this.run.push(c, ev);
  }
}

export class SourceInst extends Instance {
  source: SourceInstance | undefined;
  done = false;
  /** An outstanding asynchronous `next()` (one at a time, so order is kept). */
  waiting: Promise<void> | undefined;
  /** The event an asynchronous `next()` produced, not yet handled. */
  ready: { readonly ev: SourceEvent | null } | undefined;
  constructor(run: RunHost, readonly vertex: SourceVertex, subtask: number) {
    super(run, `${vertex.name}#${vertex.id}[${subtask}]`, vertex.id, subtask);
  }
}

export class OpInstance extends Instance implements OperatorContext {
  readonly op: Operator;
  /**
   * `op.processBatch`, read once: the scheduler's delivery loaded it from each operator class in turn (a
   * "wrong map" deopt of `emit`/`deliver`, with everything they inline, whenever a query brought a new operator
   * class: bench/deopt-runs.ts --why); from the instance it is one load of one map.
   */
  readonly processBatch: Operator['processBatch'];
  /** Channels per input number. */
  readonly inputChannels: Channel[][];
  readonly inputEnded: boolean[];
  watermark = -1;
  /** Per input: the minimum watermark over its channels last reported (−1 = none). */
  readonly inputWatermarks: number[];
  /** The last watermark a manualWatermarks operator asked to forward (−1 = none). */
  announced = -1;
  /** Highest epoch of any input batch (0 = none yet). */
  maxEpochIn = 0;
  /** Pending work (short: a few steps and one continuation), head first. */
  readonly work: WorkItem[] = [];
  /** While a step runs, where steps it defers go (right after it); −1 = append. */
  insertAt = -1;
  running = false;
  finished = false;
  closed = false;
  /** @param order position in topological order (larger = further downstream) */
  constructor(run: RunHost, readonly vertex: OperatorVertex, subtask: number, readonly order: number) {
    super(run, `${vertex.name}#${vertex.id}[${subtask}]`, vertex.id, subtask);
    this.op = vertex.factory(subtask);
    this.processBatch = this.op.processBatch;
    this.inputChannels = vertex.inputs.map(() => []);
    this.inputEnded = vertex.inputs.map(() => false);
    this.inputWatermarks = vertex.inputs.map(() => -1);
  }
  // OperatorContext
  get subtaskIndex(): number { return this.subtask; }
  get parallelism(): number { return this.vertex.parallelism; }
  get batchSize(): number { return this.run.batchSize; }
  get outputSchema() { return this.vertex.schema; }
  get inputSchemas() { return this.vertex.inputs.map((e) => outputSchema(this.run.graph.vertices[e.from]!, e.output)); }
  get cancelled(): boolean { return this.run.failed; }
  markInputSatisfied(): void { this.run.satisfy(this); }
  emitTo(output: number, batch: RecordBatch, epoch: number = this.epoch): void {
    const n = this.vertex.sideOutputs?.length ?? 0;
    if (output < 1 || output > n) throw new InternalError(`${this.name} has no side output ${output}`);
    this.emit(batch, epoch, output);
  }
  emitWatermark(epoch: number): void {
    if (this.vertex.manualWatermarks !== true) throw new InternalError(`${this.name} forwards its watermarks through the runtime; emitWatermark is for manualWatermarks vertices`);
    if (epoch <= this.announced) throw new InternalError(`${this.name} emitted watermark ${epoch} after watermark ${this.announced}`);
    this.announced = epoch;
    // Behind pending output, so the watermark never overtakes batches it covers.
    if (this.work.length > 0) this.after(() => this.forwardWatermark(epoch)); else this.forwardWatermark(epoch);
  }
  post(task: () => void): void {
    // A posted task is work of this instance: it runs before any further input or watermark reaches it.
    this.work.push({ task });
    this.run.wake(this);
  }
  shared<T>(key: string, create: () => T): T { return this.run.shared(key, create); }
  reserveMemory(bytes: number): void { this.run.memory.reserve(this.name, bytes); }
  releaseMemory(bytes: number): void { this.run.memory.release(bytes); }
  mayHaveMoreEpochs(input?: number): boolean {
    const ins = this.vertex.inputs;
    if (input !== undefined) return !this.inputEnded[input] && this.run.multiEpoch(ins[input]!.from);
    return ins.some((e, i) => !this.inputEnded[i] && this.run.multiEpoch(e.from));
  }
  /** Whether this operator runs inside an iteration (its output may carry more than one epoch). */
  get inIteration(): boolean { return this.run.multiEpoch(this.vertexId); }
  /** The epoch of END-time callbacks: the last input epoch, never one already closed. */
  lastEpoch(): number {
    return Math.max(this.maxEpochIn, this.forwarded + 1);
  }
  get hasPendingOutput(): boolean { return this.work.some((w) => 'step' in w); }
  defer(step: PendingStep): void {
    if (this.outputsClosed()) return; // nobody wants the output
    const epoch = this.epoch;
    if (this.insertAt >= 0) this.work.splice(this.insertAt++, 0, { step, epoch });
    else {
      // Steps go before a queued continuation (which runs after all output).
      let at = this.work.length;
      while (at > 0 && 'after' in this.work[at - 1]!) at--;
      this.work.splice(at, 0, { step, epoch });
    }
    this.run.wake(this);
  }
  /** Queues a continuation behind the pending work. */
  after(f: () => void): void {
    this.work.push({ after: f });
    this.run.wake(this);
  }

  accepts(input: number): boolean {
    if (this.running || this.finished || this.work.length > 0) return false;
    const sel = this.op.selectInput?.() ?? -1;
    return sel < 0 || sel === input || this.inputEnded[sel] === true;
  }
}
