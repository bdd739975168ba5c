/**
 * Aggregates over window frames, a partition at a time. Every frame shape
 * (running, sliding, shrinking, empty) goes through the same code, with no
 * per-row rescans of the frame:
 *
 * - count / count(*) and sums and averages of INTEGER / BIGINT: prefix sums,
 *   O(1) a frame; exact (doubles while every partial sum stays below 2^53,
 *   BigInt past that), and avg divides once, as DuckDB does; a sum past BIGINT
 *   raises the aggregate's overflow error, as sum() does;
 * - sum / avg of DOUBLE: a segment tree of sums (segment-tree.ts);
 * - min / max of any type: a segment tree of row indexes under the sort
 *   comparator, the result gathered from the argument column;
 * - stddev: a segment tree of (count, mean, M2) moments;
 * - any other aggregate (added to agg-states.ts later) through its generic
 *   state: one group per row, fed the rows of its frame. That is O(n · frame)
 *   and is the fallback only until the aggregate gets a tree here.
 *
 * NULL arguments are skipped; an empty frame gives NULL (count: 0).
 */
import { Type, type Data } from 'apache-arrow';
import type { AggCall } from '../../relnode/rel.js';
import type { SqlType } from '../../relnode/types.js';
import type { WindowCall } from '../../relnode/window.js';
import { takeData } from '../batch.js';
import { sumOverflow } from './agg-int-sum.js';
import { createAggState } from './agg-states.js';
import { ArgBestTree, MomentsTree, SumTree } from './segment-tree.js';
import { normalizeKey } from './sort-keys.js';
import type { Frames } from './window-frames.js';
import { BigIntOutput, GatherOutput, NumberOutput, PiecesOutput, type WindowOutput } from './window-output.js';

/** Evaluates one aggregate call partition by partition into its output column. */
export interface WindowAggregator {
  readonly output: WindowOutput;
  /** Writes the results of rows [ps, pe) for their frames (absolute positions). */
  partition(ps: number, pe: number, frames: Frames): void;
}

const TWO_53 = 2 ** 53;

/** NULL mask of a sorted argument column (1 = NULL), or null when none is NULL. */
function nullsOf(d: Data): Uint8Array | null {
  if (d.typeId === Type.Null) return new Uint8Array(d.length).fill(1);
  return d.nullCount === 0 ? null : normalizeKey(d).nulls;
}

/** The values of a numeric column as numbers (BIGINT converted; exact below 2^53). */
function numbers(d: Data): ArrayLike<number> {
  if (d.typeId === Type.Null) return new Float64Array(d.length);
  const v = d.values as unknown;
  if (v instanceof BigInt64Array) return Float64Array.from(v.subarray(0, d.length), Number);
  return v as ArrayLike<number>;
}

/** Creates the aggregator of `call` over its sorted argument column (`arg` undefined for count(*)). */
export function windowAggregator(call: WindowCall, n: number, arg: Data | undefined, argType: SqlType): WindowAggregator {
  switch (call.fn) {
    case 'count_star': return new CountAgg(n, undefined);
    case 'count': return new CountAgg(n, arg);
    case 'sum': case 'avg':
      if (argType === 'INTEGER' || argType === 'BIGINT') return new IntSumAgg(n, arg!, call.fn === 'avg');
      return new DoubleSumAgg(n, arg!, call.fn === 'avg');
    case 'min': case 'max': return new MinMaxAgg(n, arg!, call.fn === 'max');
    case 'stddev': return new StddevAgg(n, arg!);
    default: return new GenericAgg(call, arg, argType);
  }
}

class CountAgg implements WindowAggregator {
  readonly output: NumberOutput;
  /** Non-NULL counts of every prefix of the sorted column (frames never cross partitions, so one array serves all). */
  private readonly pre: Int32Array | null;
  constructor(n: number, arg: Data | undefined) {
    this.output = new NumberOutput(n, true);
    const nl = arg === undefined ? null : nullsOf(arg);
    this.pre = nl === null ? null : prefixCounts(nl, n);
  }

