/**
 * Exact sums of integer columns (INTEGER, BIGINT) per group, for sum and avg
 * — DuckDB sums integers into a 128-bit integer and divides only at the end;
 * so do we, without a BigInt per row.
 *
 * A group's running total is `hi · 2^32 + lo + big`: `lo` and `hi` are
 * Float64 accumulators kept below 2^52 (so every addition is exact), `big` a
 * sparse BigInt overflow. An INTEGER value adds to `lo`; a BIGINT value adds
 * its unsigned low word to `lo` and its signed high word to `hi` (read from
 * an Int32 view of the Int64 buffer, so no BigInt is created). When `lo`
 * reaches 2^52 its whole multiples of 2^32 carry into `hi`; when `hi`
 * reaches 2^51 it moves into `big`. Both are rare (after ~2^20 rows of large
 * values), so the loops stay one add and one compare per row.
 *
 * sum's result is the exact BIGINT (an error past the BIGINT range); avg's
 * the exact total divided by the count, rounded once more than DuckDB's (a
 * BigInt quotient plus the remainder's fraction).
 *
 * Partial stages (planner/ship-stages.ts). Decision: a share's BIGINT total travels as two
 * BIGINT words of a 128-bit integer, `sum_low64(x)` (the total wrapped to 64 bits, signed) and
 * `sum_high64(x)` (the multiple of 2^64 left: 0 unless the share's total passed 2^63), and the
 * final `sum_parts(low, high)` / `avg_parts(low, high, count)` adds the low words as any BIGINT
 * column and each non-zero high word into `big`, then checks the BIGINT range once — so a share
 * whose total passes 2^63 where the whole total fits (values that cancel across shares) answers
 * as parallelism 1 does, and a total past the range throws the same error with the same total.
 * Not IntSums' own (lo, hi, big) words: they are DOUBLEs and a BigInt, and two BIGINT columns are
 * the plain Arrow form every stage already moves. The partial's rows are added by the same loops
 * as a plain sum (`sum_high64` reads its `sum_low64` twin's state, agg-states.ts), and the words
 * are split per group only when a total is past 2^53. A share of INTEGER values cannot pass 2^63
 * (below 2^32 rows), so INTEGER sums and averages keep their one-column split.
 */
import { anchorMaps } from '../map-anchors.js';
import { Type, makeData, type Data } from 'apache-arrow';
import { ExecutionError } from '../../relnode/errors.js';
import { toArrowType } from '../../relnode/types.js';
import { growF64, isNullAt, validityOf, type AggState } from './agg-arrays.js';

const TWO32 = 4294967296;
/** Bound of `lo` (and of a value added to it). */
const LIM = 2 ** 52;
/** Bound of `hi`: below it, adding a carry (< 2^20) or another state's `hi` stays exact. */
const HI_LIM = 2 ** 51;
/** Rows a global fast path sums locally before folding in: 2^19 × 2^32 < 2^52. */
const CHUNK = 1 << 19;

/** Per-group exact integer sums and counts of non-NULL rows. */
class IntSums {
  /** 8 groups to start (64 bytes each, on the JS heap: a bigger typed array costs an off-heap allocation, ~1 µs). */
  lo = new Float64Array(8);
  hi = new Float64Array(8);
  counts = new Float64Array(8);
  /** Overflow beyond hi's bound, by group (sparse). */
  big: bigint[] = [];

  resize(groups: number): void {
    this.lo = growF64(this.lo, groups);
    this.hi = growF64(this.hi, groups);
    this.counts = growF64(this.counts, groups);
  }

  /** Carries lo's multiples of 2^32 into hi, and hi into big, so both are small again. */
  normalize(g: number): void {
    const lo = this.lo[g]!;
    const carry = Math.floor(lo / TWO32);
    this.lo[g] = lo - carry * TWO32;
    const hi = this.hi[g]! + carry;
    if (hi >= HI_LIM || hi <= -HI_LIM) {
      this.big[g] = (this.big[g] ?? 0n) + (BigInt(hi) << 32n);
      this.hi[g] = 0;
    } else this.hi[g] = hi;
  }

