/**
 * Aggregate functions as small state machines over dense group ids:
 * `resize` (init new groups), `add` (vectorized over a batch and its group-id
 * array), `merge` (fold another state's groups in) and `value` (the result
 * column for a range of groups). Used by hash-aggregate.ts; min/max live in
 * agg-min-max.ts.
 *
 * NULL inputs are ignored; sum/avg/min/max/stddev of no non-NULL rows is
 * NULL, count is 0. sum and avg over INTEGER/BIGINT accumulate exactly
 * (agg-int-sum.ts) and avg divides only at the end, as DuckDB does; over
 * DOUBLE they add in Float64 with compensation. stddev converts its argument
 * to DOUBLE first (as DuckDB's stddev_samp does) and is order-independent
 * (agg-stddev.ts).
 */
import { anchorMaps } from '../map-anchors.js';
import { Int32, Type, type Data } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import type { AggCall } from '../../relnode/rel.js';
import { toArrowType, type SqlType } from '../../relnode/types.js';
import { fixedData } from '../arrow-build.js';
import { takeData } from '../batch.js';
import { KeyTable } from '../kernels/hash.js';
import { growF64, identityRows, int64FromDoubles, isNullAt, numbersOf, validityOf, type AggState, type ColumnScratch } from './agg-arrays.js';
import { AvgIntState, SumIntState } from './agg-int-sum.js';
import { giveArray } from '../kernels/buffer-pool.js';
import { createLibraryAggState } from './agg-library.js';
import { minMaxState } from './agg-min-max.js';
import { StddevState } from './agg-stddev.js';
import { compensatedColumn, mergeCompensated, SumPartsState } from './agg-sum-parts.js';

export type { AggState } from './agg-arrays.js';

class CountState implements AggState {
  /** 8 doubles = 64 bytes: V8 keeps it on the JS heap (a bigger typed array costs an off-heap allocation, ~1 µs). */
  private counts = new Float64Array(8);
  constructor(private readonly star: boolean) {}
  resize(groups: number): void { this.counts = growF64(this.counts, groups); }
  reserve(groups: number): void { this.resize(groups); }
  release(): void { giveArray(this.counts); this.counts = new Float64Array(8); }
  add(args: readonly Data[], gids: Int32Array, n: number): void { this.addSelected(args, gids, identityRows(n), n); }
  addSelected(args: readonly Data[], gids: Int32Array, sel: Int32Array, m: number): void {
    const c = this.counts;
    const d = args[0];
    if (this.star || d === undefined || d.nullCount === 0) {
      if (!this.star && d !== undefined && d.typeId === Type.Null) return;
      for (let j = 0; j < m; j++) c[gids[j]!]++;
      return;
    }
    if (d.typeId === Type.Null) return;
    for (let j = 0; j < m; j++) if (!isNullAt(d, sel[j]!)) c[gids[j]!]++;
  }
  addGlobal(args: readonly Data[], n: number): void {
    const d = args[0];
    if (this.star || d === undefined) { this.counts[0] += n; return; }
    if (d.typeId === Type.Null) return;
    this.counts[0] += n - d.nullCount;
  }
  merge(other: AggState, map: Int32Array): void {
    const o = (other as CountState).counts;
    for (let j = 0; j < map.length; j++) this.counts[map[j]!] += o[j]!;
  }
  value(start: number, end: number, scratch?: ColumnScratch): Data {
    return fixedData(toArrowType('BIGINT'), end - start, 0, null, int64FromDoubles(this.counts, start, end, null, scratch));
  }
  valueAt(gids: Int32Array, n: number): Data {
    return fixedData(toArrowType('BIGINT'), n, 0, null, int64FromDoubles(this.counts, 0, n, gids));
  }
}

/**
 * sum (DOUBLE result) and avg over DOUBLE: a Float64 sum, its Neumaier
 * compensation and a count per group. Compensated summation keeps the error
 * near one rounding of the exact sum whatever the row order, so a sum does
 * not drift with batch sizes, parallelism or join order (a naive running sum
 * of 1.5M TPC-H prices was 8.4 off in the 13th digit), and it costs a few
 * flops per row, not a BigInt or a sort.
 *
 * The three values of a group sit side by side (`st[3g]` sum, `st[3g + 1]`
 * compensation, `st[3g + 2]` count): one array and one cache line per row
 * instead of three (TPC-H Q1's seven DOUBLE aggregates: ~15-20% faster in
 * scratch measurements). One loop shape reads rows through a selection;
 * `add` passes the identity.
 *
 * `sum_lo` (a partial stage's second part of a sum, agg-sum-parts.ts) reads an earlier sum or avg
 * state over the same argument through `lowPart` instead of adding the rows again.
 */
