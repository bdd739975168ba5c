/**
 * The parts of a split DOUBLE sum (agg-sum-parts.ts): sum_lo is the exact rest of sum's rounding,
 * whether it reads its twin's state (createAggStates) or keeps its own; sum_parts / avg_parts over
 * the parts of any cut of the rows into shares give one state's bits over all rows. Values are
 * multiples of 2^-30 with rows × Σ|x| < 2^76, the bound under which compensated sums are exact.
 */
import { describe, expect, it } from 'vitest';
import { createAggState, createAggStates, type AggState } from '../../../src/exec/operators/agg-states.js';
import type { AggCall } from '../../../src/relnode/rel.js';
import type { SqlType } from '../../../src/relnode/types.js';
import { column, valueAt } from '../helpers/fake-context.js';

const call = (fn: AggCall['fn'], args: number[], type: SqlType = 'DOUBLE'): AggCall => ({ fn, args, distinct: false, type, name: fn });

/** Deterministic values: ±2^44-ish that cancel across shares, beside tiny and mid-sized multiples of 2^-30. */
function values(n: number): number[] {
  let s = 7;
  const r = (): number => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
  const out = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? Math.floor(r() * 2 ** 20) / 2 ** 30 : Math.round(r() * 1e5 * 2 ** 20) / 2 ** 20));
  // Each huge value's negation is 41 blocks of 50 rows away: on another share for every cut below.
  for (let i = 0; i + 2050 < n; i += 7) { out[i] = (r() < 0.5 ? -1 : 1) * (2 ** 44 + Math.floor(r() * 1e6)); out[i + 2050] = -out[i]!; }
  return out;
}

const gids = (n: number): Int32Array => new Int32Array(n);

/** One group's value of `st` after adding `xs` to group 0. */
function run(st: AggState, xs: number[]): number | null {
  st.resize(1);
  st.add([column('DOUBLE', xs)], gids(xs.length), xs.length);
  return valueAt(st.value(0, 1), 0) as number | null;
}

/** The exact sum of xs, rounded once. */
const exact = (xs: number[]): number => Number(xs.reduce((a, x) => a + BigInt(x * 2 ** 30), 0n)) / 2 ** 30;

describe('sum parts', () => {
  const xs = values(4000);

  it('sum_lo is the exact rest of sum: with its own state and as a view of its twin', () => {
    const states = createAggStates([call('sum', [0]), call('sum_lo', [0])], [['DOUBLE'], ['DOUBLE']], () => true);
    states.forEach((s) => s!.resize(1));
    for (const s of states) s!.add([column('DOUBLE', xs)], gids(xs.length), xs.length);
    const hi = valueAt(states[0]!.value(0, 1), 0) as number;
    const lo = valueAt(states[1]!.value(0, 1), 0) as number;
    expect(hi).toBe(exact(xs));
    expect(lo).toBe(run(createAggState(call('sum_lo', [0]), ['DOUBLE']), xs));
    expect(Math.abs(lo)).toBeLessThanOrEqual(Math.abs(hi) * 2 ** -53);
  });

  it('sum_parts and avg_parts over any cut into shares give one state\'s bits', () => {
    const one = run(createAggState(call('sum', [0]), ['DOUBLE']), xs);
    const mean = run(createAggState(call('avg', [0]), ['DOUBLE']), xs);
    expect(one).toBe(exact(xs));
    for (const shares of [2, 3, 7, 64]) {
      const his: number[] = [];
      const los: number[] = [];
      const counts: bigint[] = [];
      // Shares take every shares-th block of 50 rows (as morsels are dealt).
      for (let w = 0; w < shares; w++) {
        const part = xs.filter((_, i) => Math.floor(i / 50) % shares === w);
        his.push(run(createAggState(call('sum', [0]), ['DOUBLE']), part)!);
        los.push(run(createAggState(call('sum_lo', [0]), ['DOUBLE']), part)!);
        counts.push(BigInt(part.length));
      }
      // Rounded partial sums lose the small values next to 2^44 (what the split sent before).
      expect(his.reduce((a, b) => a + b, 0)).not.toBe(one);
      const sp = createAggState(call('sum_parts', [0, 1]), ['DOUBLE', 'DOUBLE']);
      sp.resize(1);
      sp.add([column('DOUBLE', his), column('DOUBLE', los)], gids(shares), shares);
      expect(valueAt(sp.value(0, 1), 0)).toBe(one);
      const ap = createAggState(call('avg_parts', [0, 1, 2]), ['DOUBLE', 'DOUBLE', 'BIGINT']);
      ap.resize(1);
      ap.add([column('DOUBLE', his), column('DOUBLE', los), column('BIGINT', counts)], gids(shares), shares);
      expect(Object.is(valueAt(ap.value(0, 1), 0), mean)).toBe(true);
    }
  });

  it('NULL parts add nothing; no parts is NULL; an infinity stays infinite', () => {
    const sp = createAggState(call('sum_parts', [0, 1]), ['DOUBLE', 'DOUBLE']);
    sp.resize(2);
    sp.add([column('DOUBLE', [null, 1.5, null]), column('DOUBLE', [null, 2 ** -60, null])], Int32Array.from([0, 1, 0]), 3);
    expect(valueAt(sp.value(0, 2), 0)).toBeNull();
    expect(valueAt(sp.value(0, 2), 1)).toBe(1.5);
    expect(run(createAggState(call('sum_lo', [0]), ['DOUBLE']), [Infinity, 1])).toBe(0);
    const inf = createAggState(call('sum_parts', [0, 1]), ['DOUBLE', 'DOUBLE']);
    inf.resize(1);
    inf.add([column('DOUBLE', [Infinity, 3]), column('DOUBLE', [0, 2 ** -60])], gids(2), 2);
    expect(valueAt(inf.value(0, 1), 0)).toBe(Infinity);
  });
});