  partition(ps: number, pe: number, f: Frames): void {
    const out = this.output.values;
    const pre = this.pre;
    for (let i = ps; i < pe; i++) {
      const s = f.start[i]!; const e = f.end[i]!;
      out[i] = e <= s ? 0 : pre === null ? e - s : pre[e]! - pre[s]!;
    }
  }
}

/** Non-NULL counts of every prefix of [0, n). */
function prefixCounts(nl: Uint8Array | null, n: number): Int32Array {
  const pre = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) pre[i + 1] = pre[i]! + (nl !== null && nl[i] ? 0 : 1);
  return pre;
}

/** sum / avg of INTEGER or BIGINT: exact prefix sums. */
class IntSumAgg implements WindowAggregator {
  readonly output: NumberOutput | BigIntOutput;
  private readonly cnt: Int32Array;
  /** Prefix sums as doubles when every partial sum is exact as one, else as BigInts. */
  private readonly pre: Float64Array | null = null;
  private readonly bigPre: bigint[] | null = null;

  constructor(n: number, arg: Data, private readonly avg: boolean) {
    const nl = nullsOf(arg);
    const nums = numbers(arg);
    this.cnt = prefixCounts(nl, n);
    let abs = 0;
    for (let i = 0; i < n; i++) if (nl === null || !nl[i]) abs += Math.abs(nums[i]!);
    const safe = abs < TWO_53; // a BIGINT at or past 2^53 makes abs reach it too
    if (safe) {
      const pre = new Float64Array(n + 1);
      for (let i = 0; i < n; i++) pre[i + 1] = pre[i]! + (nl !== null && nl[i] ? 0 : nums[i]!);
      this.pre = pre;
    } else {
      const v = arg.values as unknown;
      const big = v instanceof BigInt64Array ? v : null;
      const ints = v as Int32Array;
      const pre = new Array<bigint>(n + 1);
      pre[0] = 0n;
      for (let i = 0; i < n; i++) pre[i + 1] = pre[i]! + (nl !== null && nl[i] ? 0n : big !== null ? big[i]! : BigInt(ints[i]!));
      this.bigPre = pre;
    }
    this.output = avg || safe ? new NumberOutput(n, !avg) : new BigIntOutput(n);
  }

  partition(ps: number, pe: number, f: Frames): void {
    const cnt = this.cnt;
    const valid = this.output.valid;
    const pre = this.pre;
    for (let i = ps; i < pe; i++) {
      const s = f.start[i]!; const e = f.end[i]!;
      const c = e > s ? cnt[e]! - cnt[s]! : 0;
      if (c === 0) { valid[i] = 0; continue; }
      if (pre !== null) {
        const sum = pre[e]! - pre[s]!;
        (this.output as NumberOutput).values[i] = this.avg ? sum / c : sum;
        continue;
      }
      const sum = this.bigPre![e]! - this.bigPre![s]!;
      if (this.avg) (this.output as NumberOutput).values[i] = Number(sum) / c;
      else {
        // As the aggregate's sum (agg-int-sum.ts): a total past BIGINT is an error, never wrapped.
        const word = BigInt.asIntN(64, sum);
        if (word !== sum) throw sumOverflow(sum);
        (this.output as BigIntOutput).values[i] = word;
      }
    }
  }
}

/** sum / avg of DOUBLE: a segment tree of sums over the sorted column. */
class DoubleSumAgg implements WindowAggregator {
  readonly output: NumberOutput;
  private readonly cnt: Int32Array;
  private readonly tree: SumTree;
  constructor(n: number, arg: Data, private readonly avg: boolean) {
    this.output = new NumberOutput(n, false);
    const nl = nullsOf(arg);
    const v = numbers(arg);
    this.cnt = prefixCounts(nl, n);
    this.tree = new SumTree(n, (i) => (nl !== null && nl[i] ? 0 : v[i]!));
  }

  partition(ps: number, pe: number, f: Frames): void {
    const { cnt, tree } = this;
    const out = this.output.values;
    const valid = this.output.valid;
    for (let i = ps; i < pe; i++) {
      const s = f.start[i]!; const e = f.end[i]!;
      const c = e > s ? cnt[e]! - cnt[s]! : 0;
      if (c === 0) { valid[i] = 0; continue; }
      const sum = tree.query(s, e);
      out[i] = this.avg ? sum / c : sum;
    }
  }
}

