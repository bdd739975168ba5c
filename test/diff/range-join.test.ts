/**
 * Joins whose condition bounds a right INTEGER/DATE column by left expressions
 * sort the right side once and binary-search each left row's bounds
 * (planner/range-join-keys.ts, exec/operators/nested-loop-join.ts `range`).
 * Against DuckDB on TPC-H SF 0.01 and the NULL tables: BETWEEN, one-sided and
 * strict bounds, NULL bounds and keys, extra conjuncts, LEFT / RIGHT / FULL,
 * EXISTS and NOT EXISTS; at parallelism 1 and 2.
 */
import { expect, it } from 'vitest';
import { checkAtP1AndP2 } from './harness.js';

const ORDERS = '(SELECT * FROM orders WHERE o_orderkey < 300) o';
const QUERIES: readonly [string, string][] = [
  ['a date band (BETWEEN)', `SELECT count(*) AS n, sum(l.l_quantity) AS q FROM ${ORDERS} JOIN lineitem l ON l.l_shipdate BETWEEN o.o_orderdate AND o.o_orderdate + 3`],
  ['strict bounds on both sides', `SELECT count(*) AS n FROM ${ORDERS} JOIN lineitem l ON l.l_shipdate > o.o_orderdate AND l.l_shipdate < o.o_orderdate + 5`],
  ['a one-sided bound', 'SELECT count(*) AS n FROM (SELECT * FROM orders WHERE o_orderkey < 40) o JOIN (SELECT * FROM lineitem WHERE l_orderkey < 400) l ON l.l_shipdate >= o.o_orderdate'],
  ['integer bounds written the other way round, with a residual', `SELECT o.o_orderkey, l.l_orderkey, l.l_linenumber FROM ${ORDERS} JOIN lineitem l ON o.o_orderkey - 2 <= l.l_orderkey AND o.o_orderkey + 2 >= l.l_orderkey AND l.l_linenumber < 3`],
  ['NULL bounds and NULL keys', 'SELECT n.k, r.j FROM nulls n JOIN nulls_r r ON r.j BETWEEN n.i AND n.i + 1'],
  ['LEFT JOIN keeps rows without candidates', 'SELECT n.k, r.j, r.w FROM nulls n LEFT JOIN nulls_r r ON r.j >= n.i AND r.j <= n.k'],
  ['RIGHT JOIN', 'SELECT n.k, r.j FROM nulls n RIGHT JOIN nulls_r r ON r.j >= n.i AND r.j < n.i + 2'],
  ['FULL JOIN', 'SELECT n.k, r.j FROM nulls n FULL JOIN nulls_r r ON r.j > n.i AND r.j <= n.k'],
  ['a LEFT JOIN with the lone column on the left (no swap)', 'SELECT n.k, r.j FROM nulls_r r LEFT JOIN nulls n ON r.j BETWEEN n.i AND n.k'],
  ['EXISTS', 'SELECT n.k FROM nulls n WHERE EXISTS (SELECT 1 FROM nulls_r r WHERE r.j BETWEEN n.i - 1 AND n.i + 1)'],
  ['NOT EXISTS', 'SELECT n.k FROM nulls n WHERE NOT EXISTS (SELECT 1 FROM nulls_r r WHERE r.j BETWEEN n.i - 1 AND n.i + 1)'],
  ['the lone column on the left side (an inner join swaps its inputs)', 'SELECT count(*) AS n FROM (SELECT * FROM lineitem WHERE l_orderkey < 200) l JOIN (SELECT * FROM orders WHERE o_orderkey < 100) o ON l.l_shipdate BETWEEN o.o_orderdate AND o.o_orderdate + 30'],
];

checkAtP1AndP2('range joins', QUERIES, (h) => {
  it('EXPLAIN names the range column', async () => {
    expect(await h.env.sql(QUERIES[0]![1]).explain()).toMatch(/NestedLoopJoin\(inner, .*range=l_shipdate\)/);
    expect(await h.env.sql(QUERIES[11]![1]).explain()).toMatch(/NestedLoopJoin\(inner, .*range=l_shipdate\)/);
    // A left join does not swap: it keeps the one-sided key on its right column.
    expect(await h.env.sql('SELECT count(*) FROM lineitem l LEFT JOIN orders o ON l.l_shipdate BETWEEN o.o_orderdate AND o.o_orderdate + 1').explain()).toContain('range=o_orderdate)');
  });
});
