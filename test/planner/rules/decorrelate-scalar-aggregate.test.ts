import { describe, expect, it } from 'vitest';
import { correlate, filter } from '../../../src/relnode/rel.js';
import { decorrelateScalarAggregate } from '../../../src/planner/rules/decorrelate-scalar-aggregate.js';
import { show, TRUE } from '../plan-fixtures.js';
import { countOfOrders, customers, lt, oCust, orders, outerId } from './decorrelation-fixtures.js';

describe('decorrelate-scalar-aggregate', () => {
  it('count() correlated by an equality: grouped by the inner key, left-joined, NULL counts made 0', () => {
    const before = correlate(customers, countOfOrders(), 'single', TRUE);
    expect(show(before)).toBe(
      `Correlate(type=[single], condition=[true])
  Scan(table=[customers], version=[t_customers#1])
  Project(exprs=[count_star()], names=[n])
    Aggregate(group=[], aggs=[count(*) AS count_star()])
      Project(exprs=[], names=[])
        Filter(condition=[(o_cust = ^c_id)])
          Scan(table=[orders], version=[t_orders#1])`);
    expect(show(decorrelateScalarAggregate.rewrite(before))).toBe(
      `Project(exprs=[c_id, c_name, c_region, coalesce(count_star(), 0)], names=[c_id, c_name, c_region, n])
  Join(type=[left], condition=[(c_id = __key0)])
    Scan(table=[customers], version=[t_customers#1])
    Aggregate(group=[__key0], aggs=[count(*) AS count_star()])
      Project(exprs=[o_cust], names=[__key0])
        Scan(table=[orders], version=[t_orders#1])`);
  });

  it('leaves non-equality correlation to decorrelate-domain', () => {
    const before = correlate(customers, countOfOrders(filter(orders, lt(oCust, outerId))), 'single', TRUE);
    expect(decorrelateScalarAggregate.rewrite(before)).toBe(before);
  });
});
