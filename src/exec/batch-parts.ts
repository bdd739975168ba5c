/**
 * Several batches with the same columns addressed as one: row r of the whole is row r − starts[p] of
 * part p. A hash join keeps its build side this way instead of concatenating it (operators/hash-join.ts)
 * and gathers its output rows straight from the parts.
 *
 * Why: the concatenation copied every build row of every column read later, to be gathered once more
 * per output row. When the probe side keeps few rows (TPC-H Q18's 150K customers probed by the ~57
 * orders its runtime filter keeps) the copy is almost all the work and all the bytes: 3.3 MB of fresh
 * ArrayBuffers per run, which count towards V8's next mark-compact (issue #10).
 *
 * Decision: parts of fixed-width columns (one typed-array value per row) and Utf8 only — the kinds a
 * gather copies whatever their part; a Dictionary column's parts may carry different dictionaries, and
 * a Bool or nested one is rare in a build side: those build sides are still concatenated
 * (`PartedBatch.supports`). A row's part is found from a table of the part holding the first row of
 * each block of 2^BLOCK_BITS rows, then a short forward scan (parts are rarely smaller than a block).
 * Locating costs a few ns per gathered row: a join that gathers more rows than the build has
 * concatenates after all (join-output.ts), so a big output pays at most one build's worth of it.
 */
import { anchorMaps } from './map-anchors.js';
import { Type, type Data, type DataType, type Null, type RecordBatch, type Utf8 } from 'apache-arrow';
import { fixedData, nullTypeData, utf8Data } from './arrow-build.js';
import { takeData } from './batch.js';
import { nullColumn } from './kernels/column.js';
import { concatBatchesSteps, drive } from './batch-concat.js';
import { packedMap } from './packed.js';

const BLOCK_BITS = 10;

/** The rows of several batches (same columns) as one addressable whole, without copying them. */
export class PartedBatch {
  readonly numRows: number;
  /** Part p holds rows starts[p] .. starts[p + 1] − 1. */
  private readonly starts: Int32Array;
  /** Per block of 2^BLOCK_BITS rows: the part holding its first row. */
  private readonly blockPart: Int32Array;

  /**
   * @param parts the batches, in row order
   * @param reads per column, whether it is ever gathered (default: all): a column left out is never read
   *   from the parts, and `concat` copies an all-NULL placeholder for it
   */
  constructor(private readonly parts: readonly RecordBatch[], private readonly reads?: readonly boolean[]) {
    const starts = new Int32Array(parts.length + 1);
    for (let p = 0; p < parts.length; p++) starts[p + 1] = starts[p]! + parts[p]!.numRows;
    this.starts = starts;
    this.numRows = starts[parts.length]!;
    const blocks = (this.numRows >>> BLOCK_BITS) + 1;
    const blockPart = new Int32Array(blocks);
    let p = 0;
    for (let b = 0; b < blocks; b++) {
      const r = b << BLOCK_BITS;
      while (p < parts.length - 1 && starts[p + 1]! <= r) p++;
      blockPart[b] = p;
    }
    this.blockPart = blockPart;
  }

  /**
   * Whether column `c` of every part can be gathered from the parts: the same fixed-width or Utf8 type
   * throughout (all-NULL placeholders of type Null too: they gather to placeholders).
   */
  static supports(parts: readonly RecordBatch[], c: number): boolean {
    const first = parts[0]!.data.children[c]!;
    const id = first.typeId;
    if (id === Type.Null) return parts.every((b) => b.data.children[c]!.typeId === Type.Null);
    const fixed = id === Type.Int || id === Type.Float || id === Type.Date || id === Type.Timestamp || id === Type.Time || id === Type.Decimal;
    if (!fixed && id !== Type.Utf8) return false;
    return parts.every((b) => {
      const d = b.data.children[c]!;
      return d.typeId === id && d.stride === first.stride && (d.values as ArrayBufferView).constructor === (first.values as ArrayBufferView).constructor;
    });
  }

  /** The parts as one batch (a copy of every column read; placeholders for the others). */
  concat(): RecordBatch {
    return drive(concatBatchesSteps(this.parts, Infinity, this.reads))!;
  }

  /** The Arrow type of column `c`. */
  type(c: number): DataType {
    return this.parts[0]!.data.children[c]!.type as DataType;
  }

  /** How many columns the parts have. */
  get width(): number {
    return this.parts[0]!.data.children.length;
  }

  /** Per located row: its part, and its row in that part (−1 for a NULL row); reused from call to call. */
  private part = new Int32Array(0);
  private local = new Int32Array(0);
  private neg = false;

  /** Finds the part and row of each of `sel[0..m)` (into `part` and `local`). */
  private locate(sel: Int32Array, m: number): void {
    if (this.part.length < m) { this.part = new Int32Array(m); this.local = new Int32Array(m); }
    const part = this.part;
    const local = this.local;
    const starts = this.starts;
    const blockPart = this.blockPart;
    let neg = false;
    for (let i = 0; i < m; i++) {
      const r = sel[i]!;
      if (r < 0) { neg = true; part[i] = 0; local[i] = -1; continue; }
      let p = blockPart[r >>> BLOCK_BITS]!;
      while (starts[p + 1]! <= r) p++;
      part[i] = p;
      local[i] = r - starts[p]!;
    }
    this.neg = neg;
  }

