/**
 * The window operator: appends one column per window call to every input
 * row. Per epoch it buffers its input (reserved from the query's memory
 * limit), and when the epoch's watermark passes (or at finish) it sorts the
 * rows once by (partition keys, order keys) — O(n log n) — and gathers them
 * in that order. Then, in bounded steps, it walks the partitions in order:
 * each step evaluates partitions until about one batch of rows is complete
 * (peers, frames, then every call: window-ranking.ts, window-aggregates.ts)
 * and emits those rows with their results. Partitioning across subtasks is
 * the planner's hash exchange on the partition keys, so one partition never
 * spans two instances.
 */
import type { Data, RecordBatch } from 'apache-arrow';
import { placeError } from '../../relnode/errors.js';
import type { SortKey } from '../../relnode/rel.js';
import type { SqlType } from '../../relnode/types.js';
import { usesFrame, type WindowCall } from '../../relnode/window.js';
import { batchFromColumns, sliceBatch, takeBatch } from '../batch.js';
import { concatBatches } from '../batch-concat.js';
import { batchBytes } from '../memory.js';
import { emitBounded, type Operator, type OperatorContext } from '../operator.js';
import { EpochStates } from './epoch-states.js';
import { windowAggregator } from './window-aggregates.js';
import { allocFrames, allocPeers, framesOf, markKeyChanges, peersOf, rangeKey, type Frames, type Peers, type RangeKey } from './window-frames.js';
import { windowRanker } from './window-ranking.js';
import { windowPermutation } from './window-sort.js';
import type { WindowOutput } from './window-output.js';

/** Configuration of a window operator (plain data). */
export interface WindowConfig {
  readonly partitionKeys: readonly number[];
  readonly orderKeys: readonly SortKey[];
  readonly calls: readonly WindowCall[];
  /** The SQL types of the input columns. */
  readonly inputTypes: readonly SqlType[];
}

interface EpochBuffer {
  batches: RecordBatch[];
  bytes: number;
}

/** Creates a window operator instance. */
export function windowOperator(config: WindowConfig): Operator {
  return new WindowOp(config);
}

/** One call's evaluator over the sorted rows. */
interface CallEval {
  readonly output: WindowOutput;
  readonly frames: Frames | null;
  partition(ps: number, pe: number): void;
}

class WindowOp implements Operator {
  private ctx!: OperatorContext;
  private readonly epochs = new EpochStates<EpochBuffer>(() => ({ batches: [], bytes: 0 }));

  constructor(private readonly config: WindowConfig) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    if (batch.numRows === 0) return;
    const buf = this.epochs.get(epoch);
    const bytes = batchBytes(batch);
    this.ctx.reserveMemory(bytes);
    buf.bytes += bytes;
    buf.batches.push(batch);
  }

  onEpochWatermarkIncremented(epoch: number): void {
    this.epochs.drainUpTo(epoch, (buf, e) => this.emitWindowed(buf, e));
  }

  finish(): void {
    this.epochs.drainUpTo(Infinity, (buf, e) => this.emitWindowed(buf, e));
  }

  private emitWindowed(buf: EpochBuffer, epoch: number): void {
    let run: Evaluation | null = null;
    emitBounded(this.ctx, () => {
      if (run === null) {
        const all = concatBatches(buf.batches);
        buf.batches = [];
        if (all === null) return false;
        run = new Evaluation(this.config, all, this.ctx);
        this.ctx.reserveMemory(run.bytes);
      }
      const more = run.step(Math.max(1, this.ctx.batchSize), (b) => this.ctx.emit(b, epoch));
      if (!more) {
        this.ctx.releaseMemory(buf.bytes + run.bytes);
        buf.bytes = 0;
      }
      return more;
    });
  }

  close(): void {
    this.epochs.clear();
  }
}

/** The evaluation of one epoch's rows: the sorted rows, partition and peer marks, and each call's evaluator. */
class Evaluation {
  private readonly sorted: RecordBatch;
  private readonly n: number;
  private readonly partStarts: Uint8Array;
  private readonly orderStarts: Uint8Array;
  private readonly peers: Peers;
  private readonly evals: CallEval[];
  private readonly rangeKey: RangeKey | undefined;
  /** Rows [0, done) have their results; rows [0, emitted) were emitted. */
  private done = 0;
  private emitted = 0;
  /** Bytes of the sorted copy and the result columns. */
  readonly bytes: number;

