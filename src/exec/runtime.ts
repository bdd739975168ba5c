/**
 * The dataflow runtime: instantiates a job graph and runs it with one
 * cooperative scheduler on the main thread.
 *
 * Delivery is push-based and synchronous: an emitted batch is handed straight
 * to the consumer unless the consumer holds that input back (input
 * selection), is already running (re-entrancy), or the channel already has
 * queued events — then it queues, preserving order. The scheduler loop drains
 * deliverable queues and pulls sources.
 *
 * Deadlock avoidance (DESIGN.md), decided once here: a channel that its
 * consumer holds back buffers without bound, and the scheduler prefers to pull
 * sources whose output can be consumed now, so a hash join's build branch runs
 * to END before the probe branch is pulled. A source that feeds both (a
 * self-join, a shared subplan) is still pulled; the held-back copy buffers.
 */
import type { RecordBatch } from 'apache-arrow';
import { CancelledError, EddyError, ExecutionError, InternalError } from '../relnode/errors.js';
import type { JobGraph, OperatorVertex, Partitioner, SourceVertex } from './job.js';
import { END, type Operator, type OperatorContext, type OperatorMetrics, type SourceInstance } from './operator.js';
import { partitionBatch } from './partition.js';

/** Options of one run. */
export interface RunOptions {
  readonly batchSize: number;
  readonly signal?: AbortSignal;
  /** Called with the total rows read by sources so far, at most every ~100 ms. */
  readonly onProgress?: (rowsRead: number) => void;
}

/** Metrics of one vertex, summed over its subtasks. */
export interface VertexMetrics extends OperatorMetrics {
  readonly vertex: number;
  readonly name: string;
}

type Event = { readonly t: 'batch'; readonly batch: RecordBatch; readonly epoch: number } | { readonly t: 'wm'; readonly epoch: number };

/** A channel from one producer subtask to one consumer subtask. */
class Channel {
  readonly queue: Event[] = [];
  /** Last watermark seen by the consumer on this channel (−1 = none). */
  wm = -1;
  /** Consumer no longer wants data (LIMIT satisfied). */
  closed = false;
  constructor(readonly producer: Instance, readonly consumer: OpInstance, readonly input: number) {}
}

/** Where a producer's output goes: one entry per consumer vertex. */
interface OutEdge {
  readonly partitioner: Partitioner;
  readonly channels: Channel[];
  /** Round-robin cursor for rebalance. */
  next: number;
}

abstract class Instance {
  readonly outputs: OutEdge[] = [];
  /** Collected result batches when this is the job's output vertex. */
  sink: RecordBatch[] | undefined;
  readonly metrics: OperatorMetrics = { rowsIn: 0, batchesIn: 0, rowsOut: 0, batchesOut: 0, timeMs: 0 };
  constructor(readonly run: Run, readonly name: string, readonly vertexId: number, readonly subtask: number) {}

  /** True when every output channel is closed (no consumer wants more), and this is not the job output. */
  outputsClosed(): boolean {
    return this.sink === undefined && this.outputs.every((o) => o.channels.every((c) => c.closed));
  }

  emit(batch: RecordBatch, epoch: number): void {
    if (batch.numRows === 0) return;
    this.metrics.rowsOut += batch.numRows;
    this.metrics.batchesOut++;
    if (this.sink !== undefined) this.sink.push(batch);
    for (const o of this.outputs) {
      const n = o.channels.length;
      const p = o.partitioner;
      if (n === 1 || p.kind === 'global') this.run.push(o.channels[0]!, { t: 'batch', batch, epoch });
      else if (p.kind === 'forward') this.run.push(o.channels[this.subtask]!, { t: 'batch', batch, epoch });
      else if (p.kind === 'broadcast') for (const c of o.channels) this.run.push(c, { t: 'batch', batch, epoch });
      else if (p.kind === 'rebalance') { this.run.push(o.channels[o.next]!, { t: 'batch', batch, epoch }); o.next = (o.next + 1) % n; }
      else {
        const parts = partitionBatch(batch, p.keys, n);
        for (let i = 0; i < n; i++) { const b = parts[i]; if (b !== undefined && b.numRows > 0) this.run.push(o.channels[i]!, { t: 'batch', batch: b, epoch }); }
      }
    }
  }

  emitWatermark(epoch: number): void {
    for (const o of this.outputs) for (const c of o.channels) this.run.push(c, { t: 'wm', epoch });
  }
}

class SourceInst extends Instance {
  source: SourceInstance | undefined;
  done = false;
  constructor(run: Run, readonly vertex: SourceVertex, subtask: number) {
    super(run, `${vertex.name}#${vertex.id}[${subtask}]`, vertex.id, subtask);
  }
}

