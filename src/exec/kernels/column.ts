/**
 * Building and reading kernel columns: the canonical Arrow type of each SqlType,
 * result Data construction (validity attached only when there are nulls) and
 * numeric views of inputs.
 *
 * Arrow JS addressing (see bitmap.ts): row i of a fixed-width Data is `values[i]`;
 * validity and Bool bits are at `offset + i`.
 */
import * as arrow from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import { fixedData, nullPlaceholder, utf8Data } from '../arrow-build.js';
import { toArrowType, type SqlType } from '../../relnode/types.js';
import { popcount } from './bitmap.js';
import { int64ToNumbers } from './int64.js';

/** The canonical Arrow type of a SqlType: relnode's one type map (shared instances; Arrow types are immutable). */
export const arrowTypeOf: (t: SqlType) => arrow.DataType = toArrowType;

/** A typed array that reads as JS numbers. */
export type NumArray = Int32Array | Float64Array;

/** The typed array class holding values of a SqlType, for fixed-width types. */
export function newValues(t: SqlType, n: number): Int32Array | Float64Array | BigInt64Array {
  switch (t) {
    case 'INTEGER': case 'DATE': return new Int32Array(n);
    case 'DOUBLE': return new Float64Array(n);
    case 'BIGINT': case 'TIMESTAMP': return new BigInt64Array(n);
    default: throw new InternalError(`no fixed-width value array for ${t}`);
  }
}

/** Wraps computed values (+ optional row-0-aligned validity) as a Data of SqlType t. */
export function makeColumn(t: SqlType, values: Int32Array | Float64Array | BigInt64Array | Uint8Array, valid: Uint8Array | null, n: number): arrow.Data {
  if (t === 'NULL') return nullColumn(n);
  const nullCount = valid === null ? 0 : n - popcount(valid, n);
  return fixedData(arrowTypeOf(t), n, nullCount, nullCount === 0 ? null : valid, values);
}

/** A Utf8 Data from offsets (n + 1 entries) and bytes. */
export function makeUtf8(offsets: Int32Array, bytes: Uint8Array, valid: Uint8Array | null, n: number): arrow.Data {
  const nullCount = valid === null ? 0 : n - popcount(valid, n);
  const type = arrowTypeOf('VARCHAR') as arrow.Utf8;
  return utf8Data(type, n, nullCount, nullCount === 0 ? null : valid, offsets, bytes);
}

/** An all-NULL Data of type Null. */
export function nullColumn(n: number): arrow.Data {
  return nullPlaceholder(arrowTypeOf('NULL') as arrow.Null, n);
}

/** True when the Data has the Arrow Null type (every row NULL, no buffers). */
export function isNullType(d: arrow.Data): boolean {
  return d.typeId === arrow.Type.Null;
}

/**
 * The values of a numeric-like Data (INTEGER, DOUBLE, DATE, TIMESTAMP, BIGINT) as a
 * number-reading typed array of at least n entries: Int32Array/Float64Array as they
 * are (no copy), 64-bit integers converted to Float64Array (exact below 2^53).
 */
export function numbersOf(d: arrow.Data, n: number): NumArray {
  if (isNullType(d)) return new Float64Array(n);
  const v = d.values as Int32Array | Float64Array | BigInt64Array;
  if (v instanceof BigInt64Array) return int64ToNumbers(v, n);
  return v;
}

/** [min, max] of rows 0 … n − 1 (n ≥ 1) of an INTEGER/DATE array without NULLs. */
export function int32MinMax(v: Int32Array, n: number): [number, number] {
  let min = v[0]!;
  let max = min;
  for (let i = 1; i < n; i++) { const x = v[i]!; min = Math.min(min, x); max = Math.max(max, x); }
  return [min, max];
}
