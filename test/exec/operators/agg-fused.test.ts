/**
 * The fused DOUBLE sums / averages / counts (agg-fused.ts) give bit-identical
 * results to the per-aggregate states (agg-states.ts) — with and without a
 * selection, with NULLs (the masked loop), an all-NULL column, merge — and a
 * GROUP BY query over them matches DuckDB's semantics for NULLs and empty groups.
 */
import { Float64, makeData, makeVector, type Data } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import type { AggCall } from '../../../src/relnode/rel.js';
import { FusedAggregates, isFusible } from '../../../src/exec/operators/agg-fused.js';
import { createAggState } from '../../../src/exec/operators/agg-states.js';
import { TableEnvironment } from '../../../src/index.js';

const call = (fn: string, args: number[], type = 'DOUBLE'): AggCall => ({ fn, args, distinct: false, type, name: fn } as never);

let seed = 7;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };

function doubles(n: number, nullEvery: number): Data {
  const v = new Float64Array(n);
  const bm = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    v[i] = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 16 - 4);
    if (nullEvery > 0 && i % nullEvery === 3) nulls++; else bm[i >> 3]! |= 1 << (i & 7);
  }
  return makeData({ type: new Float64(), length: n, nullCount: nulls, ...(nulls ? { nullBitmap: bm } : {}), data: v });
}

const bits = (d: Data): unknown[] => [...makeVector(d)] as unknown[];