class OpInstance extends Instance implements OperatorContext {
  readonly op: Operator;
  /** Channels per input number. */
  readonly inputChannels: Channel[][];
  readonly inputEnded: boolean[];
  watermark = -1;
  running = false;
  finished = false;
  closed = false;
  constructor(run: Run, readonly vertex: OperatorVertex, subtask: number) {
    super(run, `${vertex.name}#${vertex.id}[${subtask}]`, vertex.id, subtask);
    this.op = vertex.factory(subtask);
    this.inputChannels = vertex.inputs.map(() => []);
    this.inputEnded = vertex.inputs.map(() => false);
  }
  // OperatorContext
  get subtaskIndex(): number { return this.subtask; }
  get parallelism(): number { return this.vertex.parallelism; }
  get batchSize(): number { return this.run.options.batchSize; }
  get outputSchema() { return this.vertex.schema; }
  get inputSchemas() { return this.vertex.inputs.map((e) => this.run.graph.vertices[e.from]!.schema); }
  get cancelled(): boolean { return this.run.failed; }
  markInputSatisfied(): void { this.run.satisfy(this); }

  accepts(input: number): boolean {
    if (this.running || this.finished) return false;
    const sel = this.op.selectInput?.() ?? -1;
    return sel < 0 || sel === input || this.inputEnded[sel] === true;
  }
}

/** Thrown inside delivery to unwind the stack; carries the already-wrapped error. */
class JobFailure extends Error {
  constructor(readonly error: Error) { super(error.message); }
}

class Run {
  readonly sources: SourceInst[] = [];
  readonly ops: OpInstance[] = [];
  readonly byVertex: Instance[][] = [];
  /** Channels that have queued events (may hold stale entries; checked when drained). */
  readonly pending = new Set<Channel>();
  readonly out: RecordBatch[] = [];
  failed = false;
  rowsRead = 0;
  private readonly timing: { inst: Instance; start: number }[] = [];

  constructor(readonly graph: JobGraph, readonly options: RunOptions) {
    for (const v of graph.vertices) {
      const insts: Instance[] = [];
      for (let s = 0; s < v.parallelism; s++) {
        const inst = v.kind === 'source' ? new SourceInst(this, v, s) : new OpInstance(this, v, s);
        if (inst instanceof SourceInst) this.sources.push(inst); else this.ops.push(inst as OpInstance);
        insts.push(inst);
      }
      this.byVertex.push(insts);
      if (v.kind === 'operator') {
        v.inputs.forEach((e, input) => {
          const producers = this.byVertex[e.from]!;
          for (const prod of producers) {
            const channels = insts.map((c) => {
              const ch = new Channel(prod, c as OpInstance, input);
              (c as OpInstance).inputChannels[input]!.push(ch);
              return ch;
            });
            prod.outputs.push({ partitioner: e.partitioner, channels, next: prod.subtask % insts.length });
          }
        });
      }
    }
    const outInsts = this.byVertex[graph.output]!;
    for (const i of outInsts) i.sink = this.out;
  }

  /** Runs `f` attributing its own time to `inst` (nested calls are subtracted). */
  timed<T>(inst: Instance, f: () => T): T {
    const now = performance.now();
    const top = this.timing[this.timing.length - 1];
    if (top) top.inst.metrics.timeMs += now - top.start;
    this.timing.push({ inst, start: now });
    try {
      return f();
    } finally {
      const end = performance.now();
      const me = this.timing.pop()!;
      me.inst.metrics.timeMs += end - me.start;
      const parent = this.timing[this.timing.length - 1];
      if (parent) parent.start = end;
    }
  }

  push(ch: Channel, ev: Event): void {
    if (ch.closed) return;
    if (ch.queue.length === 0 && ch.consumer.accepts(ch.input)) this.deliver(ch, ev);
    else { ch.queue.push(ev); this.pending.add(ch); }
  }

  /** Delivers queued events of every channel whose consumer accepts them; returns true if anything was delivered. */
  drain(): boolean {
    let any = false;
    for (const ch of [...this.pending]) {
      while (ch.queue.length > 0 && !ch.closed && ch.consumer.accepts(ch.input)) {
        this.deliver(ch, ch.queue.shift()!);
        any = true;
      }
      if (ch.queue.length === 0 || ch.closed) { ch.queue.length = 0; this.pending.delete(ch); }
    }
    return any;
  }

