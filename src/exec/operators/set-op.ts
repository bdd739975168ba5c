/**
 * INTERSECT / EXCEPT, distinct and ALL. Input 0 is left, input 1 right; NULLs
 * compare equal. Rows of both inputs hash into one KeyTable over all columns
 * (typed by the output schema, so a NULL-typed column on one side still
 * matches); per group we count left and right rows. When an epoch's watermark
 * passes (or at finish) each group is emitted
 *   INTERSECT: once if l > 0 and r > 0     INTERSECT ALL: min(l, r) times
 *   EXCEPT:    once if l > 0 and r = 0     EXCEPT ALL:    max(l − r, 0) times
 * in first-seen order, rebuilt from the table's stored keys (VARCHAR as Utf8).
 * State is per epoch; a right input that ended is not re-applied to later
 * epochs (unlike the hash join's static build side).
 */
import type { RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../batch.js';
import { KeyTable } from '../kernels/hash.js';
import { emitBounded, type Operator, type OperatorContext } from '../operator.js';
import { growF64 } from './agg-arrays.js';
import { EpochStates } from './epoch-states.js';
import { groupBytes } from '../memory.js';

/** Configuration of a set operation (plain data). */
export interface SetOpConfig {
  readonly op: 'intersect' | 'except';
  readonly all: boolean;
}

interface EpochCounts {
  readonly table: KeyTable;
  left: Float64Array;
  right: Float64Array;
}

/** Creates an INTERSECT/EXCEPT operator instance. */
export function setOp(config: SetOpConfig): Operator {
  return new SetOp(config);
}

class SetOp implements Operator {
  private ctx!: OperatorContext;
  private readonly epochs = new EpochStates<EpochCounts>(() => ({ table: new KeyTable(this.ctx.outputSchema.fields.map((f) => f.type)), left: new Float64Array(16), right: new Float64Array(16) }));

  constructor(private readonly config: SetOpConfig) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(input: number, batch: RecordBatch, epoch: number): void {
    const n = batch.numRows;
    if (n === 0) return;
    const st = this.epochs.get(epoch);
    const before = st.table.size;
    const gids = st.table.groupIds(batch.data.children, n);
    if (st.table.size > before) this.ctx.reserveMemory((st.table.size - before) * groupBytes(batch.data.children.length, 2));
    st.left = growF64(st.left, st.table.size);
    st.right = growF64(st.right, st.table.size);
    const counts = input === 0 ? st.left : st.right;
    for (let i = 0; i < n; i++) counts[gids[i]!]++;
  }

  onEpochWatermarkIncremented(epoch: number): void {
    this.emitUpTo(epoch);
  }

  finish(): void {
    this.emitUpTo(Infinity);
  }

  private emitUpTo(w: number): void {
    this.epochs.drainUpTo(w, (st, e) => this.emitCounts(st, e));
  }

  /** How many copies of a group the result has. */
  private copies(l: number, r: number): number {
    const { op, all } = this.config;
    if (op === 'intersect') return all ? Math.min(l, r) : l > 0 && r > 0 ? 1 : 0;
    return all ? Math.max(l - r, 0) : l > 0 && r === 0 ? 1 : 0;
  }

  private emitCounts(st: EpochCounts, epoch: number): void {
    const size = Math.max(1, this.ctx.batchSize);
    const width = this.ctx.outputSchema.fields.length;
    const gids = new Int32Array(size);
    let m = 0;
    const flush = (): void => {
      if (m === 0) return;
      const cols = Array.from({ length: width }, (_, c) => st.table.keyColumn(c, gids, m));
      this.ctx.emit(batchFromColumns(this.ctx.outputSchema, cols, m), epoch);
      m = 0;
    };
    // One batch per step; `k` is how many copies of group `g` are still owed.
    let g = 0;
    let k = st.table.size > 0 ? this.copies(st.left[0]!, st.right[0]!) : 0;
    emitBounded(this.ctx, () => {
      while (g < st.table.size && m < size) {
        if (k > 0) { gids[m++] = g; k--; continue; }
        if (++g < st.table.size) k = this.copies(st.left[g]!, st.right[g]!);
      }
      flush();
      return g < st.table.size;
    });
  }

  close(): void {
    this.epochs.clear();
  }
}
