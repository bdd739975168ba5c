/**
 * Rebuilds key columns from a KeyTable's stored group words (hash.ts): the
 * GROUP BY keys of an aggregate's output and the rows of set operations.
 * VARCHAR keys come out as Utf8 from the string interner.
 */
import type { Data, Utf8 } from 'apache-arrow';
import { fixedData, utf8Data } from '../arrow-build.js';
import { toArrowType, type SqlType } from '../../relnode/types.js';
import { nullData } from '../batch.js';
import type { StringInterner } from './hash-interner.js';

/**
 * The key column of SQL type `type` stored at word `pos` of each group's `W`
 * words, for groups `gids[0..n)`; `isNull(g)` says whether that column is NULL
 * in group g (null: never). A NULL row's value is 0 (its group words hold the column's NULL word,
 * hash-null-words.ts: INT_MIN, a NaN's bits).
 */
export function materializeKey(
  type: SqlType, gw: Int32Array, W: number, pos: number, interner: StringInterner,
  isNull: ((g: number) => boolean) | null, gids: Int32Array, n: number,
): Data {
  const arrowType = toArrowType(type);
  if (type === 'NULL') return nullData(arrowType, n);
  let nulls = 0;
  let bitmap: Uint8Array | undefined;
  if (isNull !== null) {
    const bm = new Uint8Array((n + 7) >> 3);
    nulls = n - validBits(isNull, gids, n, bm);
    if (nulls > 0) bitmap = bm;
  }
  switch (type) {
    case 'BOOLEAN': {
      const bits = keyBits(gw, W, pos, gids, n);
      if (bitmap !== undefined) for (let i = 0; i < bits.length; i++) bits[i]! &= bitmap[i]!;
      return fixedData(arrowType, n, nulls, bitmap, bits);
    }
    case 'INTEGER': case 'DATE': {
      const v = keyWords(gw, W, pos, gids, n, 1);
      if (bitmap !== undefined) zeroNullRows(v, 1, bitmap, n);
      return fixedData(arrowType, n, nulls, bitmap, v);
    }
    case 'BIGINT': case 'TIMESTAMP': case 'DOUBLE': {
      const w32 = keyWords(gw, W, pos, gids, n, 2);
      if (bitmap !== undefined) zeroNullRows(w32, 2, bitmap, n);
      const data = type === 'DOUBLE' ? new Float64Array(w32.buffer) : new BigInt64Array(w32.buffer);
      return fixedData(arrowType, n, nulls, bitmap, data);
    }
    case 'VARCHAR': return keyStrings(arrowType as Utf8, gw, W, pos, interner, gids, n, nulls, bitmap);
  }
}

/*
 * The row loops are leaf functions, not loops of materializeKey: V8 counts a function's own loop iterations
 * toward its tier-up, so a materializeKey with loops reached TurboFan (with Arrow's Data construction inlined:
 * 5.8 KB) in TPC-H Q3's timed runs at parallelism 2; the leaves compile small, and the once-per-batch
 * function around them need not compile at all.
 */

/** Sets bit i of `bm` for each row whose group is not NULL in the column; returns how many. */
function validBits(isNull: (g: number) => boolean, gids: Int32Array, n: number, bm: Uint8Array): number {
  let valid = 0;
  for (let i = 0; i < n; i++) if (!isNull(gids[i]!)) { bm[i >> 3]! |= 1 << (i & 7); valid++; }
  return valid;
}

/** Per row, bit i set when the group's word `pos` is not 0 (BOOLEAN keys). */
function keyBits(gw: Int32Array, W: number, pos: number, gids: Int32Array, n: number): Uint8Array {
  const bits = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) if (gw[gids[i]! * W + pos] !== 0) bits[i >> 3]! |= 1 << (i & 7);
  return bits;
}

/** Per row, the `k` (1 or 2) words at `pos` of its group. */
function keyWords(gw: Int32Array, W: number, pos: number, gids: Int32Array, n: number, k: 1 | 2): Int32Array {
  const v = new Int32Array(k * n);
  if (k === 1) for (let i = 0; i < n; i++) v[i] = gw[gids[i]! * W + pos]!;
  else for (let i = 0; i < n; i++) { const b = gids[i]! * W + pos; v[2 * i] = gw[b]!; v[2 * i + 1] = gw[b + 1]!; }
  return v;
}

/** A VARCHAR key column from the interned strings of each row's group. */
function keyStrings(
  type: Utf8, gw: Int32Array, W: number, pos: number, interner: StringInterner, gids: Int32Array, n: number, nulls: number, bitmap: Uint8Array | undefined,
): Data<Utf8> {
  const offs = new Int32Array(n + 1);
  const nullRow = (i: number): boolean => bitmap !== undefined && ((bitmap[i >> 3]! >> (i & 7)) & 1) === 0;
  for (let i = 0; i < n; i++) offs[i + 1] = offs[i]! + (nullRow(i) ? 0 : interner.lengthOf(gw[gids[i]! * W + pos]!));
  const bytes = new Uint8Array(offs[n]!);
  for (let i = 0; i < n; i++) if (!nullRow(i)) interner.copyTo(gw[gids[i]! * W + pos]!, bytes, offs[i]!);
  return utf8Data(type, n, nulls, bitmap, offs, bytes);
}

/** Zeroes the `k` words of each row i < n that `bitmap` marks NULL. */
function zeroNullRows(v: Int32Array, k: number, bitmap: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) if (((bitmap[i >> 3]! >> (i & 7)) & 1) === 0) for (let w = 0; w < k; w++) v[k * i + w] = 0;
}