  add(d: Data, gids: Int32Array, n: number): void {
    if (d.typeId === Type.Null) return;
    const lo = this.lo;
    const hi = this.hi;
    const counts = this.counts;
    const masked = d.nullCount > 0;
    const v = d.values as unknown;
    if (!(v instanceof BigInt64Array)) {
      const x = v as ArrayLike<number>;
      for (let i = 0; i < n; i++) {
        if (masked && isNullAt(d, i)) continue;
        const g = gids[i]!;
        const s = lo[g]! + x[i]!;
        lo[g] = s;
        counts[g]++;
        if (s >= LIM || s <= -LIM) this.normalize(g);
      }
      return;
    }
    const w = new Int32Array(v.buffer, v.byteOffset, 2 * n);
    for (let i = 0; i < n; i++) {
      if (masked && isNullAt(d, i)) continue;
      const g = gids[i]!;
      const s = lo[g]! + (w[2 * i]! >>> 0);
      const h = hi[g]! + w[2 * i + 1]!;
      lo[g] = s;
      hi[g] = h;
      counts[g]++;
      if (s >= LIM || h >= HI_LIM || h <= -HI_LIM) this.normalize(g);
    }
  }

  /** Group 0 only (a global aggregate): local accumulators, folded in every CHUNK rows. */
  addGlobal(d: Data, n: number): void {
    if (d.typeId === Type.Null) return;
    const masked = d.nullCount > 0;
    const v = d.values as unknown;
    const w = v instanceof BigInt64Array ? new Int32Array(v.buffer, v.byteOffset, 2 * n) : null;
    const x = v as ArrayLike<number>;
    for (let start = 0; start < n; start += CHUNK) {
      const end = Math.min(n, start + CHUNK);
      let sLo = 0;
      let sHi = 0;
      let c = 0;
      if (w === null) {
        if (!masked) { for (let i = start; i < end; i++) sLo += x[i]!; c = end - start; }
        else for (let i = start; i < end; i++) { if (isNullAt(d, i)) continue; sLo += x[i]!; c++; }
      } else if (!masked) {
        for (let i = start; i < end; i++) { sLo += w[2 * i]! >>> 0; sHi += w[2 * i + 1]!; }
        c = end - start;
      } else {
        for (let i = start; i < end; i++) { if (isNullAt(d, i)) continue; sLo += w[2 * i]! >>> 0; sHi += w[2 * i + 1]!; c++; }
      }
      this.fold(0, sLo, sHi, c);
    }
  }

  /** Adds exact partial sums (|lo| < 2^52, |hi| < 2^51) and a count to group g. */
  private fold(g: number, lo: number, hi: number, count: number): void {
    this.lo[g] += lo;
    this.hi[g] += hi;
    this.counts[g] += count;
    const s = this.lo[g]!;
    const h = this.hi[g]!;
    if (s >= LIM || s <= -LIM || h >= HI_LIM || h <= -HI_LIM) this.normalize(g);
  }

  merge(o: IntSums, map: Int32Array): void {
    for (let j = 0; j < map.length; j++) {
      if (o.counts[j] === 0) continue;
      const g = map[j]!;
      // Normalize both sides first: then lo < 2^52 + 2^32 and hi < 2^51 + 2^20 after the fold, exact.
      o.normalize(j);
      this.normalize(g);
      this.fold(g, o.lo[j]!, o.hi[j]!, o.counts[j]!);
      const b = o.big[j];
      if (b !== undefined) this.big[g] = (this.big[g] ?? 0n) + b;
    }
  }

  /** Group g's total as an exact double when it is one below 2^53, else undefined (see `bigTotal`). */
  smallTotal(g: number): number | undefined {
    if (this.big[g] !== undefined) return undefined;
    const lo = this.lo[g]!;
    const hi = this.hi[g]!;
    // |hi · 2^32| < 2^52 and |lo| < 2^52: the sum is below 2^53, exact.
    if (hi > -1048576 && hi < 1048576) return hi * TWO32 + lo;
    return undefined;
  }

