/**
 * Integer IN lists answered from a byte table over [lo, hi] (in-list.ts smallIntTable): the same
 * answers as DuckDB over INTEGER, BIGINT and DOUBLE columns, with NULL rows and NULL items,
 * negatives, fractions and -0, in a filter and as a value; lists that do not fit (a fraction, a
 * range wider than SMALL_INT_SPAN) keep the general lookup.
 */
import { describe, expect, it } from 'vitest';
import '../../../src/sql/index.js';
import { SMALL_INT_SPAN, smallIntTable } from '../../../src/exec/kernels/in-list.js';
import { useHarness } from '../../diff/harness.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';

const h = useHarness();

async function same(sql: string): Promise<void> {
  expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
}

describe('small integer IN lists', () => {
  it('builds a table only for integers in a small range', () => {
    const t = smallIntTable([49, 14, 23, 45, 19, 3, 36, 9])!;
    expect(t.lo).toBe(3);
    expect(t.span).toBe(46);
    expect([...t.bits].flatMap((b, k) => (b === 1 ? [k + 3] : []))).toEqual([3, 9, 14, 19, 23, 36, 45, 49]);
    expect(smallIntTable([-5, 5])!.lo).toBe(-5);
    expect(smallIntTable([1, 2.5])).toBeNull();
    expect(smallIntTable([0, SMALL_INT_SPAN + 1])).toBeNull();
    expect(smallIntTable([0, SMALL_INT_SPAN])).not.toBeNull();
    expect(smallIntTable([7])).toBeNull();
  });

  it('matches DuckDB over INTEGER, BIGINT and DOUBLE columns', async () => {
    await same(`SELECT k FROM nulls WHERE i IN (-7, 0, 2, 9) ORDER BY k`);
    await same(`SELECT k FROM nulls WHERE i NOT IN (-3, 2, 4, 100) ORDER BY k`);
    await same(`SELECT k, i IN (1, 2, 3) AS x, i IN (1, NULL, 7) AS y, b IN (5, 10, 20, -60) AS z, d IN (0, 10, 2, 3) AS w FROM nulls ORDER BY k`);
    await same(`SELECT k FROM nulls WHERE b IN (20, 50, 90) ORDER BY k`);
    await same(`SELECT k FROM nulls WHERE d IN (-2, 0, 10) OR d IN (1, 3, 2.5) ORDER BY k`);
    await same(`SELECT k FROM nulls WHERE -d IN (0, 2, 5) ORDER BY k`); // -0.0 finds 0
    await same(`SELECT k FROM nulls WHERE i IN (0, 70000, 2) ORDER BY k`); // wider than the table: general path
  });

  it('TPC-H Q16 sizes', async () => {
    await same(`SELECT p_size, count(*) AS n FROM part WHERE p_size IN (49, 14, 23, 45, 19, 3, 36, 9) GROUP BY p_size ORDER BY p_size`);
  });
});
