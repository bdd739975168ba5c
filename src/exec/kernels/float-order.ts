/**
 * THE order and equality of doubles, used by every place that compares,
 * sorts, hashes or bounds DOUBLE values: comparison kernels (fused loops and
 * row tests), IN lists, sort keys, hash-key normalization (joins, GROUP BY,
 * DISTINCT, set operations, hash partitioning), min/max and cache zone maps.
 *
 * Decision (DuckDB's, for FLOAT and DOUBLE alike): doubles are totally ordered
 *   -Infinity < ... < -0.0 = 0.0 < ... < +Infinity < NaN
 * so NaN = NaN is TRUE, NaN <> x is TRUE for every number x, NaN is greater
 * than every number including +Infinity, and -0.0 equals 0.0 (they group and
 * join together). All NaN bit patterns are one value. NULL is not a double:
 * comparisons with NULL stay NULL and NULL placement is the caller's.
 *
 * Why: IEEE comparisons (NaN unequal to itself, unordered) cannot be used for
 * keys — a NaN group or join key would never meet itself — and one engine
 * must not answer `x = x` differently in a WHERE clause and in a GROUP BY.
 * DuckDB is eddy's oracle; PostgreSQL makes the same choice.
 *
 * JS `<`, `<=`, `===` already give -0 = 0 and order every non-NaN pair right,
 * so each rule below is the plain operator plus a NaN fix-up that costs one
 * self-comparison (`x !== x` is true only for NaN).
 */

/** Total order of two doubles: negative, 0 or positive (NaN largest, NaN = NaN, -0 = 0). */
export function compareDoubles(x: number, y: number): number {
  if (x < y) return -1;
  if (x > y) return 1;
  if (x === y) return 0;
  // At least one NaN.
  return x !== x ? (y !== y ? 0 : 1) : -1;
}

/** x = y under the total order. */
export function doubleEq(x: number, y: number): boolean {
  return x === y || (x !== x && y !== y);
}

/** x < y under the total order. */
export function doubleLt(x: number, y: number): boolean {
  return x < y || (y !== y && x === x);
}

/** x > y under the total order. */
export function doubleGt(x: number, y: number): boolean {
  return x > y || (x !== x && y === y);
}

/** x <= y under the total order. */
export function doubleLe(x: number, y: number): boolean {
  return x <= y || y !== y;
}

/** x >= y under the total order. */
export function doubleGe(x: number, y: number): boolean {
  return x >= y || x !== x;
}

/**
 * The canonical form of a double as a key: -0 → 0, every NaN → the one NaN,
 * so values equal under the total order have equal bits (hashing, key words).
 */
export function canonicalDouble(x: number): number {
  return x === 0 ? 0 : x !== x ? NaN : x;
}

/** A comparison operator of the kernels. */
export type CompareOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

/**
 * JS source of `x op y` under the total order, for generated loops (fused.ts).
 * `x` and `y` are operand texts made by the generator (never user text);
 * `xNaN`/`yNaN` say whether that operand may be NaN (only DOUBLE values can):
 * when neither can, this is the plain JS operator. When only one side can
 * (a DOUBLE column against a literal, the common case) it is still one
 * comparison: `x >= k` becomes `!(x < k)`, TRUE for a NaN x.
 */
export function doubleCompareSource(op: CompareOp, x: string, y: string, xNaN: boolean, yNaN: boolean): string {
  const nx = `${x} !== ${x}`, ny = `${y} !== ${y}`;
  const both = xNaN && yNaN;
  switch (op) {
    case 'eq': return both ? `(${x} === ${y} || (${nx} && ${ny}))` : `${x} === ${y}`;
    case 'ne': return both ? `(${x} !== ${y} && (${x} === ${x} || ${y} === ${y}))` : `${x} !== ${y}`;
    case 'lt': return both ? `(${x} < ${y} || (${ny} && ${x} === ${x}))` : yNaN ? `!(${x} >= ${y})` : `${x} < ${y}`;
    case 'le': return both ? `(${x} <= ${y} || ${ny})` : yNaN ? `!(${x} > ${y})` : `${x} <= ${y}`;
    case 'gt': return both ? `(${x} > ${y} || (${nx} && ${y} === ${y}))` : xNaN ? `!(${x} <= ${y})` : `${x} > ${y}`;
    case 'ge': return both ? `(${x} >= ${y} || ${nx})` : xNaN ? `!(${x} < ${y})` : `${x} >= ${y}`;
  }
}
