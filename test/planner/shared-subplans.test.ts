/**
 * Common subplans computed once (planner/lower-shared.ts): a repeated
 * aggregate subtree lowers to one vertex with two consumers (physical plan
 * text names the repeat `shared: …`), results stay DuckDB's at parallelism 1
 * and 2, and a subtree whose scan takes a runtime filter of a join above is
 * not shared (the filter would drop rows the other consumer needs).
 */
import { describe, expect, it } from 'vitest';
import '../../src/sql/index.js';
import { useHarness } from '../diff/harness.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { TableEnvironment } from '../../src/api/environment.js';
import { registerNullTables } from '../diff/harness.js';

const h = useHarness();

function physical(text: string): string {
  return text.slice(text.indexOf('== Physical Plan'));
}

async function same(sql: string, env: TableEnvironment = h.env): Promise<void> {
  expectSameResult(fromArrow(await env.sql(sql).collect()), await h.duck.query(sql));
}

// TPC-H Q15: the revenue view is read by the outer query and by its max() subquery.
const Q15 = `WITH revenue AS (
    SELECT l_suppkey AS supplier_no, sum(l_extendedprice * (1 - l_discount)) AS total_revenue FROM lineitem
    WHERE l_shipdate >= DATE '1996-01-01' AND l_shipdate < DATE '1996-04-01' GROUP BY l_suppkey)
  SELECT s_suppkey, s_name, total_revenue FROM supplier, revenue
  WHERE s_suppkey = supplier_no AND total_revenue = (SELECT max(total_revenue) FROM revenue) ORDER BY s_suppkey`;

describe('shared subplans', () => {
  it('TPC-H Q15 aggregates lineitem once and feeds both consumers', async () => {
    const p = physical(await h.env.sql(Q15).explain());
    expect(p.match(/Scan\(lineitem/g)).toHaveLength(1);
    const id = /HashAggregate#(\d+)\(group=\[l_suppkey\]/.exec(p)?.[1];
    expect(id).toBeDefined();
    expect(p).toContain(`shared: HashAggregate#${id}`);
    await same(Q15);
  });

  it('the same results at parallelism 2', async () => {
    const env = TableEnvironment.create({ parallelism: 2 });
    try {
      env.registerTpch(0.01);
      await registerNullTables(env);
      expect(physical(await env.sql(Q15).explain())).toMatch(/shared: HashAggregate#\d+/);
      await same(Q15, env);
    } finally {
      await env.close();
    }
  });

  it('a self-join of a derived aggregate shares it; a LIMIT on one consumer leaves the other whole', async () => {
    const t = 'WITH t AS (SELECT o_custkey AS k, count(*) AS c, sum(o_totalprice) AS s FROM orders GROUP BY o_custkey)';
    const sql = `${t} SELECT a.c, count(*) AS n, sum(b.s) AS s, sum(a.s) AS s2 FROM t a JOIN t b ON a.c = b.c GROUP BY a.c ORDER BY a.c`;
    expect(physical(await h.env.sql(sql).explain())).toMatch(/shared: HashAggregate#\d+/);
    await same(sql);
    const lim = `${t} SELECT (SELECT count(*) FROM t) AS total, x.k FROM (SELECT k FROM t ORDER BY k LIMIT 3) x ORDER BY x.k`;
    await same(lim);
  });

  it('not shared when a join above passes a runtime filter to the subtree\'s scan', async () => {
    // The probe side (a, left) takes rf(o_custkey) through the group key; b, the build side, must see every group.
    const sql = `WITH t AS (SELECT o_custkey AS k, count(*) AS c FROM orders GROUP BY o_custkey)
      SELECT count(*) AS n, sum(a.c) AS s FROM t a JOIN (SELECT * FROM t WHERE c > 25) b ON a.k = b.k`;
    const p = physical(await h.env.sql(sql).explain());
    expect(p).toMatch(/Scan\(orders: [^\n]*runtime_filters=/);
    expect(p).not.toContain('shared:');
    await same(sql);
  });

  it('aggregates of the same shape (tables, types, kinds) but other expressions are not shared', async () => {
    // Both sides group the same orders columns: same shape hash, different digests (the filter; lower-shared.ts).
    const sql = `WITH a AS (SELECT o_custkey AS k, sum(o_totalprice) AS s FROM orders GROUP BY o_custkey),
      b AS (SELECT o_custkey AS k, sum(o_totalprice) AS s FROM orders WHERE o_totalprice > 100000 GROUP BY o_custkey)
      SELECT count(*) AS n, sum(a.k) AS ka, sum(b.k) AS kb FROM a JOIN b ON a.s = b.s`;
    const p = physical(await h.env.sql(sql).explain());
    expect(p.match(/Scan\(orders/g)).toHaveLength(2);
    expect(p).not.toContain('shared:');
    await same(sql);
    // Same shape and same expressions under different names: shared.
    const same2 = `WITH a AS (SELECT o_custkey AS k, sum(o_totalprice) AS s FROM orders GROUP BY o_custkey),
      b AS (SELECT o_custkey AS kk, sum(o_totalprice) AS ss FROM orders GROUP BY o_custkey)
      SELECT count(*) AS n, sum(a.k) AS ka, sum(b.kk) AS kb FROM a JOIN b ON a.s = b.ss`;
    expect(physical(await h.env.sql(same2).explain())).toMatch(/shared: HashAggregate#\d+/);
    await same(same2);
  });

  it('nondeterministic subtrees are computed per use', async () => {
    const sql = `WITH t AS (SELECT o_custkey AS k, sum(random()) AS r FROM orders GROUP BY o_custkey)
      SELECT count(*) FROM t a JOIN t b ON a.k = b.k`;
    expect(physical(await h.env.sql(sql).explain())).not.toContain('shared:');
  });
});