  bigTotal(g: number): bigint {
    return (this.big[g] ?? 0n) + (BigInt(this.hi[g]!) << 32n) + BigInt(this.lo[g]!);
  }

  /**
   * Adds a partial stage's high words (`sum_high64`: multiples of 2^64, BIGINT) to groups gids[i]
   * (group 0 without gids) exactly, into `big`; zeros (nearly every row) add nothing, and no BigInt
   * is made for them. Counts nothing: the low words' column counts the rows.
   */
  addHigh(d: Data, gids: Int32Array | null, n: number): void {
    if (d.typeId === Type.Null) return;
    const v = d.values as BigInt64Array;
    const w = new Int32Array(v.buffer, v.byteOffset, 2 * n);
    for (let i = 0; i < n; i++) {
      if ((w[2 * i]! | w[2 * i + 1]!) === 0 || (d.nullCount > 0 && isNullAt(d, i))) continue;
      const g = gids === null ? 0 : gids[i]!;
      this.big[g] = (this.big[g] ?? 0n) + (v[i]! << 64n);
    }
  }
}

/** What a SumIntState's column holds: the checked sum, or a partial stage's low or high word (see the header). */
export type IntSumOutput = 'sum' | 'low64' | 'high64';

/** Group g's 64-bit word of `out` (an Int32 view `w` of it) at i: the total's low word or its high word (total = high · 2^64 + low). */
function writeWord(s: IntSums, g: number, i: number, word: IntSumOutput, out: BigInt64Array, w: Int32Array): void {
  const x = s.smallTotal(g);
  if (x !== undefined) {
    if (word === 'high64') return;
    const hi = Math.floor(x / TWO32);
    w[2 * i] = (x - hi * TWO32) | 0;
    w[2 * i + 1] = hi | 0;
    return;
  }
  const total = s.bigTotal(g);
  const low = BigInt.asIntN(64, total);
  if (word === 'high64') out[i] = (total - low) >> 64n;
  else if (word === 'low64' || total === low) out[i] = low;
  else throw sumOverflow(total);
}

/** The error of an exact integer sum whose total does not fit BIGINT (an aggregate's or a window's). */
export function sumOverflow(total: bigint): ExecutionError {
  return new ExecutionError(`sum overflowed BIGINT (${total}); cast the argument to DOUBLE to sum approximately`);
}

/**
 * sum over INTEGER/BIGINT → exact BIGINT; also a partial stage's `sum_low64` / `sum_high64` words
 * (`output`) and its final `sum_parts(low, high)` over them (`parts`: the second argument's high
 * words add exactly, IntSums.addHigh).
 */
export class SumIntState implements AggState {
  private readonly s = new IntSums();
  constructor(private readonly output: IntSumOutput = 'sum', private readonly parts = false) {}
  resize(groups: number): void { this.s.resize(groups); }
  reserve(groups: number): void { this.s.resize(groups); }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    this.s.add(args[0]!, gids, n);
    if (this.parts) this.s.addHigh(args[1]!, gids, n);
  }
  addGlobal(args: readonly Data[], n: number): void {
    this.s.addGlobal(args[0]!, n);
    if (this.parts) this.s.addHigh(args[1]!, null, n);
  }
  merge(other: AggState, map: Int32Array): void { this.s.merge((other as SumIntState).s, map); }
  value(start: number, end: number): Data { return this.column(this.output, start, end); }
  /** The `sum_high64` of the same argument: this state's groups, read as their totals' high words (adds nothing itself). */
  highPart(): AggState {
    const of = this;
    return { resize(): void {}, add(): void {}, merge(): void {}, value: (start, end) => of.column('high64', start, end) };
  }
  private column(word: IntSumOutput, start: number, end: number): Data {
    const len = end - start;
    const seen = new Uint8Array(len);
    const out = new BigInt64Array(len);
    const w = new Int32Array(out.buffer);
    for (let i = 0; i < len; i++) {
      const g = start + i;
      if (this.s.counts[g] === 0) continue;
      seen[i] = 1;
      writeWord(this.s, g, i, word, out, w);
    }
    const { bitmap, nulls } = validityOf(seen, 0, len);
    return makeData({ type: toArrowType('BIGINT') as never, length: len, nullCount: nulls, nullBitmap: bitmap, data: out as never });
  }
}

