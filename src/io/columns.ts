/**
 * Column builders: append values straight into growable typed arrays (doubling
 * on overflow) and finish them as canonical Arrow `Data` (conventions.md).
 *
 * Each builder is monomorphic and meant to be driven by a per-type loop
 * (`for (row) builder.append(parse(row))`), never by a per-row switch.
 * `finish()` hands the arrays to the returned `Data` and starts fresh ones, so
 * a builder is reused batch after batch. The validity bitmap is allocated on
 * the first NULL only.
 */
import * as arrow from 'apache-arrow';
import { batchOf, fixedData, utf8Data } from '../exec/arrow-build.js';
import { ExecutionError } from '../relnode/errors.js';
import type { SqlType } from '../relnode/types.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const TWO_32 = 4294967296;

/** Shared length and validity handling. */
abstract class BuilderBase {
  /** Rows appended since the last finish(). */
  length = 0;
  /** NULLs appended since the last finish(). */
  nullCount = 0;
  protected capacity: number;
  protected validity: Uint8Array | null = null;

  constructor(capacity: number) {
    this.capacity = Math.max(16, capacity | 0);
  }

  /** Appends a NULL (the value slot is left as whatever the array holds). */
  appendNull(): void {
    if (this.length === this.capacity) this.grow(this.length + 1);
    this.markNull(this.length);
    this.length++;
  }

  protected markNull(i: number): void {
    if (this.validity === null) {
      this.validity = new Uint8Array((this.capacity + 7) >> 3).fill(0xff);
    }
    this.validity[i >> 3] &= ~(1 << (i & 7));
    this.nullCount++;
  }

  /** Grows every buffer to hold at least `min` rows (doubling). */
  protected grow(min: number): void {
    let cap = this.capacity * 2;
    while (cap < min) cap *= 2;
    if (this.validity !== null) {
      const v = new Uint8Array((cap + 7) >> 3).fill(0xff);
      v.set(this.validity);
      this.validity = v;
    }
    this.growValues(cap);
    this.capacity = cap;
  }

  protected abstract growValues(capacity: number): void;

  /** Takes the validity bitmap for a finished Data and resets the null state. */
  protected takeValidity(): Uint8Array | undefined {
    const v = this.nullCount > 0 ? this.validity ?? undefined : undefined;
    this.validity = null;
    this.nullCount = 0;
    return v;
  }
}

/** INTEGER (`Int32`) or DATE (`DateDay`): one Int32Array. */
export class Int32Builder extends BuilderBase {
  values: Int32Array;
  constructor(readonly type: arrow.Int32 | arrow.DateDay, capacity: number) {
    super(capacity);
    this.values = new Int32Array(this.capacity);
  }
  /** Appends an int32 value (days since the epoch for DATE). */
  append(v: number): void {
    if (this.length === this.capacity) this.grow(this.length + 1);
    this.values[this.length++] = v;
  }
  protected growValues(cap: number): void {
    const v = new Int32Array(cap);
    v.set(this.values);
    this.values = v;
  }
  /** Returns the rows appended so far as Data and starts a new batch. */
  finish(): arrow.Data {
    const d = fixedData(this.type, this.length, this.nullCount, this.takeValidity(), this.values);
    this.values = new Int32Array(this.capacity);
    this.length = 0;
    return d;
  }
}

/** DOUBLE (`Float64`). */
export class Float64Builder extends BuilderBase {
  readonly type = new arrow.Float64();
  values: Float64Array;
  constructor(capacity: number) {
    super(capacity);
    this.values = new Float64Array(this.capacity);
  }
  /** Appends a double. */
  append(v: number): void {
    if (this.length === this.capacity) this.grow(this.length + 1);
    this.values[this.length++] = v;
  }
  protected growValues(cap: number): void {
    const v = new Float64Array(cap);
    v.set(this.values);
    this.values = v;
  }
  /** Returns the rows appended so far as Data and starts a new batch. */
  finish(): arrow.Data {
    const d = fixedData(this.type, this.length, this.nullCount, this.takeValidity(), this.values);
    this.values = new Float64Array(this.capacity);
    this.length = 0;
    return d;
  }
}

