import { describe, expect, it } from 'vitest';
import { correlate } from '../../../src/relnode/rel.js';
import { decorrelateUncorrelated } from '../../../src/planner/rules/decorrelate-uncorrelated.js';
import { show, TRUE } from '../plan-fixtures.js';
import { countOfOrders, customers, orders, ordersOf } from './decorrelation-fixtures.js';

describe('decorrelate-uncorrelated', () => {
  it('a single Correlate over an uncorrelated aggregate becomes a cross join with its one row', () => {
    const before = correlate(customers, countOfOrders(orders), 'single', TRUE);
    expect(show(before)).toBe(
      `Correlate(type=[single], condition=[true])
  Scan(table=[customers], version=[t_customers#1])
  Project(exprs=[count_star()], names=[n])
    Aggregate(group=[], aggs=[count(*) AS count_star()])
      Project(exprs=[], names=[])
        Scan(table=[orders], version=[t_orders#1])`);
    expect(show(decorrelateUncorrelated.rewrite(before))).toBe(
      `Project(exprs=[c_id, c_name, c_region, n], names=[c_id, c_name, c_region, n])
  Join(type=[cross], condition=[true])
    Scan(table=[customers], version=[t_customers#1])
    Project(exprs=[count_star()], names=[n])
      Aggregate(group=[], aggs=[count(*) AS count_star()])
        Project(exprs=[], names=[])
          Scan(table=[orders], version=[t_orders#1])`);
  });

  it('a mark Correlate for EXISTS becomes a cross join with a row-count flag', () => {
    const before = correlate(customers, orders, 'mark', TRUE);
    expect(show(decorrelateUncorrelated.rewrite(before))).toBe(
      `Join(type=[cross], condition=[true])
  Scan(table=[customers], version=[t_customers#1])
  Project(exprs=[(count_star() > 0)], names=[mark])
    Aggregate(group=[], aggs=[count(*) AS count_star()])
      Limit(fetch=[1])
        Scan(table=[orders], version=[t_orders#1])`);
  });

  it('leaves a correlated Correlate alone', () => {
    const correlated = correlate(customers, ordersOf(), 'semi', TRUE);
    expect(decorrelateUncorrelated.rewrite(correlated)).toBe(correlated);
  });
});