  constructor(private readonly config: WindowConfig, all: RecordBatch, private readonly ctx: OperatorContext) {
    const n = all.numRows;
    this.n = n;
    const keys: SortKey[] = [...config.partitionKeys.map((index) => ({ index, desc: false, nullsFirst: false })), ...config.orderKeys];
    const cols = all.data.children;
    const perm = keys.length === 0 ? null : windowPermutation(keys, keys.map((k) => cols[k.index]!), n);
    this.sorted = perm === null ? all : takeBatch(all, perm);
    const sc = this.sorted.data.children;
    this.partStarts = markKeyChanges(config.partitionKeys.map((k) => sc[k]!), n);
    this.orderStarts = markKeyChanges(config.orderKeys.map((k) => sc[k.index]!), n, this.partStarts.slice());
    this.peers = allocPeers(n);
    const needsRange = config.calls.some((c) => usesFrame(c.fn) && c.frame.mode === 'range' && [c.frame.start, c.frame.end].some((b) => b.kind === 'preceding' || b.kind === 'following'));
    this.rangeKey = needsRange ? rangeKey(sc[config.orderKeys[0]!.index]!, config.orderKeys[0]!) : undefined;
    this.evals = config.calls.map((c) => {
      try {
        return this.evaluator(c, sc);
      } catch (err) {
        throw placeError(err, c.at);
      }
    });
    this.bytes = (perm === null ? 0 : batchBytes(this.sorted)) + n * (12 + 16 * config.calls.length);
  }

  private evaluator(c: WindowCall, sc: readonly Data[]): CallEval {
    const args = c.args.map((a) => sc[a]!);
    const frames = usesFrame(c.fn) ? allocFrames(this.n) : null;
    const peers = this.peers;
    const isAgg = !['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value'].includes(c.fn);
    if (isAgg) {
      const agg = windowAggregator(c, this.n, args[0], c.args.length > 0 ? this.config.inputTypes[c.args[0]!]! : 'NULL');
      return {
        output: agg.output, frames,
        partition: (ps, pe) => { framesOf(c.frame, ps, pe, peers, this.rangeKey, frames!); agg.partition(ps, pe, frames!); },
      };
    }
    const r = windowRanker(c, this.n, args);
    const none: Frames = { start: new Int32Array(0), end: new Int32Array(0) };
    return {
      output: r.output, frames,
      partition: (ps, pe) => { if (frames) framesOf(c.frame, ps, pe, peers, this.rangeKey, frames); r.partition(ps, pe, peers, frames ?? none); },
    };
  }

  /** Evaluates partitions until `size` more rows are complete, emits them; true while rows remain. */
  step(size: number, emit: (b: RecordBatch) => void): boolean {
    const target = Math.min(this.n, this.emitted + size);
    const starts = this.partStarts;
    while (this.done < target) {
      const ps = this.done;
      let pe = ps + 1;
      while (pe < this.n && !starts[pe]) pe++;
      peersOf(this.orderStarts, ps, pe, this.peers);
      // A call that raises (sum overflowing BIGINT) raises about itself: placed where it was written (WindowCall.at).
      let k = 0;
      try {
        for (k = 0; k < this.evals.length; k++) this.evals[k]!.partition(ps, pe);
      } catch (err) {
        throw placeError(err, this.config.calls[k]?.at);
      }
      this.done = pe;
      if (this.ctx.cancelled) return false;
    }
    // Emit everything complete, in slices of at most `size` rows.
    const s = this.emitted;
    const e = Math.min(this.done, s + size);
    const base = sliceBatch(this.sorted, s, e);
    const cols = [...base.data.children, ...this.evals.map((ev) => ev.output.slice(s, e))];
    emit(batchFromColumns(this.ctx.outputSchema, cols, e - s));
    this.emitted = e;
    return this.emitted < this.n;
  }
}