/**
 * BIGINT (`Int64`) or TIMESTAMP (`TimestampMillisecond`): one BigInt64Array.
 * `appendNumber` writes a safe integer through an Int32Array view of the same
 * memory, so the common case allocates no BigInt.
 */
export class Int64Builder extends BuilderBase {
  values: BigInt64Array;
  private words: Int32Array;
  constructor(readonly type: arrow.Int64 | arrow.TimestampMillisecond, capacity: number) {
    super(capacity);
    this.values = new BigInt64Array(this.capacity);
    this.words = new Int32Array(this.values.buffer);
  }
  /** Appends a safe integer (|v| ≤ 2^53). */
  appendNumber(v: number): void {
    if (this.length === this.capacity) this.grow(this.length + 1);
    const i = this.length++;
    if (LITTLE_ENDIAN) {
      const hi = Math.floor(v / TWO_32);
      this.words[2 * i] = (v - hi * TWO_32) | 0;
      this.words[2 * i + 1] = hi;
    } else {
      this.values[i] = BigInt(v);
    }
  }
  /** Appends a bigint (must fit in int64). */
  appendBigInt(v: bigint): void {
    if (this.length === this.capacity) this.grow(this.length + 1);
    this.values[this.length++] = v;
  }
  protected growValues(cap: number): void {
    const v = new BigInt64Array(cap);
    v.set(this.values);
    this.values = v;
    this.words = new Int32Array(v.buffer);
  }
  /** Returns the rows appended so far as Data and starts a new batch. */
  finish(): arrow.Data {
    const d = fixedData(this.type, this.length, this.nullCount, this.takeValidity(), this.values);
    this.values = new BigInt64Array(this.capacity);
    this.words = new Int32Array(this.values.buffer);
    this.length = 0;
    return d;
  }
}

/** BOOLEAN (`Bool`, bit-packed). */
export class BoolBuilder extends BuilderBase {
  readonly type = new arrow.Bool();
  values: Uint8Array;
  constructor(capacity: number) {
    super(capacity);
    this.values = new Uint8Array((this.capacity + 7) >> 3);
  }
  /** Appends a boolean. */
  append(v: boolean): void {
    if (this.length === this.capacity) this.grow(this.length + 1);
    const i = this.length++;
    if (v) this.values[i >> 3] |= 1 << (i & 7);
  }
  protected growValues(cap: number): void {
    const v = new Uint8Array((cap + 7) >> 3);
    v.set(this.values);
    this.values = v;
  }
  /** Returns the rows appended so far as Data and starts a new batch. */
  finish(): arrow.Data {
    const d = fixedData(this.type, this.length, this.nullCount, this.takeValidity(), this.values);
    this.values = new Uint8Array((this.capacity + 7) >> 3);
    this.length = 0;
    return d;
  }
}

const encoder = new TextEncoder();

