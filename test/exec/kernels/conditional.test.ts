import { describe, expect, it } from 'vitest';
import { caseWhen, cast } from '../../../src/relnode/rex.js';
import { evalExpr, fn, lit, ref, type ColSpec } from './kernel-helpers.js';

const i0 = ref(0, 'INTEGER');
const I = (values: (number | null)[]): ColSpec => ({ type: 'INTEGER', values });
const gt = (a: ReturnType<typeof ref>, v: number) => fn('gt', [a, lit(v, 'INTEGER')], 'BOOLEAN');

describe('CASE', () => {
  it.each([0, 3])('first TRUE WHEN wins; NULL conditions do not match (slice %i)', (slice) => {
    const e = caseWhen([
      { when: gt(i0, 10), then: lit('big', 'VARCHAR') },
      { when: gt(i0, 0), then: lit('pos', 'VARCHAR') },
    ], lit('other', 'VARCHAR'), 'VARCHAR');
    expect(evalExpr(e, [I([20, 5, -1, null, 11])], slice)).toEqual(['big', 'pos', 'other', 'other', 'big']);
  });
  it('branches from columns (numbers, strings incl. dictionaries, booleans, BIGINT), NULL ELSE', () => {
    const cols: ColSpec[] = [I([1, 2, 3, null]), { type: 'VARCHAR', values: ['a', 'b', null, 'd'], dict: true }, { type: 'DOUBLE', values: [1.5, 2.5, 3.5, 4.5] }, { type: 'BIGINT', values: [1n, 2n, 3n, 4n] }];
    const c = (then: ReturnType<typeof ref>, t: 'VARCHAR' | 'DOUBLE' | 'BIGINT') => caseWhen([{ when: gt(i0, 1), then }], lit(null, t), t);
    expect(evalExpr(c(ref(1, 'VARCHAR'), 'VARCHAR'), cols, 2)).toEqual([null, 'b', null, null]);
    expect(evalExpr(c(ref(2, 'DOUBLE'), 'DOUBLE'), cols)).toEqual([null, 2.5, 3.5, null]);
    expect(evalExpr(c(ref(3, 'BIGINT'), 'BIGINT'), cols)).toEqual([null, 2n, 3n, null]);
    const b = caseWhen([{ when: gt(i0, 2), then: lit(true, 'BOOLEAN') }], gt(i0, 1), 'BOOLEAN');
    expect(evalExpr(b, cols)).toEqual([false, true, true, null]);
  });
  it('a branch is not evaluated (no error) for rows that do not take it', () => {
    // CASE WHEN x < 100000 THEN x * x ELSE 0 END: x * x overflows only on the ELSE rows.
    const e = caseWhen([{ when: fn('lt', [i0, lit(100000, 'INTEGER')], 'BOOLEAN'), then: fn('times', [i0, i0], 'INTEGER') }], lit(0, 'INTEGER'), 'INTEGER');
    expect(evalExpr(e, [I([3, 1000000, null, -4])])).toEqual([9, 0, 0, 16]);
    expect(() => evalExpr(e, [I([50000])])).toThrow(/integer overflow/);
    // CASE WHEN s = 'x' THEN 0 ELSE CAST(s AS INTEGER) END
    const s = ref(0, 'VARCHAR');
    const e2 = caseWhen([{ when: fn('eq', [s, lit('x', 'VARCHAR')], 'BOOLEAN'), then: lit(0, 'INTEGER') }], cast(s, 'INTEGER'), 'INTEGER');
    expect(evalExpr(e2, [{ type: 'VARCHAR', values: ['x', '12', null] }])).toEqual([0, 12, null]);
  });
  it('a later WHEN is not evaluated for rows an earlier WHEN took', () => {
    const e = caseWhen([
      { when: fn('is_null', [i0], 'BOOLEAN'), then: lit(-1, 'INTEGER') },
      { when: fn('gt', [fn('times', [i0, i0], 'INTEGER'), lit(10, 'INTEGER')], 'BOOLEAN'), then: lit(1, 'INTEGER') },
      { when: fn('gt', [i0, lit(100000, 'INTEGER')], 'BOOLEAN'), then: lit(9, 'INTEGER') },
    ], lit(0, 'INTEGER'), 'INTEGER');
    expect(evalExpr(e, [I([null, 2, 5])])).toEqual([-1, 0, 1]);
  });
});

describe('coalesce and nullif', () => {
  it('coalesce takes the first non-NULL argument', () => {
    const cols = [I([null, 2, null, null]), I([1, 9, null, null])];
    expect(evalExpr(fn('coalesce', [i0, ref(1, 'INTEGER'), lit(7, 'INTEGER')], 'INTEGER'), cols, 3)).toEqual([1, 2, 7, 7]);
    expect(evalExpr(fn('coalesce', [i0, ref(1, 'INTEGER')], 'INTEGER'), cols)).toEqual([1, 2, null, null]);
    const s = [{ type: 'VARCHAR' as const, values: [null, 'a'], dict: true }];
    expect(evalExpr(fn('coalesce', [ref(0, 'VARCHAR'), lit('z', 'VARCHAR')], 'VARCHAR'), s)).toEqual(['z', 'a']);
  });
  it('coalesce does not evaluate later arguments where an earlier one is non-NULL', () => {
    const e = fn('coalesce', [i0, fn('times', [ref(1, 'INTEGER'), ref(1, 'INTEGER')], 'INTEGER')], 'INTEGER');
    expect(evalExpr(e, [I([1, null]), I([100000, 3])])).toEqual([1, 9]);
  });
  it('nullif(a, b) is NULL when a = b', () => {
    expect(evalExpr(fn('nullif', [i0, lit(1, 'INTEGER')], 'INTEGER'), [I([1, 2, null])])).toEqual([null, 2, null]);
    expect(evalExpr(fn('nullif', [i0, ref(1, 'INTEGER')], 'INTEGER'), [I([1, 2]), I([null, 2])])).toEqual([1, null]);
  });
});
