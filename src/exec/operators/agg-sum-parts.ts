/**
 * A compensated DOUBLE sum as parts that add exactly (docs/multi-core.md "Determinism"), and the
 * final aggregate over such parts: `sum_parts(hi, lo)` and `avg_parts(hi, lo, count)`
 * (relnode/functions.ts PartsAggFn; the split is planner/ship-stages.ts).
 *
 * Decision: a partial stage sends each group's compensated sum (s, c) as two DOUBLEs, hi = s + c
 * rounded and lo = the exact rest (TwoSum), not the rounded sum alone, and the final aggregate adds
 * every share's hi and lo into one compensated sum and rounds once, as one thread rounds its own
 * (s, c) once. Neumaier's step computes each rounding error exactly; its compensation adds those
 * errors in a double, which is exact whenever the values are multiples of some 2^e and
 * rows × Σ|x| < 2^(e+106) (the compensation then stays below 2^(e+53)). When that holds on every
 * share, and so for the whole table, both sides hold the exact sum and round it the same: the
 * result has the same bits at every parallelism and in every row order. TPC-H's sums are far
 * inside it (SF 1 Q1: ~2^60 against ~2^63). Data that spans more (1e300 beside 1e-300) can still
 * differ in the last bit, at parallelism 1 between row orders as well.
 *
 * `meanOf` normalizes (s, c) by TwoSum before the double-double division, so equal exact sums
 * give equal means whatever split of (s, c) holds them.
 */
import { Type, type Data } from 'apache-arrow';
import { toArrowType } from '../../relnode/types.js';
import { fixedData } from '../arrow-build.js';
import { giveArray } from '../kernels/buffer-pool.js';
import { growF64, isNullAt, numbersOf, validityOf, type AggState, type ColumnScratch } from './agg-arrays.js';
import { R, ddDiv, twoSum } from './double-double.js';

/**
 * Adds states `o` (layout [sum, compensation, count] per group) into `st`, group j of `o` into
 * group map[j]: Neumaier's step on the sums, the compensations and counts added (SumDoubleState
 * and SumPartsState merge the same way).
 */
export function mergeCompensated(st: Float64Array, o: Float64Array, map: Int32Array): void {
  for (let j = 0; j < map.length; j++) {
    const b = 3 * map[j]!;
    const s = st[b]!;
    const x = o[3 * j]!;
    const t = s + x;
    st[b + 1] += (Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s) + o[3 * j + 1]!;
    st[b] = t;
    st[b + 2] += o[3 * j + 2]!;
  }
}

/**
 * The DOUBLE result column of [sum, compensation, count] states (SumDoubleState, SumPartsState)
 * for groups start + i or, with `gids`, gids[i] (i < n), in `scratch`'s buffers when given: each
 * rounded once from its compensated pair — the sum, its exact rest (`lo`), or the mean. A group
 * with no rows is NULL.
 */
export function compensatedColumn(st: Float64Array, kind: 'sum' | 'avg' | 'lo', start: number, n: number, gids: Int32Array | null, scratch?: ColumnScratch): Data {
  const out = scratch === undefined ? new Float64Array(n) : scratch.doubles(n);
  const seen = scratch === undefined ? new Uint8Array(n) : scratch.zeroedBytes(n);
  compensatedValues(st, kind, start, n, gids, out, seen);
  const { bitmap, nulls } = validityOf(seen, 0, n);
  return fixedData(toArrowType('DOUBLE'), n, nulls, bitmap, out);
}

/**
 * compensatedColumn's loop: writes each group's rounded value into `out` and 1 into `seen` for
 * groups with rows. A leaf of its own (issue #10): with the loop beside makeData, V8 compiled
 * compensatedColumn by on-stack replacement and again normally, each time with apache-arrow's
 * Data construction inlined (TPC-H Q1 and Q3 at parallelism 2, in timed runs).
 */
