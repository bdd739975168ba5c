import { describe, expect, it } from 'vitest';
import { Int32, Int64, vectorFromArray, type Data } from 'apache-arrow';
import { KeyFilter, type LoopHint } from '../../../src/exec/kernels/key-filter.js';
import { dropPooledArrays, giveArray } from '../../../src/exec/kernels/buffer-pool.js';

const i32 = (xs: (number | null)[]) => vectorFromArray(xs, new Int32()).data[0]!;
const i64 = (xs: (bigint | null)[]) => vectorFromArray(xs, new Int64()).data[0]!;

function kept(f: KeyFilter, d: Data): number[] {
  const sel = new Int32Array(d.length);
  return Array.from(sel.subarray(0, f.select(d, sel)));
}

describe('KeyFilter', () => {
  it('dense keys: an exact bitmap over [min, max]; NULL probe rows are dropped', () => {
    const f = KeyFilter.build([i32([5, 7, 7, 9]), i32([12, null])])!;
    expect(f.describe()).toBe('bitmap [5, 12]');
    expect(kept(f, i32([4, 5, 6, 7, 8, 9, 12, 13, null, -1]))).toEqual([1, 3, 5, 6]);
  });

  it('sparse keys: a Bloom filter behind the range check, no false negatives and few false positives', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => i * 100_003);
    const f = KeyFilter.build([i32(keys)])!;
    expect(f.describe()).toMatch(/^bloom/);
    for (const k of keys) expect(f.mayContain(k)).toBe(true);
    const probe = Array.from({ length: 20_000 }, (_, i) => i * 4999 + 1);
    const fp = probe.filter((x) => !keys.includes(x) && f.mayContain(x)).length;
    expect(fp / probe.length).toBeLessThan(0.03);
    expect(kept(f, i32([-5, 0, 100_003, 999 * 100_003 + 1]))).toEqual([1, 2]);
  });

  it('keys sparser than 64 bits per key but spanning at most 2^23 values get an exact bitmap (no false positives)', () => {
    // TPC-H Q10's shape: a few filtered orders spread over the whole order key range.
    const keys = Array.from({ length: 500 }, (_, i) => 1 + i * 12_007);
    const f = KeyFilter.build([i32(keys)])!;
    expect(f.describe()).toBe(`bitmap [1, ${1 + 499 * 12_007}]`);
    const probe = Array.from({ length: 6_000_000 / 97 }, (_, i) => i * 97);
    const want = probe.map((x, i) => (keys.includes(x) ? i : -1)).filter((i) => i >= 0);
    expect(kept(f, i32(probe))).toEqual(want);
  });

  it('Bloom filters over INTEGER probes agree with mayContain, negative keys included', () => {
    const keys = Array.from({ length: 300 }, (_, i) => (i - 150) * 7_000_001);
    const f = KeyFilter.build([i32(keys)])!;
    expect(f.describe()).toMatch(/^bloom/);
    const probe = [...keys, ...Array.from({ length: 5000 }, (_, i) => (i - 2500) * 420_011 + 3)];
    const viaSelect = kept(f, i32(probe));
    expect(viaSelect).toEqual(probe.map((x, i) => (f.mayContain(x) ? i : -1)).filter((i) => i >= 0));
    for (let i = 0; i < keys.length; i++) expect(viaSelect).toContain(i);
  });

  it('BIGINT keys compare by value with INTEGER probes; out-of-range BIGINTs make no filter', () => {
    const f = KeyFilter.build([i64([3n, 10n, null])])!;
    expect(kept(f, i32([3, 4, 10]))).toEqual([0, 2]);
    expect(kept(f, i64([10n, 11n, null, 2n ** 60n]))).toEqual([0, 3]); // beyond 2^53: kept
    expect(KeyFilter.build([i64([1n, 2n ** 60n])])).toBeUndefined();
  });

  it('keysDistinct counts the bitmap\'s own bits, also over a pooled word array with a stale tail', () => {
    const distinct = Array.from({ length: 30_000 }, (_, i) => 1 + 5 * i); // 150K bits: 4,688 words
    for (const stale of [false, true]) {
      dropPooledArrays();
      // A longer array of set bits in the pool: the filter's bitmap is taken from it, only its own words zeroed.
      if (stale) giveArray(new Int32Array(16_000).fill(-1));
      expect(KeyFilter.build([i32(distinct)])!.keysDistinct()).toBe(true);
      if (stale) giveArray(new Int32Array(16_000).fill(-1));
      expect(KeyFilter.build([i32([...distinct, 6, 11])])!.keysDistinct()).toBe(false);
    }
    dropPooledArrays();
    expect(KeyFilter.build([i32([])])!.keysDistinct()).toBe(true);
    expect(KeyFilter.build([i32(Array.from({ length: 3000 }, (_, i) => i * 350_000))])!.keysDistinct()).toBe(false); // a Bloom filter cannot tell
  });

  it('an empty build side keeps nothing', () => {
    const f = KeyFilter.build([i32([]), i32([null])])!;
    expect(f.describe()).toBe('empty');
    expect(kept(f, i32([1, 2]))).toEqual([]);
  });

  it('reads sliced columns from their offset', () => {
    const d = i32([1, 2, 3, 4, 5, 6]).slice(2, 3); // 3, 4, 5
    const f = KeyFilter.build([d])!;
    expect(f.describe()).toBe('bitmap [3, 5]');
    expect(kept(f, i32([1, 2, 3, 4, 5, 6]).slice(3, 3))).toEqual([0, 1]); // 4, 5 kept, 6 dropped
  });
});

