import { describe, expect, it } from 'vitest';
import { filter, project } from '../../../src/relnode/rel.js';
import { subquery } from '../../../src/relnode/rex.js';
import { removeSubqueries } from '../../../src/planner/rules/remove-subqueries.js';
import { ref, show } from '../plan-fixtures.js';
import { big, countOfOrders, customers, exists, notExpr, orders, ordersOf, scalar } from './decorrelation-fixtures.js';

const cId = ref(0, 'INTEGER', 'c_id');

describe('remove-subqueries', () => {
  it('a WHERE EXISTS conjunct becomes a semi Correlate over the filter input', () => {
    const before = filter(customers, exists(ordersOf(big)));
    expect(show(before)).toBe(
      `Filter(condition=[EXISTS {Filter(condition=[((o_cust = ^c_id) AND (o_total > 100))]) <- Scan(table=[orders], version=[t_orders#1])}])
  Scan(table=[customers], version=[t_customers#1])`);
    expect(show(removeSubqueries.rewrite(before))).toBe(
      `Correlate(type=[semi], condition=[true])
  Scan(table=[customers], version=[t_customers#1])
  Filter(condition=[((o_cust = ^c_id) AND (o_total > 100))])
    Scan(table=[orders], version=[t_orders#1])`);
  });

  it('a scalar subquery in a Project becomes a single Correlate whose value column the Project reads', () => {
    const before = project(customers, [cId, scalar(countOfOrders())], ['c_id', 'n']);
    expect(show(removeSubqueries.rewrite(before))).toBe(
      `Project(exprs=[c_id, n], names=[c_id, n])
  Correlate(type=[single], condition=[true])
    Scan(table=[customers], version=[t_customers#1])
    Project(exprs=[count_star()], names=[n])
      Aggregate(group=[], aggs=[count(*) AS count_star()])
        Project(exprs=[], names=[])
          Filter(condition=[(o_cust = ^c_id)])
            Scan(table=[orders], version=[t_orders#1])`);
  });

  it('NOT IN keeps NULL semantics in the anti condition; IN as a value becomes a mark Correlate', () => {
    const ids = project(orders, [ref(1, 'INTEGER', 'o_cust')], ['o_cust']);
    const notIn = filter(customers, notExpr(subquery('in', ids, 'BOOLEAN', cId)));
    expect(show(removeSubqueries.rewrite(notIn))).toBe(
      `Correlate(type=[anti], condition=[((c_id = o_cust) OR (c_id IS NULL) OR (o_cust IS NULL))])
  Scan(table=[customers], version=[t_customers#1])
  Project(exprs=[o_cust], names=[o_cust])
    Scan(table=[orders], version=[t_orders#1])`);
    const asValue = project(customers, [notExpr(subquery('in', ids, 'BOOLEAN', cId))], ['m']);
    expect(show(removeSubqueries.rewrite(asValue))).toBe(
      `Project(exprs=[(NOT mark)], names=[m])
  Correlate(type=[mark], condition=[(c_id = o_cust)])
    Scan(table=[customers], version=[t_customers#1])
    Project(exprs=[o_cust], names=[o_cust])
      Scan(table=[orders], version=[t_orders#1])`);
  });

  it('leaves plans without subqueries alone', () => {
    const plain = filter(customers, { kind: 'Literal', value: true, type: 'BOOLEAN' });
    expect(removeSubqueries.rewrite(plain)).toBe(plain);
  });
});