/** VARCHAR (`Utf8`): Int32Array offsets plus a UTF-8 byte buffer. */
export class Utf8Builder extends BuilderBase {
  readonly type = new arrow.Utf8();
  offsets: Int32Array;
  bytes: Uint8Array;
  private byteLength = 0;
  constructor(capacity: number) {
    super(capacity);
    this.offsets = new Int32Array(this.capacity + 1);
    this.bytes = new Uint8Array(this.capacity * 8);
  }
  /** Appends the UTF-8 bytes `src[start, end)`. */
  appendBytes(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (this.length === this.capacity) this.grow(this.length + 1);
    let at = this.byteLength;
    if (at + n > this.bytes.length) this.growBytes(at + n);
    const out = this.bytes;
    if (n < 24) {
      for (let i = start; i < end; i++) out[at++] = src[i]!;
    } else {
      out.set(src.subarray(start, end), at);
      at += n;
    }
    this.byteLength = at;
    this.offsets[++this.length] = at;
  }
  /**
   * Appends `src[start, end)` with every doubled `quote` byte collapsed to one
   * (the content of a CSV quoted field that contains escaped quotes).
   */
  appendUnescaped(src: Uint8Array, start: number, end: number, quote: number): void {
    if (this.length === this.capacity) this.grow(this.length + 1);
    let at = this.byteLength;
    if (at + (end - start) > this.bytes.length) this.growBytes(at + (end - start));
    const out = this.bytes;
    for (let i = start; i < end; i++) {
      const c = src[i]!;
      out[at++] = c;
      if (c === quote) i++;
    }
    this.byteLength = at;
    this.offsets[++this.length] = at;
  }
  /** Appends a JavaScript string (encoded to UTF-8). */
  appendString(s: string): void {
    if (this.length === this.capacity) this.grow(this.length + 1);
    const max = s.length * 3;
    if (this.byteLength + max > this.bytes.length) this.growBytes(this.byteLength + max);
    const { written } = encoder.encodeInto(s, this.bytes.subarray(this.byteLength));
    this.byteLength += written;
    this.offsets[++this.length] = this.byteLength;
  }
  override appendNull(): void {
    super.appendNull();
    this.offsets[this.length] = this.byteLength;
  }
  private growBytes(min: number): void {
    if (min > 0x7fffffff) {
      throw new ExecutionError(`a string column needs more than 2 GiB in one batch; use a smaller batchSize`);
    }
    let cap = Math.max(64, this.bytes.length * 2);
    while (cap < min) cap *= 2;
    const b = new Uint8Array(Math.min(cap, 0x7fffffff));
    b.set(this.bytes.subarray(0, this.byteLength));
    this.bytes = b;
  }
  protected growValues(cap: number): void {
    const o = new Int32Array(cap + 1);
    o.set(this.offsets);
    this.offsets = o;
  }
  /** Returns the rows appended so far as Data and starts a new batch. */
  finish(): arrow.Data {
    const d = utf8Data(this.type, this.length, this.nullCount, this.takeValidity(), this.offsets, this.bytes.subarray(0, this.byteLength));
    this.offsets = new Int32Array(this.capacity + 1);
    this.bytes = new Uint8Array(Math.max(64, this.byteLength));
    this.byteLength = 0;
    this.length = 0;
    return d;
  }
}

/** Any column builder. */
export type ColumnBuilder = Int32Builder | Float64Builder | Int64Builder | BoolBuilder | Utf8Builder;

/** A builder producing the canonical physical type of `type` (NULL columns are built as VARCHAR). */
export function makeBuilder(type: SqlType, capacity: number): ColumnBuilder {
  switch (type) {
    case 'BOOLEAN': return new BoolBuilder(capacity);
    case 'INTEGER': return new Int32Builder(new arrow.Int32(), capacity);
    case 'BIGINT': return new Int64Builder(new arrow.Int64(), capacity);
    case 'DOUBLE': return new Float64Builder(capacity);
    case 'DATE': return new Int32Builder(new arrow.DateDay(), capacity);
    case 'TIMESTAMP': return new Int64Builder(new arrow.TimestampMillisecond(), capacity);
    case 'VARCHAR': case 'NULL': return new Utf8Builder(capacity);
  }
}

/**
 * Builds a RecordBatch from finished columns (all of length `length`; may be zero columns; a shorter
 * one is padded with NULLs). The batch's schema is `schema` itself: build it once per output shape
 * (exec/arrow-build.ts `batchOf`, which skips Arrow's per-batch RecordBatch constructor).
 */
export function makeBatch(schema: arrow.Schema, columns: readonly arrow.Data[], length: number): arrow.RecordBatch {
  return batchOf(schema, columns, length);
}
