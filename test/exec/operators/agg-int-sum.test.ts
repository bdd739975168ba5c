/**
 * Exact integer sum and avg states (agg-int-sum.ts) against a BigInt
 * reference: values near ±2^63, long runs that force the lo → hi → big
 * carries, grouped and global (addGlobal) paths, merge, NULLs, empty groups;
 * and a partial stage's 128-bit words (sum_low64, sum_high64) added by the
 * final sum_parts / avg_parts.
 */
import { Int32, makeData, type Data } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { createAggState, createAggStates, type AggState } from '../../../src/exec/operators/agg-states.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import type { SqlType } from '../../../src/relnode/types.js';
import { column, valueAt } from '../helpers/fake-context.js';

const call = (fn: AggCall['fn'], type: SqlType, args: readonly number[] = [0]): AggCall => ({ fn, args, distinct: false, type, name: fn });
const P63 = 2n ** 63n;

/** A deterministic stream of BIGINTs mixing huge, mid and small values of both signs. */
function bigints(n: number, seed: number): bigint[] {
  let s = seed >>> 0;
  const next = (): number => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s; };
  return Array.from({ length: n }, (_, i) => {
    const r = next() % 4;
    if (r === 0) return P63 - 1n - BigInt(next() % 1000);
    if (r === 1) return -P63 + BigInt(next() % 1000);
    if (r === 2) return (2n ** 53n + BigInt(next())) * (i % 2 === 0 ? 1n : -1n);
    return BigInt(next() % 100) - 50n;
  });
}

/** avg as the exact rational total / count rounded to the nearest double (via 64 extra bits). */
function exactAvg(total: bigint, count: number): number {
  return Number((total << 64n) / BigInt(count)) / 2 ** 64;
}