describe('KeyFilter.select through a selection', () => {
  const within = (f: KeyFilter, d: Data, from: number[]): number[] => {
    const sel = new Int32Array(d.length);
    return Array.from(sel.subarray(0, f.select(d, sel, Int32Array.from(from), from.length)));
  };

  it('tests only the selected rows, for bitmaps, Bloom filters and BIGINT or NULL columns', () => {
    const bitmap = KeyFilter.build([i32([2, 4, 6])])!;
    expect(within(bitmap, i32([2, 3, 4, 5, 6, 7]), [1, 2, 4, 5])).toEqual([2, 4]);
    const bloom = KeyFilter.build([i32(Array.from({ length: 100 }, (_, i) => i * 1_000_003))])!;
    expect(bloom.describe()).toMatch(/^bloom/);
    expect(within(bloom, i32([0, 1_000_003, 5, 2_000_006]), [0, 2, 3])).toEqual([0, 3]);
    expect(within(bitmap, i32([2, null, 4, 6]), [1, 2])).toEqual([2]);
    expect(within(bitmap, i64([2n, 3n, 4n]), [0, 1])).toEqual([0]);
    expect(within(bitmap, i32([2, 4]), [])).toEqual([]);
  });
});

describe('KeyFilter.select loops (32-row masks, and a branching loop after clustered batches)', () => {
  // A reference: the rows whose key mayContain accepts, in order.
  const reference = (f: KeyFilter, xs: number[], from?: number[]): number[] =>
    (from ?? xs.map((_, i) => i)).filter((i) => f.mayContain(xs[i]!));
  const select = (f: KeyFilter, xs: number[], from?: number[]): number[] => {
    const sel = new Int32Array(xs.length).fill(-7);
    const k = from === undefined ? f.select(i32(xs), sel) : f.select(i32(xs), sel, Int32Array.from(from), from.length);
    return Array.from(sel.subarray(0, k));
  };
  let seed = 12345;
  const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };

  it('random keeps over lengths that are not multiples of 32 agree with mayContain (bitmap and Bloom, all rows and through a selection)', () => {
    const dense = KeyFilter.build([i32(Array.from({ length: 400 }, (_, i) => 3 * i + 1))])!;
    const bloom = KeyFilter.build([i32(Array.from({ length: 400 }, (_, i) => i * 5_000_011 - 1_000_000_000))])!;
    expect(dense.describe()).toMatch(/^bitmap/);
    expect(bloom.describe()).toMatch(/^bloom/);
    for (const n of [0, 1, 31, 32, 33, 64, 95, 1000]) {
      const xs = Array.from({ length: n }, () => Math.floor(rnd() * 1400) - 100);
      const ys = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? Math.floor(rnd() * 400) * 5_000_011 - 1_000_000_000 : Math.floor(rnd() * 4e9) - 2e9));
      const from = Array.from({ length: n }, (_, i) => i).filter(() => rnd() < 0.6);
      expect(select(dense, xs)).toEqual(reference(dense, xs));
      expect(select(dense, xs, from)).toEqual(reference(dense, xs, from));
      expect(select(bloom, ys)).toEqual(reference(bloom, ys));
      expect(select(bloom, ys, from)).toEqual(reference(bloom, ys, from));
    }
  });

  it('switches loops with the batches: clustered keys, then random keys, then clustered again give the same rows as mayContain', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => i).filter(() => rnd() < 0.1);
    const f = KeyFilter.build([i32(keys)])!;
    const sorted = Array.from({ length: 20_000 }, (_, i) => i >> 2); // 4 rows per key, ~10% of keys kept
    const random = Array.from({ length: 20_000 }, () => Math.floor(rnd() * 5000));
    const from = Array.from({ length: 20_000 }, (_, i) => i).filter((i) => i % 3 !== 1);
    for (const xs of [sorted, sorted, random, random, sorted, random]) {
      expect(select(f, xs)).toEqual(reference(f, xs));
      expect(select(f, xs, from)).toEqual(reference(f, xs, from));
    }
  });

  it('each caller keeps its own loop choice: a join probe whose batches all match does not move a scan testing random keys to the branching loop', () => {
    const keys = Array.from({ length: 3000 }, (_, i) => 1 + 5 * i);
    const f = KeyFilter.build([i32(keys)])!;
    const scan: LoopHint = { clustered: false };
    const probe: LoopHint = { clustered: false };
    const random = Array.from({ length: 4096 }, () => 1 + Math.floor(rnd() * 15000)); // ~20% kept at random
    const matching = Array.from({ length: 600 }, (_, i) => keys[(7 * i) % keys.length]!);
    for (let r = 0; r < 3; r++) {
      const s = new Int32Array(random.length);
      const k = f.select(i32(random), s, undefined, random.length, scan);
      expect(Array.from(s.subarray(0, k))).toEqual(reference(f, random));
      expect(scan.clustered).toBe(false);
      const p = new Int32Array(matching.length);
      expect(f.select(i32(matching), p, undefined, matching.length, probe)).toBe(matching.length);
      expect(probe.clustered).toBe(true);
      expect(scan.clustered).toBe(false);
    }
  });

  it('keys at the ends of the INTEGER range: the range checks never read outside the bitmap', () => {
    const f = KeyFilter.build([i32([2147483647, 2147483640])])!;
    expect(f.describe()).toBe('bitmap [2147483640, 2147483647]');
    const xs = [-2147483648, 2147483647, 0, 2147483639, 2147483640, -1, 2147483646];
    expect(select(f, xs)).toEqual([1, 4]);
    const g = KeyFilter.build([i32([-2147483648, -2147483645])])!;
    expect(select(g, [2147483647, -2147483648, -2147483645, -2147483644, 3])).toEqual([1, 2]);
  });

  it('a sorted probe column is merged with the bitmap and keeps exactly the matching rows', () => {
    let seed = 7;
    const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
    // Over FEW_KEYS (4096) build keys, so the filter tests rows instead of binary-searching the batch.
    for (const [rows, perKey, keep, lo, hi] of [[60000, 4, 0.1, 100, 60000], [20000, 1, 0.05, -50, 120000], [9000, 3, 0.5, 0, 12000], [65, 7, 0.3, 10, 20000],
      // Runs longer than the cursor's 32-row steps; build keys hundreds of rows apart; every key built.
      [30000, 45, 0.2, 0, 60000], [40000, 2, 0.008, 0, 600000], [10000, 3, 1, 0, 5000]] as const) {
      const probe: number[] = [];
      let key = lo - 40;
      while (probe.length < rows) { key += 1 + Math.floor(rnd() * 3); for (let r = 0; r < perKey && probe.length < rows; r++) probe.push(key); }
      const build: number[] = [];
      for (let k = lo; k <= hi; k++) if (rnd() < keep) build.push(k);
      build.push(lo, hi);
      expect(build.length).toBeGreaterThan(4096);
      const f = KeyFilter.build([i32(build)])!;
      expect(f.describe()).toMatch(/^bitmap/);
      const set = new Set(build);
      const want = probe.flatMap((x, i) => (set.has(x) ? [i] : []));
      expect(kept(f, i32(probe))).toEqual(want);
      // The batch wholly below and wholly above the build keys' range.
      expect(kept(f, i32(probe.map((x) => x - 10_000_000)))).toEqual([]);
      expect(kept(f, i32(probe.map((x) => x + 10_000_000)))).toEqual([]);
    }
  });
});
