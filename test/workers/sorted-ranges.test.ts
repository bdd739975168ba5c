/**
 * Partitioned stages over a sorted key (src/planner/ship-sorted.ts): contiguous row ranges cut
 * where the key changes give every group to one worker, in table order, without hashing.
 */
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { isSortedColumn, rangesAtKeyChanges } from '../../src/planner/ship-sorted.js';

const i32 = (xs: number[]): arrow.Data => arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from(xs) });
const i64 = (xs: number[]): arrow.Data => arrow.makeData({ type: new arrow.Int64(), data: BigInt64Array.from(xs.map(BigInt)) });

/** The rows of each worker, as global row numbers, from its triples. */
function rowsOf(cols: arrow.Data[], ranges: Int32Array): number[] {
  const starts: number[] = [];
  let n = 0;
  for (const c of cols) { starts.push(n); n += c.length; }
  const out: number[] = [];
  for (let i = 0; i < ranges.length; i += 3) for (let r = ranges[i + 1]!; r < ranges[i + 2]!; r++) out.push(starts[ranges[i]!]! + r);
  return out;
}

function keysOf(cols: arrow.Data[]): number[] {
  return cols.flatMap((c) => Array.from(c.values as ArrayLike<number | bigint>, Number).slice(0, c.length));
}

describe('isSortedColumn', () => {
  it('accepts non-decreasing integer columns across batches, also BIGINT and sliced data', () => {
    expect(isSortedColumn([i32([1, 1, 2]), i32([]), i32([2, 5, 9])])).toBe(true);
    expect(isSortedColumn([i64([-3, 0]), i64([0, 7])])).toBe(true);
    expect(isSortedColumn([i32([9, 1, 2, 3]).slice(1, 3)])).toBe(true);
  });

  it('reads a sliced column at its own rows (Data.slice already cuts the values; its offset is for the bitmap)', () => {
    expect(isSortedColumn([i32([1, 9, 2, 3]).slice(1, 3)])).toBe(false);
    expect(isSortedColumn([i64([0, 5, 7, 1]).slice(0, 3)])).toBe(true);
    expect(isSortedColumn([i32([0, 1, 2]), i32([5, 0, 3]).slice(1, 2)])).toBe(false);
  });

  it('refuses a decrease (inside a batch or between batches), NULLs and non-integer columns', () => {
    expect(isSortedColumn([i32([1, 3, 2])])).toBe(false);
    expect(isSortedColumn([i32([1, 5]), i32([4, 6])])).toBe(false);
    expect(isSortedColumn([i64([1, 5]), i64([4, 6])])).toBe(false);
    const withNull = arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from([1, 2, 3]), nullBitmap: Uint8Array.from([0b101]), nullCount: 1 });
    expect(isSortedColumn([withNull])).toBe(false);
    expect(isSortedColumn([arrow.makeData({ type: new arrow.Float64(), data: Float64Array.from([1, 2]) })])).toBe(false);
  });
});

describe('rangesAtKeyChanges', () => {
  const check = (cols: arrow.Data[], W: number, rows: number): number[][] => {
    const parts = rangesAtKeyChanges(cols, W, rows).map((r) => rowsOf(cols, r));
    const total = cols.reduce((a, c) => a + c.length, 0);
    // Every row exactly once, contiguous and in order: worker 0's rows, then worker 1's, ...
    expect(parts.flat()).toEqual(Array.from({ length: total }, (_, i) => i));
    // No key on two workers.
    const keys = keysOf(cols);
    const owner = new Map<number, number>();
    parts.forEach((p, w) => { for (const r of p) { expect(owner.get(keys[r]!) ?? w).toBe(w); owner.set(keys[r]!, w); } });
    return parts;
  };

  it('cuts near equal rows, moved forward past a run that spans batches', () => {
    const cols = [i32([1, 2, 3, 4, 5]), i32([5, 5]), i32([5, 6, 7, 8, 9, 10])];
    const parts = check(cols, 2, 100);
    // 13 rows: the cut at row 6 (key 5) moves to row 8, the first 6.
    expect(parts.map((p) => p.length)).toEqual([8, 5]);
    for (const W of [2, 3, 4, 5]) check(cols, W, 2);
  });

  it('cuts pieces of at most `rows` rows, and leaves a worker empty when one key covers the rest', () => {
    const cols = [i64([1, 2, 2, 2]), i64([]), i64([2, 2, 2, 2, 2, 2])];
    const r = rangesAtKeyChanges(cols, 3, 2);
    for (const x of r) for (let i = 0; i < x.length; i += 3) expect(x[i + 2]! - x[i + 1]!).toBeLessThanOrEqual(2);
    const parts = check(cols, 3, 2);
    expect(parts[0]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(parts[1]).toEqual([]);
    expect(parts[2]).toEqual([]);
  });

  it('handles random sorted data with duplicates for several worker counts', () => {
    let seed = 7;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
    let k = 0;
    const cols = Array.from({ length: 6 }, () => i32(Array.from({ length: Math.floor(rnd() * 50) }, () => (k += rnd() < 0.6 ? 0 : 1))));
    for (const W of [1, 2, 3, 7]) check(cols, W, 5);
  });
});