  /**
   * Rows `sel[0..m)` (index < 0 → NULL) of every column: gathered from the parts where `used[c]`, an
   * all-NULL placeholder elsewhere. The rows are located once for all the columns.
   */
  takeColumns(sel: Int32Array, m: number, used: readonly boolean[]): Data[] {
    const out: Data[] = [];
    if (this.parts.length === 1) {
      const cols = this.parts[0]!.data.children;
      for (let c = 0; c < cols.length; c++) out.push(used[c] ? takeData(cols[c]!, sel, m) : nullColumn(m));
      return out;
    }
    this.locate(sel, m);
    for (let c = 0; c < this.width; c++) out.push(used[c] ? this.takeLocated(c, m) : nullColumn(m));
    return out;
  }

  /** Rows `sel[0..m)` of column `c` (index < 0 → NULL), one gather from the parts. */
  take(c: number, sel: Int32Array, m: number): Data {
    if (this.parts.length === 1) return takeData(this.parts[0]!.data.children[c]!, sel, m);
    this.locate(sel, m);
    return this.takeLocated(c, m);
  }

  /** Rows of column `c` at the last located selection (m rows). */
  private takeLocated(c: number, m: number): Data {
    const cols = packedMap(this.parts, (b) => b.data.children[c]!);
    const first = cols[0]!;
    if (first.typeId === Type.Null) return nullTypeData(first.type as Null, m);
    const part = this.part;
    const local = this.local;
    const { bitmap, nulls } = validityOf(cols, part, local, m, this.neg);
    if (first.typeId === Type.Utf8) return takeUtf8Parts(cols as Data<Utf8>[], part, local, m, bitmap, nulls);
    const stride = first.stride;
    const v0 = first.values as unknown;
    let data: unknown;
    if (stride === 1 && v0 instanceof Float64Array) data = gatherF64(packedMap(cols, (d) => d.values as Float64Array), part, local, m);
    else if (stride === 1 && v0 instanceof Int32Array) data = gatherI32(packedMap(cols, (d) => d.values as Int32Array), part, local, m);
    else data = gatherAny(cols, stride, part, local, m);
    return fixedData(first.type, m, nulls, bitmap, data as ArrayBufferView);
  }
}

/**
 * Fixed-width rows gathered from parts. The common element types get their own monomorphic loops
 * (batch.ts takeFixed: one loop over Int32Array, Float64Array and BigInt64Array is several times slower).
 */
function gatherF64(values: readonly Float64Array[], part: Int32Array, local: Int32Array, m: number): Float64Array {
  const out = new Float64Array(m);
  for (let i = 0; i < m; i++) { const j = local[i]!; if (j >= 0) out[i] = values[part[i]!]![j]!; }
  return out;
}

function gatherI32(values: readonly Int32Array[], part: Int32Array, local: Int32Array, m: number): Int32Array {
  const out = new Int32Array(m);
  for (let i = 0; i < m; i++) { const j = local[i]!; if (j >= 0) out[i] = values[part[i]!]![j]!; }
  return out;
}

function gatherAny(cols: readonly Data[], stride: number, part: Int32Array, local: Int32Array, m: number): Int32Array {
  const Ctor = (cols[0]!.values as Int32Array).constructor as new (n: number) => Int32Array;
  const out = new Ctor(m * stride);
  const values = packedMap(cols, (d) => d.values as Int32Array);
  for (let i = 0; i < m; i++) {
    const j = local[i]!;
    if (j < 0) continue;
    const src = values[part[i]!]!;
    for (let k = 0; k < stride; k++) out[i * stride + k] = src[j * stride + k]!;
  }
  return out;
}

/** The validity of the gathered rows (local < 0 → NULL); no bitmap when every row is valid. */
function validityOf(cols: readonly Data[], part: Int32Array, local: Int32Array, m: number, neg: boolean): { bitmap: Uint8Array | undefined; nulls: number } {
  if (!neg && cols.every((d) => d.nullCount === 0)) return { bitmap: undefined, nulls: 0 };
  const out = new Uint8Array((m + 7) >> 3);
  let valid = 0;
  for (let i = 0; i < m; i++) {
    const j = local[i]!;
    if (j < 0) continue;
    const d = cols[part[i]!]!;
    let ok = true;
    if (d.nullCount > 0) {
      const bm = d.nullBitmap;
      if (!bm || bm.length === 0) ok = false;
      else { const b = d.offset + j; ok = ((bm[b >> 3]! >> (b & 7)) & 1) === 1; }
    }
    if (ok) { out[i >> 3]! |= 1 << (i & 7); valid++; }
  }
  return { bitmap: out, nulls: m - valid };
}

/** Utf8 rows gathered from parts: exact sizes first, then the bytes. */
function takeUtf8Parts(cols: readonly Data<Utf8>[], part: Int32Array, local: Int32Array, m: number, bitmap: Uint8Array | undefined, nulls: number): Data<Utf8> {
  const outOffs = new Int32Array(m + 1);
  let total = 0;
  for (let i = 0; i < m; i++) {
    const j = local[i]!;
    if (j >= 0) { const o = cols[part[i]!]!.valueOffsets; total += o[j + 1]! - o[j]!; }
    outOffs[i + 1] = total;
  }
  const out = new Uint8Array(total);
  for (let i = 0; i < m; i++) {
    const j = local[i]!;
    if (j < 0) continue;
    const d = cols[part[i]!]!;
    const o = d.valueOffsets;
    const bytes = d.values;
    const s = o[j]!;
    const e = o[j + 1]!;
    let p = outOffs[i]!;
    if (e - s > 24) out.set(bytes.subarray(s, e), p);
    else for (let k = s; k < e; k++) out[p++] = bytes[k]!;
  }
  return utf8Data(cols[0]!.type, m, nulls, bitmap, outOffs, out);
}

// Keep PartedBatch's hidden classes across major GCs: exec/map-anchors.ts.
anchorMaps(new PartedBatch([]));
