/**
 * USING KEY (DuckDB 1.3): the accumulated result of a keyed iteration is a
 * table in which a new row replaces the row with the same key (with
 * Iterate.keepMin: only a row that lowers the key's kept column). One store
 * per subtask (shared, like the seen set) is written by two operators and
 * read by two (keyed-operators.ts):
 *
 * - `KeyedUpsertOperator('initial')` on the initial rows: keeps the last row
 *   per key and, at their end, passes the deduplicated rows to the head;
 * - `KeyedUpsertOperator('round')` on each round's next rows: at the round's
 *   watermark keeps the last row per key of the round, writes them into the
 *   store and passes them on (the next round's working rows — every row the
 *   round produced, changed or not, as DuckDB does);
 * - `RecurringOperator` (FeedbackRef view `recurring`): at the start of each
 *   round, gated on the first head's watermark, emits the store as the
 *   previous round left it;
 * - the keyed exit emits the store at END.
 *
 * Decision: rows are kept by reference (batch, row) per key and compacted
 * into one batch when a read materializes them, so an overwrite costs no
 * copy and the store holds at most about twice the live rows. One INTEGER
 * key (graphs' node numbers) gets its key ids from the int index alone
 * (int-index.ts), without the generic key table's encoding.
 */
import type { Data, RecordBatch } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import { IntIndex } from './int-index.js';
import { takeBatch } from '../../exec/batch.js';
import { concatBatches } from '../../exec/batch-concat.js';
import { KeyTable } from '../../exec/kernels/hash.js';
import type { OperatorContext } from '../../exec/operator.js';
import type { SqlType } from '../../relnode/types.js';

/** An INTEGER/DATE column of the store by key id: the live row's value and whether it is valid (1) or NULL (0). */
export interface StoreIntColumn {
  values: Int32Array;
  valid: Uint8Array;
  /** False while the column never held a NULL (every key id's `valid` is 1). */
  nulls: boolean;
}

export class KeyedStore {
  /** The generic key table (null for one INTEGER key: `intIndex` and `nullGid` give the ids). */
  private readonly table: KeyTable | null;
  /** Keys held. */
  private count = 0;
  /** One INTEGER key: the id of the NULL key (−1 while none). */
  private nullGid = -1;
  private batches: RecordBatch[] = [];
  private heldRows = 0;
  private whereBatch = new Int32Array(64);
  private whereRow = new Int32Array(64);
  /** Per INTEGER/DATE column (null for other types): its values by key id, for lookups in place (pipeline.ts). */
  private readonly mirrors: (StoreIntColumn | null)[];
  /** One INTEGER key: key value → key id (`findInt`), else null. */
  private readonly intIndex: IntIndex | null;

  constructor(private readonly keys: readonly number[], types: readonly SqlType[]) {
    this.mirrors = types.map((t) => (t === 'INTEGER' || t === 'DATE' ? { values: new Int32Array(64), valid: new Uint8Array(64), nulls: false } : null));
    this.intIndex = keys.length === 1 && types[keys[0]!] === 'INTEGER' ? new IntIndex() : null;
    this.table = this.intIndex === null ? new KeyTable(keys.map((k) => types[k]!)) : null;
  }

  /** The key id of one INTEGER key value (−1: no row has it); one-INTEGER-key stores only. */
  findInt(k: number): number {
    return this.intIndex!.get(k);
  }

  /** The int index behind `findInt` (one-INTEGER-key stores only). */
  get intKeys(): IntIndex {
    return this.intIndex!;
  }

  /** True when `findInt` can be used. */
  get hasIntKey(): boolean {
    return this.intIndex !== null;
  }

  /** Key ids of the rows' keys (−1: no row with that key, or a NULL key), as the previous writes left the store. */
  find(keyCols: readonly Data[], n: number, out: Int32Array): Int32Array {
    if (this.table !== null) return this.table.find(keyCols, n, out);
    const d = keyCols[0]!;
    const v = d.values instanceof Int32Array ? d.values : null;
    const bm = d.nullCount > 0 ? d.nullBitmap : null;
    for (let i = 0; i < n; i++) {
      const valid = v !== null && (!bm || ((bm[(d.offset + i) >> 3]! >> ((d.offset + i) & 7)) & 1) === 1);
      out[i] = valid ? this.intIndex!.get(v[i]!) : -1;
    }
    return out;
  }

