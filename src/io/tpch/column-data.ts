/**
 * Building Arrow column `Data` straight from typed arrays, and `Utf8Column`,
 * which writes a batch's strings into one byte buffer plus Int32 offsets.
 * A generator allocates every buffer a batch keeps from its `ColumnMemory`
 * (io/column-memory.ts: SharedArrayBuffers when worker threads will read the
 * table); scratch buffers stay ordinary.
 */
import {
  DateDay, Dictionary, Float64, Int32, RecordBatch, Schema, Struct, Utf8, makeData,
  type Data, type Vector,
} from 'apache-arrow';
import type { ColumnMemory } from '../column-memory.js';

/** The Int32 type instance shared by every TPC-H integer field. */
export const INT32 = new Int32();
/** The Float64 type instance shared by every TPC-H money/quantity field. */
export const FLOAT64 = new Float64();
/** The DateDay type instance shared by every TPC-H date field. */
export const DATE_DAY = new DateDay();
/** The Utf8 type instance shared by every plain TPC-H string field. */
export const UTF8 = new Utf8();

/** A dictionary-encoded string column: its type and the one dictionary every batch shares. */
export interface DictColumn {
  readonly type: Dictionary<Utf8, Int32>;
  readonly vector: Vector<Utf8>;
}

/** An Int32 column over `values` (no nulls). */
export function int32Data(values: Int32Array): Data<Int32> {
  return makeData({ type: INT32, length: values.length, nullCount: 0, data: values });
}

/** A Float64 column over `values` (no nulls). */
export function float64Data(values: Float64Array): Data<Float64> {
  return makeData({ type: FLOAT64, length: values.length, nullCount: 0, data: values });
}

/** A DateDay column over `days` since 1970-01-01 (no nulls). */
export function dateData(days: Int32Array): Data<DateDay> {
  return makeData({ type: DATE_DAY, length: days.length, nullCount: 0, data: days });
}

/** A dictionary column: `codes` index the column's dictionary (one per memory kind, shared by every batch). */
export function dictData(column: DictColumn, codes: Int32Array, memory: ColumnMemory): Data<Dictionary<Utf8, Int32>> {
  return makeData({
    type: column.type, length: codes.length, nullCount: 0, data: codes, dictionary: memory.dictionary(column.vector),
  });
}

/** A copy of `values` in `memory`. */
export function copyInt32(values: Int32Array, memory: ColumnMemory): Int32Array {
  const out = memory.int32(values.length);
  out.set(values);
  return out;
}

/** A record batch of `schema` over `children` (one Data per field, in order, all of `length` rows). */
export function makeBatch(schema: Schema, length: number, children: Data[]): RecordBatch {
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}

/**
 * Writes the strings of one Utf8 column of one batch. The byte scratch buffer
 * (sized for `rows × maxRowBytes`) is reused across batches; `finish` copies
 * exactly the written bytes out. Callers write bytes with `bytes[pos++] = b`
 * (or the helpers) and close each row with `endRow`.
 */
export class Utf8Column {
  /** Scratch bytes; valid up to `pos`. */
  bytes = new Uint8Array(0);
  /** Next write position in `bytes`. */
  pos = 0;
  private offsets: Int32Array = new Int32Array(1);
  private row = 0;

  /** `maxRowBytes` bounds what one row may write; `memory` holds the finished offsets and bytes. */
  constructor(private readonly maxRowBytes: number, private readonly memory: ColumnMemory) {}

  /** Starts a batch of `rows` rows. */
  begin(rows: number): void {
    const need = rows * this.maxRowBytes;
    if (this.bytes.length < need) this.bytes = new Uint8Array(need);
    this.offsets = this.memory.int32(rows + 1);
    this.pos = 0;
    this.row = 0;
  }

  /** Ends the current row. */
  endRow(): void {
    this.offsets[++this.row] = this.pos;
  }

  /** Appends `length` bytes of `source` from `start`. */
  copy(source: Uint8Array, start: number, length: number): void {
    const bytes = this.bytes;
    let pos = this.pos;
    for (let i = start, end = start + length; i < end; i++) bytes[pos++] = source[i]!;
    this.pos = pos;
  }

  /** Appends `value` in decimal, left-padded with zeros to `width` digits. */
  digits(value: number, width: number): void {
    const bytes = this.bytes;
    let pos = this.pos + width;
    this.pos = pos;
    for (let i = 0; i < width; i++) {
      const q = Math.floor(value / 10);
      bytes[--pos] = 48 + value - q * 10;
      value = q;
    }
  }

  /** Appends one byte. */
  byte(b: number): void {
    this.bytes[this.pos++] = b;
  }

  /** The column's Data for the rows written since `begin`. */
  finish(): Data<Utf8> {
    const length = this.row;
    const data = this.memory.bytes(this.pos);
    data.set(this.bytes.subarray(0, this.pos));
    return makeData({
      type: UTF8, length, nullCount: 0, valueOffsets: this.offsets.subarray(0, length + 1), data,
    });
  }
}

/** The ASCII bytes of `text`. */
export function ascii(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
