import { describe, expect, it } from 'vitest';
import { correlate, project } from '../../../src/relnode/rel.js';
import { decorrelateExistence } from '../../../src/planner/rules/decorrelate-existence.js';
import { eq, ref, show, TRUE } from '../plan-fixtures.js';
import { big, countOfOrders, customers, ordersOf } from './decorrelation-fixtures.js';

describe('decorrelate-existence', () => {
  it('NOT EXISTS: the correlated conjuncts become the anti join condition, the rest stays on the subquery', () => {
    const before = correlate(customers, ordersOf(big), 'anti', TRUE);
    expect(show(before)).toBe(
      `Correlate(type=[anti], condition=[true])
  Scan(table=[customers], version=[t_customers#1])
  Filter(condition=[((o_cust = ^c_id) AND (o_total > 100))])
    Scan(table=[orders], version=[t_orders#1])`);
    expect(show(decorrelateExistence.rewrite(before))).toBe(
      `Join(type=[anti], condition=[(o_cust = c_id)])
  Scan(table=[customers], version=[t_customers#1])
  Filter(condition=[(o_total > 100)])
    Scan(table=[orders], version=[t_orders#1])`);
  });

  it('IN: the condition on the Project\'s output is inlined over the rows below it', () => {
    const sub = project(ordersOf(big), [ref(0, 'INTEGER', 'o_id')], ['o_id']);
    const before = correlate(customers, sub, 'semi', eq(ref(0, 'INTEGER', 'c_id'), ref(3, 'INTEGER', 'o_id')));
    expect(show(decorrelateExistence.rewrite(before))).toBe(
      `Join(type=[semi], condition=[((c_id = o_id) AND (o_cust = c_id))])
  Scan(table=[customers], version=[t_customers#1])
  Filter(condition=[(o_total > 100)])
    Scan(table=[orders], version=[t_orders#1])`);
  });

  it('leaves single Correlates and correlation below an aggregate to the other rules', () => {
    const single = correlate(customers, countOfOrders(), 'single', TRUE);
    expect(decorrelateExistence.rewrite(single)).toBe(single);
    const underAgg = correlate(customers, countOfOrders(), 'semi', TRUE);
    expect(decorrelateExistence.rewrite(underAgg)).toBe(underAgg);
  });
});
