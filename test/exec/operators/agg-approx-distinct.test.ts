import { makeData, vectorFromArray, Int32, Utf8, type Data } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { ApproxDistinctState } from '../../../src/exec/operators/agg-approx-distinct.js';

const ints = (xs: number[]): Data => makeData({ type: new Int32(), length: xs.length, data: Int32Array.from(xs) });
const estimate = (s: ApproxDistinctState, groups = 1): number[] => {
  const v = s.value(0, groups).values as BigInt64Array;
  return Array.from(v, Number);
};

/** Adds `count` distinct ints starting at `from` (each twice) to group 0 in batches of 4096. */
function feed(s: ApproxDistinctState, from: number, count: number): void {
  s.resize(1);
  for (let at = 0; at < 2 * count; at += 4096) {
    const n = Math.min(4096, 2 * count - at);
    const xs = Array.from({ length: n }, (_, i) => from + ((at + i) % count));
    s.add([ints(xs)], new Int32Array(n), n);
  }
}

describe('approx_count_distinct state (HyperLogLog)', () => {
  it('is exact up to 256 distinct values, NULLs skipped, strings hashed by bytes', () => {
    const s = new ApproxDistinctState();
    s.resize(2);
    const strs = vectorFromArray(['a', 'b', null, 'a', 'é', 'b'], new Utf8()).data[0]!;
    s.add([strs], Int32Array.from([0, 0, 0, 1, 1, 1]), 6);
    expect(estimate(s, 2)).toEqual([2, 3]);
    for (const n of [1, 100, 256]) {
      const t = new ApproxDistinctState();
      feed(t, 7, n);
      expect(estimate(t)).toEqual([n]);
    }
  });

  it('estimates large counts within 3 standard errors (7%), and the estimate is not an exact count', () => {
    let inexact = 0;
    for (const n of [1000, 20_000, 300_000]) {
      const s = new ApproxDistinctState();
      feed(s, n * 3, n);
      const [e] = estimate(s);
      expect(Math.abs(e! - n) / n, `${n}: ${e}`).toBeLessThan(0.07);
      if (e !== n) inexact++;
    }
    expect(inexact).toBeGreaterThan(0);
  });

  it('merges sparse and dense groups into the sketch of the union', () => {
    const a = new ApproxDistinctState(), b = new ApproxDistinctState(), c = new ApproxDistinctState();
    feed(a, 0, 50_000); // dense
    feed(b, 25_000, 100); // sparse, inside a's range
    feed(c, 1_000_000, 200); // sparse, new values
    b.merge(a, Int32Array.from([0])); // dense into sparse
    b.merge(c, Int32Array.from([0])); // sparse into dense
    const [e] = estimate(b);
    expect(Math.abs(e! - 50_200) / 50_200).toBeLessThan(0.07);
    const small = new ApproxDistinctState();
    small.resize(3);
    small.merge(c, Int32Array.from([2]));
    expect(estimate(small, 3)).toEqual([0, 0, 200]);
  });
});
