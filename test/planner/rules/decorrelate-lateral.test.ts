import { describe, expect, it } from 'vitest';
import { correlate, limit, project, sort, values } from '../../../src/relnode/rel.js';
import { call, literal, outerRef } from '../../../src/relnode/rex.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { decorrelateLateral } from '../../../src/planner/rules/decorrelate-lateral.js';
import { decorrelateScalarAggregate } from '../../../src/planner/rules/decorrelate-scalar-aggregate.js';
import { gt, ref, show, TRUE } from '../plan-fixtures.js';
import { big, countOfOrders, customers, oTotal, ordersOf } from './decorrelation-fixtures.js';

describe('decorrelate-lateral', () => {
  it('inner: the correlated conjuncts become the join condition, the Project is computed over the join', () => {
    const sub = project(ordersOf(big), [oTotal, call('times', [outerRef(0, 'INTEGER', 'c_id'), literal(2, 'INTEGER')], 'INTEGER')], ['o_total', 'twice']);
    const before = correlate(customers, sub, 'inner', TRUE);
    expect(show(decorrelateLateral.rewrite(before))).toBe(
      `Project(exprs=[c_id, c_name, c_region, o_total, (c_id * 2)], names=[c_id, c_name, c_region, o_total, twice])
  Join(type=[inner], condition=[(o_cust = c_id)])
    Scan(table=[customers], version=[t_customers#1])
    Filter(condition=[(o_total > 100)])
      Scan(table=[orders], version=[t_orders#1])`);
  });

  it('left: the ON condition joins the condition; expressions that are not input columns read NULL without a match', () => {
    const sub = project(ordersOf(), [oTotal, literal(1, 'INTEGER')], ['o_total', 'one']);
    const before = correlate(customers, sub, 'left', gt(ref(3, 'DOUBLE', 'o_total'), literal(5, 'DOUBLE')));
    expect(show(decorrelateLateral.rewrite(before))).toBe(
      `Project(exprs=[c_id, c_name, c_region, o_total, CASE WHEN (__matched IS NOT NULL) THEN 1 ELSE NULL END], names=[c_id, c_name, c_region, o_total, one])
  Join(type=[left], condition=[((o_total > 5) AND (o_cust = c_id))])
    Scan(table=[customers], version=[t_customers#1])
    Project(exprs=[o_id, o_cust, o_total, o_status, o_date, true], names=[o_id, o_cust, o_total, o_status, o_date, __matched])
      Scan(table=[orders], version=[t_orders#1])`);
  });

  it('no FROM inside: a cross join with the one row', () => {
    const dual = values([[0]], schemaOf([field('dummy', 'INTEGER', false)]));
    const before = correlate(customers, project(dual, [outerRef(0, 'INTEGER', 'c_id')], ['b']), 'inner', TRUE);
    expect(show(decorrelateLateral.rewrite(before))).toBe(
      `Project(exprs=[c_id, c_name, c_region, c_id], names=[c_id, c_name, c_region, b])
  Join(type=[cross], condition=[true])
    Scan(table=[customers], version=[t_customers#1])
    Values(rows=[(0)], types=[INTEGER])`);
  });

  it('leaves LIMIT, aggregates and the other Correlate types to the other rules', () => {
    const top = correlate(customers, limit(sort(ordersOf(), [{ index: 2, desc: true, nullsFirst: false }]), 2), 'inner', TRUE);
    expect(decorrelateLateral.rewrite(top)).toBe(top);
    const agg = correlate(customers, countOfOrders(), 'left', TRUE);
    expect(decorrelateLateral.rewrite(agg)).toBe(agg);
    const semi = correlate(customers, ordersOf(), 'semi', TRUE);
    expect(decorrelateLateral.rewrite(semi)).toBe(semi);
  });

  it('a global aggregate per row (no ON condition) is grouped by the correlation keys and left-joined, as a scalar subquery', () => {
    const agg = correlate(customers, countOfOrders(), 'inner', TRUE);
    expect(show(decorrelateScalarAggregate.rewrite(agg))).toContain('Join(type=[left], condition=[(c_id = __key0)])');
    const withOn = correlate(customers, countOfOrders(), 'inner', gt(ref(2, 'BIGINT', 'n'), literal(0n, 'BIGINT')));
    expect(decorrelateScalarAggregate.rewrite(withOn)).toBe(withOn);
  });
});
