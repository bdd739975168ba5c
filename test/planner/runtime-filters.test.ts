/**
 * Runtime filters (sideways information passing): which joins pass a filter
 * of their build keys to which probe-side scans (plan text), that the scans
 * then emit fewer rows (EXPLAIN ANALYZE), and that results stay DuckDB's —
 * NULL and duplicate keys, BIGINT keys, an empty build side, outer and semi
 * joins, parallelism 1 and 2.
 */
import { describe, expect, it } from 'vitest';
import '../../src/sql/index.js';
import { useHarness } from '../diff/harness.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { TableEnvironment } from '../../src/api/environment.js';
import { registerNullTables } from '../diff/harness.js';

// Assumes parallelism 1 (the default is the machine's cores): the probe scans' metrics of a p1 run.
const h = useHarness({ env: { parallelism: 1 } });

function physical(text: string): string {
  return text.slice(text.indexOf('== Physical Plan'));
}

async function same(sql: string, env: TableEnvironment = h.env): Promise<void> {
  expectSameResult(fromArrow(await env.sql(sql).collect()), await h.duck.query(sql));
}

const Q3ISH = `SELECT l_orderkey, sum(l_extendedprice) AS rev FROM orders, lineitem
  WHERE o_orderkey = l_orderkey AND o_orderdate < DATE '1993-01-01' AND o_orderpriority = '1-URGENT' GROUP BY l_orderkey`;

