/**
 * Result columns of window functions, one per call, as long as the sorted
 * buffer: partitions write their rows' results at their positions, and the
 * operator emits slices in position order. Four shapes cover every function
 * without a per-row object: numbers (BIGINT or DOUBLE results, kept as
 * doubles and converted per slice), exact 64-bit integers (sums past 2^53),
 * an index into a source column (navigation functions, min/max: any type,
 * gathered per slice, −1 = NULL), and per-partition Data pieces (aggregates
 * evaluated through the generic aggregate states).
 */
import { Float64, Int64, makeData, type Data } from 'apache-arrow';
import { takeData } from '../batch.js';
import { concatData } from '../batch-concat.js';
import { int64FromDoubles } from './agg-arrays.js';

/** One call's result column under construction. */
export interface WindowOutput {
  /** Rows [s, e) as an Arrow column (every row in it was written). */
  slice(s: number, e: number): Data;
}

function bitmapOf(valid: Uint8Array, s: number, e: number): { bitmap: Uint8Array | undefined; nulls: number } {
  const n = e - s;
  let nulls = 0;
  for (let i = s; i < e; i++) if (!valid[i]) nulls++;
  if (nulls === 0) return { bitmap: undefined, nulls };
  const bm = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) if (valid[s + i]) bm[i >> 3]! |= 1 << (i & 7);
  return { bitmap: bm, nulls };
}

/** BIGINT or DOUBLE results held as doubles (BIGINT ones are integers below 2^53); `valid[i]` = 0 is NULL. */
export class NumberOutput implements WindowOutput {
  readonly values: Float64Array;
  readonly valid: Uint8Array;
  constructor(n: number, private readonly bigint: boolean) {
    this.values = new Float64Array(n);
    this.valid = new Uint8Array(n).fill(1);
  }

  slice(s: number, e: number): Data {
    const { bitmap, nulls } = bitmapOf(this.valid, s, e);
    const n = e - s;
    if (this.bigint) return makeData({ type: new Int64(), length: n, nullCount: nulls, nullBitmap: bitmap, data: int64FromDoubles(this.values, s, e) as never });
    return makeData({ type: new Float64(), length: n, nullCount: nulls, nullBitmap: bitmap, data: this.values.slice(s, e) });
  }
}

/** Exact BIGINT results (integer sums that may pass 2^53). */
export class BigIntOutput implements WindowOutput {
  readonly values: BigInt64Array;
  readonly valid: Uint8Array;
  constructor(n: number) {
    this.values = new BigInt64Array(n);
    this.valid = new Uint8Array(n).fill(1);
  }

  slice(s: number, e: number): Data {
    const { bitmap, nulls } = bitmapOf(this.valid, s, e);
    return makeData({ type: new Int64(), length: e - s, nullCount: nulls, nullBitmap: bitmap, data: this.values.slice(s, e) as never });
  }
}

/** Results that are rows of a source column: `idx[i]` is the source row of position i, −1 for NULL. */
export class GatherOutput implements WindowOutput {
  readonly idx: Int32Array;
  constructor(n: number, readonly source: Data) {
    this.idx = new Int32Array(n).fill(-1);
  }

  slice(s: number, e: number): Data {
    return takeData(this.source, this.idx.subarray(s, e), e - s);
  }
}

/** Results computed a partition at a time as Data, appended in position order. */
export class PiecesOutput implements WindowOutput {
  private readonly starts: number[] = [];
  private readonly pieces: Data[] = [];

  /** The results of rows [start, start + d.length). */
  add(start: number, d: Data): void {
    this.starts.push(start);
    this.pieces.push(d);
  }

  slice(s: number, e: number): Data {
    const parts: Data[] = [];
    // Binary search the first piece that ends after s.
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! + this.pieces[mid]!.length <= s) lo = mid + 1; else hi = mid;
    }
    for (let k = lo; k < this.pieces.length && this.starts[k]! < e; k++) {
      const st = this.starts[k]!;
      const d = this.pieces[k]!;
      const a = Math.max(s, st) - st;
      const b = Math.min(e, st + d.length) - st;
      parts.push(a === 0 && b === d.length ? d : d.slice(a, b - a));
    }
    return parts.length === 1 ? parts[0]! : concatData(parts);
  }
}
