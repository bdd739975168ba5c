/**
 * 64-bit integer columns (BIGINT, TIMESTAMP ms) without BigInt allocation:
 * a BigInt64Array is read as little-endian (lo, hi) Int32 pairs and converted
 * to doubles, and doubles holding integers are written back as pairs.
 */
import { InternalError } from '../../relnode/errors.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const TWO32 = 4294967296;
/** 2^53: integers strictly below this magnitude are exact doubles. */
export const SAFE_LIMIT = 9007199254740992;

/** The first n values of a BigInt64Array as (lo, hi) Int32 pairs (a view, no copy). */
export function pairs(v: BigInt64Array, n: number): Int32Array {
  if (!LITTLE_ENDIAN) throw new InternalError('eddy kernels assume a little-endian platform');
  return new Int32Array(v.buffer, v.byteOffset, n * 2);
}

/** The first n values as doubles (exact below 2^53, correctly rounded above). */
export function int64ToNumbers(v: BigInt64Array, n: number): Float64Array {
  const p = pairs(v, n);
  const out = new Float64Array(n);
  // Inlined: hi * 2^32 + unsigned lo (one correctly rounded addition).
  for (let i = 0; i < n; i++) out[i] = p[2 * i + 1]! * TWO32 + (p[2 * i]! >>> 0);
  return out;
}

/** The first n values as doubles, or null if any magnitude reaches 2^53 (so doubles would be inexact). */
export function int64ToSafeNumbers(v: BigInt64Array, n: number): Float64Array | null {
  const p = pairs(v, n);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const hi = p[2 * i + 1]!;
    // |v| < 2^53  <=>  -2^21 <= hi < 2^21 (hi = -2^21 only when v >= -2^53; close enough: -2^53 itself is exact).
    if (hi >= 2097152 || hi < -2097152) return null;
    out[i] = hi * TWO32 + (p[2 * i]! >>> 0);
  }
  return out;
}

/** Writes doubles holding integers of magnitude < 2^63 into a new BigInt64Array (exact below 2^53). */
export function numbersToInt64(src: ArrayLike<number>, n: number): BigInt64Array {
  const out = new BigInt64Array(n);
  const p = pairs(out, n);
  for (let i = 0; i < n; i++) {
    const x = src[i]!;
    const hi = Math.floor(x / TWO32);
    p[2 * i] = x - hi * TWO32; // ToInt32 wraps [0, 2^32) into the lo word
    p[2 * i + 1] = hi;
  }
  return out;
}