describe('exact integer sum / avg states', () => {
  it('avg over BIGINT is the exact sum divided by the count (the issue\'s values)', () => {
    const st = createAggState(call('avg', 'DOUBLE'), ['BIGINT']);
    st.resize(1);
    st.add([column('BIGINT', [9007199254740993n, 1n, -9007199254740992n])], new Int32Array(3), 3);
    expect(valueAt(st.value(0, 1), 0)).toBeCloseTo(2 / 3, 15);
  });

  it('grouped avg and sum over BIGINT near ±2^63, with carries, match a BigInt reference', () => {
    const vals = bigints(50_000, 7);
    const G = 5;
    const gids = Int32Array.from(vals, (_, i) => (i * 31) % G);
    const avg = createAggState(call('avg', 'DOUBLE'), ['BIGINT']);
    avg.resize(G);
    for (let i = 0; i < vals.length; i += 4096) {
      const chunk = vals.slice(i, i + 4096);
      avg.add([column('BIGINT', chunk)], gids.subarray(i, i + chunk.length), chunk.length);
    }
    const totals = new Array<bigint>(G).fill(0n);
    const counts = new Array<number>(G).fill(0);
    vals.forEach((v, i) => { totals[gids[i]!]! += v; counts[gids[i]!]!++; });
    const out = avg.value(0, G);
    for (let g = 0; g < G; g++) expect(valueAt(out, g)).toBe(exactAvg(totals[g]!, counts[g]!));
  });

  it('global avg and sum (addGlobal) over BIGINT and INTEGER with NULLs match a BigInt reference', () => {
    const vals: (bigint | null)[] = bigints(30_000, 11).map((v, i) => (i % 97 === 0 ? null : v));
    const avg = createAggState(call('avg', 'DOUBLE'), ['BIGINT']);
    avg.resize(1);
    avg.addGlobal!([column('BIGINT', vals)], vals.length);
    const nn = vals.filter((v): v is bigint => v !== null);
    expect(valueAt(avg.value(0, 1), 0)).toBe(exactAvg(nn.reduce((a, b) => a + b, 0n), nn.length));

    // A sum that stays in range although its partial sums do not fit a double.
    const small = nn.map((v) => v % 2n ** 40n);
    const sum = createAggState(call('sum', 'BIGINT'), ['BIGINT']);
    sum.resize(1);
    sum.addGlobal!([column('BIGINT', small)], small.length);
    expect(valueAt(sum.value(0, 1), 0)).toBe(small.reduce((a, b) => a + b, 0n));

    // 3M INTEGERs near 2^31: the running total passes 2^52 (a carry into hi) across several local chunks.
    const ints = Int32Array.from({ length: 3_000_000 }, (_, i) => (i % 3 === 0 ? 2147483647 : i % 3 === 1 ? 2147483646 : -5));
    const data = makeData({ type: new Int32(), length: ints.length, nullCount: 0, data: ints });
    const si = createAggState(call('sum', 'BIGINT'), ['INTEGER']);
    const ai = createAggState(call('avg', 'DOUBLE'), ['INTEGER']);
    si.resize(1); ai.resize(1);
    si.addGlobal!([data], ints.length);
    ai.add([data], new Int32Array(ints.length), ints.length);
    const total = 1_000_000n * (2147483647n + 2147483646n - 5n);
    expect(valueAt(si.value(0, 1), 0)).toBe(total);
    expect(valueAt(ai.value(0, 1), 0)).toBe(exactAvg(total, ints.length));
  });

  it('merge keeps exactness; empty and all-NULL groups are NULL', () => {
    const vals = bigints(10_000, 3);
    const a = createAggState(call('avg', 'DOUBLE'), ['BIGINT']);
    const b = createAggState(call('avg', 'DOUBLE'), ['BIGINT']);
    a.resize(3); b.resize(3);
    const half = vals.length / 2;
    a.add([column('BIGINT', vals.slice(0, half))], new Int32Array(half), half);
    b.add([column('BIGINT', vals.slice(half))], new Int32Array(half), half);
    b.add([column('BIGINT', [null, null])], Int32Array.from([2, 2]), 2);
    a.merge(b, Int32Array.from([0, 1, 2]));
    const out = a.value(0, 3);
    expect(valueAt(out, 0)).toBe(exactAvg(vals.reduce((x, y) => x + y, 0n), vals.length));
    expect(valueAt(out, 1)).toBe(null);
    expect(valueAt(out, 2)).toBe(null);
  });

  it('sum past the BIGINT range is an error, not a wrapped value', () => {
    const st = createAggState(call('sum', 'BIGINT'), ['BIGINT']);
    st.resize(1);
    st.add([column('BIGINT', [P63 - 1n, 1n])], new Int32Array(2), 2);
    expect(() => st.value(0, 1)).toThrow('sum overflowed BIGINT');
  });

  /**
   * Shares of `vals` (grouped by gids) send their totals as (low, high, count) words, the partial
   * states as createAggStates makes them (sum_high64 reading its sum_low64 twin); the final states
   * add every share's words. Returns the final sum and avg columns' values per group.
   */
  function throughShares(vals: readonly (bigint | null)[], gids: Int32Array, G: number, shares: number): { sum: () => unknown[]; avg: unknown[] } {
    const rows: { low: Data; high: Data; count: Data; gids: Int32Array }[] = [];
    const per = Math.ceil(vals.length / shares);
    for (let sh = 0; sh < shares; sh++) {
      const part = vals.slice(sh * per, (sh + 1) * per);
      const calls = [call('sum_low64', 'BIGINT'), call('sum_high64', 'BIGINT'), call('count', 'BIGINT')];
      const states = createAggStates(calls, calls.map(() => ['BIGINT']), () => true) as AggState[];
      for (const st of states) st.resize(G);
      const g = gids.subarray(sh * per, sh * per + part.length);
      for (const st of states) st.add([column('BIGINT', part)], g, part.length);
      rows.push({ low: states[0]!.value(0, G), high: states[1]!.value(0, G), count: states[2]!.value(0, G), gids: Int32Array.from({ length: G }, (_, k) => k) });
    }
    const sum = createAggState(call('sum_parts', 'BIGINT', [0, 1]), ['BIGINT', 'BIGINT']);
    const avg = createAggState(call('avg_parts', 'DOUBLE', [0, 1, 2]), ['BIGINT', 'BIGINT', 'BIGINT']);
    sum.resize(G); avg.resize(G);
    for (const r of rows) {
      sum.add([r.low, r.high], r.gids, G);
      avg.add([r.low, r.high, r.count], r.gids, G);
    }
    const av = avg.value(0, G);
    return { sum: () => { const out = sum.value(0, G); return Array.from({ length: G }, (_, k) => valueAt(out, k)); }, avg: Array.from({ length: G }, (_, k) => valueAt(av, k)) };
  }

  it('partial words: shares whose totals pass 2^63 (both signs) add to the exact total; avg has one thread\'s bits', () => {
    // Share 0 holds the +2^63-ish values of group 0 and the negative ones of group 1, share 1 the reverse.
    const n = 4000;
    const vals: (bigint | null)[] = Array.from({ length: n }, (_, i) => {
      const first = i < n / 2;
      const pos = (i % 2 === 0) === first;
      return i % 13 === 0 ? null : pos ? P63 - 1n - BigInt(i) : -P63 + BigInt(3 * i);
    });
    const G = 3;
    const gids = Int32Array.from({ length: n }, (_, i) => (i % 50 === 7 ? 2 : i % 2));
    for (let i = 0; i < n; i++) if (gids[i] === 2) vals[i] = null; // group 2: no values
    const { sum, avg } = throughShares(vals, gids, G, 2);
    const one = createAggState(call('avg', 'DOUBLE'), ['BIGINT']);
    const oneSum = createAggState(call('sum', 'BIGINT'), ['BIGINT']);
    one.resize(G); oneSum.resize(G);
    one.add([column('BIGINT', vals)], gids, n);
    oneSum.add([column('BIGINT', vals)], gids, n);
    const totals = [0n, 0n];
    vals.forEach((v, i) => { if (v !== null) totals[gids[i]!]! += v; });
    // Each share's total of a group is near ±1000 · 2^63; the NULLs leave each group's total small.
    expect(totals.every((t) => t > -(2n ** 40n) && t < 2n ** 40n)).toBe(true);
    expect(sum()).toEqual([...totals, null]);
    const sums = oneSum.value(0, G);
    expect([0, 1, 2].map((k) => valueAt(sums, k))).toEqual([...totals, null]);
    const ones = one.value(0, G);
    for (let k = 0; k < G; k++) expect(Object.is(avg[k], valueAt(ones, k))).toBe(true);
    expect(avg[2]).toBeNull();
  });

  it('partial words: a fitting total whose shares overflow, and the first total past 2^63, at 2-5 shares', () => {
    // 3000 × (±2^62) then 2999 × (∓2^62), then r: the total is ±2^62 + r.
    const base = (sign: bigint): bigint[] => [...Array.from({ length: 3000 }, () => sign * 2n ** 62n), ...Array.from({ length: 2999 }, () => -sign * 2n ** 62n)];
    const cases = [[1n, 2n ** 62n - 1n, P63 - 1n], [1n, 2n ** 62n, undefined], [-1n, -(2n ** 62n), -P63], [-1n, -(2n ** 62n) - 1n, undefined]] as const;
    for (const shares of [2, 3, 5]) {
      for (const [sign, r, want] of cases) {
        const vals = [...base(sign), r];
        const { sum, avg } = throughShares(vals, new Int32Array(vals.length), 1, shares);
        if (want === undefined) expect(sum).toThrow('sum overflowed BIGINT');
        else expect(sum()).toEqual([want]);
        expect(avg[0]).toBe(exactAvg(vals.reduce((a, b) => a + b, 0n), vals.length));
      }
    }
  });
});