class SumDoubleState implements AggState {
  private st = new Float64Array(48);
  constructor(private readonly kind: 'sum' | 'avg' | 'lo') {}
  resize(groups: number): void { this.st = growF64(this.st, 3 * groups); }
  reserve(groups: number): void { this.resize(groups); }
  release(): void { giveArray(this.st); this.st = new Float64Array(48); }
  add(args: readonly Data[], gids: Int32Array, n: number): void { this.addSelected(args, gids, identityRows(n), n); }
  addSelected(args: readonly Data[], gids: Int32Array, sel: Int32Array, m: number): void {
    const d = args[0]!;
    if (d.typeId === Type.Null) return;
    const v = numbersOf(d, d.length);
    const st = this.st;
    if (d.nullCount === 0) {
      // No NULLs: one loop without the validity test (the hot path of TPC-H Q1).
      for (let j = 0; j < m; j++) {
        const b = 3 * gids[j]!;
        const x = v[sel[j]!]!;
        const s = st[b]!;
        const t = s + x;
        st[b + 1] += Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s;
        st[b] = t;
        st[b + 2]++;
      }
      return;
    }
    for (let j = 0; j < m; j++) {
      const i = sel[j]!;
      if (isNullAt(d, i)) continue;
      const b = 3 * gids[j]!;
      const x = v[i]!;
      const s = st[b]!;
      const t = s + x;
      st[b + 1] += Math.abs(s) >= Math.abs(x) ? (s - t) + x : (x - t) + s;
      st[b] = t;
      st[b + 2]++;
    }
  }
  addGlobal(args: readonly Data[], n: number): void {
    const d = args[0]!;
    if (d.typeId === Type.Null) return;
    const v = numbersOf(d, n);
    let sum = this.st[0]!;
    let comp = this.st[1]!;
    let count = 0;
    const masked = d.nullCount > 0;
    for (let i = 0; i < n; i++) {
      if (masked && isNullAt(d, i)) continue;
      const x = v[i]!;
      const t = sum + x;
      comp += Math.abs(sum) >= Math.abs(x) ? (sum - t) + x : (x - t) + sum;
      sum = t;
      count++;
    }
    this.st[0] = sum;
    this.st[1] = comp;
    this.st[2] += count;
  }
  merge(other: AggState, map: Int32Array): void {
    mergeCompensated(this.st, (other as SumDoubleState).st, map);
  }
  value(start: number, end: number, scratch?: ColumnScratch): Data { return this.values(this.kind, start, end - start, null, scratch); }
  valueAt(gids: Int32Array, n: number): Data { return this.values(this.kind, 0, n, gids); }
  /** The `sum_lo` of the same argument: this state's groups, read as the rest of their rounded sums (adds nothing itself). */
  lowPart(): AggState {
    const of = this;
    return {
      resize(): void {},
      add(): void {},
      merge(): void {},
      value: (start, end, scratch) => of.values('lo', start, end - start, null, scratch),
      valueAt: (gids, n) => of.values('lo', 0, n, gids),
    };
  }
  /** The result column for groups start + i or, with `gids`, gids[i] (i < n); in `scratch`'s buffers when given. */
  private values(kind: 'sum' | 'avg' | 'lo', start: number, n: number, gids: Int32Array | null, scratch?: ColumnScratch): Data {
    return compensatedColumn(this.st, kind, start, n, gids, scratch);
  }

}

/**
 * Sizing a key table from a planner estimate: only estimates above the size where growth turns
 * incremental (hash-slots.ts; TPC-H Q18's 1.5M l_orderkey groups spent as long moving groups into
 * grown slots as inserting them, Q16's DISTINCT pairs a tenth of the query), and at most this many
 * bytes of slots (2 slots per key of W + 1 int32 words), so an overestimate costs one zero-filled
 * allocation, not memory in proportion to a wrong guess. Callers pass 0 inside iterations.
 */
const RESERVE_MIN_KEYS = 1 << 16;
const RESERVE_BYTES = 48 << 20;

/**
 * Sizes `table` for `estimate` keys within the bounds above (nothing for small estimates), once it
 * holds a few thousand groups (KeyTable.expectKeys): an estimate far above the real groups costs nothing.
 */
export function reserveForEstimate(table: KeyTable, estimate: number): void {
  if (estimate >= RESERVE_MIN_KEYS) table.expectKeys(Math.min(estimate, Math.floor(RESERVE_BYTES / (8 * (table.W + 1)))));
}

/**
 * `fn(DISTINCT x)`: a hash table of (group, value) pairs; only a pair's first
 * occurrence reaches the inner aggregate.
 */
