/**
 * Nested-loop join for non-equi conditions and cross joins (all join types).
 * The right input is buffered first (`selectInput`), then each left batch is
 * paired with every right row in chunks of ≤ stepRows pairs; the condition
 * (a compiled predicate over left then right columns) filters each chunk.
 * Output and epoch rules as in hash-join.ts (join-output.ts): the right side
 * is static and kept across epochs, unless it may carry several epochs
 * (per-epoch-join.ts).
 *
 * Range key (`range`, planner/range-join-keys.ts): when the condition bounds a right INTEGER/DATE
 * column by expressions over the left row (`r.t BETWEEN l.lo AND l.hi`), the right side is sorted
 * on that column once, and each left row is paired only with the right rows between its bounds
 * (two binary searches) instead of all of them; the condition still decides each pair. A range join
 * of 2,000 orders against 600K lineitem rows compared 1.2 billion pairs before.
 *
 * A semi or anti join without a condition (an uncorrelated [NOT] EXISTS)
 * only asks whether the right side has a row: it keeps the first right row
 * and no more, so every left row pairs once; an anti join whose right side
 * has a row outputs nothing and stops both inputs at once
 * (`markInputSatisfied`): the left side is never computed.
 */
import type { RecordBatch } from 'apache-arrow';
import type { JoinType } from '../../relnode/rel.js';
import { InternalError } from '../../relnode/errors.js';
import { emptyBatch, isValidAt, sliceBatch } from '../batch.js';
import { concatBatches } from '../batch-concat.js';
import { emitBounded, type Operator, type OperatorContext } from '../operator.js';
import { JoinOutput, type JoinPredicate } from './join-output.js';
import { perEpochJoin } from './per-epoch-join.js';
import { batchBytes } from '../memory.js';
import { stepRows } from '../runtime/step-budget.js';
import type { Kernel } from '../kernels/context.js';

/** Configuration of a nested-loop join (plain data). */
export interface NestedLoopJoinConfig {
  readonly joinType: JoinType;
  /** The join condition over left columns then right columns; undefined = TRUE (a cross join). */
  readonly condition?: JoinPredicate;
  /** A right INTEGER/DATE column and kernels over left batches bounding it (see the header). */
  readonly range?: { readonly column: number; readonly lo?: Kernel; readonly hi?: Kernel };
}

/** The right side's non-NULL range-key rows, sorted by key (ties by row). */
interface RangeIndex { readonly keys: Int32Array; readonly rows: Int32Array }

/** Sorts the non-NULL rows of an INTEGER/DATE column by value: (value, row) packed in 64 bits, sorted natively. */
function rangeIndex(right: RecordBatch, column: number): RangeIndex {
  const d = right.data.children[column]!;
  const v = d.values as Int32Array;
  const n = d.length;
  const masked = d.nullCount > 0;
  const packed = new BigInt64Array(n - (masked ? d.nullCount : 0));
  let m = 0;
  for (let i = 0; i < n; i++) if (!masked || isValidAt(d, i)) packed[m++] = (BigInt(v[i]!) << 32n) | BigInt(i);
  packed.sort();
  const keys = new Int32Array(m);
  const rows = new Int32Array(m);
  for (let k = 0; k < m; k++) { const x = packed[k]!; keys[k] = Number(x >> 32n); rows[k] = Number(x & 0xffffffffn); }
  return { keys, rows };
}

/** First index of `keys` (ascending) holding a value ≥ x. */
function lowerBound(keys: Int32Array, x: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) { const mid = (lo + hi) >>> 1; if (keys[mid]! < x) lo = mid + 1; else hi = mid; }
  return lo;
}

/** First index of `keys` (ascending) holding a value > x. */
function upperBound(keys: Int32Array, x: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) { const mid = (lo + hi) >>> 1; if (keys[mid]! <= x) lo = mid + 1; else hi = mid; }
  return lo;
}

/** Creates a nested-loop join operator instance. */
export function nestedLoopJoin(config: NestedLoopJoinConfig): Operator {
  return perEpochJoin(1, () => new NestedLoopJoin(config));
}

class NestedLoopJoin implements Operator {
  private ctx!: OperatorContext;
  private out!: JoinOutput;
  private rightBatches: RecordBatch[] = [];
  private right: RecordBatch | null = null;
  private index: RangeIndex | null = null;
  private pending: { batch: RecordBatch; epoch: number }[] = [];
  private pendingWatermark = -1;
  /** Semi/anti without a condition: only whether the right side has a row matters. */
  private readonly existence: boolean;

  constructor(private readonly config: NestedLoopJoinConfig) {
    this.existence = config.condition === undefined && (config.joinType === 'semi' || config.joinType === 'anti');
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const jt = this.config.joinType === 'cross' ? 'inner' : this.config.joinType;
    this.out = new JoinOutput(ctx, jt, true, this.config.condition);
  }

