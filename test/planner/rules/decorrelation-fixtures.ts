/** Correlated plans shared by the decorrelation rule tests: customers with subqueries over orders. */
import { aggregate, correlate, filter, project, scan, type RelNode } from '../../../src/relnode/rel.js';
import { call, outerRef, subquery, type RexNode } from '../../../src/relnode/rex.js';
import { and, CUSTOMERS, eq, gt, int, lt, ORDERS, ref } from '../plan-fixtures.js';

export const customers = scan(CUSTOMERS);
export const orders = scan(ORDERS);
/** c_id of the outer customer. */
export const outerId = outerRef(0, 'INTEGER', 'c_id');
export const oCust = ref(1, 'INTEGER', 'o_cust');
export const oTotal = ref(2, 'DOUBLE', 'o_total');

/** SELECT ... FROM orders WHERE o_cust = c_id [AND extra]. */
export function ordersOf(extra?: RexNode): RelNode {
  return filter(orders, extra ? and(eq(oCust, outerId), extra) : eq(oCust, outerId));
}

/** (SELECT count(*) FROM orders WHERE o_cust = c_id): Project → Aggregate → Project → Filter, as the binder builds it. */
export function countOfOrders(where: RelNode = ordersOf()): RelNode {
  const pre = project(where, [], []);
  const agg = aggregate(pre, [], [{ fn: 'count_star', args: [], distinct: false, type: 'BIGINT', name: 'count_star()' }]);
  return project(agg, [ref(0, 'BIGINT', 'count_star()')], ['n']);
}

export const big = gt(oTotal, { kind: 'Literal', value: 100, type: 'DOUBLE' });
export const scalar = (r: RelNode): RexNode => subquery('scalar', r, r.schema.fields[0]!.type);
export const exists = (r: RelNode): RexNode => subquery('exists', r, 'BOOLEAN');
export const notExpr = (e: RexNode): RexNode => call('not', [e], 'BOOLEAN');
export { correlate, int, lt };
