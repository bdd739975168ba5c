import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../../diff/harness.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import { loadRows, type ColumnType } from '../../helpers/duckdb.js';
import '../../../src/sql/index.js';

// Parents with duplicate and NULL keys (and one without children); children with NULL keys, NULL
// values and several rows per key — enough rows per key that statistics make the rule fire.
const PARENT_COLUMNS: Record<string, ColumnType> = { pk: 'INTEGER', grp: 'VARCHAR' };
const PARENTS = [
  ...Array.from({ length: 40 }, (_, i) => ({ pk: i % 30, grp: ['a', 'b', 'c'][i % 3]! })),
  { pk: null, grp: 'a' },
  { pk: 99, grp: 'z' },
];
const CHILD_COLUMNS: Record<string, ColumnType> = { ck: 'INTEGER', v: 'INTEGER', w: 'DOUBLE', s: 'VARCHAR' };
const CHILDREN = Array.from({ length: 400 }, (_, i) => ({
  ck: i % 37 === 0 ? null : i % 25,
  v: i % 11 === 0 ? null : (i * 7) % 13 - 6,
  w: i * 0.1,
  s: i % 5 === 0 ? null : `s${i % 9}`,
}));

describe('aggregate-below-join (eager aggregation)', () => {
  const h = useHarness();
  beforeAll(async () => {
    h.env.registerTable('parents', h.env.fromRecords(PARENTS, PARENT_COLUMNS));
    h.env.registerTable('children', h.env.fromRecords(CHILDREN, CHILD_COLUMNS));
    await loadRows(h.duck, 'parents', PARENT_COLUMNS, PARENTS);
    await loadRows(h.duck, 'children', CHILD_COLUMNS, CHILDREN);
  });

  const optimized = async (sql: string): Promise<string> => {
    const text = await h.env.sql(sql).explain();
    return text.slice(text.indexOf('== Optimized Plan =='), text.indexOf('== Physical Plan =='));
  };
  const same = async (sql: string): Promise<void> => expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
  /** The plan pre-aggregates the join's right side (an Aggregate directly under the Join's right input). */
  const preAggregates = (plan: string): boolean => /Join\(type=\[(inner|left)\][^\n]*\n(\s+)\S[^\n]*\n(?:\2\s[^\n]*\n)*\2Aggregate\(group=\[__k0/.test(plan);

  it('pre-aggregates TPC-H Q13\'s orders by o_custkey and answers as DuckDB', async () => {
    const q13 = `SELECT c_count, count(*) AS custdist FROM (
        SELECT c_custkey, count(o_orderkey) FROM customer LEFT OUTER JOIN orders
          ON c_custkey = o_custkey AND o_comment NOT LIKE '%special%requests%' GROUP BY c_custkey
      ) AS c_orders (c_custkey, c_count) GROUP BY c_count ORDER BY custdist DESC, c_count DESC`;
    const plan = await optimized(q13);
    expect(plan).toContain('Aggregate(group=[__k0], aggs=[count(__a1) AS __p0])');
    expect(plan).toContain('coalesce(__p0, 0)');
    // c_custkey is unique in customer: each group is one customer row, so nothing re-aggregates by it.
    expect(plan).not.toMatch(/Aggregate\(group=\[c_custkey/);
    await same(q13);
  });

  it('a group key unique on the left side leaves a projection of the join, not an aggregate (left and inner; unmatched rows)', async () => {
    const cols: Record<string, ColumnType> = { id: 'INTEGER', grp: 'VARCHAR' };
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: i * 2, grp: ['a', 'b'][i % 2]! })); // ids 0..58: half meet no child
    h.env.registerTable('uparents', h.env.fromRecords(rows, cols));
    await loadRows(h.duck, 'uparents', cols, rows);
    for (const sql of [
      'SELECT id, count(*) AS n, count(v) AS nv, min(v) AS lo, max(s) AS hi, sum(v) AS total FROM uparents LEFT JOIN children ON id = ck GROUP BY id',
      'SELECT id, grp, count(*) AS n, count(s) AS ns, sum(v) AS total FROM uparents JOIN children ON id = ck GROUP BY id, grp',
      'SELECT grp, count(*) AS n FROM (SELECT id, count(v) AS c FROM uparents LEFT JOIN children ON id = ck GROUP BY id) t JOIN uparents USING (id) GROUP BY grp',
    ]) {
      const plan = await optimized(sql);
      expect(preAggregates(plan), sql).toBe(true);
      expect(plan, sql).not.toMatch(/Aggregate\(group=\[id/);
      await same(sql);
    }
    // Not unique (repeated and NULL keys): the combining aggregate stays.
    const dup = 'SELECT pk, count(*) AS n FROM parents LEFT JOIN children ON pk = ck GROUP BY pk';
    expect(await optimized(dup)).toMatch(/Aggregate\(group=\[pk/);
    await same(dup);
  });

  it('left join: count(*) counts an unmatched row once, count(x) zero; NULL keys on both sides; duplicate left keys', async () => {
    const sql = `SELECT grp, pk, count(*) AS n, count(v) AS nv, count(s) AS ns, min(v) AS lo, max(s) AS hi, sum(v) AS total
      FROM parents LEFT JOIN children ON pk = ck GROUP BY grp, pk`;
    expect(preAggregates(await optimized(sql))).toBe(true);
    await same(sql);
  });

  it('inner join, group keys that are expressions over the left side', async () => {
    const sql = `SELECT pk + 1 AS m, upper(grp) AS g, count(*) AS n, max(v) AS hi, sum(v) AS total
      FROM parents JOIN children ON pk = ck GROUP BY pk + 1, upper(grp)`;
    expect(preAggregates(await optimized(sql))).toBe(true);
    await same(sql);
  });

  it('leaves DOUBLE sums, DISTINCT, right-side group keys, residual conditions and global aggregates alone', async () => {
    const cases = [
      'SELECT pk, sum(w) AS t FROM parents LEFT JOIN children ON pk = ck GROUP BY pk',
      'SELECT pk, count(DISTINCT v) AS d FROM parents LEFT JOIN children ON pk = ck GROUP BY pk',
      'SELECT pk, s, count(*) AS n FROM parents JOIN children ON pk = ck GROUP BY pk, s',
      'SELECT pk, count(v) AS n FROM parents LEFT JOIN children ON pk = ck AND v > pk GROUP BY pk',
      'SELECT count(v) AS n FROM parents LEFT JOIN children ON pk = ck',
      'SELECT pk, avg(v) AS a FROM parents JOIN children ON pk = ck GROUP BY pk',
    ];
    for (const sql of cases) {
      expect(preAggregates(await optimized(sql)), sql).toBe(false);
      await same(sql);
    }
  });

  it('does not fire with few groups above (adding joined rows to a handful of groups is cheaper)', async () => {
    const sql = 'SELECT grp, count(v) AS n, max(s) AS hi FROM parents LEFT JOIN children ON pk = ck GROUP BY grp';
    expect(preAggregates(await optimized(sql))).toBe(false);
    await same(sql);
  });

  it('does not fire when the right side has about one row per key (nothing to save)', async () => {
    const sql = 'SELECT o_orderpriority, count(l_orderkey) AS n FROM orders JOIN (SELECT DISTINCT l_orderkey FROM lineitem) d ON o_orderkey = l_orderkey GROUP BY 1';
    expect(await optimized(sql)).not.toContain('__k0');
    await same(sql);
  });
});