describe('runtime filters: plans', () => {
  it('an inner join filters the probe-side scan on its key', async () => {
    const p = physical(await h.env.sql(Q3ISH).explain());
    expect(p).toMatch(/HashJoin\(inner, \(o_orderkey = l_orderkey\), build=left, runtime_filter=rf1\(lineitem\.l_orderkey\)(, unused=\[[^\]]*\])?\)/);
    expect(p).toMatch(/Scan\(lineitem: [^\n]*runtime_filters=\[rf1\(l_orderkey\)\]\)/);
    expect(p).not.toMatch(/Scan\(orders[^\n]*runtime_filters/);
  });

  it('the filter reaches a scan below another join, a filter and a projection', async () => {
    const sql = `SELECT count(*) FROM (SELECT l_orderkey AS k, p_name FROM lineitem JOIN part ON l_partkey = p_partkey WHERE l_quantity > 10) x
      JOIN (SELECT * FROM orders WHERE o_orderdate < DATE '1992-02-01') o ON x.k = o.o_orderkey`;
    const p = physical(await h.env.sql(sql).explain());
    expect(p).toMatch(/runtime_filter=rf\d\(lineitem\.l_orderkey\)/);
    expect(p).toMatch(/Scan\(lineitem: [^\n]*runtime_filters=\[[^\]]*\(l_orderkey\)/);
    await same(sql);
  });

  it('no filter where unmatched probe rows survive: the preserved side of an outer join, anti joins', async () => {
    const left = physical(await h.env.sql('SELECT o_orderkey, l_linenumber FROM orders LEFT JOIN (SELECT * FROM lineitem WHERE l_quantity > 49) l ON o_orderkey = l_orderkey').explain());
    expect(left).not.toContain('runtime_filter');
    const anti = physical(await h.env.sql('SELECT count(*) FROM orders WHERE NOT EXISTS (SELECT 1 FROM lineitem WHERE l_orderkey = o_orderkey AND l_quantity > 49)').explain());
    expect(anti).not.toContain('runtime_filter');
  });

  it('a semi join filters its probe (left) side', async () => {
    const sql = `SELECT count(*) FROM lineitem WHERE l_orderkey IN (SELECT o_orderkey FROM orders WHERE o_orderdate < DATE '1992-03-01')`;
    expect(physical(await h.env.sql(sql).explain())).toMatch(/HashJoin\(semi, [^\n]*runtime_filter=rf1\(lineitem\.l_orderkey\)/);
    await same(sql);
  });

  it('through the group keys of an aggregate: the decorrelated subquery of TPC-H Q17 reads only the parts the outer query has', async () => {
    const sql = `SELECT sum(l_extendedprice) / 7.0 AS avg_yearly FROM lineitem, part
      WHERE p_partkey = l_partkey AND p_brand = 'Brand#23' AND p_container = 'MED BOX'
        AND l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)`;
    const text = await h.env.sql(sql).explain({ analyze: true });
    const p = physical(text);
    expect(p).toMatch(/HashAggregate\(group=\[__key0\], aggs=\[avg\(l_quantity\)\]\)[^\n]*\n(\s+Project[^\n]*\n)?\s+Scan\(lineitem: [^\n]*runtime_filters=\[rf\d\(l_partkey\)\]/);
    for (const m of p.matchAll(/Scan\(lineitem[^\n]*\] {2}rows=(\d+)/g)) expect(Number(m[1])).toBeLessThan(h.tpch.lineitem.numRows / 20);
    await same(sql);
  });

  it('not through an aggregate value', async () => {
    const sql = 'SELECT count(*) FROM (SELECT l_orderkey, count(*) AS c FROM lineitem GROUP BY l_orderkey) x JOIN (SELECT * FROM orders WHERE o_orderkey < 100) o ON x.c = o.o_orderkey';
    expect(physical(await h.env.sql(sql).explain())).not.toMatch(/Scan\(lineitem[^\n]*runtime_filters/);
    await same(sql);
  });

  it('string keys take no filter', async () => {
    const p = physical(await h.env.sql('SELECT count(*) FROM nulls JOIN nulls_r ON s = s2').explain());
    expect(p).not.toContain('runtime_filter');
  });
});

describe('runtime filters: execution', () => {
  it('the probe scan emits only rows whose key is among the build keys', async () => {
    const text = await h.env.sql(Q3ISH).explain({ analyze: true });
    const rows = Number(text.match(/Scan\(lineitem[^\n]*\] {2}rows=(\d+)/)![1]);
    expect(rows).toBeLessThan(h.tpch.lineitem.numRows / 10);
    await same(Q3ISH);
  });

  it('the probe scan applies its pushed conjuncts that cannot raise to the kept rows: it emits what its Filter keeps (one copy)', async () => {
    const sql = `SELECT o_orderpriority, count(*) AS c, sum(l_extendedprice) AS rev FROM orders, lineitem
      WHERE o_orderkey = l_orderkey AND o_orderdate < DATE '1993-01-01' AND o_orderpriority = '1-URGENT' AND l_shipdate > DATE '1992-06-01' AND l_shipmode IN ('MAIL', 'SHIP') AND l_comment LIKE '%a%'
      GROUP BY o_orderpriority`;
    const text = physical(await h.env.sql(sql).explain({ analyze: true }));
    const scan = Number(text.match(/Scan\(lineitem[^\n]*runtime_filters[^\n]*\] {2}rows=(\d+)/)![1]);
    const filter = Number(text.match(/Filter\([^\n]*l_shipdate[^\n]*\] {2}rows=(\d+)/)![1]);
    expect(scan).toBeGreaterThan(0);
    expect(scan).toBe(filter);
    await same(sql);
  });

  it('a pushed conjunct that may raise stays with the Filter (evaluated guarded); NULLs in the filtered columns are dropped', async () => {
    // INTEGER arithmetic may overflow: the scan does not apply it; the Filter above still does.
    const sql = `SELECT count(*) AS c FROM orders, lineitem
      WHERE o_orderkey = l_orderkey AND o_orderdate < DATE '1993-01-01' AND l_linenumber * 1000 > 3000`;
    const text = physical(await h.env.sql(sql).explain({ analyze: true }));
    const scan = Number(text.match(/Scan\(lineitem[^\n]*runtime_filters[^\n]*\] {2}rows=(\d+)/)![1]);
    const filter = Number(text.match(/Filter\([^\n]*l_linenumber[^\n]*\] {2}rows=(\d+)/)![1]);
    expect(scan).toBeGreaterThan(filter);
    await same(sql);
    await same('SELECT k, i, j, w FROM nulls JOIN nulls_r ON i = j WHERE d > 0.5 AND s <> \'x\'');
    await same('SELECT k, j, w FROM nulls_r JOIN nulls ON i = j WHERE dt >= DATE \'2020-01-01\' OR dt IS NULL');
  });

  it('NULL and duplicate keys, inner, semi and right joins match DuckDB', async () => {
    await same('SELECT k, i, j, w FROM nulls JOIN nulls_r ON i = j');
    await same('SELECT k, i, j, w FROM nulls_r JOIN nulls ON i = j');
    await same('SELECT k FROM nulls WHERE i IN (SELECT j FROM nulls_r)');
    await same('SELECT k, j, w FROM nulls RIGHT JOIN nulls_r ON i = j');
    await same('SELECT k, j, w FROM nulls LEFT JOIN nulls_r ON i = j');
  });

  it('BIGINT against INTEGER keys and DATE keys', async () => {
    await same('SELECT a.id, b.v FROM bigs a JOIN bigs b ON a.v = b.id');
    await same('SELECT n1.k, n2.k FROM nulls n1 JOIN nulls n2 ON n1.dt = n2.dt WHERE n2.f');
  });

  it('an empty build side makes the probe scan emit nothing', async () => {
    const sql = 'SELECT count(*) AS c FROM lineitem JOIN (SELECT o_orderkey FROM orders WHERE o_orderkey < 0) o ON l_orderkey = o_orderkey';
    const text = await h.env.sql(sql).explain({ analyze: true });
    expect(text).not.toMatch(/Scan\(lineitem[^\n]*rows=[1-9]/);
    await same(sql);
  });

  it('a self-join through one table and repeated runs of one query stay correct', async () => {
    const sql = `SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_orderkey = b.l_orderkey AND a.l_linenumber = b.l_linenumber WHERE b.l_quantity > 45`;
    await same(sql);
    const t = h.env.sql(Q3ISH);
    const first = fromArrow(await t.collect());
    expectSameResult(fromArrow(await t.collect()), first);
  });

  it('parallelism 2: every join subtask contributes before the filter applies', async () => {
    const env = TableEnvironment.create({ parallelism: 2, parallelGraph: true }); // the p=2 graph (else the calling thread runs p=1)
    try {
      env.registerTpch(0.01);
      await registerNullTables(env);
      const text = await env.sql(Q3ISH).explain({ analyze: true });
      expect(text).toMatch(/HashJoin[^\n]*runtime_filter=rf1\(lineitem\.l_orderkey\)(, unused=\[[^\]]*\])?\) \[p=2\]/);
      const rows = [...text.matchAll(/Scan\(lineitem[^\n]*\] {2}rows=(\d+)/g)].map((m) => Number(m[1]));
      expect(rows.reduce((a, b) => a + b, 0)).toBeLessThan(h.tpch.lineitem.numRows / 10);
      await same(Q3ISH, env);
      await same('SELECT k, i, j, w FROM nulls JOIN nulls_r ON i = j', env);
    } finally {
      await env.close();
    }
  });
});
