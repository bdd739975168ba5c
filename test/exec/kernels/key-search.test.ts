/**
 * The few-key runtime filter's sorted search (kernels/key-search.ts, through KeyFilter.select):
 * on sorted batches it keeps exactly the rows whose key is a build key; unsorted batches, NULLs,
 * small batches and many keys in range take the row loop, which keeps the same rows (bitmaps)
 * or a superset (Bloom filters, BIGINTs beyond 2^53) — which path ran shows in those two cases.
 */
import { describe, expect, it } from 'vitest';
import { DateDay, Int32, Int64, makeData, vectorFromArray, type Data } from 'apache-arrow';
import { FEW_KEYS, KeyFilter } from '../../../src/exec/kernels/key-filter.js';
import { searchPays } from '../../../src/exec/kernels/key-search.js';
import { sortedAscending } from '../../../src/exec/kernels/sorted-column.js';

const i32 = (xs: (number | null)[]) => vectorFromArray(xs, new Int32()).data[0]!;
const i64 = (xs: (bigint | null)[]) => vectorFromArray(xs, new Int64()).data[0]!;
const day = (xs: number[]) => makeData({ type: new DateDay(), length: xs.length, data: Int32Array.from(xs) });

function select(f: KeyFilter, d: Data, from?: number[]): number[] {
  const sel = new Int32Array(d.length).fill(-7);
  const k = from === undefined ? f.select(d, sel) : f.select(d, sel, Int32Array.from(from), from.length);
  return Array.from(sel.subarray(0, k));
}
/** The rows (of `from`, or all) whose value is in `keys`. */
const exact = (xs: readonly (number | bigint | null)[], keys: readonly (number | bigint)[], from?: number[]): number[] => {
  const set = new Set(keys.map(Number));
  return (from ?? xs.map((_, i) => i)).filter((i) => xs[i] !== null && set.has(Number(xs[i])) && Number.isSafeInteger(Number(xs[i])));
};

let seed = 777;
const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };

/** A sorted column of n rows, about `per` rows per value, starting at `start`. */
const sortedRows = (n: number, per: number, start = 0): number[] => Array.from({ length: n }, (_, i) => start + Math.floor(i / per));