class DistinctState implements AggState {
  private readonly pairs: KeyTable;
  constructor(private readonly inner: AggState, argType: SqlType, expectedPairs: number) {
    this.pairs = new KeyTable(['INTEGER', argType]);
    reserveForEstimate(this.pairs, expectedPairs);
  }
  resize(groups: number): void { this.inner.resize(groups); }
  reserve(groups: number): void { this.inner.reserve?.(groups); }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    const before = this.pairs.size;
    const gidCol = fixedData(new Int32(), n, 0, null, gids.subarray(0, n));
    const ids = this.pairs.groupIds([gidCol, d], n);
    const sel = new Int32Array(n);
    let m = 0;
    let next = before;
    for (let i = 0; i < n; i++) if (ids[i] === next) { sel[m++] = i; next++; }
    if (m === 0) return;
    const subGids = new Int32Array(m);
    for (let i = 0; i < m; i++) subGids[i] = gids[sel[i]!]!;
    // First occurrences are read in place where the inner state can (no copy of the arguments).
    if (this.inner.addSelected) this.inner.addSelected(args, subGids, sel, m);
    else this.inner.add(args.map((a) => takeData(a, sel, m)), subGids, m);
  }
  merge(): void {
    throw new InternalError('merging DISTINCT aggregate states is not supported');
  }
  value(start: number, end: number): Data { return this.inner.value(start, end); }
}

const isInt = (t: SqlType): boolean => t === 'INTEGER' || t === 'BIGINT';

/**
 * Creates the state of one aggregate call; `argTypes` are the SQL types of its argument columns.
 * `expectedPairs`: the estimated (group, value) pairs of a DISTINCT call (its table is sized for them).
 */
export function createAggState(call: AggCall, argTypes: readonly SqlType[], expectedPairs = 0): AggState {
  const argType = argTypes[0] ?? 'NULL';
  let s: AggState;
  switch (call.fn) {
    case 'count_star': s = new CountState(true); break;
    case 'count': s = new CountState(false); break;
    case 'sum':
      s = call.type === 'BIGINT' && isInt(argType) ? new SumIntState() : new SumDoubleState('sum');
      break;
    case 'avg': s = isInt(argType) ? new AvgIntState() : new SumDoubleState('avg'); break;
    case 'sum_lo': s = new SumDoubleState('lo'); break;
    case 'sum_parts': s = argType === 'BIGINT' ? new SumIntState('sum', true) : new SumPartsState(false); break;
    case 'avg_parts': s = isInt(argType) ? new AvgIntState(call.args.length === 3 ? 3 : 2) : new SumPartsState(true); break;
    case 'sum_low64': s = new SumIntState('low64'); break;
    case 'sum_high64': s = new SumIntState('high64'); break;
    case 'stddev': s = new StddevState(); break;
    case 'min': case 'max': s = minMaxState(call.fn, call.type === 'NULL' ? argType : call.type); break;
    default: s = createLibraryAggState(call, argTypes);
  }
  return call.distinct && call.fn !== 'count_star' ? new DistinctState(s, argType, expectedPairs) : s;
}

/**
 * The states of `calls` (undefined where `own(i)` is false: the fused calls, agg-fused.ts), as
 * `createAggState` makes them, except that a `sum_lo` call reads the state of an earlier sum or avg
 * over the same DOUBLE argument (SumDoubleState.lowPart), and a `sum_high64` call the state of an
 * earlier `sum_low64` over the same argument (SumIntState.highPart), instead of adding every row a
 * second time.
 */
export function createAggStates(calls: readonly AggCall[], argTypes: readonly (readonly SqlType[])[], own: (i: number) => boolean, expectedPairs = 0): (AggState | undefined)[] {
  const out: (AggState | undefined)[] = [];
  for (let i = 0; i < calls.length; i++) {
    if (!own(i)) { out.push(undefined); continue; }
    const c = calls[i]!;
    let twin: AggState | undefined;
    if (c.fn === 'sum_lo' && !c.distinct) {
      for (let j = 0; j < i && twin === undefined; j++) {
        const d = calls[j]!;
        const st = out[j];
        if (st instanceof SumDoubleState && !d.distinct && (d.fn === 'sum' || d.fn === 'avg') && d.args.length === 1 && d.args[0] === c.args[0]) twin = st.lowPart();
      }
    }
    if (c.fn === 'sum_high64' && !c.distinct) {
      for (let j = 0; j < i && twin === undefined; j++) {
        const d = calls[j]!;
        const st = out[j];
        if (st instanceof SumIntState && !d.distinct && d.fn === 'sum_low64' && d.args[0] === c.args[0]) twin = st.highPart();
      }
    }
    out.push(twin ?? createAggState(c, argTypes[i]!, expectedPairs));
  }
  return out;
}

// Keep the hot states' hidden classes across major GCs: exec/map-anchors.ts.
anchorMaps(new CountState(true), new CountState(false), new SumDoubleState('sum'), new SumDoubleState('avg'), new SumDoubleState('lo'));
