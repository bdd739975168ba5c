/**
 * Hash partitioning of a batch over n consumer subtasks. Equal key values go
 * to the same subtask whatever their physical encoding (a dictionary-encoded
 * string hashes like the same plain string), so both sides of a join agree.
 *
 * Numbers have ONE normalization, whatever their column type: a value hashes
 * as the double it converts to (BIGINT x as Number(x), -0 as 0, every NaN as
 * one NaN). Equality under any comparison a key table makes (exact INTEGER /
 * BIGINT, or DOUBLE after coercion, hash-encode.ts) implies equal doubles, so
 * rows that compare equal always meet in one subtask: a BIGINT key beyond
 * 2^53 and the DOUBLE it rounds to land together (DuckDB compares BIGINT =
 * DOUBLE as DOUBLE). The cost is a few collisions between BIGINTs that differ
 * only beyond 2^53; the key tables still compare them exactly.
 */
import { Type, type Data, type RecordBatch } from 'apache-arrow';
import { takeBatch } from './batch.js';
import { dictionaryValues } from './batch-concat.js';

const TEXT = new TextEncoder();

/** 32-bit FNV-1a over bytes [start, end). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

function mix(h: number, v: number): number {
  h = Math.imul(h ^ v, 0x9e3779b1);
  return (h ^ (h >>> 15)) >>> 0;
}

const NULL_HASH = 0x5bd1e995;
const f64 = new Float64Array(1);
const f64i = new Int32Array(f64.buffer);

const NAN_HASH = 0x7ff80000;

/**
 * The value hash of a number: safe integers hash as their 64-bit two's
 * complement (low word XOR high word), like Int32 keys and BIGINT keys
 * below 2^53; others by bits (-0 hashes as 0, every NaN alike).
 */
function hashNumber(x: number): number {
  if (x !== x) return NAN_HASH;
  if (Number.isInteger(x) && Math.abs(x) <= Number.MAX_SAFE_INTEGER) {
    const hi = Math.floor(x / 4294967296);
    return ((x - hi * 4294967296) | 0) ^ (hi | 0);
  }
  f64[0] = x;
  return f64i[0]! ^ f64i[1]!;
}

/**
 * Hashes one column into `acc` (combined with what is already there); NULLs
 * hash as a fixed value. Value buffers and Utf8 offsets of a sliced Data are
 * already narrowed; validity and Bool bits are at `offset + i`.
 */
function hashColumn(d: Data, acc: Uint32Array): void {
  const n = d.length;
  const off = d.offset;
  const valid = d.nullCount > 0 ? d.nullBitmap : undefined;
  const isNull = (i: number): boolean => valid !== undefined && (valid[(off + i) >> 3]! & (1 << ((off + i) & 7))) === 0;
  switch (d.typeId) {
    case Type.Dictionary: {
      // Hash each dictionary entry once, exactly as a plain Utf8 value hashes.
      const dict = dictionaryValues(d);
      const offs = dict.valueOffsets as Int32Array;
      const bytes = dict.values as Uint8Array;
      const dh = new Uint32Array(dict.length);
      for (let j = 0; j < dict.length; j++) dh[j] = hashBytes(bytes, offs[j]!, offs[j + 1]!);
      const codes = d.values as Int32Array;
      for (let i = 0; i < n; i++) acc[i] = mix(acc[i]!, isNull(i) ? NULL_HASH : dh[codes[i]!]!);
      return;
    }
    case Type.Utf8: {
      const offs = d.valueOffsets as Int32Array;
      const bytes = d.values as Uint8Array;
      for (let i = 0; i < n; i++) acc[i] = mix(acc[i]!, isNull(i) ? NULL_HASH : hashBytes(bytes, offs[i]!, offs[i + 1]!));
      return;
    }
    case Type.Float: {
      // Numbers hash by value, so an INTEGER key and a DOUBLE or BIGINT key that are equal meet.
      const v = d.values as Float64Array;
      for (let i = 0; i < n; i++) acc[i] = mix(acc[i]!, isNull(i) ? NULL_HASH : hashNumber(v[i]!));
      return;
    }
    case Type.Int: case Type.Date: case Type.Timestamp: {
      const v = d.values as Int32Array | BigInt64Array;
      if (v instanceof BigInt64Array) {
        // (lo, hi) words; |x| < 2^53 is exact (hash lo ^ hi, as hashNumber does), beyond it hash the double x rounds to.
        const w = new Int32Array(v.buffer, v.byteOffset, 2 * n);
        for (let i = 0; i < n; i++) {
          const lo = w[2 * i]!;
          const hi = w[2 * i + 1]!;
          const h = hi > -0x200000 && hi < 0x200000 ? lo ^ hi : hashNumber(hi * 4294967296 + (lo >>> 0));
          acc[i] = mix(acc[i]!, isNull(i) ? NULL_HASH : h);
        }
      } else {
        for (let i = 0; i < n; i++) acc[i] = mix(acc[i]!, isNull(i) ? NULL_HASH : v[i]! ^ (v[i]! >> 31));
      }
      return;
    }
    case Type.Bool: {
      const v = d.values as Uint8Array;
      for (let i = 0; i < n; i++) acc[i] = mix(acc[i]!, isNull(i) ? NULL_HASH : (v[(off + i) >> 3]! >> ((off + i) & 7)) & 1);
      return;
    }
    case Type.Null:
      for (let i = 0; i < n; i++) acc[i] = mix(acc[i]!, NULL_HASH);
      return;
    default:
      for (let i = 0; i < n; i++) acc[i] = mix(acc[i]!, hashBytes(TEXT.encode(String(d.type)), 0, 4));
  }
}

/** Row hashes of a batch over the key columns. */
export function hashRows(batch: RecordBatch, keys: readonly number[]): Uint32Array {
  const acc = new Uint32Array(batch.numRows);
  for (const k of keys) hashColumn(batch.data.children[k]!, acc);
  return acc;
}

/** Splits a batch by key hash into n parts (undefined where a part would be empty). */
export function partitionBatch(batch: RecordBatch, keys: readonly number[], n: number): (RecordBatch | undefined)[] {
  const h = hashRows(batch, keys);
  const counts = new Int32Array(n);
  for (let i = 0; i < h.length; i++) counts[h[i]! % n]!++;
  const sels = Array.from({ length: n }, (_, p) => new Int32Array(counts[p]!));
  const fill = new Int32Array(n);
  for (let i = 0; i < h.length; i++) { const p = h[i]! % n; sels[p]![fill[p]!++] = i; }
  return sels.map((s) => (s.length === 0 ? undefined : s.length === batch.numRows ? batch : takeBatch(batch, s)));
}
