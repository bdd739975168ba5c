/**
 * The differential harness's own checks: the table-equality helper and the
 * DuckDB loader (so a harness bug cannot pass as an engine bug).
 */
import { describe, expect, it } from 'vitest';
import { tableFromArrays } from 'apache-arrow';
import { diffResults, fromArrow, type ResultSet } from '../helpers/compare.js';
import { loadArrow, loadRows, openDuck } from '../helpers/duckdb.js';

const rs = (rows: unknown[][], kinds: ResultSet['kinds'] = ['int', 'float'], names = ['a', 'b']): ResultSet => ({ names, kinds, rows });

describe('compare helper', () => {
  it('compares as multisets by default', () => {
    expect(diffResults(rs([[1, 1.5], [2, 2.5]]), rs([[2, 2.5], [1, 1.5]]))).toBeUndefined();
    expect(diffResults(rs([[1, 1.5], [1, 1.5]]), rs([[1, 1.5], [2, 1.5]]))).toMatch(/only in the actual/);
    expect(diffResults(rs([[1, 1.5]]), rs([[1, 1.5], [1, 1.5]]))).toMatch(/row count differs/);
  });
  it('compares floats to 1e-9 relative and NULLs exactly', () => {
    expect(diffResults(rs([[1, 1e12 + 1e-1]]), rs([[1, 1e12]]))).toBeUndefined();
    expect(diffResults(rs([[1, 1.0001]]), rs([[1, 1]]))).toBeDefined();
    expect(diffResults(rs([[1, null]]), rs([[1, 0]]))).toBeDefined();
    expect(diffResults(rs([[null, null]]), rs([[null, null]]))).toBeUndefined();
  });
  it('checks order when asked, and order keys with ties', () => {
    expect(diffResults(rs([[1, 1], [2, 2]]), rs([[2, 2], [1, 1]]), { ordered: true })).toMatch(/first difference/);
    expect(diffResults(rs([[1, 1], [1, 2], [2, 0]]), rs([[1, 2], [1, 1], [2, 0]]), { orderKeys: ['a'] })).toBeUndefined();
    expect(diffResults(rs([[2, 0], [1, 2], [1, 1]]), rs([[1, 2], [1, 1], [2, 0]]), { orderKeys: ['a'] })).toMatch(/sort order/);
  });
  it('checks column names and kinds', () => {
    expect(diffResults(rs([[1, 1]]), rs([[1, 1]], ['int', 'float'], ['a', 'c']))).toMatch(/names differ/);
    expect(diffResults(rs([[1, 1]], ['float', 'float']), rs([[1, 1]]))).toMatch(/kinds differ/);
    expect(diffResults(rs([[1, 1]], ['float', 'float']), rs([[1, 1]]), { kinds: false })).toBeUndefined();
  });
  it('normalises BigInt, typed arrays, dates and dictionaries from Arrow', () => {
    const t = tableFromArrays({ a: new BigInt64Array([1n, 2n]), b: new Float64Array([0.5, 1]) });
    const r = fromArrow(t);
    expect(r.kinds).toEqual(['int', 'float']);
    expect(r.rows).toEqual([[1, 0.5], [2, 1]]);
  });
});

describe('DuckDB loader', () => {
  it('round-trips rows with NULLs and Arrow tables', async () => {
    const duck = await openDuck();
    try {
      await loadRows(duck, 't', { i: 'INTEGER', b: 'BIGINT', d: 'DOUBLE', s: 'VARCHAR', dt: 'DATE', f: 'BOOLEAN' }, [
        { i: 1, b: 2, d: 0.5, s: 'x', dt: '2020-02-29', f: true },
        { i: null, b: null, d: null, s: null, dt: null, f: null },
      ]);
      const r = await duck.query('SELECT * FROM t ORDER BY i');
      expect(r.kinds).toEqual(['int', 'int', 'float', 'string', 'date', 'bool']);
      expect(r.rows).toEqual([[1, 2, 0.5, 'x', '2020-02-29', true], [null, null, null, null, null, null]]);
      await loadArrow(duck, 'u', tableFromArrays({ a: new Int32Array([3, 4]), b: new Float64Array([1.5, 2.5]) }));
      expect((await duck.query('SELECT sum(a) AS s, typeof(b) AS t FROM u GROUP BY t')).rows).toEqual([[7, 'DOUBLE']]);
    } finally {
      duck.close();
    }
  });
});