  private guard(inst: OpInstance, what: string, f: () => void): void {
    inst.running = true;
    try {
      this.timed(inst, f);
    } catch (e) {
      if (e instanceof JobFailure) throw e;
      const err = e instanceof Error ? e : new Error(String(e));
      const msg = err instanceof EddyError ? err.message : `${err.name}: ${err.message}`;
      const wrapped = err instanceof CancelledError ? err : new ExecutionError(`operator ${inst.name} failed in ${what}: ${msg}`, { cause: err });
      throw new JobFailure(wrapped);
    } finally {
      inst.running = false;
    }
  }

  private deliver(ch: Channel, ev: Event): void {
    const c = ch.consumer;
    if (ev.t === 'batch') {
      c.metrics.rowsIn += ev.batch.numRows;
      c.metrics.batchesIn++;
      this.guard(c, 'processBatch', () => c.op.processBatch(ch.input, ev.batch, ev.epoch));
      return;
    }
    if (ev.epoch <= ch.wm) return; // watermarks only rise per channel
    ch.wm = ev.epoch;
    this.onWatermark(c, ch.input);
  }

  /** Re-evaluates an instance's inputs after a channel watermark changed. */
  onWatermark(c: OpInstance, input: number): void {
    if (!c.inputEnded[input] && c.inputChannels[input]!.every((x) => x.wm >= END)) {
      c.inputEnded[input] = true;
      if (c.op.onInputEnd) this.guard(c, 'onInputEnd', () => c.op.onInputEnd!(input));
    }
    let min = END;
    for (const chs of c.inputChannels) for (const x of chs) if (x.wm < min) min = x.wm;
    if (c.vertex.inputs.length === 0) min = END;
    if (min <= c.watermark) return;
    c.watermark = min;
    if (min >= END) {
      c.finished = false;
      this.guard(c, 'finish', () => c.op.finish());
      c.finished = true;
      c.emitWatermark(END);
    } else {
      if (c.op.onEpochWatermarkIncremented) this.guard(c, 'onEpochWatermarkIncremented', () => c.op.onEpochWatermarkIncremented!(min));
      c.emitWatermark(min);
    }
  }

  /** An operator needs no more input: close its input channels and stop producers nobody reads. */
  satisfy(c: OpInstance): void {
    for (const chs of c.inputChannels) {
      for (const ch of chs) {
        if (ch.closed) continue;
        ch.closed = true;
        ch.queue.length = 0;
        this.pending.delete(ch);
        const p = ch.producer;
        if (p.outputsClosed()) {
          if (p instanceof SourceInst) this.stopSource(p);
          else this.satisfy(p as OpInstance);
        }
      }
    }
    // Closed channels count as ended: the operator finishes (from the scheduler loop, not re-entrantly).
    for (const chs of c.inputChannels) for (const ch of chs) ch.wm = END;
    this.deferredWatermarks.add(c);
  }

  /** Instances whose inputs were closed and whose watermark the loop must re-evaluate. */
  readonly deferredWatermarks = new Set<OpInstance>();

  /** Re-evaluates deferred watermarks; returns true if any instance was updated. */
  flushDeferred(): boolean {
    let any = false;
    for (const c of [...this.deferredWatermarks]) {
      if (c.running) continue;
      this.deferredWatermarks.delete(c);
      if (!c.finished) { c.inputChannels.forEach((_, i) => this.onWatermark(c, i)); any = true; }
    }
    return any;
  }

  private stopSource(s: SourceInst): void {
    if (s.done) return;
    s.done = true;
    void s.source?.close();
  }

  async open(): Promise<void> {
    for (const o of this.ops) this.guard(o, 'open', () => o.op.open(o));
    const ctrl = this.options.signal;
    for (const s of this.sources) {
      s.source = await s.vertex.factory({
        name: s.name,
        subtaskIndex: s.subtask,
        parallelism: s.vertex.parallelism,
        batchSize: this.options.batchSize,
        signal: ctrl ?? new AbortController().signal,
      });
    }
    // Operators without inputs (none today) and sources with nothing downstream are handled by the loop.
  }

