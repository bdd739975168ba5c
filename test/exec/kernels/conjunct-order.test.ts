/**
 * The evaluation order of a WHERE's simple conjuncts (conjunct-order.ts): cheap and selective row
 * tests first, stably, never across a conjunct that may raise; and the predicate's answers stay
 * the same (against DuckDB for TPC-H Q16's filter on part).
 */
import { describe, expect, it } from 'vitest';
import '../../../src/sql/index.js';
import { cast } from '../../../src/relnode/rex.js';
import { orderConjuncts, simpleRank } from '../../../src/exec/kernels/conjunct-order.js';
import { useHarness } from '../../diff/harness.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import { fn, lit, ref } from './kernel-helpers.js';

const s = ref(0, 'VARCHAR'), t = ref(1, 'VARCHAR'), n = ref(2, 'INTEGER');
const ne = fn('ne', [s, lit('Brand#45', 'VARCHAR')], 'BOOLEAN');
const notLike = fn('not', [fn('like', [t, lit('MEDIUM POLISHED%', 'VARCHAR')], 'BOOLEAN')], 'BOOLEAN');
const inList = fn('in', [n, lit(49, 'INTEGER'), lit(14, 'INTEGER'), lit(3, 'INTEGER')], 'BOOLEAN');
const castGt = fn('gt', [cast(s, 'INTEGER'), lit(1, 'INTEGER')], 'BOOLEAN');

const h = useHarness();

describe('conjunct order', () => {
  it('ranks simple conjuncts and treats others as barriers', () => {
    expect(simpleRank(inList)).toBe(0);
    expect(simpleRank(fn('eq', [s, lit('x', 'VARCHAR')], 'BOOLEAN'))).toBe(0);
    expect(simpleRank(ne)).toBe(2);
    expect(simpleRank(notLike)).toBe(3);
    expect(simpleRank(fn('not', [inList], 'BOOLEAN'))).toBe(2);
    expect(simpleRank(castGt)).toBeUndefined();
    expect(simpleRank(fn('like', [fn('upper', [s], 'VARCHAR'), lit('A%', 'VARCHAR')], 'BOOLEAN'))).toBeUndefined();
  });

  it('moves the IN first (TPC-H Q16) but never across a barrier', () => {
    expect(orderConjuncts([ne, notLike, inList])).toEqual([inList, ne, notLike]);
    // The cast keeps its place: the conjuncts before it still run before it.
    expect(orderConjuncts([notLike, ne, castGt, inList])).toEqual([ne, notLike, castGt, inList]);
    expect(orderConjuncts([castGt, ne])).toEqual([castGt, ne]);
  });

  it('a later cast still sees only the rows an earlier conjunct kept', async () => {
    const r = await h.env.sql(`SELECT k FROM nulls WHERE s <> 'apple' AND s <> 'Banana' AND s NOT LIKE '% cherry %' AND s <> 'date_fruit' AND s <> 'Elder%' AND s <> '' AND s <> 'APPLE' AND s <> 'a_b' AND s <> 'zz' AND CAST(s AS INTEGER) > 1 ORDER BY k`).collect();
    expect(r.numRows).toBe(0);
  });

  it('TPC-H Q16 filter on part matches DuckDB', async () => {
    const sql = `SELECT p_brand, p_type, p_size, count(*) AS n FROM part WHERE p_brand <> 'Brand#45' AND p_type NOT LIKE 'MEDIUM POLISHED%' AND p_size IN (49, 14, 23, 45, 19, 3, 36, 9) GROUP BY p_brand, p_type, p_size ORDER BY p_brand, p_type, p_size`;
    expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
  });
});