/** min / max of any type: a segment tree of row indexes, compared as the sort compares them. */
class MinMaxAgg implements WindowAggregator {
  readonly output: GatherOutput;
  private readonly tree: ArgBestTree;
  constructor(n: number, arg: Data, max: boolean) {
    this.output = new GatherOutput(n, arg);
    const { values: v, nulls: nl } = normalizeKey(arg);
    const better = v instanceof BigInt64Array
      ? (a: number, b: number): boolean => (max ? v[a]! > v[b]! : v[a]! < v[b]!)
      : (a: number, b: number): boolean => {
        const x = (v as Float64Array)[a]!; const y = (v as Float64Array)[b]!;
        // NaN is the largest value (the sort's order).
        if (x !== x || y !== y) return max ? x !== x && y === y : y !== y && x === x;
        return max ? x > y : x < y;
      };
    this.tree = new ArgBestTree(n, (i) => nl === null || !nl[i], better);
  }

  partition(ps: number, pe: number, f: Frames): void {
    const idx = this.output.idx;
    for (let i = ps; i < pe; i++) {
      const s = f.start[i]!; const e = f.end[i]!;
      idx[i] = e > s ? this.tree.query(s, e) : -1;
    }
  }
}

/** stddev (sample): a segment tree of moments; fewer than two values give NULL. */
class StddevAgg implements WindowAggregator {
  readonly output: NumberOutput;
  private readonly tree: MomentsTree;
  constructor(n: number, arg: Data) {
    this.output = new NumberOutput(n, false);
    const nl = nullsOf(arg);
    const v = numbers(arg);
    this.tree = new MomentsTree(n, (i) => nl === null || !nl[i], (i) => v[i]!);
  }

  partition(ps: number, pe: number, f: Frames): void {
    const tree = this.tree;
    const out = this.output.values;
    const valid = this.output.valid;
    for (let i = ps; i < pe; i++) {
      const s = f.start[i]!; const e = f.end[i]!;
      if (e <= s) { valid[i] = 0; continue; }
      tree.query(s, e);
      if (tree.count < 2) { valid[i] = 0; continue; }
      out[i] = Math.sqrt(Math.max(0, tree.sq) / (tree.count - 1));
    }
  }
}

/** The generic-state aggregator of any aggregate (the fallback of windowAggregator; exported for tests). */
export function genericWindowAggregator(call: WindowCall, arg: Data | undefined, argType: SqlType): WindowAggregator {
  return new GenericAgg(call, arg, argType);
}

/** Any other aggregate through its generic state: one group per row, fed its frame's rows (O(frame) a row). */
class GenericAgg implements WindowAggregator {
  readonly output = new PiecesOutput();
  private readonly call: AggCall;
  constructor(c: WindowCall, private readonly arg: Data | undefined, private readonly argType: SqlType) {
    this.call = { fn: c.fn as AggCall['fn'], args: arg === undefined ? [] : [0], distinct: false, type: c.type, name: c.name };
  }

  partition(ps: number, pe: number, f: Frames): void {
    const m = pe - ps;
    const state = createAggState(this.call, this.arg === undefined ? [] : [this.argType]);
    state.resize(m);
    const CHUNK = 4096;
    const sel = new Int32Array(CHUNK);
    const gids = new Int32Array(CHUNK);
    let k = 0;
    const flush = (): void => {
      if (k === 0) return;
      state.add(this.arg === undefined ? [] : [takeData(this.arg, sel.subarray(0, k), k)], gids.subarray(0, k), k);
      k = 0;
    };
    for (let j = 0; j < m; j++) {
      for (let p = f.start[ps + j]!; p < f.end[ps + j]!; p++) {
        sel[k] = p; gids[k] = j; k++;
        if (k === CHUNK) flush();
      }
    }
    flush();
    this.output.add(ps, state.value(0, m));
  }
}
