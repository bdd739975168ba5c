import { describe, expect, it } from 'vitest';
import { ExecutionError } from '../../../src/relnode/errors.js';
import { civilFromDays, daysFromCivil } from '../../../src/exec/kernels/datetime.js';
import { compileExpr } from '../../../src/exec/kernels/index.js';
import { evalExpr, fn, lit, makeBatch, ref, valuesOf, type ColSpec } from './kernel-helpers.js';

const D = (values: (number | null)[]): ColSpec => ({ type: 'DOUBLE', values });
const I = (values: (number | null)[]): ColSpec => ({ type: 'INTEGER', values });
const d0 = ref(0, 'DOUBLE'), i0 = ref(0, 'INTEGER');

describe('math functions', () => {
  it('abs, floor, ceil on DOUBLE and INTEGER', () => {
    expect(evalExpr(fn('abs', [d0], 'DOUBLE'), [D([-5.5, 2, null])], 2)).toEqual([5.5, 2, null]);
    expect(evalExpr(fn('floor', [d0], 'DOUBLE'), [D([-1.5, 1.5, null])])).toEqual([-2, 1, null]);
    expect(evalExpr(fn('ceil', [d0], 'DOUBLE'), [D([-1.5, 1.5, null])])).toEqual([-1, 2, null]);
    expect(evalExpr(fn('floor', [i0], 'INTEGER'), [I([3, null])])).toEqual([3, null]);
    expect(() => evalExpr(fn('abs', [i0], 'INTEGER'), [I([-2147483648])])).toThrow(ExecutionError);
  });
  it('round half away from zero, with digits (DuckDB)', () => {
    expect(evalExpr(fn('round', [d0], 'DOUBLE'), [D([2.5, -2.5, -0.5, 1.49, null])])).toEqual([3, -3, -1, 1, null]);
    const r = (x: number, d: number): unknown => evalExpr(fn('round', [d0, lit(d, 'INTEGER')], 'DOUBLE'), [D([x])])[0];
    expect(r(1.2345, 2)).toBe(1.23);
    expect(r(2.675, 2)).toBe(2.68);
    expect(r(1.005, 2)).toBe(1);
    expect(r(1234.5, -2)).toBe(1200);
    expect(r(-1234.5, -2)).toBe(-1200);
    expect(r(5, 400)).toBe(5);
    expect(r(5.5, -400)).toBe(0);
    const ri = (x: number, d: number): unknown => evalExpr(fn('round', [i0, lit(d, 'INTEGER')], 'INTEGER'), [I([x])])[0];
    expect(ri(15, -1)).toBe(20);
    expect(ri(-15, -1)).toBe(-20);
    expect(ri(14, -1)).toBe(10);
    expect(ri(5, 1)).toBe(5);
    expect(ri(1, -20)).toBe(0);
    expect(() => ri(2147483647, -1)).toThrow(/integer overflow/);
    expect(evalExpr(fn('round', [ref(0, 'BIGINT'), lit(-1, 'INTEGER')], 'BIGINT'), [{ type: 'BIGINT', values: [25n, -25n, null] }])).toEqual([30n, -30n, null]);
  });
  it('sqrt, ln, exp, power', () => {
    expect(evalExpr(fn('sqrt', [d0], 'DOUBLE'), [D([4, null, 2])])).toEqual([2, null, Math.SQRT2]);
    expect(evalExpr(fn('sqrt', [i0], 'DOUBLE'), [I([9])])).toEqual([3]);
    expect(evalExpr(fn('sqrt', [ref(0, 'BIGINT')], 'DOUBLE'), [{ type: 'BIGINT', values: [16n] }])).toEqual([4]);
    expect(evalExpr(fn('ln', [d0], 'DOUBLE'), [D([Math.E, 1])])).toEqual([1, 0]);
    expect(evalExpr(fn('exp', [d0], 'DOUBLE'), [D([0, 1, 1000])])).toEqual([1, Math.E, Infinity]);
    expect(evalExpr(fn('power', [d0, ref(1, 'DOUBLE')], 'DOUBLE'), [D([2, 2, null]), D([0.5, 10, 1])])).toEqual([Math.SQRT2, 1024, null]);
    expect(() => evalExpr(fn('sqrt', [d0], 'DOUBLE'), [D([-1])])).toThrow(/square root of a negative number/);
    expect(() => evalExpr(fn('ln', [d0], 'DOUBLE'), [D([0])])).toThrow(/logarithm of zero/);
    expect(() => evalExpr(fn('ln', [d0], 'DOUBLE'), [D([-1])])).toThrow(/logarithm of a negative number/);
    // A NULL row's garbage value does not raise.
    expect(evalExpr(fn('sqrt', [d0], 'DOUBLE'), [D([null, 1])])).toEqual([null, 1]);
  });
  it('random() is per row in [0, 1); now() is one value per compilation', () => {
    const { batch, schema } = makeBatch([I([1, 2, 3, 4])]);
    const r = valuesOf(compileExpr(fn('random', [], 'DOUBLE'), schema)(batch)) as number[];
    expect(r.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(r).size).toBe(4);
    const before = Date.now();
    const k = compileExpr(fn('now', [], 'TIMESTAMP'), schema);
    const a = valuesOf(k(batch)) as number[];
    expect(new Set(a).size).toBe(1);
    expect(a[0]).toBeGreaterThanOrEqual(before);
    expect(valuesOf(k(batch))).toEqual(a);
  });
});