  /** Column `c` by key id (INTEGER/DATE columns only; see `find`). */
  intColumn(c: number): StoreIntColumn {
    const m = this.mirrors[c];
    if (m === undefined || m === null) throw new InternalError(`keyed store column ${c} is not an INTEGER column`);
    return m;
  }

  get size(): number {
    return this.count;
  }

  /** Per column: its values by key over the int index's direct range (NaN: no row, or NULL), and the writes it reflects. */
  private byKeyViews = new Map<number, { at: number; values: Float64Array }>();
  private writes = 0;

  /**
   * One INTEGER key: column `c` indexed by the key itself over the int index's direct range (`intKeys.directIds`'
   * length) — the value, or NaN where no row has that key or the value is NULL — so a lookup followed by a
   * comparison is one read (pipeline-fused.ts). Rebuilt after writes, i.e. at most once a round.
   */
  byKey(c: number): Float64Array {
    const m = this.intColumn(c);
    const direct = this.intIndex!.directIds;
    let view = this.byKeyViews.get(c);
    if (view !== undefined && view.at === this.writes && view.values.length === direct.length) return view.values;
    const out = view !== undefined && view.values.length === direct.length ? view.values : new Float64Array(direct.length);
    for (let k = 0; k < direct.length; k++) {
      const id = direct[k]! - 1;
      out[k] = id >= 0 && m.valid[id] === 1 ? m.values[id]! : NaN;
    }
    view = { at: this.writes, values: out };
    this.byKeyViews.set(c, view);
    return out;
  }

  /** Writes a batch: each row replaces the row of its key (later rows win). */
  upsert(batch: RecordBatch): void {
    const n = batch.numRows;
    if (n === 0) return;
    this.writes++;
    const gids = this.table !== null ? this.table.groupIds(this.keys.map((k) => batch.data.children[k]!), n) : this.intIds(batch.data.children[this.keys[0]!]!, n);
    if (this.table !== null) this.count = this.table.size;
    if (this.count > this.whereBatch.length) {
      const cap = Math.max(this.count, 2 * this.whereBatch.length);
      const b = new Int32Array(cap); b.set(this.whereBatch); this.whereBatch = b;
      const r = new Int32Array(cap); r.set(this.whereRow); this.whereRow = r;
    }
    const bi = this.batches.length;
    this.batches.push(batch);
    this.heldRows += n;
    for (let i = 0; i < n; i++) { this.whereBatch[gids[i]!] = bi; this.whereRow[gids[i]!] = i; }
    this.mirror(batch, gids, n);
    if (this.heldRows > 2 * this.count + 65536) this.snapshot();
  }

  /**
   * Writes the rows of a batch that lower their key's INTEGER/DATE column `c` (a new key, or a non-NULL value
   * smaller than the held one or replacing a NULL: NULL counts as largest); returns them (null: none), the rest go.
   * Rows are taken in order, so a key repeated in the batch ends at its smallest value.
   */
  upsertMin(batch: RecordBatch, c: number): RecordBatch | null {
    const n = batch.numRows;
    if (n === 0) return null;
    const m = this.intColumn(c);
    if (this.intIndex !== null && this.mirrors.every((x, i) => i === c || i === this.keys[0] || x === null)) return this.upsertMinInt(batch, c, m);
    return this.upsertMinGeneric(batch, c, m);
  }