describe('few-key runtime filter over sorted batches', () => {
  it('keeps exactly the rows of the build keys: repeats in the batch and in the keys, keys at the batch ends and outside it', () => {
    const xs = sortedRows(5000, 3, 100); // 100 … 1766, 3 rows each
    const keys = [100, 100, 101, 555, 555, 1766, 1767, 99, -4, 10_000, 900];
    const f = KeyFilter.build([i32(keys.slice(0, 6)), i32(keys.slice(6))])!;
    expect(select(f, i32(xs))).toEqual(exact(xs, keys));
    const from = xs.map((_, i) => i).filter(() => rnd() < 0.5);
    expect(select(f, i32(xs), from)).toEqual(exact(xs, keys, from));
  });

  it('takes the search on sorted batches: a Bloom filter then keeps no false positives', () => {
    // Keys 50,000 apart span 2^24: too sparse for a bitmap, so the row loop would use a Bloom filter.
    const keys = Array.from({ length: 400 }, (_, i) => i * 50_000);
    const f = KeyFilter.build([i32(keys)])!;
    expect(f.describe()).toMatch(/^bloom/);
    const xs = Array.from({ length: 30_000 }, (_, i) => i * 701); // sorted, 0 … 21M
    const rowLoop = xs.map((x, i) => (f.mayContain(x) ? i : -1)).filter((i) => i >= 0);
    const want = exact(xs, keys);
    expect(rowLoop.length).toBeGreaterThan(want.length); // the Bloom filter's false positives
    expect(select(f, i32(xs))).toEqual(want);
    const from = xs.map((_, i) => i).filter((i) => i % 4 !== 1);
    expect(select(f, i32(xs), from)).toEqual(exact(xs, keys, from));
    // The same values unsorted: the row loop, with its false positives.
    const shuffled = [...xs].reverse();
    expect(select(f, i32(shuffled))).toEqual(shuffled.map((x, i) => (f.mayContain(x) ? i : -1)).filter((i) => i >= 0));
  });

  it('unsorted, NULL-holding and small batches give the rows of the row loop', () => {
    const keys = Array.from({ length: 50 }, (_, i) => i * 37);
    const f = KeyFilter.build([i32(keys)])!;
    const almost = sortedRows(3000, 2);
    almost[1500] = 0; // one descent in the middle
    expect(sortedAscending(i32(almost))).toBe(false);
    expect(select(f, i32(almost))).toEqual(exact(almost, keys));
    const withNulls: (number | null)[] = sortedRows(3000, 2);
    withNulls[10] = null;
    withNulls[2999] = null;
    expect(select(f, i32(withNulls))).toEqual(exact(withNulls, keys));
    const small = sortedRows(100, 1);
    expect(select(f, i32(small))).toEqual(exact(small, keys));
  });

  it('a sorted batch with no key in its range keeps nothing; an empty build side keeps nothing', () => {
    const f = KeyFilter.build([i32([5, 90_000])])!;
    expect(select(f, i32(sortedRows(4000, 4, 10)))).toEqual([]);
    expect(select(KeyFilter.build([i32([null])])!, i32(sortedRows(4000, 4)))).toEqual([]);
  });

  it('BIGINT probes: exact matches, values beyond 2^53 dropped by the search (the row loop keeps them)', () => {
    const base = 2n ** 40n;
    const xs: bigint[] = Array.from({ length: 3000 }, (_, i) => base + BigInt(Math.floor(i / 3)));
    xs.push(2n ** 60n, 2n ** 60n + 1n); // sorted still
    const keys = [base, base + 7n, base + 999n, base + 5000n];
    const f = KeyFilter.build([i64(keys)])!;
    expect(select(f, i64(xs))).toEqual(exact(xs, keys));
    const from = xs.map((_, i) => i).filter((i) => i % 2 === 0);
    expect(select(f, i64(xs), from)).toEqual(exact(xs, keys, from));
    // Negative values below −2^53 at the start: still exact.
    const ys = [-(2n ** 62n), ...xs];
    expect(select(f, i64(ys))).toEqual(exact(ys, keys));
    // Unsorted (the row loop): a value beyond 2^53 is kept, as the filter cannot compare it exactly.
    const zs = [...xs].reverse();
    expect(select(f, i64(zs))).toEqual([0, 1, ...exact(zs, keys)].sort((a, b) => a - b));
  });

  it('INTEGER probes against BIGINT build keys, and DATE columns', () => {
    const xs = sortedRows(2000, 5, -100);
    const f = KeyFilter.build([i64([-100n, 0n, 3n, 299n, 4_000_000_000n])])!;
    expect(select(f, i32(xs))).toEqual(exact(xs, [-100, 0, 3, 299]));
    const days = sortedRows(2000, 2, 9000);
    const g = KeyFilter.build([day([9000, 9500, 9999, 12_000])])!;
    expect(select(g, day(days))).toEqual(exact(days, [9000, 9500, 9999]));
  });

  it('many keys in a batch range take the row loop (Bloom false positives show it)', () => {
    const keys = Array.from({ length: 4000 }, (_, i) => i * 5000); // Bloom: 4000 keys over 20M
    const f = KeyFilter.build([i32(keys)])!;
    expect(f.describe()).toMatch(/^bloom/);
    const xs = Array.from({ length: 2000 }, (_, i) => i * 10_000 + (i % 2)); // ~1000 keys in range: 1000 searches over 2000 rows do not pay
    expect(searchPays(2000, 2000)).toBe(false);
    expect(select(f, i32(xs))).toEqual(xs.map((x, i) => (f.mayContain(x) ? i : -1)).filter((i) => i >= 0));
  });

  it('more build rows than FEW_KEYS: no search (the row loop, whatever the batch)', () => {
    const keys = Array.from({ length: FEW_KEYS + 1 }, (_, i) => i * 5003);
    const f = KeyFilter.build([i32(keys)])!;
    expect(f.describe()).toMatch(/^bloom/);
    const xs = Array.from({ length: 50_000 }, (_, i) => i * 400);
    expect(select(f, i32(xs))).toEqual(xs.map((x, i) => (f.mayContain(x) ? i : -1)).filter((i) => i >= 0));
  });
});

describe('sortedAscending', () => {
  it('is true for non-decreasing integer columns without NULLs, false otherwise', () => {
    expect(sortedAscending(i32([1, 1, 2, 9]))).toBe(true);
    expect(sortedAscending(i32([]))).toBe(true);
    expect(sortedAscending(i32([2, 1]))).toBe(false);
    expect(sortedAscending(i32([1, null, 3]))).toBe(false);
    expect(sortedAscending(i64([-5n, 2n ** 60n]))).toBe(true);
    expect(sortedAscending(i64([2n ** 60n, 1n]))).toBe(false);
    expect(sortedAscending(vectorFromArray([1.5, 2.5]).data[0]!)).toBe(false); // DOUBLE: not searched
    expect(sortedAscending(i32([5, 6, 1, 2, 3]).slice(2, 3))).toBe(true); // a slice reads its own rows
  });

  it('is computed once per Data object', () => {
    const d = i32([1, 2, 3]);
    expect(sortedAscending(d)).toBe(true);
    (d.values as Int32Array)[0] = 9; // Data is immutable in the engine; here it shows the cached flag
    expect(sortedAscending(d)).toBe(true);
    expect(sortedAscending(i32([9, 2, 3]))).toBe(false);
  });
});