  /** Pulls one batch from a source; returns false if no source could be pulled. */
  async pullOne(): Promise<boolean> {
    const live = this.sources.filter((s) => !s.done);
    if (live.length === 0) return false;
    const memo = new Map<Instance, boolean>();
    const preferred = live.filter((s) => this.canAccept(s, memo));
    const pick = (preferred.length > 0 ? preferred : live)[this.rr++ % (preferred.length > 0 ? preferred.length : live.length)]!;
    let ev = pick.source!.next();
    if (ev instanceof Promise) ev = await ev;
    if (this.failed) return true;
    if (ev === null) {
      pick.done = true;
      await pick.source!.close();
      this.timed(pick, () => pick.emitWatermark(END));
      return true;
    }
    if (pick.done) return true; // stopped while awaiting
    if ('watermark' in ev) {
      const w = ev.watermark;
      this.timed(pick, () => pick.emitWatermark(w));
      return true;
    }
    const batch = 'epoch' in ev ? ev.batch : ev;
    const epoch = 'epoch' in ev ? ev.epoch : 0;
    pick.metrics.rowsIn += batch.numRows;
    pick.metrics.batchesIn++;
    this.rowsRead += batch.numRows;
    this.timed(pick, () => pick.emit(batch, epoch));
    return true;
  }
  private rr = 0;

  /** True if a batch emitted by `inst` can be processed now rather than only buffered. */
  private canAccept(inst: Instance, memo: Map<Instance, boolean>): boolean {
    const m = memo.get(inst);
    if (m !== undefined) return m;
    memo.set(inst, false);
    let ok = inst.sink !== undefined;
    for (const o of inst.outputs) {
      for (const ch of o.channels) {
        if (ok) break;
        if (ch.closed) continue;
        if (ch.queue.length < 4 && ch.consumer.accepts(ch.input) && this.canAccept(ch.consumer, memo)) ok = true;
      }
    }
    memo.set(inst, ok);
    return ok;
  }

  allFinished(): boolean {
    return this.sources.every((s) => s.done) && this.ops.every((o) => o.finished || o.vertex.inputs.length === 0);
  }

  closeAll(): void {
    for (const o of this.ops) {
      if (o.closed) continue;
      o.closed = true;
      try { o.op.close(); } catch { /* closing after a failure: the first error wins */ }
    }
    for (const s of this.sources) {
      s.done = true;
      try { void s.source?.close(); } catch { /* ignore */ }
    }
  }

  metricsByVertex(): VertexMetrics[] {
    return this.byVertex.map((insts, vertex) => {
      const m: VertexMetrics = { vertex, name: this.graph.vertices[vertex]!.name, rowsIn: 0, batchesIn: 0, rowsOut: 0, batchesOut: 0, timeMs: 0 };
      for (const i of insts) { m.rowsIn += i.metrics.rowsIn; m.batchesIn += i.metrics.batchesIn; m.rowsOut += i.metrics.rowsOut; m.batchesOut += i.metrics.batchesOut; m.timeMs += i.metrics.timeMs; }
      return m;
    });
  }
}

/** A running job: iterate it for result batches; `metrics()` after it ends. */
export interface JobExecution extends AsyncIterable<RecordBatch> {
  /** Per-vertex metrics (valid during and after the run). */
  metrics(): VertexMetrics[];
}

/**
 * Runs a job graph. The returned execution yields result batches as they are
 * produced; iterate it to drive the run. Errors stop the whole job, close
 * every operator and are rethrown (operator failures name the operator).
 */
export function executeJob(graph: JobGraph, options: RunOptions): JobExecution {
  const run = new Run(graph, options);
  async function* drive(): AsyncGenerator<RecordBatch> {
    const signal = options.signal;
    let lastYield = performance.now();
    let lastProgress = lastYield;
    try {
      await run.open();
      for (;;) {
        if (signal?.aborted) throw new CancelledError('query cancelled');
        let progressed = run.drain();
        if (run.flushDeferred()) progressed = true;
        if (!progressed) progressed = await run.pullOne();
        while (run.out.length > 0) yield run.out.shift()!;
        if (!progressed) {
          if (run.pending.size > 0 && run.drain()) continue;
          if (run.allFinished()) break;
          throw new InternalError(`job stalled: ${run.ops.filter((o) => !o.finished).map((o) => o.name).join(', ')} never finished`);
        }
        const now = performance.now();
        if (now - lastYield > 25) {
          // Let timers, signals and I/O run (Ctrl-C, progress bars) during long CPU-bound runs.
          await new Promise<void>((r) => setImmediate(r));
          lastYield = performance.now();
        }
        if (options.onProgress && now - lastProgress > 100) { options.onProgress(run.rowsRead); lastProgress = now; }
      }
      while (run.out.length > 0) yield run.out.shift()!;
    } catch (e) {
      run.failed = true;
      throw e instanceof JobFailure ? e.error : e;
    } finally {
      run.failed = run.failed || !run.allFinished();
      run.closeAll();
    }
  }
  const gen = drive();
  return {
    [Symbol.asyncIterator]: () => gen,
    metrics: () => run.metricsByVertex(),
  };
}