describe('dates', () => {
  const day = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) / 86_400_000;
  it('civil calendar round trip, including year 0 and negative years', () => {
    for (const days of [-800_000, -719_529, -719_528, -1, 0, 59, 11_016, 2_932_896]) {
      const [y, m, d] = civilFromDays(days);
      expect(daysFromCivil(y, m, d)).toBe(days);
    }
    expect(civilFromDays(day(2000, 2, 29))).toEqual([2000, 2, 29]);
    expect(civilFromDays(daysFromCivil(1, 1, 1) - 1)).toEqual([0, 12, 31]);
  });
  it.each([0, 3])('year, month, day of DATE and TIMESTAMP (slice %i)', (slice) => {
    const dates: ColSpec = { type: 'DATE', values: [day(1900, 3, 1), null, day(2000, 2, 29), -1] };
    expect(evalExpr(fn('year', [ref(0, 'DATE')], 'INTEGER'), [dates], slice)).toEqual([1900, null, 2000, 1969]);
    expect(evalExpr(fn('month', [ref(0, 'DATE')], 'INTEGER'), [dates], slice)).toEqual([3, null, 2, 12]);
    expect(evalExpr(fn('day', [ref(0, 'DATE')], 'INTEGER'), [dates], slice)).toEqual([1, null, 29, 31]);
    const ts: ColSpec = { type: 'TIMESTAMP', values: [-1000, Date.UTC(2020, 0, 31, 23, 59, 59), null] };
    expect(evalExpr(fn('year', [ref(0, 'TIMESTAMP')], 'INTEGER'), [ts], slice)).toEqual([1969, 2020, null]);
    expect(evalExpr(fn('month', [ref(0, 'TIMESTAMP')], 'INTEGER'), [ts], slice)).toEqual([12, 1, null]);
    expect(evalExpr(fn('day', [ref(0, 'TIMESTAMP')], 'INTEGER'), [ts], slice)).toEqual([31, 31, null]);
  });
  it('the lookup table for 1900..2099 agrees with the arithmetic at its edges', () => {
    const days = [-25568, -25567, -25566, 0, 47481, 47482, 47483, -800000, 3000000];
    const parts = (op: string) => evalExpr(fn(op, [ref(0, 'DATE')], 'INTEGER'), [{ type: 'DATE', values: days }]);
    expect(parts('year')).toEqual(days.map((d) => civilFromDays(d)[0]));
    expect(parts('month')).toEqual(days.map((d) => civilFromDays(d)[1]));
    expect(parts('day')).toEqual(days.map((d) => civilFromDays(d)[2]));
    expect(civilFromDays(-25567)).toEqual([1900, 1, 1]);
    expect(civilFromDays(47482)).toEqual([2100, 1, 1]);
  });
  it('date_add crosses months', () => {
    expect(evalExpr(fn('date_add', [ref(0, 'DATE'), lit(1, 'INTEGER')], 'DATE'), [{ type: 'DATE', values: [day(2020, 1, 31)] }])).toEqual([day(2020, 2, 1)]);
  });
});
