/**
 * GROUP BY keys that another key determines leave the hash key (planner/rules/reduce-group-keys.ts,
 * functional-deps.ts; carried as min, or any_value for VARCHAR: exec/operators/agg-any-string.ts).
 * Against DuckDB on TPC-H SF 0.01: TPC-H Q10's and Q18's groupings, dependencies through inner-join
 * and WHERE equalities, outer joins (NULL-padded dependents), keys that determine only part of the
 * row, nested aggregates, ORDER BY / HAVING / LIMIT on a carried column; at parallelism 1 and 2.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { checkAtP1AndP2 } from './harness.js';

const tpch = (q: number): string => readFileSync(new URL(`../../bench/tpch/q${String(q).padStart(2, '0')}.sql`, import.meta.url), 'utf8');

const QUERIES: readonly [string, string][] = [
  ['TPC-H Q10 (c_custkey determines six keys)', tpch(10)],
  ['TPC-H Q18 (o_orderkey determines four keys)', tpch(18)],
  ['TPC-H Q3 (l_orderkey = o_orderkey determines o_orderdate, o_shippriority)', tpch(3)],
  ['a comma join: the WHERE equality carries the dependency',
    'SELECT c.c_custkey, c.c_name, c.c_mktsegment, o.o_custkey, count(*) AS n, sum(o.o_totalprice) AS t FROM customer c, orders o WHERE o.o_custkey = c.c_custkey GROUP BY c.c_custkey, c.c_name, c.c_mktsegment, o.o_custkey'],
  ['a LEFT JOIN: the padded side\'s dependents are NULL with their key',
    'SELECT c.c_custkey, c.c_name, o.o_orderkey, o.o_orderstatus, o.o_clerk, count(*) AS n FROM customer c LEFT JOIN orders o ON o.o_custkey = c.c_custkey AND o.o_totalprice > 300000 GROUP BY c.c_custkey, c.c_name, o.o_orderkey, o.o_orderstatus, o.o_clerk'],
  ['a key that determines part of the row only',
    'SELECT r.r_regionkey, r.r_name, n.n_name, count(*) AS n FROM region r JOIN nation n ON n.n_regionkey = r.r_regionkey JOIN customer c ON c.c_nationkey = n.n_nationkey GROUP BY r.r_regionkey, r.r_name, n.n_name'],
  ['no unique key: nothing is dropped', 'SELECT o_orderpriority, o_orderstatus, count(*) AS n FROM orders GROUP BY o_orderpriority, o_orderstatus'],
  ['a grouped subquery\'s single key determines its row',
    'SELECT a.k, a.n, c.c_name, count(*) AS m FROM (SELECT o_custkey AS k, count(*) AS n FROM orders GROUP BY o_custkey) a JOIN customer c ON c.c_custkey = a.k JOIN orders o ON o.o_custkey = a.k GROUP BY a.k, a.n, c.c_name'],
  ['ORDER BY and LIMIT on a carried string', 'SELECT c_custkey, c_name, c_phone, count(*) AS n FROM customer JOIN orders ON o_custkey = c_custkey GROUP BY c_custkey, c_name, c_phone ORDER BY c_name DESC, c_custkey LIMIT 7'],
  ['HAVING on a carried string', "SELECT c_custkey, c_name, sum(o_totalprice) AS t FROM customer JOIN orders ON o_custkey = c_custkey GROUP BY c_custkey, c_name HAVING c_name LIKE '%7%'"],
  ['carried numbers and dates', 'SELECT o_orderkey, o_orderdate, o_totalprice, o_shippriority, count(*) AS n FROM orders JOIN lineitem ON l_orderkey = o_orderkey GROUP BY o_orderkey, o_orderdate, o_totalprice, o_shippriority'],
  ['any_value of a string that is constant per group', 'SELECT o_clerk, any_value(o_clerk) AS c, count(*) AS n FROM orders GROUP BY o_clerk'],
];

checkAtP1AndP2('reduced group keys', QUERIES, (h, parallelism) => {
  it('hashes only on the determining key', async () => {
    expect(await h.env.sql(tpch(10)).explain()).toMatch(/Aggregate\(group=\[c_custkey\], aggs=\[sum\(.*any_value\(c_name\)/);
    expect(await h.env.sql(QUERIES[6]![1]).explain()).toContain('Aggregate(group=[o_orderpriority, o_orderstatus]');
  });
  if (parallelism === 2) {
    it('any_value picks the same strings at parallelism 1 and 2', async () => {
      const sql = 'SELECT o_orderpriority, any_value(o_clerk) AS c, any_value(o_comment) AS m FROM orders GROUP BY o_orderpriority ORDER BY 1';
      const p2 = (await h.env.sql(sql).collect()).toArray().map((r) => JSON.stringify(r));
      const { TableEnvironment } = await import('../../src/api/environment.js');
      const p1env = TableEnvironment.create({ parallelism: 1 });
      try {
        p1env.registerTpch(0.01);
        const p1 = (await p1env.sql(sql).collect()).toArray().map((r) => JSON.stringify(r));
        expect(p2).toEqual(p1);
      } finally { await p1env.close(); }
    });
  }
});
