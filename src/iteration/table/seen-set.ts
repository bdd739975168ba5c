/**
 * The seen set of a distinct (UNION) accumulating iteration: one set over all
 * columns per subtask, shared by two operators — one on the initial rows
 * (before the head) and one on each round's next rows (before the tail).
 * Each passes only rows not seen before (duplicates within a batch, a round
 * or across rounds included), so the head receives exactly each round's new
 * rows: the body reads them, the exit streams them out, and a round that adds
 * nothing ends the loop.
 *
 * Decision: the set is all-round state that grows with the distinct result —
 * the one thing UNION semantics needs; both operators hash-partition by every
 * column with the same parallelism, so subtask i of each sees the same keys
 * and they share subtask i's set (`ctx.shared`). Rows of up to four INTEGER /
 * DATE columns without NULLs (graph algorithms' node pairs) go to an int-tuple
 * table (int-tuple-table.ts: no key encoding, 2–3× faster); any other row —
 * other types, or a NULL — goes to the generic KeyTable (NULLs equal, as
 * UNION wants). The two never hold the same row, so together they are one set.
 */
import type { Data, RecordBatch } from 'apache-arrow';
import { takeBatch, takeData, emitInSlices } from '../../exec/batch.js';
import { KeyTable } from '../../exec/kernels/hash.js';
import { groupBytes } from '../../exec/memory.js';
import type { Operator, OperatorContext } from '../../exec/operator.js';
import type { SqlType } from '../../relnode/types.js';
import { IntTupleTable } from './int-tuple-table.js';

/** One subtask's set of rows seen so far. */
export class SeenRows {
  private readonly ints: IntTupleTable | null;
  private generic: KeyTable | null = null;
  private words = new Int32Array(0);
  private gids = new Int32Array(0);

  constructor(private readonly types: readonly SqlType[]) {
    this.ints = types.length > 0 && types.length <= 4 && types.every((t) => t === 'INTEGER' || t === 'DATE') ? new IntTupleTable(types.length) : null;
  }

  /** Rows held. */
  get size(): number {
    return (this.ints?.size ?? 0) + (this.generic?.size ?? 0);
  }

  /** Adds the rows of `cols`; writes the rows that were new into `sel` (in row order) and returns their number. */
  addNew(cols: readonly Data[], n: number, sel: Int32Array): number {
    if (this.ints === null || cols.some((c) => !(c.values instanceof Int32Array))) return this.addGeneric(cols, n, sel);
    const W = cols.length;
    const anyNull = cols.some((c) => c.nullCount > 0);
    let m = 0;
    const t = this.ints;
    if (W === 2 && !anyNull) {
      const a = cols[0]!.values as Int32Array;
      const b = cols[1]!.values as Int32Array;
      for (let i = 0; i < n; i++) {
        const before = t.size;
        if (t.add2(a[i]!, b[i]!) === before) sel[m++] = i;
      }
      return m;
    }
    if (this.words.length < W * n) this.words = new Int32Array(W * n);
    const words = this.words;
    const rest = anyNull ? new Uint8Array(n) : null;
    for (let w = 0; w < W; w++) {
      const c = cols[w]!;
      const v = c.values as Int32Array;
      const bm = c.nullCount > 0 ? c.nullBitmap : null;
      for (let i = 0; i < n; i++) {
        words[i * W + w] = v[i]!;
        if (bm && ((bm[(c.offset + i) >> 3]! >> ((c.offset + i) & 7)) & 1) === 0) rest![i] = 1;
      }
    }
    for (let i = 0; i < n; i++) {
      if (rest !== null && rest[i] === 1) continue;
      const before = t.size;
      if (t.add(words, i * W) === before) sel[m++] = i;
    }
    if (rest === null) return m;
    // Rows with a NULL: through the generic set, merged back into row order.
    const idx = new Int32Array(n);
    let r = 0;
    for (let i = 0; i < n; i++) if (rest[i] === 1) idx[r++] = i;
    const other = new Int32Array(r);
    const k = this.addGeneric(cols.map((c) => takeData(c, idx, r)), r, other);
    if (k === 0) return m;
    const merged = new Int32Array(m + k);
    let x = 0;
    let y = 0;
    for (let z = 0; z < m + k; z++) merged[z] = y >= k || (x < m && sel[x]! < idx[other[y]!]!) ? sel[x++]! : idx[other[y++]!]!;
    sel.set(merged);
    return m + k;
  }

  /** Rows through the generic KeyTable. */
  private addGeneric(cols: readonly Data[], n: number, sel: Int32Array): number {
    const table = (this.generic ??= new KeyTable(this.types));
    if (this.gids.length < n) this.gids = new Int32Array(n);
    const before = table.size;
    const gids = table.groupIds(cols, n, this.gids);
    if (table.size === before) return 0;
    // New groups get consecutive ids in row order: row i is new iff gids[i] is the next new id.
    let m = 0;
    let next = before;
    for (let i = 0; i < n; i++) {
      if (gids[i] === next) { sel[m++] = i; next++; }
    }
    return m;
  }
}

export class SeenSetOperator implements Operator {
  private ctx!: OperatorContext;
  private rows!: SeenRows;

  constructor(private readonly key: string) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const types = ctx.inputSchemas[0]!.fields.map((f) => f.type);
    this.rows = ctx.shared(`${this.key}.${ctx.subtaskIndex}`, () => new SeenRows(types));
  }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    const n = batch.numRows;
    const sel = new Int32Array(n);
    const m = this.rows.addNew(batch.data.children, n, sel);
    if (m === 0) return;
    this.ctx.reserveMemory(m * groupBytes(batch.data.children.length, 0));
    const out = m === n ? batch : takeBatch(batch, sel, m);
    emitInSlices(out, this.ctx.batchSize, (b) => this.ctx.emit(b, epoch));
  }

  finish(): void {}
  close(): void {}
}
