/**
 * Exact integer sum and avg states (agg-int-sum.ts) against a BigInt
 * reference: values near ±2^63, long runs that force the lo → hi → big
 * carries, grouped and global (addGlobal) paths, merge, NULLs, empty groups.
 */
import { Int32, makeData } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { createAggState } from '../../../src/exec/operators/agg-states.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import type { SqlType } from '../../../src/relnode/types.js';
import { column, valueAt } from '../helpers/fake-context.js';

const call = (fn: 'sum' | 'avg', type: SqlType): AggCall => ({ fn, args: [0], distinct: false, type, name: fn });
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
});
