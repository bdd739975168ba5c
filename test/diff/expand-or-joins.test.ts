/**
 * Inner joins on an OR of equalities run as a UNION ALL of hash joins
 * (planner/rules/expand-or-joins.ts) instead of a nested loop. Against DuckDB
 * on TPC-H SF 0.01 and the NULL tables: pairs that satisfy several branches
 * (each pair once), NULL keys and NULL branches, three branches, extra
 * conjuncts, expression keys, a comma join's WHERE; at parallelism 1 and 2.
 */
import { expect, it } from 'vitest';
import { checkAtP1AndP2 } from './harness.js';

const QUERIES: readonly [string, string][] = [
  ['two branches that overlap (a pair matching both comes out once)',
    'SELECT count(*) AS n, sum(o.o_totalprice) AS t FROM orders o JOIN customer c ON o.o_custkey = c.c_custkey OR o.o_orderkey = c.c_custkey'],
  ['rows, with extra conjuncts', 'SELECT o.o_orderkey, c.c_custkey, c.c_name FROM orders o JOIN customer c ON (o.o_custkey = c.c_custkey OR o.o_orderkey = c.c_custkey) AND c.c_acctbal > 9000 AND o.o_orderkey < 3000'],
  ['NULL keys and a branch that is NULL', 'SELECT n.k, r.j, r.w FROM nulls n JOIN nulls_r r ON n.i = r.j OR n.k = r.j'],
  ['three branches, one on expressions', 'SELECT n.k, r.j FROM nulls n JOIN nulls_r r ON n.i = r.j OR n.k + 40 = r.j OR n.b = r.w'],
  ['a branch with a residual', 'SELECT n.k, r.j FROM nulls n JOIN nulls_r r ON (n.i = r.j AND r.w > 150) OR n.k = r.j'],
  ['a comma join with the OR in WHERE', 'SELECT count(*) AS n FROM supplier s, nation n WHERE s.s_nationkey = n.n_nationkey OR s.s_suppkey = n.n_nationkey'],
  ['EXISTS over an OR (rows matching both branches come out once)', 'SELECT n.k, n.i FROM nulls n WHERE EXISTS (SELECT 1 FROM nulls_r r WHERE r.j = n.i OR r.j = n.k)'],
  ['NOT EXISTS over an OR, with NULL keys', 'SELECT n.k, n.i FROM nulls n WHERE NOT EXISTS (SELECT 1 FROM nulls_r r WHERE r.j = n.i OR r.j + 40 = n.k)'],
  ['EXISTS over an OR with a shared conjunct, TPC-H', 'SELECT count(*) AS n FROM orders o WHERE EXISTS (SELECT 1 FROM customer c WHERE c.c_acctbal > 0 AND (c.c_custkey = o.o_custkey OR c.c_custkey = o.o_orderkey))'],
  ['an OR next to a plain key stays one hash join', 'SELECT count(*) AS n FROM orders o JOIN customer c ON o.o_custkey = c.c_custkey AND (o.o_orderkey < 100 OR c.c_acctbal < 0)'],
];

checkAtP1AndP2('OR joins', QUERIES, (h) => {
  it('plans hash joins under a UNION ALL, not a nested loop', async () => {
    const text = await h.env.sql(QUERIES[0]![1]).explain();
    expect(text).not.toContain('NestedLoopJoin');
    expect(text.match(/HashJoin\(inner/g)?.length).toBe(2);
    const semi = await h.env.sql(QUERIES[6]![1]).explain();
    expect(semi).not.toContain('NestedLoopJoin');
    expect(semi).toMatch(/HashJoin\(semi/);
  });
});
