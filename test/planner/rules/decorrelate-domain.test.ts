import { describe, expect, it } from 'vitest';
import { correlate, filter, limit, sort } from '../../../src/relnode/rel.js';
import { decorrelateDomain } from '../../../src/planner/rules/decorrelate-domain.js';
import { show, TRUE } from '../plan-fixtures.js';
import { countOfOrders, customers, lt, oCust, orders, outerId } from './decorrelation-fixtures.js';

describe('decorrelate-domain', () => {
  it('a non-equality correlated count(): computed per distinct outer value, left-joined back onto it (0 without rows); one row per value, so no row-count check', () => {
    const before = correlate(customers, countOfOrders(filter(orders, lt(oCust, outerId))), 'single', TRUE);
    expect(show(before)).toBe(
      `Correlate(type=[single], condition=[true])
  Scan(table=[customers], version=[t_customers#1])
  Project(exprs=[count_star()], names=[n])
    Aggregate(group=[], aggs=[count(*) AS count_star()])
      Project(exprs=[], names=[])
        Filter(condition=[(o_cust < ^c_id)])
          Scan(table=[orders], version=[t_orders#1])`);
    expect(show(decorrelateDomain.rewrite(before))).toBe(
      `Project(exprs=[c_id, c_name, c_region, n], names=[c_id, c_name, c_region, n])
  Join(type=[left], condition=[(c_id = __domain0)])
    Scan(table=[customers], version=[t_customers#1])
    Project(exprs=[count_star(), __domain0], names=[n, __domain0])
      Project(exprs=[coalesce(count_star(), 0), __domain0#0], names=[count_star(), __domain0])
        Join(type=[left], condition=[(__domain0#0 = __domain0#1)])
          Distinct()
            Project(exprs=[c_id], names=[__domain0])
              Scan(table=[customers], version=[t_customers#1])
          Aggregate(group=[__domain0], aggs=[count(*) AS count_star()])
            Project(exprs=[__domain0], names=[__domain0])
              Filter(condition=[(o_cust < __domain0)])
                Join(type=[cross], condition=[true])
                  Scan(table=[orders], version=[t_orders#1])
                  Distinct()
                    Project(exprs=[c_id], names=[__domain0])
                      Scan(table=[customers], version=[t_customers#1])`);
  });

  it('ORDER BY ... LIMIT in the subquery becomes a Sort and a limit per outer value (GroupLimit)', () => {
    const top = limit(sort(filter(orders, lt(oCust, outerId)), [{ index: 2, desc: true, nullsFirst: false }]), 1);
    expect(show(decorrelateDomain.rewrite(correlate(customers, top, 'semi', TRUE)))).toBe(
      `Join(type=[semi], condition=[(c_id = __domain0)])
  Scan(table=[customers], version=[t_customers#1])
  GroupLimit(keys=[__domain0], fetch=[1])
    Sort(keys=[o_total DESC NULLS LAST])
      Filter(condition=[(o_cust < __domain0)])
        Join(type=[cross], condition=[true])
          Scan(table=[orders], version=[t_orders#1])
          Distinct()
            Project(exprs=[c_id], names=[__domain0])
              Scan(table=[customers], version=[t_customers#1])`);
  });
});
