import { describe, expect, it } from 'vitest';
import * as arrow from 'apache-arrow';
import { InternalError } from '../../../src/relnode/errors.js';
import { FUNCTIONS } from '../../../src/relnode/functions.js';
import { caseWhen, cast } from '../../../src/relnode/rex.js';
import { CALL_COMPILERS } from '../../../src/exec/kernels/compile.js';
import { constantData, evaluateConstant, valueAt } from '../../../src/exec/kernels/index.js';
import { fn, lit, ref, valuesOf } from './kernel-helpers.js';

describe('catalog coverage', () => {
  it('every function id in FUNCTIONS has a kernel compiler', () => {
    const missing = [...FUNCTIONS.keys()].filter((id) => CALL_COMPILERS[id] === undefined);
    expect(missing).toEqual([]);
  });
});

describe('evaluateConstant', () => {
  it('folds expressions without column references', () => {
    expect(evaluateConstant(fn('plus', [lit(1, 'INTEGER'), lit(2, 'INTEGER')], 'INTEGER'))).toBe(3);
    expect(evaluateConstant(fn('times', [lit(3n, 'BIGINT'), lit(2n ** 40n, 'BIGINT')], 'BIGINT'))).toBe(3n * 2n ** 40n);
    expect(evaluateConstant(fn('upper', [lit('abc', 'VARCHAR')], 'VARCHAR'))).toBe('ABC');
    expect(evaluateConstant(fn('and', [lit(false, 'BOOLEAN'), lit(null, 'BOOLEAN')], 'BOOLEAN'))).toBe(false);
    expect(evaluateConstant(fn('or', [lit(true, 'BOOLEAN'), lit(null, 'BOOLEAN')], 'BOOLEAN'))).toBe(true);
    expect(evaluateConstant(cast(lit('1994-01-01', 'VARCHAR'), 'DATE'))).toBe(8766);
    expect(evaluateConstant(fn('plus', [cast(lit('1994-01-01', 'VARCHAR'), 'DATE'), lit(365, 'INTEGER')], 'DATE'))).toBe(9131);
    expect(evaluateConstant(cast(lit(8766, 'DATE'), 'TIMESTAMP'))).toBe(8766 * 86_400_000);
    expect(evaluateConstant(fn('divide', [lit(1, 'DOUBLE'), lit(0, 'DOUBLE')], 'DOUBLE'))).toBeNull();
    expect(evaluateConstant(lit(null, 'NULL'))).toBeNull();
    expect(evaluateConstant(caseWhen([{ when: lit(null, 'BOOLEAN'), then: lit(1, 'INTEGER') }], lit(2, 'INTEGER'), 'INTEGER'))).toBe(2);
    expect(evaluateConstant(fn('in', [lit(3, 'INTEGER'), lit(1, 'INTEGER'), lit(null, 'INTEGER')], 'BOOLEAN'))).toBeNull();
    expect(typeof evaluateConstant(fn('now', [], 'TIMESTAMP'))).toBe('number');
  });
  it('throws on column references and propagates runtime errors', () => {
    expect(() => evaluateConstant(fn('plus', [ref(0, 'INTEGER'), lit(1, 'INTEGER')], 'INTEGER'))).toThrow(InternalError);
    expect(() => evaluateConstant(cast(lit('abc', 'VARCHAR'), 'INTEGER'))).toThrow(/could not convert/);
  });
});

describe('constantData and valueAt', () => {
  it('builds constant columns of every type', () => {
    expect(valuesOf(constantData(5, 'INTEGER', 3))).toEqual([5, 5, 5]);
    expect(valuesOf(constantData(2n ** 60n, 'BIGINT', 2))).toEqual([2n ** 60n, 2n ** 60n]);
    expect(valuesOf(constantData(1.5, 'DOUBLE', 1))).toEqual([1.5]);
    expect(valuesOf(constantData('hé', 'VARCHAR', 2))).toEqual(['hé', 'hé']);
    expect(valuesOf(constantData(true, 'BOOLEAN', 9))).toEqual(Array(9).fill(true));
    expect(valuesOf(constantData(10, 'DATE', 1))).toEqual([10]);
    expect(valuesOf(constantData(1234, 'TIMESTAMP', 1))).toEqual([1234]);
    for (const t of ['INTEGER', 'BIGINT', 'DOUBLE', 'VARCHAR', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'NULL'] as const) {
      const d = constantData(null, t, 4);
      expect([d.length, d.nullCount, valuesOf(d)]).toEqual([4, 4, [null, null, null, null]]);
    }
    const d = constantData(1, 'INTEGER', 2);
    expect(d.nullCount).toBe(0);
    expect(d.type).toBeInstanceOf(arrow.Int32);
  });
  it('reads values honouring offsets, dictionaries and other Arrow types', () => {
    const v = arrow.vectorFromArray([1, null, 3], new arrow.Int32()).data[0]!.slice(1, 2);
    expect([valueAt(v, 0), valueAt(v, 1)]).toEqual([null, 3]);
    const dct = arrow.vectorFromArray(['x', 'y', null, 'x'], new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())).data[0]!.slice(1, 3);
    expect(valuesOf(dct)).toEqual(['y', null, 'x']);
    const ms = arrow.vectorFromArray([new Date(86_400_000 * 3)], new arrow.DateMillisecond()).data[0]!;
    expect(valueAt(ms, 0)).toBe(3);
    const b = arrow.vectorFromArray([true, false, true], new arrow.Bool()).data[0]!.slice(1, 2);
    expect(valuesOf(b)).toEqual([false, true]);
  });
});
