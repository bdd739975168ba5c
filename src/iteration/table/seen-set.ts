/**
 * The seen set of a distinct (UNION) accumulating iteration: one KeyTable
 * over all columns per subtask, shared by two operators — one on the initial
 * rows (before the head) and one on each round's next rows (before the tail).
 * Each passes only rows not seen before (duplicates within a batch, a round
 * or across rounds included), so the head receives exactly each round's new
 * rows: the body reads them, the exit streams them out, and a round that adds
 * nothing ends the loop.
 *
 * Decision: the set is all-round state that grows with the distinct result —
 * the one thing UNION semantics needs; both operators hash-partition by every
 * column with the same parallelism, so subtask i of each sees the same keys
 * and they share subtask i's set (`ctx.shared`).
 */
import type { RecordBatch } from 'apache-arrow';
import { takeBatch, emitInSlices } from '../../exec/batch.js';
import { KeyTable } from '../../exec/kernels/hash.js';
import { groupBytes } from '../../exec/memory.js';
import type { Operator, OperatorContext } from '../../exec/operator.js';

export class SeenSetOperator implements Operator {
  private ctx!: OperatorContext;
  private table!: KeyTable;

  constructor(private readonly key: string) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const types = ctx.inputSchemas[0]!.fields.map((f) => f.type);
    this.table = ctx.shared(`${this.key}.${ctx.subtaskIndex}`, () => new KeyTable(types));
  }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    const n = batch.numRows;
    const before = this.table.size;
    const gids = this.table.groupIds(batch.data.children, n);
    if (this.table.size === before) return;
    this.ctx.reserveMemory((this.table.size - before) * groupBytes(batch.data.children.length, 0));
    // New groups get consecutive ids in row order: row i is new iff gids[i] is the next new id.
    const sel = new Int32Array(n);
    let m = 0;
    let next = before;
    for (let i = 0; i < n; i++) if (gids[i] === next) { sel[m++] = i; next++; }
    const out = m === n ? batch : takeBatch(batch, sel, m);
    emitInSlices(out, this.ctx.batchSize, (b) => this.ctx.emit(b, epoch));
  }

  finish(): void {}
  close(): void {}
}
