/**
 * The total order of doubles (src/exec/kernels/float-order.ts): every
 * predicate and the generated-source form agree with compareDoubles on every
 * pair of special values, and canonicalDouble makes equal values bit-equal.
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalDouble, compareDoubles, doubleCompareSource, doubleEq, doubleGe, doubleGt, doubleLe, doubleLt, type CompareOp,
} from '../../../src/exec/kernels/float-order.js';

const VALUES = [-Infinity, -1.5, -0, 0, 1e-300, 2, Infinity, NaN, -NaN];
const SIGN: Record<CompareOp, (c: number) => boolean> = {
  eq: (c) => c === 0, ne: (c) => c !== 0, lt: (c) => c < 0, le: (c) => c <= 0, gt: (c) => c > 0, ge: (c) => c >= 0,
};

describe('float order', () => {
  it('is a total order: -0 = 0, NaN = NaN, NaN above +Infinity', () => {
    expect(compareDoubles(-0, 0)).toBe(0);
    expect(compareDoubles(NaN, NaN)).toBe(0);
    expect(compareDoubles(NaN, Infinity)).toBe(1);
    expect(compareDoubles(Infinity, NaN)).toBe(-1);
    const sorted = [...VALUES].sort(compareDoubles);
    expect(sorted.slice(0, 3)).toEqual([-Infinity, -1.5, -0]);
    expect(Number.isNaN(sorted[7]) && Number.isNaN(sorted[8])).toBe(true);
  });

  it('the predicates and the generated source agree with compareDoubles on every pair', () => {
    const preds: Partial<Record<CompareOp, (x: number, y: number) => boolean>> = { eq: doubleEq, lt: doubleLt, le: doubleLe, gt: doubleGt, ge: doubleGe };
    for (const op of Object.keys(SIGN) as CompareOp[]) {
      const generic = new Function('x', 'y', `return ${doubleCompareSource(op, 'x', 'y', true, true)};`) as (x: number, y: number) => boolean;
      for (const x of VALUES) {
        for (const y of VALUES) {
          const want = SIGN[op](compareDoubles(x, y));
          expect(generic(x, y), `${x} ${op} ${y}`).toBe(want);
          if (preds[op]) expect(preds[op]!(x, y), `${op}(${x}, ${y})`).toBe(want);
          // Narrowed forms: an operand may be flagged "never NaN" only when it is not NaN.
          for (const fx of x !== x ? [true] : [true, false]) {
            for (const fy of y !== y ? [true] : [true, false]) {
              const narrowed = new Function('x', 'y', `return ${doubleCompareSource(op, 'x', 'y', fx, fy)};`) as (x: number, y: number) => boolean;
              expect(narrowed(x, y), `${x} ${op} ${y} (x may be NaN: ${fx}, y: ${fy})`).toBe(want);
            }
          }
        }
      }
    }
  });

  it('canonicalDouble: -0 becomes 0 and every NaN the one NaN', () => {
    const f = new Float64Array(1);
    const w = new Uint32Array(f.buffer);
    f[0] = canonicalDouble(-0);
    expect(w[1]).toBe(0);
    const nan2 = new Float64Array(new Uint32Array([1, 0xfff00000]).buffer)[0]!; // a negative signalling-style NaN
    f[0] = canonicalDouble(nan2);
    expect([w[0], w[1]]).toEqual([0, 0x7ff80000]);
  });
});
