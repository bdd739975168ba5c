/** maxOfDoubles / minOfDoubles (one compare per value) against a reference scan with doubleGt / doubleLt of float-order.ts. */
import { describe, expect, it } from 'vitest';
import { doubleGt, doubleLt } from '../../../src/exec/kernels/float-order.js';
import { maxOfDoubles, minOfDoubles } from '../../../src/exec/operators/double-extremes.js';

function reference(v: readonly number[], better: (x: number, b: number) => boolean): number {
  let b = v[0]!;
  for (let i = 1; i < v.length; i++) if (better(v[i]!, b)) b = v[i]!;
  return b;
}

const SPECIAL = [NaN, Infinity, -Infinity, 0, -0, 1.5, -1.5, 1e308, -1e308, 5e-324];

describe('maxOfDoubles / minOfDoubles', () => {
  it('agree with the total order on random mixes of special values', () => {
    let seed = 7;
    const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % k; };
    for (let t = 0; t < 2000; t++) {
      const n = 1 + rnd(6);
      const v = Array.from({ length: n }, () => SPECIAL[rnd(SPECIAL.length)]!);
      const a = Float64Array.from(v);
      expect(Object.is(maxOfDoubles(a, n), reference(v, doubleGt)) || (Number.isNaN(maxOfDoubles(a, n)) && Number.isNaN(reference(v, doubleGt))), `max ${v}`).toBe(true);
      expect(Object.is(minOfDoubles(a, n), reference(v, doubleLt)) || (Number.isNaN(minOfDoubles(a, n)) && Number.isNaN(reference(v, doubleLt))), `min ${v}`).toBe(true);
    }
  });

  it('reads only the first n values', () => {
    const a = Float64Array.from([2, 1, NaN, -9]);
    expect(maxOfDoubles(a, 2)).toBe(2);
    expect(minOfDoubles(a, 2)).toBe(1);
  });

  it('keeps the first of -0 and 0, as the reference does', () => {
    expect(Object.is(maxOfDoubles(Float64Array.from([-0, 0]), 2), -0)).toBe(true);
    expect(Object.is(minOfDoubles(Float64Array.from([0, -0]), 2), 0)).toBe(true);
  });
});