function compensatedValues(st: Float64Array, kind: 'sum' | 'avg' | 'lo', start: number, n: number, gids: Int32Array | null, out: Float64Array, seen: Uint8Array): void {
  for (let i = 0; i < n; i++) {
    const b = 3 * (gids === null ? start + i : gids[i]!);
    const c = st[b + 2]!;
    if (c <= 0) continue;
    seen[i] = 1;
    const s = st[b]!;
    out[i] = kind === 'avg' ? meanOf(s, st[b + 1]!, c) : kind === 'lo' ? sumRest(s, st[b + 1]!) : roundedSum(s, st[b + 1]!);
  }
}

/** The compensated sum (s, c) rounded: s + c, or s when s is not finite (an infinity or NaN among the values makes c NaN). */
export function roundedSum(s: number, c: number): number {
  return Number.isFinite(s) ? s + c : s;
}

/** What rounding (s, c) to `roundedSum` left, exactly (TwoSum); 0 when s is not finite. */
export function sumRest(s: number, c: number): number {
  if (!Number.isFinite(s)) return 0;
  twoSum(s, c);
  return R.l;
}

/** The mean (s + c) / n, rounded once from a double-double: the same for every split of the same exact s + c. */
export function meanOf(s: number, c: number, n: number): number {
  if (!Number.isFinite(s)) return s / n;
  twoSum(s, c);
  ddDiv(R.h, R.l, n);
  return R.h;
}

/**
 * `sum_parts(hi, lo)` and `avg_parts(hi, lo, count)`: per group a compensated sum of every row's hi
 * and lo (Neumaier, as SumDoubleState), and the number of rows with a hi (sum) or the sum of the
 * counts (avg). Layout as SumDoubleState: st[3g] sum, st[3g + 1] compensation, st[3g + 2] count.
 * A row whose hi is NULL (a share without values for the group) adds nothing.
 */
export class SumPartsState implements AggState {
  private st = new Float64Array(48);
  constructor(private readonly avg: boolean) {}
  resize(groups: number): void { this.st = growF64(this.st, 3 * groups); }
  reserve(groups: number): void { this.resize(groups); }
  release(): void { giveArray(this.st); this.st = new Float64Array(48); }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const hd = args[0]!;
    const ld = args[1]!;
    if (hd.typeId === Type.Null) return;
    const hi = numbersOf(hd, n);
    const lo = ld.typeId === Type.Null ? null : numbersOf(ld, n);
    const cd = this.avg ? args[2]! : null;
    const counts = cd === null ? null : numbersOf(cd, n);
    const st = this.st;
    for (let i = 0; i < n; i++) {
      if (hd.nullCount > 0 && isNullAt(hd, i)) continue;
      const b = 3 * gids[i]!;
      let s = st[b]!;
      let c = st[b + 1]!;
      const x = hi[i]!;
      let t = s + x;
      c += Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s;
      s = t;
      const y = lo === null || (ld.nullCount > 0 && isNullAt(ld, i)) ? 0 : lo[i]!;
      t = s + y;
      c += Math.abs(s) >= Math.abs(y) ? (s - t) + y : (y - t) + s;
      st[b] = t;
      st[b + 1] = c;
      st[b + 2] += counts === null ? 1 : (cd!.nullCount > 0 && isNullAt(cd!, i) ? 0 : counts[i]!);
    }
  }
  merge(other: AggState, map: Int32Array): void {
    mergeCompensated(this.st, (other as SumPartsState).st, map);
  }
  value(start: number, end: number, scratch?: ColumnScratch): Data { return this.values(start, end - start, null, scratch); }
  valueAt(gids: Int32Array, n: number): Data { return this.values(0, n, gids); }
  private values(start: number, n: number, gids: Int32Array | null, scratch?: ColumnScratch): Data {
    return compensatedColumn(this.st, this.avg ? 'avg' : 'sum', start, n, gids, scratch);
  }

}
