/**
 * Nested-loop join for non-equi conditions and cross joins (all join types).
 * The right input is buffered first (`selectInput`), then each left batch is
 * paired with every right row in chunks of ≤ stepRows pairs; the condition
 * (a compiled predicate over left then right columns) filters each chunk.
 * Output and epoch rules as in hash-join.ts (join-output.ts): the right side
 * is static and kept across epochs, unless it may carry several epochs
 * (per-epoch-join.ts).
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
import { emptyBatch, sliceBatch } from '../batch.js';
import { concatBatches } from '../batch-concat.js';
import { emitBounded, type Operator, type OperatorContext } from '../operator.js';
import { JoinOutput, type JoinPredicate } from './join-output.js';
import { perEpochJoin } from './per-epoch-join.js';
import { batchBytes } from '../memory.js';
import { stepRows } from '../runtime/step-budget.js';

/** Configuration of a nested-loop join (plain data). */
export interface NestedLoopJoinConfig {
  readonly joinType: JoinType;
  /** The join condition over left columns then right columns; undefined = TRUE (a cross join). */
  readonly condition?: JoinPredicate;
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
}
