/**
 * avg over DOUBLE is correctly rounded (the compensated sum divided as a
 * double-double, rounded once), so equal sets of values give the same bits in
 * any row order: `UNION`/`DISTINCT` over averages dedupe by value, not by the
 * order rows arrived in (test:diff seed 11 #163). Expected values: the exact
 * rational mean of the doubles, rounded to the nearest double (Python
 * fractions).
 */
import { describe, expect, it } from 'vitest';
import { Float64, Int32, makeData } from 'apache-arrow';
import { createAggState } from '../../../src/exec/operators/agg-states.js';

function avgOf(values: readonly number[]): number {
  const st = createAggState({ fn: 'avg', args: [0], distinct: false, type: 'DOUBLE', name: 'a' }, ['DOUBLE']);
  st.resize(1);
  const d = makeData({ type: new Float64(), length: values.length, nullCount: 0, data: Float64Array.from(values) });
  st.add([d], new Int32Array(values.length), values.length);
  return st.value(0, 1).values[0] as number;
}

function permutations(xs: readonly number[]): number[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/** Every order of up to 5 values; beyond, every rotation of both directions. */
function orders(xs: readonly number[]): number[][] {
  if (xs.length <= 5) return permutations(xs);
  const out: number[][] = [];
  for (const d of [[...xs], [...xs].reverse()]) for (let r = 0; r < d.length; r++) out.push([...d.slice(r), ...d.slice(0, r)]);
  return out;
}

const CASES: readonly [readonly number[], number][] = [
  [[0.02, 0.03, 0.04, 0.06, 0.07, 0.08], 0.05],
  [[0.0, 0.01, 0.02, 0.03, 0.08], 0.028],
  [[0.0, 0.01, 0.02, 0.04], 0.0175],
  [[0.0, 0.01, 0.03, 0.04, 0.07, 0.08], 0.03833333333333334],
  [[0.0, 0.02, 0.04, 0.05, 0.07], 0.036000000000000004],
  [[0.0, 0.02, 0.03, 0.05, 0.06, 0.07, 0.08], 0.04428571428571429],
];

describe('avg(DOUBLE) rounding', () => {
  it('is the correctly rounded mean in every row order', () => {
    for (const [values, expected] of CASES) {
      for (const p of orders(values)) expect(avgOf(p)).toBe(expected);
    }
  });

  it('keeps infinities and NaN as a plain sum would', () => {
    expect(avgOf([1, Infinity])).toBe(Infinity);
    expect(Number.isNaN(avgOf([Infinity, -Infinity]))).toBe(true);
    expect(avgOf([1e308, 1e308])).toBe(Infinity);
  });
});
