import { describe, expect, it } from 'vitest';
import { ExecutionError, InternalError } from '../../../src/relnode/errors.js';
import type { LiteralValue } from '../../../src/relnode/rex.js';
import type { SqlType } from '../../../src/relnode/types.js';
import { canCast, compileExpr } from '../../../src/exec/kernels/index.js';
import { formatDouble } from '../../../src/exec/kernels/text.js';
import { evalExpr, makeBatch, ref, type ColSpec } from './kernel-helpers.js';

const castOf = (from: SqlType, to: SqlType) => ({ kind: 'Cast' as const, arg: ref(0, from), type: to });
function run(from: SqlType, to: SqlType, values: LiteralValue[], opts: { dict?: boolean; slice?: number } = {}): LiteralValue[] {
  const col: ColSpec = { type: from, values, dict: opts.dict ?? false };
  return evalExpr(castOf(from, to), [col], opts.slice ?? 0);
}
const day = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) / 86_400_000;

describe('numeric casts', () => {
  it('INTEGER ↔ BIGINT ↔ DOUBLE', () => {
    expect(run('INTEGER', 'BIGINT', [1, -1, null, -2147483648])).toEqual([1n, -1n, null, -2147483648n]);
    expect(run('INTEGER', 'DOUBLE', [1, null, -3], { slice: 3 })).toEqual([1, null, -3]);
    expect(run('BIGINT', 'INTEGER', [5n, null, -7n])).toEqual([5, null, -7]);
    expect(run('BIGINT', 'DOUBLE', [2n ** 60n, null])).toEqual([2 ** 60, null]);
    expect(run('DOUBLE', 'BIGINT', [2.5, 3.5, -2.5, 1e18, null])).toEqual([2n, 4n, -2n, 10n ** 18n, null]);
  });
  it('DOUBLE → INTEGER rounds half to even (DuckDB) and errors out of range', () => {
    expect(run('DOUBLE', 'INTEGER', [2.5, 3.5, -2.5, -3.5, 2.4, 2147483647.4, null])).toEqual([2, 4, -2, -4, 2, 2147483647, null]);
    expect(() => run('DOUBLE', 'INTEGER', [1e10])).toThrow(ExecutionError);
    expect(() => run('DOUBLE', 'INTEGER', [NaN])).toThrow(/out of range/);
    expect(() => run('DOUBLE', 'BIGINT', [9.3e18])).toThrow(/CAST\(c0 AS BIGINT\)/);
    expect(() => run('BIGINT', 'INTEGER', [2n ** 31n])).toThrow(ExecutionError);
    // A NULL row is not checked.
    expect(run('DOUBLE', 'INTEGER', [null, 1])).toEqual([null, 1]);
  });
  it('BOOLEAN ↔ numbers', () => {
    expect(run('BOOLEAN', 'INTEGER', [true, false, null])).toEqual([1, 0, null]);
    expect(run('BOOLEAN', 'DOUBLE', [true])).toEqual([1]);
    expect(run('BOOLEAN', 'BIGINT', [true])).toEqual([1n]);
    expect(run('DOUBLE', 'BOOLEAN', [2.5, 0, null])).toEqual([true, false, null]);
    expect(run('INTEGER', 'BOOLEAN', [2, 0])).toEqual([true, false]);
    expect(run('BIGINT', 'BOOLEAN', [0n, 3n])).toEqual([false, true]);
  });
  it('DATE ↔ TIMESTAMP, NULL → anything', () => {
    expect(run('DATE', 'TIMESTAMP', [1, -1, null])).toEqual([86_400_000, -86_400_000, null]);
    expect(run('TIMESTAMP', 'DATE', [86_400_000 * 2 + 5, -1, null], { slice: 2 })).toEqual([2, -1, null]);
    expect(run('NULL', 'INTEGER', [null, null])).toEqual([null, null]);
    expect(run('NULL', 'VARCHAR', [null])).toEqual([null]);
  });
  it('unsupported combinations are InternalErrors (binder bugs)', () => {
    expect(canCast('DATE', 'INTEGER')).toBe(false);
    expect(canCast('VARCHAR', 'DATE')).toBe(true);
    const { schema } = makeBatch([{ type: 'DATE', values: [1] }]);
    expect(() => compileExpr(castOf('DATE', 'INTEGER'), schema)).toThrow(InternalError);
  });
});

describe('casts to VARCHAR', () => {
  it.each([
    [1, '1.0'], [0.1, '0.1'], [1e20, '1e+20'], [1e15, '1000000000000000.0'], [1e16, '1e+16'], [1.5e-7, '1.5e-07'], [0.0001, '0.0001'],
    [0.00001, '1e-05'], [1 / 3, '0.3333333333333333'], [100, '100.0'], [-1.5, '-1.5'], [1234567890123456.7, '1234567890123456.8'],
    [1.2345678901234568e17, '1.2345678901234568e+17'], [5e-324, '5e-324'], [-0, '-0.0'], [0, '0.0'], [Infinity, 'inf'], [-Infinity, '-inf'], [NaN, 'nan'],
    [-1.5e300, '-1.5e+300'], [0.00012345, '0.00012345'],
  ])('DOUBLE %d prints as %s (DuckDB)', (x, s) => {
    expect(formatDouble(x)).toBe(s);
  });
  it('every type', () => {
    expect(run('DOUBLE', 'VARCHAR', [1, 0.5, null])).toEqual(['1.0', '0.5', null]);
    expect(run('INTEGER', 'VARCHAR', [-1, 12, null], { slice: 2 })).toEqual(['-1', '12', null]);
    expect(run('BIGINT', 'VARCHAR', [2n ** 62n])).toEqual([String(2n ** 62n)]);
    expect(run('BOOLEAN', 'VARCHAR', [true, false, null])).toEqual(['true', 'false', null]);
    expect(run('DATE', 'VARCHAR', [day(2020, 1, 5), -719163, null])).toEqual(['2020-01-05', '0001-12-31 (BC)', null]);
    expect(run('TIMESTAMP', 'VARCHAR', [Date.UTC(2020, 0, 2, 3, 4, 5, 500), Date.UTC(2020, 0, 2, 3, 4, 5), Date.UTC(2020, 0, 2, 3, 4, 5, 123), -1])).toEqual([
      '2020-01-02 03:04:05.5', '2020-01-02 03:04:05', '2020-01-02 03:04:05.123', '1969-12-31 23:59:59.999',
    ]);
  });
});

