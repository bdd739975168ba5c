import { describe, expect, it } from 'vitest';
import { ExecutionError } from '../../../src/relnode/errors.js';
import { cast } from '../../../src/relnode/rex.js';
import { evalExpr, fn, lit, ref, type ColSpec } from './kernel-helpers.js';

const I = (values: (number | null)[]): ColSpec => ({ type: 'INTEGER', values });
const D = (values: (number | null)[]): ColSpec => ({ type: 'DOUBLE', values });
const B = (values: (bigint | null)[]): ColSpec => ({ type: 'BIGINT', values });
const i0 = ref(0, 'INTEGER'), i1 = ref(1, 'INTEGER');
const d0 = ref(0, 'DOUBLE'), d1 = ref(1, 'DOUBLE');
const b0 = ref(0, 'BIGINT'), b1 = ref(1, 'BIGINT');

describe('INTEGER arithmetic', () => {
  const cols = [I([7, -7, null, 10, 0]), I([2, 2, 3, null, 5])];
  it.each([0, 3, 8])('column op column with NULLs (slice %i)', (slice) => {
    expect(evalExpr(fn('plus', [i0, i1], 'INTEGER'), cols, slice)).toEqual([9, -5, null, null, 5]);
    expect(evalExpr(fn('minus', [i0, i1], 'INTEGER'), cols, slice)).toEqual([5, -9, null, null, -5]);
    expect(evalExpr(fn('times', [i0, i1], 'INTEGER'), cols, slice)).toEqual([14, -14, null, null, 0]);
    expect(evalExpr(fn('int_divide', [i0, i1], 'INTEGER'), cols, slice)).toEqual([3, -3, null, null, 0]);
    expect(evalExpr(fn('mod', [i0, i1], 'INTEGER'), cols, slice)).toEqual([1, -1, null, null, 0]);
    expect(evalExpr(fn('neg', [i0], 'INTEGER'), cols, slice)).toEqual([-7, 7, null, -10, 0]);
    expect(evalExpr(fn('abs', [i0], 'INTEGER'), cols, slice)).toEqual([7, 7, null, 10, 0]);
  });
  it('column op literal and literal op column', () => {
    expect(evalExpr(fn('minus', [lit(100, 'INTEGER'), i0], 'INTEGER'), cols)).toEqual([93, 107, null, 90, 100]);
    expect(evalExpr(fn('times', [i0, lit(3, 'INTEGER')], 'INTEGER'), cols)).toEqual([21, -21, null, 30, 0]);
  });
  it('x // 0 and x % 0 are NULL', () => {
    expect(evalExpr(fn('int_divide', [i0, lit(0, 'INTEGER')], 'INTEGER'), [I([5, null])])).toEqual([null, null]);
    expect(evalExpr(fn('mod', [i0, i1], 'INTEGER'), [I([5, 5]), I([0, 3])])).toEqual([null, 2]);
  });
  it('overflow is an ExecutionError naming the values and the expression', () => {
    const e = fn('plus', [i0, lit(1, 'INTEGER')], 'INTEGER');
    expect(() => evalExpr(e, [I([1, 2147483647])])).toThrow(ExecutionError);
    expect(() => evalExpr(e, [I([1, 2147483647])])).toThrow(/2147483647 \+ 1 is out of range for INTEGER in \(c0 \+ 1\)/);
    expect(() => evalExpr(fn('times', [i0, i0], 'INTEGER'), [I([65536])])).toThrow(/integer overflow/);
    expect(() => evalExpr(fn('neg', [i0], 'INTEGER'), [I([-2147483648])])).toThrow(/integer overflow/);
    expect(() => evalExpr(fn('int_divide', [i0, lit(-1, 'INTEGER')], 'INTEGER'), [I([-2147483648])])).toThrow(/integer overflow/);
    expect(() => evalExpr(fn('mod', [i0, lit(-1, 'INTEGER')], 'INTEGER'), [I([-2147483648])])).toThrow(/integer overflow/);
  });
  it('does not report overflow for NULL rows', () => {
    // Row 1 holds 2147483647 under a NULL: its garbage value must not throw.
    expect(evalExpr(fn('plus', [i0, i1], 'INTEGER'), [I([1, 2147483647]), I([1, null])])).toEqual([2, null]);
  });
  it('fuses nested trees', () => {
    const e = fn('plus', [fn('times', [i0, lit(2, 'INTEGER')], 'INTEGER'), fn('neg', [i1], 'INTEGER')], 'INTEGER');
    expect(evalExpr(e, cols)).toEqual([12, -16, null, null, -5]);
  });
});

