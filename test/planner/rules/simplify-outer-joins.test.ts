import { describe, expect, it } from 'vitest';
import { filter, join, scan } from '../../../src/relnode/rel.js';
import { call } from '../../../src/relnode/rex.js';
import { simplifyOuterJoins, rejectsNulls } from '../../../src/planner/rules/simplify-outer-joins.js';
import { and, CUSTOMERS, eq, gt, int, not, or, ORDERS, OC, plus, ref, show, str } from '../plan-fixtures.js';
import '../../../src/sql/index.js';
import { useHarness } from '../../diff/harness.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';

const orders = scan(ORDERS);
const customers = scan(CUSTOMERS);
const { oId, oCust, cId, cRegion } = OC;
const isNull = (e: ReturnType<typeof ref>) => call('is_null', [e], 'BOOLEAN');
const isNotNull = (e: ReturnType<typeof ref>) => call('is_not_null', [e], 'BOOLEAN');

const joinType = (c: Parameters<typeof filter>[1], type: 'left' | 'right' | 'full'): string => {
  const out = simplifyOuterJoins.rewrite(filter(join(orders, customers, type, eq(oCust, cId)), c));
  return show(out).split('\n')[1]!.match(/type=\[(\w+)\]/)![1]!;
};

describe('simplify-outer-joins', () => {
  it('a filter rejecting the padded side turns a left or right join inner', () => {
    expect(joinType(eq(cRegion, str('EU')), 'left')).toBe('inner');
    expect(joinType(gt(plus(cId, int(1)), int(3)), 'left')).toBe('inner');
    expect(joinType(gt(oId, int(3)), 'right')).toBe('inner');
    expect(joinType(and(gt(oId, int(3)), isNotNull(cId)), 'left')).toBe('inner');
    expect(show(simplifyOuterJoins.rewrite(filter(join(orders, customers, 'left', eq(oCust, cId)), eq(cRegion, str('EU')))))).toBe(
      `Filter(condition=[(c_region = 'EU')])
  Join(type=[inner], condition=[(o_cust = c_id)])
    Scan(table=[orders], version=[t_orders#1])
    Scan(table=[customers], version=[t_customers#1])`);
  });

  it('a full join loses the side whose padded rows are rejected', () => {
    expect(joinType(eq(cRegion, str('EU')), 'full')).toBe('right');
    expect(joinType(gt(oId, int(3)), 'full')).toBe('left');
    expect(joinType(and(gt(oId, int(3)), eq(cRegion, str('EU'))), 'full')).toBe('inner');
  });

  it('filters that keep padded rows leave the join alone', () => {
    expect(joinType(isNull(cRegion), 'left')).toBe('left');
    expect(joinType(or(eq(cRegion, str('EU')), gt(oId, int(3))), 'left')).toBe('left');
    expect(joinType(gt(oId, int(3)), 'left')).toBe('left');
    expect(joinType(not(isNull(oId)), 'right')).toBe('right');
    expect(rejectsNulls(or(eq(cRegion, str('EU')), gt(cId, int(3))), 5, 8)).toBe(true);
    expect(rejectsNulls(call('coalesce', [cRegion, str('x')], 'VARCHAR'), 5, 8)).toBe(false);
  });
});

describe('simplify-outer-joins: results against DuckDB', () => {
  const h = useHarness({ tpch: false });
  const same = async (sql: string): Promise<void> => {
    expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
  };

  it('outer joins under NULL-rejecting and NULL-keeping filters', async () => {
    await same('SELECT k, j, w FROM nulls LEFT JOIN nulls_r ON i = j WHERE w > 150');
    await same('SELECT k, j, w FROM nulls LEFT JOIN nulls_r ON i = j WHERE w IS NULL');
    await same('SELECT k, j, w FROM nulls LEFT JOIN nulls_r ON i = j WHERE w > 150 OR k > 10');
    await same('SELECT k, j, w FROM nulls RIGHT JOIN nulls_r ON i = j WHERE k + 1 > 2');
    await same('SELECT k, j, w FROM nulls FULL JOIN nulls_r ON i = j WHERE w < 1000');
    await same('SELECT k, j, w FROM nulls FULL JOIN nulls_r ON i = j WHERE k IN (1, 2, 9) AND s2 IS NOT NULL');
  });

  it('a correlated scalar aggregate compared in WHERE (the TPC-H Q17 shape)', async () => {
    await same('SELECT k, i FROM nulls n WHERE d < (SELECT avg(w) / 100 FROM nulls_r WHERE j = n.i)');
    await same('SELECT k FROM nulls n WHERE i > (SELECT count(*) FROM nulls_r WHERE j = n.i)');
  });
});