  selectInput(): number {
    return this.right === null ? 1 : -1;
  }

  processBatch(input: number, batch: RecordBatch, epoch: number): void {
    if (batch.numRows === 0) return;
    if (input === 1) {
      if (this.right !== null) throw new InternalError('nested-loop join received a right batch after its END');
      if (this.existence) {
        if (this.rightBatches.length > 0) return;
        this.rightBatches.push(sliceBatch(batch, 0, 1));
        // NOT EXISTS of a non-empty subquery: no row can be output, whatever the left side holds.
        if (this.config.joinType === 'anti') this.ctx.markInputSatisfied();
        return;
      }
      this.ctx.reserveMemory(batchBytes(batch));
      this.rightBatches.push(batch);
    } else if (this.right === null) { this.ctx.reserveMemory(batchBytes(batch)); this.pending.push({ batch, epoch }); }
    else this.probe(batch, epoch);
  }

  onInputEnd(input: number): void {
    if (input !== 1 || this.right !== null) return;
    this.right = concatBatches(this.rightBatches) ?? emptyBatch(this.ctx.inputSchemas[1]!);
    this.rightBatches = [];
    this.out.setBuild(this.right);
    if (this.config.range !== undefined) this.index = rangeIndex(this.right, this.config.range.column);
    for (const p of this.pending) this.probe(p.batch, p.epoch);
    this.pending = [];
    const w = this.pendingWatermark;
    // Right rows owed are known only once the probes above ran (they may be pending).
    if (w >= 0) emitBounded(this.ctx, () => { this.out.emitBuildSide(w); return false; });
  }

  onEpochWatermarkIncremented(epoch: number): void {
    if (this.right === null) { this.pendingWatermark = epoch; return; }
    this.out.emitBuildSide(epoch);
  }

  finish(): void {
    if (this.right === null) this.onInputEnd(1);
    emitBounded(this.ctx, () => { this.out.emitBuildSide(Infinity); return false; });
  }

  close(): void {
    this.rightBatches = [];
    this.pending = [];
  }

  /** Pairs a left batch with every right row, one chunk of ≤ stepRows pairs per step. */
  private probe(left: RecordBatch, epoch: number): void {
    if (this.index !== null) { this.probeRange(left, epoch, this.index); return; }
    const out = this.out;
    const n = left.numRows;
    const nr = this.right!.numRows;
    const probeMatched = out.tracksProbe ? new Uint8Array(n) : null;
    const cap = stepRows(this.ctx);
    const pIdx = new Int32Array(cap);
    const bIdx = new Int32Array(cap);
    let i = nr === 0 ? n : 0;
    let j = 0;
    emitBounded(this.ctx, () => {
      let m = 0;
      for (; i < n && m < cap; i++) {
        for (; j < nr && m < cap; j++) { pIdx[m] = i; bIdx[m++] = j; }
        if (j < nr) break; // chunk full inside row i: resume there
        j = 0;
      }
      out.pairs(left, pIdx, bIdx, m, epoch, probeMatched);
      if (i < n) return true;
      out.probeDone(left, probeMatched, epoch);
      return false;
    });
  }

  /** Pairs each left row with the right rows between its bounds (see the header), in chunks of ≤ stepRows pairs. */
  private probeRange(left: RecordBatch, epoch: number, index: RangeIndex): void {
    const out = this.out;
    const range = this.config.range!;
    const n = left.numRows;
    const lo = range.lo?.(left);
    const hi = range.hi?.(left);
    const loV = lo?.values as Int32Array | undefined;
    const hiV = hi?.values as Int32Array | undefined;
    const loNull = lo !== undefined && lo.nullCount > 0;
    const hiNull = hi !== undefined && hi.nullCount > 0;
    const probeMatched = out.tracksProbe ? new Uint8Array(n) : null;
    const cap = stepRows(this.ctx);
    const pIdx = new Int32Array(cap);
    const bIdx = new Int32Array(cap);
    const { keys, rows } = index;
    let i = 0;
    let k = 0;
    let end = -1; // the current row's candidates are keys[k, end); -1: not searched yet
    emitBounded(this.ctx, () => {
      let m = 0;
      while (i < n && m < cap) {
        if (end < 0) {
          if ((loNull && !isValidAt(lo!, i)) || (hiNull && !isValidAt(hi!, i))) { i++; continue; }
          k = loV === undefined ? 0 : lowerBound(keys, loV[i]!);
          end = hiV === undefined ? keys.length : upperBound(keys, hiV[i]!);
        }
        for (; k < end && m < cap; k++) { pIdx[m] = i; bIdx[m++] = rows[k]!; }
        if (k < end) break; // chunk full inside row i: resume there
        i++;
        end = -1;
      }
      out.pairs(left, pIdx, bIdx, m, epoch, probeMatched);
      if (i < n) return true;
      out.probeDone(left, probeMatched, epoch);
      return false;
    });
  }
}
