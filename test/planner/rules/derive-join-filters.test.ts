import { describe, expect, it } from 'vitest';
import { filter, join, project, scan, type JoinType } from '../../../src/relnode/rel.js';
import { deriveJoinFilters } from '../../../src/planner/rules/derive-join-filters.js';
import { and, CUSTOMERS, eq, gt, int, lt, or, ORDERS, OC, plus, ref, show, str } from '../plan-fixtures.js';
import { useHarness } from '../../diff/harness.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import '../../../src/sql/index.js';

const orders = scan(ORDERS);
const customers = scan(CUSTOMERS);
const { oId, oCust, cId, cRegion } = OC;
// (o_id < 10 AND c_region = 'EU') OR (o_id > 100 AND c_region = 'US'), as in TPC-H Q19.
const mixedOr = or(and(lt(oId, int(10)), eq(cRegion, str('EU'))), and(gt(oId, int(100)), eq(cRegion, str('US'))));
const joined = (type: JoinType = 'inner', cond = and(eq(oCust, cId), mixedOr), left = orders) => join(left, customers, type, cond);

describe('derive-join-filters', () => {
  it('adds to each scan side the OR of its one-sided conjuncts, keeping the join condition', () => {
    expect(show(deriveJoinFilters.rewrite(joined()))).toBe(
      `Join(type=[inner], condition=[((o_cust = c_id) AND (((o_id < 10) AND (c_region = 'EU')) OR ((o_id > 100) AND (c_region = 'US'))))])
  Filter(condition=[((o_id < 10) OR (o_id > 100))])
    Scan(table=[orders], version=[t_orders#1])
  Filter(condition=[((c_region = 'EU') OR (c_region = 'US'))])
    Scan(table=[customers], version=[t_customers#1])`);
  });

  it('is idempotent: a side that has the filter gets no second one', () => {
    const once = deriveJoinFilters.rewrite(joined());
    expect(deriveJoinFilters.rewrite(once)).toBe(once);
  });

  it('derives nothing for a side one disjunct says nothing about, for outer joins, unsafe conjuncts or non-scan sides', () => {
    const partial = and(eq(oCust, cId), or(and(lt(oId, int(10)), eq(cRegion, str('EU'))), gt(oId, int(100))));
    expect(show(deriveJoinFilters.rewrite(joined('inner', partial)))).toBe(
      `Join(type=[inner], condition=[((o_cust = c_id) AND (((o_id < 10) AND (c_region = 'EU')) OR (o_id > 100)))])
  Filter(condition=[((o_id < 10) OR (o_id > 100))])
    Scan(table=[orders], version=[t_orders#1])
  Scan(table=[customers], version=[t_customers#1])`);
    const left = joined('left');
    expect(deriveJoinFilters.rewrite(left)).toBe(left);
    const arith = joined('inner', and(eq(oCust, cId), or(and(lt(plus(oId, int(1)), int(10)), eq(cRegion, str('EU'))), and(gt(oId, int(100)), eq(cRegion, str('US'))))));
    expect(show(deriveJoinFilters.rewrite(arith))).not.toMatch(/Filter\(condition=\[\(\(\(o_id \+ 1\)/);
    expect(show(deriveJoinFilters.rewrite(arith))).toMatch(/Filter\(condition=\[\(\(c_region = 'EU'\) OR \(c_region = 'US'\)\)\]\)/);
    const projected = project(orders, [oId, oCust, ref(2, 'INTEGER'), ref(3, 'VARCHAR'), ref(4, 'DATE')], ['o_id', 'o_cust', 'a', 'b', 'c']);
    expect(show(deriveJoinFilters.rewrite(joined('inner', undefined, projected as never)))).toMatch(/\n {2}Project/);
  });
});

describe('derive-join-filters end to end (TPC-H Q19 shape)', () => {
  const h = useHarness();
  const Q19ISH = `SELECT sum(l_extendedprice) AS rev, count(*) AS c FROM lineitem, part WHERE p_partkey = l_partkey
    AND ((p_brand = 'Brand#12' AND l_quantity <= 11 AND p_size <= 5) OR (p_brand = 'Brand#23' AND l_quantity BETWEEN 10 AND 20)
      OR (p_size > 40 AND l_quantity >= 45))`;

  it('filters both scans before the join and answers as DuckDB', async () => {
    const text = await h.env.sql(Q19ISH).explain();
    const physical = text.slice(text.indexOf('== Physical Plan'));
    expect(physical).toMatch(/Scan\(part: [^\n]*filters=[^\n]*p_brand = 'Brand#12'/);
    expect(physical).toMatch(/Scan\(lineitem: [^\n]*filters=[^\n]*l_quantity <= 11/);
    expectSameResult(fromArrow(await h.env.sql(Q19ISH).collect()), await h.duck.query(Q19ISH));
  });
});