describe('FusedAggregates', () => {
  it('fuses only DOUBLE sum/avg and counts without DISTINCT', () => {
    expect(isFusible(call('sum', [0]), ['DOUBLE'])).toBe(true);
    expect(isFusible(call('sum', [0], 'BIGINT'), ['INTEGER'])).toBe(false);
    expect(isFusible(call('avg', [0]), ['INTEGER'])).toBe(false);
    expect(isFusible({ ...call('count', [0], 'BIGINT'), distinct: true }, ['DOUBLE'])).toBe(false);
    expect(isFusible(call('min', [0]), ['DOUBLE'])).toBe(false);
  });

  for (const [label, nullEvery, withSel] of [['no NULLs, selection', 0, true], ['no NULLs, all rows', 0, false], ['NULLs, selection', 5, true], ['NULLs, all rows', 7, false]] as const) {
    it(`matches the per-aggregate states bit for bit (${label})`, () => {
      const calls = [call('sum', [0]), call('avg', [1]), call('count_star', [], 'BIGINT'), call('count', [1], 'BIGINT'), call('sum', [1]), call('avg', [0])];
      const groups = 5;
      const fused = new FusedAggregates(calls);
      const states = calls.map((c) => createAggState(c, c.args.map(() => 'DOUBLE')));
      fused.resize(groups);
      for (const s of states) s.resize(groups);
      for (let b = 0; b < 6; b++) {
        const n = 300 + b * 37;
        const cols = [doubles(n, 0), doubles(n, nullEvery)];
        const sel = new Int32Array(n);
        let m = 0;
        for (let i = 0; i < n; i++) if (!withSel || rnd() < 0.8) sel[m++] = i;
        const gids = new Int32Array(m);
        for (let j = 0; j < m; j++) gids[j] = Math.floor(rnd() * (groups - 1)); // the last group stays empty
        fused.add(cols, gids, withSel ? sel : null, m);
        calls.forEach((c, k) => states[k]!.addSelected!(c.args.map((a) => cols[a]!), gids, sel.subarray(0, m), m));
      }
      calls.forEach((_, k) => expect(bits(fused.value(k, 0, groups))).toEqual(bits(states[k]!.value(0, groups))));
      calls.forEach((_, k) => expect(bits(fused.value(k, 1, 3))).toEqual(bits(states[k]!.value(1, 3))));
    });
  }

  it('the generated loops\' branch-free error term has the Neumaier states\' bits, also for zeros, cancellation, overflow, infinities and NaN', () => {
    // One group per case: the sum, its average and its state after a merge into a second aggregate.
    const cases: number[][] = [
      [0, -0, -0], [-0, -0], [-0, 0], [1e16, 1, -1e16, 1], [1, 1e100, 1, -1e100], [0.1, 0.2, 0.3, -0.6], [1e308, 1e308, -1e308],
      [Infinity, 1, 2], [-Infinity, Infinity, 3], [NaN, 1], [1, NaN], [2 ** -1074, -(2 ** -1074), 2 ** -1074], [3, -3, 1e-300, -1e-300],
    ];
    const calls = [call('sum', [0]), call('avg', [0]), call('count_star', [], 'BIGINT')];
    const G = cases.length;
    const xs = cases.flat();
    const gids = Int32Array.from(cases.flatMap((c, g) => c.map(() => g)));
    const col = makeData({ type: new Float64(), length: xs.length, nullCount: 0, data: Float64Array.from(xs) });
    const fused = new FusedAggregates(calls);
    const states = calls.map((c) => createAggState(c, c.args.map(() => 'DOUBLE')));
    fused.resize(G);
    for (const s of states) s.resize(G);
    fused.add([col], gids, null, xs.length);
    calls.forEach((c, k) => states[k]!.add(c.args.map(() => col), gids, xs.length));
    calls.forEach((_, k) => expect(bits(fused.value(k, 0, G))).toEqual(bits(states[k]!.value(0, G))));
    const sums = bits(fused.value(0, 0, G)) as number[];
    expect(Object.is(sums[1], 0)).toBe(true); // -0 + -0 from the initial +0: +0, as Neumaier gives
    expect(sums[3]).toBe(2);
    expect(sums[7]).toBe(Infinity);
    expect(sums[8]).toBeNaN();
    // Merged into a second aggregate (its own generated loop) group by group: the states' merge.
    const f2 = new FusedAggregates(calls);
    f2.resize(G);
    f2.add([col], gids, null, xs.length);
    f2.merge(fused, Int32Array.from({ length: G }, (_, g) => g));
    const s2 = calls.map((c) => createAggState(c, c.args.map(() => 'DOUBLE')));
    for (const s of s2) s.resize(G);
    calls.forEach((c, k) => { s2[k]!.add(c.args.map(() => col), gids, xs.length); s2[k]!.merge(states[k]!, Int32Array.from({ length: G }, (_, g) => g)); });
    calls.forEach((_, k) => expect(bits(f2.value(k, 0, G))).toEqual(bits(s2[k]!.value(0, G))));
  });

  it('shares one slot among sum, avg and count of the same argument', () => {
    const calls = [call('sum', [0]), call('avg', [0]), call('count', [0], 'BIGINT'), call('count_star', [], 'BIGINT'), call('avg', [1]), call('count', [2], 'BIGINT')];
    const f = new FusedAggregates(calls);
    expect(f.slotCount).toBe(3);
    f.resize(1);
    const num = (v: number[], nullBitmap?: Uint8Array): Data => makeData({ type: new Float64(), length: v.length, nullCount: nullBitmap ? 1 : 0, ...(nullBitmap ? { nullBitmap } : {}), data: new Float64Array(v) });
    // One batch through the generated no-NULL loop, one (a NULL in argument 2) through the masked loop.
    f.add([num([1, 2, 4.5]), num([1, 1, 1]), num([0, 0, 0])], new Int32Array(3), null, 3);
    f.add([num([0.5, 4]), num([1, 1]), num([0, 0], new Uint8Array([2]))], new Int32Array(2), null, 2);
    expect(bits(f.value(0, 0, 1))).toEqual([12]);
    expect(bits(f.value(1, 0, 1))).toEqual([2.4]);
    expect(bits(f.value(2, 0, 1))).toEqual([5n]);
    expect(bits(f.value(3, 0, 1))).toEqual([5n]);
    expect(bits(f.value(4, 0, 1))).toEqual([1]);
    expect(bits(f.value(5, 0, 1))).toEqual([4n]);
  });

  it('counts an all-NULL argument as skipped and merges like the states', () => {
    const calls = [call('sum', [0]), call('count', [0], 'BIGINT'), call('count_star', [], 'BIGINT')];
    const nul = makeData({ type: new Float64(), length: 4, nullCount: 4, nullBitmap: new Uint8Array(1), data: new Float64Array(4) });
    const a = new FusedAggregates(calls);
    const b = new FusedAggregates(calls);
    a.resize(2); b.resize(2);
    a.add([nul], new Int32Array([0, 1, 1, 0]), null, 4);
    b.add([makeData({ type: new Float64(), length: 3, nullCount: 0, data: new Float64Array([1e16, 1, -1e16]) })], new Int32Array([1, 1, 1]), null, 3);
    expect(bits(a.value(0, 0, 2))).toEqual([null, null]);
    expect(bits(a.value(1, 0, 2))).toEqual([0n, 0n]);
    expect(bits(a.value(2, 0, 2))).toEqual([2n, 2n]);
    a.merge(b, new Int32Array([1, 0]));
    expect(bits(a.value(0, 0, 2))).toEqual([1, null]);
    expect(bits(a.value(1, 0, 2))).toEqual([3n, 0n]);
    expect(bits(a.value(2, 0, 2))).toEqual([5n, 2n]);
  });
});

describe('GROUP BY with fused aggregates', () => {
  const env = TableEnvironment.create();
  afterAll(async () => { await env.close(); });
  it('keeps NULL semantics per aggregate', async () => {
    const rows = await env.sql(`SELECT g, sum(x) AS s, avg(y) AS a, count(y) AS cy, count(*) AS c
      FROM (VALUES (1, 1.5, NULL), (1, 2.5, 4.0), (2, NULL, NULL), (2, 3.0, NULL)) t(g, x, y) GROUP BY g ORDER BY g`).toArray();
    expect(rows.map((r) => ({ ...r }))).toEqual([
      { g: 1, s: 4, a: 4, cy: 2n - 1n, c: 2n },
      { g: 2, s: 3, a: null, cy: 0n, c: 2n },
    ]);
  });
});
