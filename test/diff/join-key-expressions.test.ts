/**
 * Equalities between expressions over the two join inputs hash-join on
 * computed key columns (planner/rules/join-key-expressions.ts) instead of
 * running as nested loops. Against DuckDB on TPC-H SF 0.01 and the NULL
 * tables: arithmetic, casts and string functions as keys, on one side or
 * both, every join type, NULL keys, NOT IN and EXISTS over expression keys,
 * WHERE conjuncts of a comma join; at parallelism 1 and 2.
 */
import { expect, it } from 'vitest';
import { checkAtP1AndP2 } from './harness.js';

const QUERIES: readonly [string, string][] = [
  ['arithmetic on the probe side', 'SELECT count(*) AS n, sum(o.o_totalprice) AS t FROM lineitem l JOIN orders o ON l.l_orderkey + 0 = o.o_orderkey'],
  ['arithmetic on the build side', 'SELECT l.l_linenumber, count(*) AS n FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey * 1 GROUP BY l.l_linenumber'],
  ['keys on both sides, a plain key beside them', 'SELECT count(*) AS n FROM partsupp ps JOIN lineitem l ON ps.ps_partkey = l.l_partkey AND ps.ps_suppkey % 7 = l.l_suppkey % 7'],
  ['a comma join with a WHERE equality of expressions', 'SELECT c.c_nationkey, count(*) AS n FROM customer c, nation n WHERE c.c_nationkey + 1 = n.n_nationkey + 1 GROUP BY c.c_nationkey'],
  ['string functions as keys', 'SELECT count(*) AS n FROM nation a JOIN nation b ON lower(a.n_name) = lower(upper(b.n_name))'],
  ['a cast to VARCHAR against a string column', "SELECT count(*) AS n FROM orders o JOIN (SELECT CAST(o_orderkey AS VARCHAR) AS k FROM orders WHERE o_orderkey % 3 = 0) s ON CAST(o.o_orderkey AS VARCHAR) = s.k"],
  ['a LEFT JOIN keeps unmatched rows', 'SELECT n.k, n.i, r.j, r.w FROM nulls n LEFT JOIN nulls_r r ON n.i + 1 = r.j + 1'],
  ['a RIGHT JOIN', 'SELECT n.k, r.j, r.s2 FROM nulls n RIGHT JOIN nulls_r r ON n.i * 2 = r.j * 2'],
  ['a FULL JOIN', 'SELECT n.k, r.j, r.w FROM nulls n FULL JOIN nulls_r r ON coalesce(n.i, -1) = coalesce(r.j, -1)'],
  ['NULL keys never match in an inner join', 'SELECT n.k, r.w FROM nulls n JOIN nulls_r r ON n.i - 0 = r.j'],
  ['EXISTS with an expression key', 'SELECT n.k FROM nulls n WHERE EXISTS (SELECT 1 FROM nulls_r r WHERE r.j + 1 = n.i + 1)'],
  ['NOT EXISTS with an expression key', 'SELECT n.k FROM nulls n WHERE NOT EXISTS (SELECT 1 FROM nulls_r r WHERE r.j = n.i * 1)'],
  ['IN over an expression', 'SELECT n.k FROM nulls n WHERE n.i + 1 IN (SELECT j + 1 FROM nulls_r)'],
  ['NOT IN over an expression (the subquery has NULLs: no row)', 'SELECT n.k FROM nulls n WHERE n.i + 1 NOT IN (SELECT j + 1 FROM nulls_r)'],
  ['NOT IN over an expression (no NULLs in the subquery)', 'SELECT n.k FROM nulls n WHERE n.i + 1 NOT IN (SELECT j + 1 FROM nulls_r WHERE j IS NOT NULL)'],
  ['the same expression written twice', 'SELECT count(*) AS n FROM orders a JOIN orders b ON a.o_orderkey % 100 = b.o_orderkey % 100 AND a.o_orderkey % 100 = b.o_custkey % 100 WHERE a.o_orderkey < 2000 AND b.o_orderkey < 2000'],
];

checkAtP1AndP2('expression join keys', QUERIES, (h) => {
  it('plans a hash join, not a nested loop', async () => {
    const text = await h.env.sql(QUERIES[0]![1]).explain();
    expect(text).not.toContain('NestedLoopJoin');
    expect(text).toMatch(/HashJoin\(inner, \(__left_key0 = o_orderkey\)/);
  });
});
