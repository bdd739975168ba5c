/**
 * The largest or smallest of n NULL-free doubles under the total order of
 * kernels/float-order.ts (NaN above +Infinity, -0 = 0), with ONE comparison
 * per value: the global min/max loop of a cached column (bench:cache
 * `b.max('revenue')`), where `doubleGt`'s NaN fix-up was a second compare
 * and branch per row.
 *
 * Why this is exact:
 * - max: `!(x <= b)` is true for x > b and for a NaN x; NaN is the largest
 *   value, so the scan stops at the first NaN. From b = -Infinity, the first
 *   value that beats it is taken; -Infinity itself never does, and an input of
 *   only -Infinity leaves b = -Infinity, which is its max.
 * - min: `x < b` is false for a NaN x, which is right (NaN loses to every
 *   number). From b = +Infinity, an input whose min is +Infinity or NaN ends
 *   with b = +Infinity, and only then a second pass decides between them.
 * Among equal values (-0 and 0) the first one seen stays, as with doubleGt/Lt.
 */

/** max of v[0..n) (n ≥ 1) under the total order. */
export function maxOfDoubles(v: Float64Array, n: number): number {
  let b = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    if (!(x <= b)) {
      if (x !== x) return x;
      b = x;
    }
  }
  return b;
}

/** min of v[0..n) (n ≥ 1) under the total order. */
export function minOfDoubles(v: Float64Array, n: number): number {
  let b = Infinity;
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    if (x < b) b = x;
  }
  if (b !== Infinity) return b;
  // Every value is +Infinity or NaN: the min is NaN only when no +Infinity occurs.
  for (let i = 0; i < n; i++) if (v[i] === Infinity) return Infinity;
  return NaN;
}