/**
 * avg over INTEGER/BIGINT → DOUBLE: the exact sum divided by the count. With `parts` 2 or 3, it is a
 * partial stage's final aggregate (planner/ship-stages.ts): `avg_parts(sum, count)` over an INTEGER
 * argument's shares (exact BIGINT sums) or `avg_parts(low, high, count)` over a BIGINT argument's
 * (the 128-bit words, see the header); it adds the shares' totals exactly, sums their counts, and
 * divides as one thread would (a cast of a total past 2^53 and a plain division could round
 * differently).
 */
export class AvgIntState implements AggState {
  private readonly s = new IntSums();
  /** With `parts`: per group the sum of the count column (the rows behind the summed sums). */
  private partCounts = new Float64Array(8);
  /** The arguments of a partial stage's final `avg_parts` (2 or 3), or 0 for avg itself. */
  constructor(private readonly parts: 0 | 2 | 3 = 0) {}
  resize(groups: number): void { this.s.resize(groups); if (this.parts > 0) this.partCounts = growF64(this.partCounts, groups); }
  reserve(groups: number): void { this.resize(groups); }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    this.s.add(args[0]!, gids, n);
    if (this.parts === 3) this.s.addHigh(args[1]!, gids, n);
    if (this.parts > 0) this.addCounts(args[this.parts - 1]!, gids, n);
  }
  addGlobal(args: readonly Data[], n: number): void {
    this.s.addGlobal(args[0]!, n);
    if (this.parts === 3) this.s.addHigh(args[1]!, null, n);
    if (this.parts > 0) this.addCounts(args[this.parts - 1]!, null, n);
  }
  private addCounts(d: Data, gids: Int32Array | null, n: number): void {
    if (d.typeId === Type.Null) return;
    const v = d.values as unknown;
    const pc = this.partCounts;
    const big = v instanceof BigInt64Array ? v : null;
    const num = v as ArrayLike<number>;
    for (let i = 0; i < n; i++) {
      if (d.nullCount > 0 && isNullAt(d, i)) continue;
      pc[gids === null ? 0 : gids[i]!] += big !== null ? Number(big[i]!) : num[i]!;
    }
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as AvgIntState;
    this.s.merge(o.s, map);
    if (this.parts > 0) for (let j = 0; j < map.length; j++) this.partCounts[map[j]!] += o.partCounts[j]!;
  }
  value(start: number, end: number): Data {
    const len = end - start;
    const seen = new Uint8Array(len);
    const out = new Float64Array(len);
    for (let i = 0; i < len; i++) {
      const g = start + i;
      const c = this.parts > 0 ? this.partCounts[g]! : this.s.counts[g]!;
      if (c === 0) continue;
      seen[i] = 1;
      const x = this.s.smallTotal(g);
      if (x !== undefined) { out[i] = x / c; continue; }
      // Quotient and remainder of the exact total: the quotient rounds once, the fraction adds what is left.
      const total = this.s.bigTotal(g);
      const bc = BigInt(c);
      out[i] = Number(total / bc) + Number(total % bc) / c;
    }
    const { bitmap, nulls } = validityOf(seen, 0, len);
    return makeData({ type: toArrowType('DOUBLE') as never, length: len, nullCount: nulls, nullBitmap: bitmap, data: out });
  }
}

// Keep the integer sum states' hidden classes (and IntSums') across major GCs: exec/map-anchors.ts.
anchorMaps(new SumIntState(), new SumIntState('sum', true), new AvgIntState(), new AvgIntState(3));