describe('DOUBLE arithmetic', () => {
  const cols = [D([1.5, -7.5, null, 3]), D([0.5, 2, 1, 0])];
  it.each([0, 5])('basic ops (slice %i)', (slice) => {
    expect(evalExpr(fn('plus', [d0, d1], 'DOUBLE'), cols, slice)).toEqual([2, -5.5, null, 3]);
    expect(evalExpr(fn('times', [d0, fn('minus', [lit(1, 'DOUBLE'), d1], 'DOUBLE')], 'DOUBLE'), cols, slice)).toEqual([0.75, 7.5, null, 3]);
    expect(evalExpr(fn('divide', [d0, d1], 'DOUBLE'), cols, slice)).toEqual([3, -3.75, null, null]);
    expect(evalExpr(fn('mod', [d0, d1], 'DOUBLE'), cols, slice)).toEqual([0, -1.5, null, null]);
    // DuckDB: `//` on DOUBLE is plain division.
    expect(evalExpr(fn('int_divide', [d0, d1], 'DOUBLE'), cols, slice)).toEqual([3, -3.75, null, null]);
    expect(evalExpr(fn('neg', [d0], 'DOUBLE'), cols, slice)).toEqual([-1.5, 7.5, null, -3]);
  });
  it('divide casts integers to DOUBLE and x / 0 is NULL', () => {
    const e = fn('divide', [cast(i0, 'DOUBLE'), cast(i1, 'DOUBLE')], 'DOUBLE');
    expect(evalExpr(e, [I([1, 7, null]), I([2, 0, 1])])).toEqual([0.5, null, null]);
  });
  it('does not throw on DOUBLE overflow (inf, as DuckDB)', () => {
    expect(evalExpr(fn('times', [d0, lit(10, 'DOUBLE')], 'DOUBLE'), [D([1e308])])).toEqual([Infinity]);
  });
});

describe('BIGINT arithmetic', () => {
  const big = 2n ** 60n;
  const cols = [B([5n, big, null, -9n]), B([3n, 2n, 1n, 2n])];
  it.each([0, 4])('exact results with NULLs (slice %i)', (slice) => {
    expect(evalExpr(fn('plus', [b0, b1], 'BIGINT'), cols, slice)).toEqual([8n, big + 2n, null, -7n]);
    expect(evalExpr(fn('times', [b0, b1], 'BIGINT'), cols, slice)).toEqual([15n, big * 2n, null, -18n]);
    expect(evalExpr(fn('minus', [b0, b1], 'BIGINT'), cols, slice)).toEqual([2n, big - 2n, null, -11n]);
    expect(evalExpr(fn('int_divide', [b0, b1], 'BIGINT'), cols, slice)).toEqual([1n, big / 2n, null, -4n]);
    expect(evalExpr(fn('mod', [b0, b1], 'BIGINT'), cols, slice)).toEqual([2n, 0n, null, -1n]);
    expect(evalExpr(fn('neg', [b0], 'BIGINT'), cols, slice)).toEqual([-5n, -big, null, 9n]);
    expect(evalExpr(fn('abs', [b0], 'BIGINT'), cols, slice)).toEqual([5n, big, null, 9n]);
  });
  it('beyond 2^53 stays exact', () => {
    const x = 2n ** 53n + 1n;
    expect(evalExpr(fn('plus', [b0, lit(1n, 'BIGINT')], 'BIGINT'), [B([x])])).toEqual([x + 1n]);
    expect(evalExpr(fn('times', [b0, b0], 'BIGINT'), [B([3037000499n])])).toEqual([3037000499n * 3037000499n]);
  });
  it('int64 overflow is an ExecutionError; x // 0 is NULL', () => {
    const max = 2n ** 63n - 1n;
    expect(() => evalExpr(fn('plus', [b0, lit(1n, 'BIGINT')], 'BIGINT'), [B([max])])).toThrow(/out of range for BIGINT/);
    expect(() => evalExpr(fn('times', [b0, b0], 'BIGINT'), [B([2n ** 32n])])).toThrow(ExecutionError);
    expect(() => evalExpr(fn('neg', [b0], 'BIGINT'), [B([-(2n ** 63n)])])).toThrow(ExecutionError);
    expect(evalExpr(fn('int_divide', [b0, b1], 'BIGINT'), [B([4n, 4n]), B([0n, 2n])])).toEqual([null, 2n]);
  });
});

describe('DATE arithmetic', () => {
  const dt = ref(0, 'DATE');
  it('DATE ± INTEGER → DATE, DATE − DATE → INTEGER, date_add', () => {
    const cols: ColSpec[] = [{ type: 'DATE', values: [18262, null, 0] }, { type: 'DATE', values: [18231, 1, null] }];
    expect(evalExpr(fn('plus', [dt, lit(31, 'INTEGER')], 'DATE'), cols)).toEqual([18293, null, 31]);
    expect(evalExpr(fn('plus', [lit(1, 'INTEGER'), dt], 'DATE'), cols)).toEqual([18263, null, 1]);
    expect(evalExpr(fn('minus', [dt, lit(1, 'INTEGER')], 'DATE'), cols)).toEqual([18261, null, -1]);
    expect(evalExpr(fn('minus', [dt, ref(1, 'DATE')], 'INTEGER'), cols)).toEqual([31, null, null]);
    expect(evalExpr(fn('date_add', [dt, lit(-1, 'INTEGER')], 'DATE'), cols, 3)).toEqual([18261, null, -1]);
  });
});
