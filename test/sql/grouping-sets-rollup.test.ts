/**
 * The one-read plan of ROLLUP / CUBE / GROUPING SETS (sql/binder/grouping-sets-plan.ts): every set
 * rolled up from one Aggregate at the finest grouping, which the physical plan computes once.
 * Checked against DuckDB over every aggregate that rolls up and every type, NULL keys beside
 * rolled-up NULLs, empty input, CUBE of 4 and 5 keys, duplicate sets, FILTER, the aggregates that
 * fall back to one Aggregate per set, and at parallelism 2.
 */
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { expectSameAtP1AndP2, oracleTable } from '../helpers/oracle-table.js';

const ROWS = Array.from({ length: 60 }, (_, i) => ({
  a: i % 3 === 0 ? null : i % 4,
  b: ['x', 'y', null, 'z'][i % 4 === 1 ? 2 : i % 3],
  c: i % 5 === 0 ? null : i % 2 === 0,
  e: 10_000_000_000 + i * 7,
  d: i % 7 === 0 ? null : (i * 37 % 101) / 8 - 5,
  t: i % 6 === 0 ? null : `2024-03-${String(1 + (i * 13 % 28)).padStart(2, '0')}`,
  v: i % 9 === 0 ? null : (i * 31) % 53 - 20,
}));
const TYPES = { a: 'INTEGER', b: 'VARCHAR', c: 'BOOLEAN', e: 'BIGINT', d: 'DOUBLE', t: 'DATE', v: 'INTEGER' } as const;
const { duck: oracle, env: eddy } = oracleTable('r', TYPES, ROWS);

const ALL_AGGS = 'count(*) AS n, count(v) AS nv, sum(v) AS sv, sum(e) AS se, sum(d) AS sd, avg(v) AS av, avg(e) AS ae, avg(d) AS ad, min(b) AS mib, max(t) AS mat, min(d) AS mid, max(e) AS mae, bool_and(c) AS ba, bool_or(c) AS bo';

/** The same without avg over BIGINT (whose 128-bit words make every set roll up from the finest grouping): sets chain. */
const CHAINED_AGGS = ALL_AGGS.replace(', avg(e) AS ae', '');

const SAME = [
  `SELECT a, b, c, ${CHAINED_AGGS} FROM r GROUP BY CUBE (a, b, c) ORDER BY ALL`,
  `SELECT a, b, ${CHAINED_AGGS} FROM r GROUP BY GROUPING SETS ((a, b), (b), (a), ()) ORDER BY ALL`,
  `SELECT a, b, ${ALL_AGGS} FROM r GROUP BY ROLLUP (a, b) ORDER BY ALL`,
  `SELECT a, b, c, ${ALL_AGGS} FROM r GROUP BY CUBE (a, b, c) ORDER BY ALL`,
  `SELECT a, b, c, t, grouping_id(a, b, c, t) AS g, count(*), sum(v), min(d) FROM r GROUP BY CUBE (a, b, c, t) ORDER BY ALL`,
  `SELECT a, b, c, t, v % 3 AS w, grouping_id(a, b, c, t, w) AS g, count(*), sum(d), max(b) FROM r GROUP BY CUBE (a, b, c, t, w) ORDER BY ALL`,
  // The finest grouping (a, b) is none of the sets; BIGINT sums travel as 128-bit words then.
  `SELECT a, b, ${ALL_AGGS} FROM r GROUP BY GROUPING SETS ((a), (b)) ORDER BY ALL`,
  // Duplicate sets answer twice; duplicates of the empty set too.
  'SELECT a, grouping(a) AS g, count(*), sum(v), avg(d) FROM r GROUP BY GROUPING SETS ((a), (a), (), ()) ORDER BY ALL',
  'SELECT a, b, count(*) FILTER (WHERE v > 0) AS pos, sum(v) FILTER (WHERE c) AS sc, min(d) FILTER (WHERE b IS NOT NULL) AS md FROM r GROUP BY ROLLUP (a, b) ORDER BY ALL',
  // Keys that are expressions, and sets listing the same keys in another order.
  'SELECT a + 1 AS k, b, sum(v), count(*) FROM r GROUP BY ROLLUP (k, b) HAVING count(*) > 2 ORDER BY ALL',
  // A HAVING on keys: pushed into some branches (below a set's Aggregate), never into the sets it shares.
  'SELECT a, b, c, count(*), sum(d) FROM r GROUP BY CUBE (a, b, c) HAVING a > 1 OR b = \'x\' ORDER BY ALL',
  'SELECT a, b, count(*), max(t) FROM r WHERE v > -10 GROUP BY ROLLUP (a, b) HAVING a IS NOT NULL AND a < 3 ORDER BY ALL',
  'SELECT a, b, grouping(b, a) AS g, count(*), sum(d) FROM r GROUP BY GROUPING SETS ((a, b), (a), (b, a)) ORDER BY ALL',
  // A join below: read once too.
  'SELECT r.a, s.b, count(*) AS n, sum(s.v) AS sv FROM r JOIN r AS s ON r.a = s.a GROUP BY ROLLUP (r.a, s.b) ORDER BY ALL',
  // Aggregates that do not roll up: one Aggregate per set over the input, mixed with ones that do.
  'SELECT a, count(DISTINCT b) AS db, sum(v) AS sv FROM r GROUP BY ROLLUP (a) ORDER BY ALL',
  'SELECT a, median(d) AS md, count(*) FROM r GROUP BY CUBE (a, c) ORDER BY ALL',
  "SELECT a, string_agg(b, ',' ORDER BY b) AS sb FROM r GROUP BY ROLLUP (a) ORDER BY ALL",
  'SELECT a, stddev_samp(v) AS sd, var_pop(d) AS vp FROM r GROUP BY ROLLUP (a) ORDER BY ALL',
  'SELECT a, arg_max(b, v) AS am FROM r WHERE v IS NOT NULL AND b IS NOT NULL GROUP BY GROUPING SETS ((a), ()) HAVING count(*) = 1 OR a IS NULL ORDER BY ALL',
];

