/**
 * Semi and anti joins placed onto one leaf of the join region below them (planner/semi-join-placement.ts,
 * run by reorder-joins): the plan moves them when the cost model says so, and every answer is DuckDB's —
 * NULL keys on both sides and NOT IN's NULL semantics included.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../../diff/harness.js';
import { expectSameResult, fromArrow } from '../../helpers/compare.js';
import { loadRows, type ColumnType } from '../../helpers/duckdb.js';
import '../../../src/sql/index.js';

const A = Array.from({ length: 1000 }, (_, i) => ({ x: i % 97 === 0 ? null : i % 50, ax: i }));
const B = Array.from({ length: 2000 }, (_, i) => ({ y: i % 50, bw: i % 7 }));
const C = Array.from({ length: 100 }, (_, i) => ({ z: i % 50, cz: i }));
const BIG = Array.from({ length: 5000 }, (_, i) => ({ v: i === 17 ? null : i }));
const SMALL = [{ k: 3 }, { k: 4 }, { k: 4 }, { k: 60 }];
const SMALL_NULL = [...SMALL, { k: null }];
const TABLES: [string, Record<string, ColumnType>, Record<string, unknown>[]][] = [
  ['a', { x: 'INTEGER', ax: 'INTEGER' }, A],
  ['b', { y: 'INTEGER', bw: 'INTEGER' }, B],
  ['c', { z: 'INTEGER', cz: 'INTEGER' }, C],
  ['big', { v: 'INTEGER' }, BIG],
  ['small', { k: 'INTEGER' }, SMALL],
  ['small_null', { k: 'INTEGER' }, SMALL_NULL],
];

describe('semi / anti join placement into join regions', () => {
  const h = useHarness();
  beforeAll(async () => {
    for (const [name, cols, rows] of TABLES) {
      h.env.registerTable(name, h.env.fromRecords(rows, cols));
      await loadRows(h.duck, name, cols, rows);
    }
  });

  const optimized = async (sql: string): Promise<string> => {
    const text = await h.env.sql(sql).explain();
    return text.slice(text.indexOf('== Optimized Plan =='), text.indexOf('== Physical Plan =='));
  };
  const same = async (sql: string): Promise<void> => expectSameResult(fromArrow(await h.env.sql(sql).collect()), await h.duck.query(sql));
  /** The plan has a `type` join whose first input is the scan of `table` (possibly under a Filter). */
  const onLeaf = (plan: string, type: string, table: string): boolean =>
    new RegExp(`Join\\(type=\\[${type}\\][^\\n]*\\n(\\s+)(?:Filter[^\\n]*\\n\\1\\s+)?Scan\\(table=\\[${table}\\]`).test(plan);
  /** The `type` join sits above an inner join (its first input). */
  const onTop = (plan: string, type: string): boolean => new RegExp(`Join\\(type=\\[${type}\\][^\\n]*\\n\\s+(?:Project[^\\n]*\\n\\s+)?Join\\(type=\\[inner\\]`).test(plan);

  it('an IN subquery that keeps few rows of one leaf moves onto it (the region then starts from the cut leaf)', async () => {
    const sql = 'SELECT count(*) AS n, sum(ax) AS s, sum(bw) AS t FROM a, b, c WHERE a.x = c.z AND b.y = c.z AND a.x IN (SELECT v FROM big WHERE v < 5)';
    const plan = await optimized(sql);
    expect(onLeaf(plan, 'semi', 'a'), plan).toBe(true);
    expect(onTop(plan, 'semi'), plan).toBe(false);
    await same(sql);
  });

  it('the same with the subquery on the region\'s largest leaf and NULL keys in it', async () => {
    const sql = 'SELECT bw, count(*) AS n FROM a, b, c WHERE a.x = c.z AND b.y = c.z AND b.y IN (SELECT k FROM small_null) GROUP BY bw';
    const plan = await optimized(sql);
    expect(onLeaf(plan, 'semi', 'b'), plan).toBe(true);
    await same(sql);
  });

  it('NOT IN with a NULL in the subquery (no rows) and without one, wherever the anti join lands', async () => {
    for (const t of ['small', 'small_null']) {
      const sql = `SELECT count(*) AS n, sum(ax) AS s FROM a, b, c WHERE a.x = c.z AND b.y = c.z AND a.x NOT IN (SELECT k FROM ${t})`;
      const plan = await optimized(sql);
      expect(onLeaf(plan, 'anti', 'a'), plan).toBe(true); // NULL-aware: (x = k) OR x IS NULL OR k IS NULL
      await same(sql);
    }
    await same('SELECT count(*) AS n FROM a, b, c WHERE a.x = c.z AND b.y = c.z AND NOT EXISTS (SELECT 1 FROM small WHERE small.k = a.x)');
  });

  it('a condition over two leaves stays on top of the region', async () => {
    const sql = 'SELECT count(*) AS n FROM a, b, c WHERE a.x = c.z AND b.y = c.z AND EXISTS (SELECT 1 FROM small WHERE small.k = a.x AND small.k > b.bw)';
    const plan = await optimized(sql);
    expect(plan).toMatch(/Join\(type=\[semi\]/);
    expect(onLeaf(plan, 'semi', 'a'), plan).toBe(false);
    await same(sql);
  });

  it('stays on top when the region cuts the leaf more than the semi join does (it would test every leaf row)', async () => {
    // big ⋈ c keeps 50 of big's 5,000 rows; NOT IN (50 values of b) keeps ~99% of them.
    const sql = 'SELECT count(*) AS n FROM big, c, a WHERE big.v = c.z AND a.x = c.z AND big.v NOT IN (SELECT y FROM b WHERE y > 45)';
    const plan = await optimized(sql);
    expect(onTop(plan, 'anti'), plan).toBe(true);
    await same(sql);
  });
});