describe('casts from VARCHAR', () => {
  it('to numbers (DuckDB rules)', () => {
    expect(run('VARCHAR', 'INTEGER', [' 12 ', '+7', '1e2', '12.5', '-2.5', '.5', '5.', '0x10', '1_000', null])).toEqual([12, 7, 100, 13, -3, 1, 5, 16, 1000, null]);
    expect(run('VARCHAR', 'BIGINT', ['9223372036854775807', '1.5', null])).toEqual([2n ** 63n - 1n, 2n, null]);
    expect(run('VARCHAR', 'DOUBLE', [' 1.5 ', '1e400', 'inf', '-Infinity', '1_0.5', '-0'])).toEqual([1.5, Infinity, Infinity, -Infinity, 10.5, -0]);
    expect(Number.isNaN(run('VARCHAR', 'DOUBLE', ['NaN'])[0])).toBe(true);
  });
  it('invalid text is an ExecutionError naming the value and the type', () => {
    expect(() => run('VARCHAR', 'INTEGER', ['abc'])).toThrow(/could not convert string 'abc' to INTEGER in CAST\(c0 AS INTEGER\)/);
    expect(() => run('VARCHAR', 'INTEGER', ['2147483648'])).toThrow(ExecutionError);
    expect(() => run('VARCHAR', 'BIGINT', ['9223372036854775808'])).toThrow(ExecutionError);
    expect(() => run('VARCHAR', 'DOUBLE', [''])).toThrow(ExecutionError);
    expect(() => run('VARCHAR', 'DOUBLE', ['1,5'])).toThrow(ExecutionError);
    expect(() => run('VARCHAR', 'INTEGER', ['1e'])).toThrow(ExecutionError);
    expect(() => run('VARCHAR', 'BOOLEAN', ['2'])).toThrow(/to BOOLEAN/);
    expect(() => run('VARCHAR', 'DATE', ['2020-02-30'])).toThrow(/'2020-02-30' to DATE/);
  });
  it('to BOOLEAN, DATE, TIMESTAMP', () => {
    expect(run('VARCHAR', 'BOOLEAN', ['true', 'T', 'yes', 'n', '0', 'False', null])).toEqual([true, true, true, false, false, false, null]);
    expect(run('VARCHAR', 'DATE', ['2020-01-02', '2020-1-2', ' 2020-01-02 ', '2020-01-02 10:00:00', '1992-02-29', null])).toEqual([
      day(2020, 1, 2), day(2020, 1, 2), day(2020, 1, 2), day(2020, 1, 2), day(1992, 2, 29), null,
    ]);
    expect(run('VARCHAR', 'TIMESTAMP', ['2020-01-02', '2020-01-02T03:04:05', '2020-01-02 03:04:05.5', '2020-01-02 03:04'])).toEqual([
      Date.UTC(2020, 0, 2), Date.UTC(2020, 0, 2, 3, 4, 5), Date.UTC(2020, 0, 2, 3, 4, 5, 500), Date.UTC(2020, 0, 2, 3, 4),
    ]);
  });
  it('dictionary columns parse each entry once; unused bad entries do not raise', () => {
    expect(run('VARCHAR', 'INTEGER', ['1', '2', '1', null], { dict: true, slice: 2 })).toEqual([1, 2, 1, null]);
    // Sliced away: 'bad' stays in the dictionary but no selected row uses it.
    const col: ColSpec = { type: 'VARCHAR', values: ['bad', '3', '4'], dict: true };
    const { batch, schema } = makeBatch([col]);
    const sliced = batch.slice(1, 3);
    const d = compileExpr(castOf('VARCHAR', 'INTEGER'), schema)(sliced);
    expect([d.length, (d.values as Int32Array)[0], (d.values as Int32Array)[1]]).toEqual([2, 3, 4]);
  });
  it('round trips through VARCHAR', () => {
    const xs = [0.1, 1 / 3, 1e300, 123.456, -7];
    const text = run('DOUBLE', 'VARCHAR', xs);
    expect(run('VARCHAR', 'DOUBLE', text)).toEqual(xs);
  });
});

describe('fused casts in projections', () => {
  it('INTEGER → DOUBLE and DATE → TIMESTAMP keep NULLs, inside arithmetic too', () => {
    expect(run('INTEGER', 'DOUBLE', [null, 2])).toEqual([null, 2]);
    const e = { kind: 'Call' as const, op: 'plus', args: [castOf('INTEGER', 'DOUBLE'), { kind: 'Literal' as const, value: 0.5, type: 'DOUBLE' as const }], type: 'DOUBLE' as const };
    expect(evalExpr(e, [{ type: 'INTEGER', values: [1, null, -3] }], 3)).toEqual([1.5, null, -2.5]);
    expect(run('DATE', 'TIMESTAMP', [-100000, null], { slice: 1 })).toEqual([-100000 * 86_400_000, null]);
  });
});