describe('ROLLUP / CUBE / GROUPING SETS read their input once', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await eddy().sql(q).collect()), await oracle().query(q), { ordered: true });
    });
  }

  it('empty input: no rows for keyed sets, one row for each empty set (counts 0, the rest NULL)', async () => {
    await oracle().query('CREATE TABLE r0 AS SELECT * FROM r WHERE false');
    eddy().registerTable('r0', eddy().fromRecords([], TYPES));
    for (const q of [
      `SELECT a, b, ${ALL_AGGS} FROM r0 GROUP BY ROLLUP (a, b)`,
      `SELECT a, b, ${ALL_AGGS} FROM r0 GROUP BY GROUPING SETS ((a), (b), (), ())`,
      'SELECT a, b, c, count(*), count(d), sum(e) FROM r0 GROUP BY CUBE (a, b, c)',
    ]) {
      const got = fromArrow(await eddy().sql(q).collect());
      expectSameResult(got, await oracle().query(q), { ordered: false });
      expect(got.rows.length).toBeGreaterThan(0);
    }
  });

  it('a finest group whose BIGINT sum passes 2^63 does not fail sets whose totals fit', async () => {
    const big = 2n ** 62n;
    eddy().registerTable('o', eddy().fromRecords([{ a: 1, b: 1, e: big }, { a: 1, b: 1, e: big }, { a: 1, b: 2, e: -big }, { a: 2, b: 1, e: -big }], { a: 'INTEGER', b: 'INTEGER', e: 'BIGINT' }));
    const t = await eddy().sql('SELECT a, b, sum(e) AS s, avg(e) AS m FROM o GROUP BY GROUPING SETS ((a), (b)) ORDER BY a, b').collect();
    expect(t.toArray().map((r) => r.toJSON())).toEqual([
      { a: 1, b: null, s: big, m: Number(big) / 3 },
      { a: 2, b: null, s: -big, m: -Number(big) },
      { a: null, b: 1, s: big, m: Number(big) / 3 },
      { a: null, b: 2, s: -big, m: -Number(big) },
    ]);
  });

  it('the physical plan aggregates the input once and each set once, from a finer set', async () => {
    const plan = await eddy().sql('SELECT a, b, c, count(*), sum(v) FROM r GROUP BY CUBE (a, b, c)').explain();
    const physical = plan.slice(plan.indexOf('== Physical Plan'));
    expect(physical.match(/Scan\(/g)).toHaveLength(1);
    // The finest Aggregate (a, b, c) is that set's own; the 7 others each read one built set.
    expect(physical.match(/HashAggregate(#\d+)?\(group=/g)).toHaveLength(8);
    expect(physical.match(/shared: HashAggregate#\d+/g)).toHaveLength(7);
    // A call that does not roll up: one Aggregate per set, each over the input.
    const per = await eddy().sql('SELECT a, count(DISTINCT b) FROM r GROUP BY ROLLUP (a)').explain();
    expect(per.slice(per.indexOf('== Physical Plan')).match(/Scan\(/g)).toHaveLength(2);
  });

  it('the same at parallelism 2, with NULL keys, doubles and BIGINT sums, over a table large enough to ship', async () => {
    const big = Array.from({ length: 240_000 }, (_, i) => ({ k: i % 11 === 0 ? null : i % 7, j: i % 3, s: i % 5 === 0 ? null : `s${i % 4}`, v: i % 1000, d: (i % 977) / 16, e: 3_000_000_000_000 + i }));
    const q = 'SELECT k, j, s, grouping(k, j, s) AS g, count(*) AS n, sum(v) AS sv, sum(d) AS sd, avg(d) AS ad, avg(v) AS av, sum(e) AS se, min(s) AS ms, max(d) AS xd FROM big GROUP BY CUBE (k, j, s) ORDER BY ALL';
    const a = await expectSameAtP1AndP2('big', { k: 'INTEGER', j: 'INTEGER', s: 'VARCHAR', v: 'INTEGER', d: 'DOUBLE', e: 'BIGINT' }, big, q);
    expect(a.rows.length).toBe(8 * 3 * 5 + 8 * 3 + 8 * 5 + 3 * 5 + 8 + 3 + 5 + 1);
    const e = TableEnvironment.create({ parallelism: 2 });
    try {
      e.registerTable('big', e.fromRecords(big, { k: 'INTEGER', j: 'INTEGER', s: 'VARCHAR', v: 'INTEGER', d: 'DOUBLE', e: 'BIGINT' }));
      const plan = await e.sql(q).explain();
      expect(plan.slice(plan.indexOf('== Physical Plan')).match(/shared: /g)).toHaveLength(7);
    } finally {
      await e.close();
    }
  });
});
