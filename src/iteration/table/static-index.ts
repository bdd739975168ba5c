/**
 * The index of a static join side in a fused body pipeline (pipeline.ts):
 * the side's rows (one batch) laid out by key, CSR style — the rows with
 * key group g are rows `start[g] .. start[g + 1]` of `batch`. Built once, when the
 * side ends; every round probes it.
 *
 * Decision: the side's rows are stored sorted by key group (`batch` is the
 * permuted copy), so a probe reads the rows of a group as one run (no
 * indirection, sequential memory); an INTEGER key whose range is at most
 * about four times the rows is direct-mapped (group = key − min: a probe is
 * one subtraction); a sparse key goes through an int hash
 * (int-tuple-table.ts). NULL keys join nothing and are left out. Each
 * INTEGER column's value range is kept, so a GROUP BY on one of them can use
 * direct-mapped groups (pipeline.ts).
 */
import type { RecordBatch } from 'apache-arrow';
import { takeBatch } from '../../exec/batch.js';
import { IntTupleTable } from './int-tuple-table.js';

export class StaticIndex {
  /** Row ranges by group (length groups + 1): the rows of group g are batch rows start[g] .. start[g + 1]. */
  readonly start: Int32Array;
  /** The side's rows with a non-NULL key, ordered by group. */
  readonly batch: RecordBatch;
  /** Per column: [min, max] of its non-NULL values for INTEGER columns without NULLs, else undefined. */
  readonly ranges: readonly ([number, number] | undefined)[];
  private readonly min: number;
  private readonly range: number;
  private readonly table: IntTupleTable | null;

  constructor(input: RecordBatch, keyColumn: number) {
    const batch = input;
    const n = batch.numRows;
    const d = batch.data.children[keyColumn]!;
    const keys = d.values instanceof Int32Array ? d.values : new Int32Array(0);
    const bm = d.nullCount > 0 ? d.nullBitmap ?? null : null;
    const off = d.offset;
    const has = (i: number): boolean => keys.length > 0 && (bm === null || ((bm[(off + i) >> 3]! >> ((off + i) & 7)) & 1) === 1);
    let min = 0x7fffffff;
    let max = -0x80000000;
    for (let i = 0; i < n; i++) {
      if (!has(i)) continue;
      const k = keys[i]!;
      if (k < min) min = k;
      if (k > max) max = k;
    }
    const range = max - min + 1;
    const group = new Int32Array(n);
    let groups: number;
    if (range > 0 && range <= 4 * n + 1024) {
      this.table = null;
      for (let i = 0; i < n; i++) group[i] = has(i) ? keys[i]! - min : -1;
      groups = range;
    } else {
      const t = new IntTupleTable(1);
      for (let i = 0; i < n; i++) group[i] = has(i) ? t.add1(keys[i]!) : -1;
      this.table = t;
      groups = t.size;
    }
    this.min = min;
    this.range = this.table === null ? Math.max(0, range) : 0;
    const start = new Int32Array(groups + 1);
    for (let i = 0; i < n; i++) { const g = group[i]!; if (g >= 0) start[g + 1]!++; }
    for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!;
    const rows = new Int32Array(start[groups]!);
    const fill = start.slice(0, groups);
    for (let i = 0; i < n; i++) { const g = group[i]!; if (g >= 0) rows[fill[g]!++] = i; }
    this.start = start;
    this.batch = takeBatch(batch, rows);
    this.ranges = this.batch.data.children.map((c) => {
      if (!(c.values instanceof Int32Array) || c.nullCount > 0 || c.length === 0) return undefined;
      const v = c.values;
      let lo = v[0]!;
      let hi = v[0]!;
      for (let i = 1; i < c.length; i++) { const x = v[i]!; if (x < lo) lo = x; else if (x > hi) hi = x; }
      return [lo, hi];
    });
  }

  /** The group of a key, or −1 when no row has it. */
  group(k: number): number {
    if (this.table !== null) return this.table.get1(k);
    const g = k - this.min;
    return g >= 0 && g < this.range ? g : -1;
  }

  /** Bytes held (the rows' batch is counted by whoever reserved it). */
  get bytes(): number {
    return this.start.byteLength + (this.table?.bytes ?? 0);
  }
}
