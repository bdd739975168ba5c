/**
 * The row loops of the top-k prefilter (sort.ts): which rows of a batch have a
 * first key at least as good as the threshold.
 *
 * Why these loops live apart from the operator (issue #10, the JIT tail at
 * parallelism 2): V8 tiers a function with a long loop up by on-stack
 * replacement inside its first hot call, then compiles it again for its next
 * call, and each compile takes in everything it inlines. When the loops sat in
 * the method that also built the output batch (takeBatch: apache-arrow's Data
 * and RecordBatch construction), each of those compiles took 30-90 ms on a
 * helper thread, and the compiled code depended on apache-arrow's object
 * shapes, so the first batch with a new shape (a NULL-typed column) threw it
 * away ("code dependencies") and both compiles ran again, in both isolates.
 * Here each loop is a small leaf over a typed array: it compiles in about a
 * millisecond and depends on nothing but its arguments; the operator's
 * per-batch method is left without loops.
 */
import { doubleGe, doubleLe } from '../kernels/float-order.js';

/**
 * How many of rows [0, n) of `v` (no NULLs) are not worse than `tv` in the order: desc keeps
 * x ≥ tv and NaN (NaN sorts last ascending, so first descending); asc keeps x ≤ tv.
 */
export function countNotWorse(v: Int32Array | Float64Array, n: number, desc: boolean, tv: number): number {
  let m = 0;
  if (desc) { for (let i = 0; i < n; i++) { const x = v[i]!; if (x >= tv || x !== x) m++; } }
  else for (let i = 0; i < n; i++) if (v[i]! <= tv) m++;
  return m;
}

/** Writes the rows countNotWorse counts into `sel` (which has room for them), in order. */
export function selectNotWorse(v: Int32Array | Float64Array, n: number, desc: boolean, tv: number, sel: Int32Array): void {
  let j = 0;
  if (desc) { for (let i = 0; i < n; i++) { const x = v[i]!; if (x >= tv || x !== x) sel[j++] = i; } }
  else for (let i = 0; i < n; i++) if (v[i]! <= tv) sel[j++] = i;
}

/** The first sort key's order rules and the threshold row's key, for rows that may be NULL. */
export interface MaskedThreshold {
  readonly desc: boolean;
  readonly nullsFirst: boolean;
  readonly value: number;
  readonly isNull: boolean;
}

/**
 * The rows of [0, n) of a column with a validity bitmap (bit `offset + i`, or none when `bm` is
 * null) whose key is not worse than the threshold `t`, written into `sel`; returns their count.
 * A NULL key ties a NULL threshold and otherwise ranks by `nullsFirst`.
 */
export function selectNotWorseMasked(v: Int32Array | Float64Array, bm: Uint8Array | null, offset: number, n: number, t: MaskedThreshold, sel: Int32Array): number {
  let m = 0;
  const { desc, nullsFirst, value, isNull: tNull } = t;
  for (let i = 0; i < n; i++) {
    let isNull = false;
    if (bm !== null) { const bit = offset + i; isNull = ((bm[bit >> 3]! >> (bit & 7)) & 1) === 0; }
    let keep: boolean;
    if (isNull || tNull) keep = isNull === tNull || (isNull ? nullsFirst : !nullsFirst);
    else { const x = v[i]!; keep = desc ? doubleGe(x, value) : doubleLe(x, value); }
    if (keep) sel[m++] = i;
  }
  return m;
}