  private upsertMinGeneric(batch: RecordBatch, c: number, m: StoreIntColumn): RecordBatch | null {
    const n = batch.numRows;
    const before = this.count;
    const gids = this.table !== null ? this.table.groupIds(this.keys.map((k) => batch.data.children[k]!), n) : this.intIds(batch.data.children[this.keys[0]!]!, n);
    if (this.table !== null) this.count = this.table.size;
    // Keys new in this batch: the value taken so far (their mirror slots are not theirs yet).
    const fresh = this.count - before;
    const newV = new Int32Array(fresh);
    const newState = new Uint8Array(fresh); // 0 none yet, 1 a value, 2 NULL
    const d = batch.data.children[c]!;
    const src = d.values instanceof Int32Array ? d.values : null; // null: all NULL
    const bm = d.nullCount > 0 ? d.nullBitmap : null;
    const sel = new Int32Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const g = gids[i]!;
      const ok = src !== null && (!bm || ((bm[(d.offset + i) >> 3]! >> ((d.offset + i) & 7)) & 1) === 1);
      const v = ok ? src[i]! : 0;
      let take: boolean;
      if (g >= before) {
        const f = g - before;
        const st = newState[f]!;
        take = st === 0 || (ok && (st === 2 || v < newV[f]!));
        if (take) { newState[f] = ok ? 1 : 2; newV[f] = v; }
      } else {
        take = ok && (m.valid[g] === 0 || v < m.values[g]!);
      }
      if (take) sel[k++] = i;
    }
    if (k === 0) return null;
    const out = k === n ? batch : takeBatch(batch, sel.subarray(0, k));
    this.upsert(out);
    return out;
  }

  /**
   * `upsertMin` for one INTEGER key and no INTEGER column but the key and `c`: one pass that finds or adds each
   * row's key and compares, writing the taken rows' places and values in place.
   */
  private upsertMinInt(batch: RecordBatch, c: number, m: StoreIntColumn): RecordBatch | null {
    const n = batch.numRows;
    const kd = batch.data.children[this.keys[0]!]!;
    const d = batch.data.children[c]!;
    const kv = kd.values instanceof Int32Array ? kd.values : null;
    const src = d.values instanceof Int32Array ? d.values : null;
    if (kv === null || kd.nullCount > 0 || src === null || d.nullCount > 0) return this.upsertMinGeneric(batch, c, m);
    this.ensureCapacity(this.count + n);
    const km = this.mirrors[this.keys[0]!] ?? null;
    const t = this.intIndex!;
    const values = m.values;
    const valid = m.valid;
    const whereBatch = this.whereBatch;
    const whereRow = this.whereRow;
    const bi = this.batches.length;
    const sel = new Int32Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const key = kv[i]!;
      const v = src[i]!;
      let g = t.get(key);
      if (g < 0) {
        g = this.count++;
        t.set(key, g);
        if (km !== null) { km.values[g] = key; km.valid[g] = 1; }
      } else if (valid[g] === 1 && v >= values[g]!) continue;
      values[g] = v; valid[g] = 1;
      // The row's place in the returned batch of taken rows (held instead of the whole batch: fewer compactions).
      whereBatch[g] = bi; whereRow[g] = k;
      sel[k++] = i;
    }
    if (k === 0) return null;
    this.writes++;
    const out = k === n ? batch : takeBatch(batch, sel.subarray(0, k));
    this.batches.push(out);
    this.heldRows += k;
    if (this.heldRows > 2 * this.count + 65536) this.snapshot();
    return out;
  }

  /** Room for `size` key ids in the places and the mirrors. */
  private ensureCapacity(size: number): void {
    if (size > this.whereBatch.length) {
      const cap = Math.max(size, 2 * this.whereBatch.length);
      const b = new Int32Array(cap); b.set(this.whereBatch); this.whereBatch = b;
      const r = new Int32Array(cap); r.set(this.whereRow); this.whereRow = r;
    }
    for (const m of this.mirrors) {
      if (m === null || m.values.length >= size) continue;
      const cap = Math.max(size, 2 * m.values.length);
      const v = new Int32Array(cap); v.set(m.values); m.values = v;
      const f = new Uint8Array(cap); f.set(m.valid); m.valid = f;
    }
  }

  /** One INTEGER key: the ids of the keys of column `d` (new keys get the next ids, NULL one of its own). */
  private intIds(d: Data, n: number): Int32Array {
    const gids = new Int32Array(n);
    const v = d.values instanceof Int32Array ? d.values : null; // null: all NULL
    const bm = d.nullCount > 0 ? d.nullBitmap : null;
    const t = this.intIndex!;
    for (let i = 0; i < n; i++) {
      if (v === null || (bm && ((bm[(d.offset + i) >> 3]! >> ((d.offset + i) & 7)) & 1) === 0)) {
        if (this.nullGid < 0) this.nullGid = this.count++;
        gids[i] = this.nullGid;
        continue;
      }
      const k = v[i]!;
      let g = t.get(k);
      if (g < 0) { g = this.count++; t.set(k, g); }
      gids[i] = g;
    }
    return gids;
  }

  private mirror(batch: RecordBatch, gids: Int32Array, n: number): void {
    const size = this.count;
    this.mirrors.forEach((m, c) => {
      if (m === null) return;
      if (m.values.length < size) {
        const cap = Math.max(size, 2 * m.values.length);
        const v = new Int32Array(cap); v.set(m.values); m.values = v;
        const f = new Uint8Array(cap); f.set(m.valid); m.valid = f;
      }
      const d = batch.data.children[c]!;
      const values = m.values;
      const valid = m.valid;
      if (!(d.values instanceof Int32Array)) { for (let i = 0; i < n; i++) valid[gids[i]!] = 0; m.nulls = true; return; } // an all-NULL column
      const src = d.values;
      const bm = d.nullCount > 0 ? d.nullBitmap : null;
      if (bm === null || bm === undefined) {
        for (let i = 0; i < n; i++) { const g = gids[i]!; values[g] = src[i]!; valid[g] = 1; }
        return;
      }
      const off = d.offset;
      m.nulls = true;
      for (let i = 0; i < n; i++) { const g = gids[i]!; values[g] = src[i]!; valid[g] = (bm[(off + i) >> 3]! >> ((off + i) & 7)) & 1; }
    });
  }

  /** The live rows (one per key), as batches; compacts the store to exactly them. */
  snapshot(): RecordBatch[] {
    const g = this.count;
    const counts = new Int32Array(this.batches.length);
    for (let i = 0; i < g; i++) counts[this.whereBatch[i]!]!++;
    const sels = Array.from(counts, (c) => new Int32Array(c));
    const gidsOf = Array.from(counts, (c) => new Int32Array(c));
    const fill = new Int32Array(this.batches.length);
    for (let i = 0; i < g; i++) {
      const b = this.whereBatch[i]!;
      const k = fill[b]!++;
      sels[b]![k] = this.whereRow[i]!;
      gidsOf[b]![k] = i;
    }
    // The live rows become one batch (rows of retained batch b, in order, after those of earlier ones).
    const parts: RecordBatch[] = [];
    let at = 0;
    this.batches.forEach((batch, b) => {
      if (counts[b] === 0) return;
      parts.push(sels[b]!.length === batch.numRows && isIdentity(sels[b]!) ? batch : takeBatch(batch, sels[b]!));
      const base = at;
      gidsOf[b]!.forEach((gid, r) => { this.whereBatch[gid] = 0; this.whereRow[gid] = base + r; });
      at += counts[b]!;
    });
    const one = concatBatches(parts);
    this.batches = one === null ? [] : [one];
    this.heldRows = g;
    return [...this.batches];
  }
}

function isIdentity(sel: Int32Array): boolean {
  for (let i = 0; i < sel.length; i++) if (sel[i] !== i) return false;
  return true;
}

/** The shared-object key of the keyed store of one variable, one subtask. */
export function keyedStoreKey(iterationId: number, variable: number, subtask: number): string {
  return `eddy.table-iteration.${iterationId}.keyed.${variable}.${subtask}`;
}

/** Finds (or makes) the store of this subtask. */
export function storeOf(ctx: OperatorContext, iterationId: number, variable: number, keys: readonly number[], types: readonly SqlType[] = ctx.outputSchema.fields.map((f) => f.type)): KeyedStore {
  return ctx.shared(keyedStoreKey(iterationId, variable, ctx.subtaskIndex), () => new KeyedStore(keys, types));
}
