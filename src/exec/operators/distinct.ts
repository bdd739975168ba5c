/**
 * Distinct (SELECT DISTINCT): emits the first occurrence of each distinct
 * row, NULLs equal. Rows hash into a KeyTable over all columns; state is per
 * epoch. New distinct rows are emitted immediately as their batch arrives
 * (streaming, tagged with the batch's epoch) — correct per epoch because the
 * table of epoch e sees only epoch e's rows. The watermark of e drops e's
 * table. Output keeps the input's physical types (dictionaries stay).
 */
import type { RecordBatch } from 'apache-arrow';
import { emitInSlices, takeBatch } from '../batch.js';
import { KeyTable } from '../kernels/hash.js';
import type { Operator, OperatorContext } from '../operator.js';
import { EpochStates } from './epoch-states.js';
import { groupBytes } from '../memory.js';

/** Creates a distinct operator instance. */
export function distinct(): Operator {
  return new Distinct();
}

class Distinct implements Operator {
  private ctx!: OperatorContext;
  private readonly tables = new EpochStates<KeyTable>(() => new KeyTable(this.ctx.inputSchemas[0]!.fields.map((f) => f.type)));

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    const n = batch.numRows;
    if (n === 0) return;
    const table = this.tables.get(epoch);
    const before = table.size;
    const gids = table.groupIds(batch.data.children, n);
    if (table.size > before) this.ctx.reserveMemory((table.size - before) * groupBytes(batch.data.children.length, 0));
    // New groups get consecutive ids in row order: row i is a first occurrence iff gids[i] is the next new id.
    const sel = new Int32Array(n);
    let m = 0;
    let next = before;
    for (let i = 0; i < n; i++) if (gids[i] === next) { sel[m++] = i; next++; }
    if (m === 0) return;
    const out = m === n ? batch : takeBatch(batch, sel, m);
    emitInSlices(out, this.ctx.batchSize, (b) => this.ctx.emit(b, epoch));
  }

  onEpochWatermarkIncremented(epoch: number): void {
    this.tables.dropUpTo(epoch);
  }

  finish(): void {
    this.tables.clear();
  }

  close(): void {
    this.tables.clear();
  }
}
