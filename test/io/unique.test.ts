import { describe, expect, it } from 'vitest';
import { batchStatistics } from '../../src/io/stats.js';
import { batchFromRows } from '../../src/exec/operators/values.js';
import { field, schemaOf, type SqlType } from '../../src/relnode/types.js';
import type { LiteralValue } from '../../src/relnode/rex.js';

/** Statistics over one column split into batches of `per` rows. */
function stats(type: SqlType, values: readonly LiteralValue[], per = 1000) {
  const s = schemaOf([field('x', type)]);
  const batches = [];
  for (let i = 0; i < values.length; i += per) batches.push(batchFromRows(values.slice(i, i + per).map((v) => [v]), s));
  return batchStatistics(batches);
}

const range = (n: number, f: (i: number) => number = (i) => i): number[] => Array.from({ length: n }, (_, i) => f(i));

describe('exact uniqueness of integer columns (io/unique.ts)', () => {
  it('proves dense keys unique through the bitmap, across batches', () => {
    expect(stats('INTEGER', range(5000, (i) => 5000 - i)).unique!(0)).toBe(true);
    expect(stats('BIGINT', range(3000, (i) => i * 3 + 7)).unique!(0)).toBe(true);
    expect(stats('DATE', range(2000, (i) => 10000 + i)).unique!(0)).toBe(true);
  });

  it('proves sparse keys unique through the sorted copy', () => {
    expect(stats('BIGINT', range(3000, (i) => i * 1_000_003)).unique!(0)).toBe(true);
  });

  it('finds one repeated value among thousands (the sketch cannot), dense and sparse', () => {
    const dense = range(5000);
    dense[4321] = 17;
    expect(stats('INTEGER', dense).unique!(0)).toBe(false);
    const sparse = range(3000, (i) => i * 1_000_003);
    sparse[2999] = sparse[5]!;
    expect(stats('BIGINT', sparse).unique!(0)).toBe(false);
  });

  it('a NULL, a non-integer type, or a low distinct count is not unique', () => {
    const withNull: LiteralValue[] = range(500);
    withNull[100] = null;
    expect(stats('INTEGER', withNull).unique!(0)).toBe(false);
    expect(stats('DOUBLE', range(500, (i) => i + 0.5)).unique!(0)).toBe(false);
    expect(stats('VARCHAR', range(500).map(String)).unique!(0)).toBe(false);
    expect(stats('INTEGER', range(5000, (i) => i % 10)).unique!(0)).toBe(false);
    expect(stats('INTEGER', []).unique!(0)).toBe(false);
  });
});
