/**
 * A HAVING evaluated inside the hash aggregate's emit (planner/lower-having.ts,
 * exec/operators/agg-having.ts), checked against DuckDB at parallelism 1 and 2 (worker stages:
 * the partitioned stage's final plan ends in the HAVING, TPC-H Q18's shape): NULL sums, counts,
 * averages, min/max over strings, DISTINCT, group keys, AND/OR/NOT, aggregates outside the
 * SELECT list, nothing kept, everything kept; and the EXPLAIN line.
 */
import * as arrow from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { loadArrow, openDuck, type Duck } from '../helpers/duckdb.js';
import { workerStats } from './helpers.js';

// 60k rows; k: 15k groups, ascending in runs (clustered, as l_orderkey); g: 7 groups; v: NULL in
// every 5th row and in every row of the groups k % 50 = 0 (their sums are NULL).
const N = 60_000;
const k = Int32Array.from({ length: N }, (_, i) => Math.floor(i / 4));
const g = Int32Array.from({ length: N }, (_, i) => (i * 13) % 7);
const vals = Array.from({ length: N }, (_, i) => (i % 5 === 0 || Math.floor(i / 4) % 50 === 0 ? null : ((i * 37) % 1001) / 7));
const i32 = Int32Array.from({ length: N }, (_, i) => (i * 7919) % 101);
const s = Array.from({ length: N }, (_, i) => (i % 11 === 0 ? null : `s${(i * 31) % 97}`));
const t = new arrow.Table({
  k: arrow.makeVector(k), g: arrow.makeVector(g), i: arrow.makeVector(i32),
  v: arrow.vectorFromArray(vals, new arrow.Float64()), s: arrow.vectorFromArray(s, new arrow.Utf8()),
});

const QUERIES = [
  'SELECT k, sum(v) AS sv FROM t GROUP BY k HAVING sum(v) > 400',
  'SELECT k, sum(v) AS sv FROM t GROUP BY k HAVING sum(v) IS NULL',
  'SELECT k FROM t GROUP BY k HAVING sum(v) < 50 OR sum(v) IS NULL',
  'SELECT k, count(*) AS c FROM t GROUP BY k HAVING count(*) > 3 AND count(v) = 3',
  'SELECT k, avg(v) AS a FROM t GROUP BY k HAVING avg(v) < 20',
  'SELECT k, min(s) AS lo, max(s) AS hi FROM t GROUP BY k HAVING max(s) > \'s9\' AND min(s) < \'s2\'',
  'SELECT k, count(*) AS c FROM t GROUP BY k HAVING k % 97 = 3',
  'SELECT k, sum(i) AS si FROM t GROUP BY k HAVING NOT (sum(i) > 150) AND count(*) >= 2',
  'SELECT k FROM t GROUP BY k HAVING max(v) - min(v) > 130',
  'SELECT k, sum(v) AS sv FROM t GROUP BY k HAVING count(*) < 0',
  'SELECT k, sum(v) AS sv, count(s) AS cs FROM t GROUP BY k HAVING count(*) > 0',
  'SELECT g, count(DISTINCT i) AS d FROM t GROUP BY g HAVING count(DISTINCT i) > 100',
  'SELECT g, sum(v) AS sv, avg(i) AS ai, count(*) AS c FROM t GROUP BY g HAVING sum(v) > 1e6 OR avg(i) < 50',
  'SELECT g, sum(v) AS sv, avg(v) AS av, count(*) AS c FROM t GROUP BY g HAVING sum(v) > 1e6',
  'SELECT count(*) AS c FROM t HAVING count(*) > 5',
  'SELECT count(*) AS c FROM t HAVING count(*) > 1e9',
  'SELECT k, sum(v) AS sv FROM t WHERE k IN (SELECT k FROM t GROUP BY k HAVING sum(v) > 420) GROUP BY k',
];

let duck: Duck;
const p1 = TableEnvironment.create({ parallelism: 1 });
const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', batchSize: 4096 });
for (const e of [p1, p2]) e.registerTable('t', t);
beforeAll(async () => {
  duck = await openDuck();
  await loadArrow(duck, 't', t);
});
afterAll(async () => { duck.close(); await p1.close(); await p2.close(); });

describe('HAVING inside the hash aggregate, as DuckDB', { timeout: 60_000 }, () => {
  for (const q of QUERIES) {
    it(q, async () => {
      const want = await duck.query(q);
      expectSameResult(fromArrow(await p1.sql(q).collect()), want);
      expectSameResult(fromArrow(await p2.sql(q).collect()), want);
    });
  }

  it('kept groups come out in batches of at most one step\'s rows (all 15,000 groups kept)', async () => {
    const r = await p1.sql('SELECT k, count(*) AS c FROM t GROUP BY k HAVING count(*) >= 1').collect();
    expect(r.numRows).toBe(15_000);
    expect(r.batches.every((b) => b.numRows <= 16_384)).toBe(true);
    expect(Array.from(r.getChild('k')!.toArray() as Int32Array)).toEqual(Array.from({ length: 15_000 }, (_, i) => i));
  });

  it('runs inside a partitioned worker stage (the stage returns only the kept groups)', async () => {
    const q = 'SELECT k, sum(v) AS sv FROM t GROUP BY k HAVING sum(v) > 400';
    const before = workerStats(p2).stages;
    await p2.sql(q).collect();
    expect(workerStats(p2).stages).toBe(before + 1);
    expect(workerStats(p2).traces.at(-1)?.mode).toBe('partitioned');
    // EXPLAIN at p2 shows the calling thread's graph: the stage as a scan of its result (api/run-graphs.ts)…
    const text = await p2.sql(q).explain();
    expect(text.slice(text.indexOf('== Physical Plan =='))).toMatch(/^== Physical Plan ==\nScan\(stage 1\) \[p=1\]/);
    // t is stored in k order, so the workers read contiguous key ranges.
    expect(text).toMatch(/== Worker Stages ==\n1\. partitioned stage over t \(60,000 rows\), by sorted key ranges: shipped/);
    // …and each worker lowers the stage's fragment as parallelism 1 lowers the query: the HAVING inside the aggregate.
    expect(await p1.sql(q).explain()).toMatch(/HashAggregate\(group=\[k\], aggs=\[sum\(v\)\]; having: \(sum\(v\) > 400\)\)/);
  });
});

describe('a HAVING over a shared aggregate', () => {
  it('stays a Filter (the other reader needs every group), with DuckDB\'s answer', async () => {
    const q = 'WITH r AS (SELECT g, sum(v) AS s FROM t GROUP BY g) SELECT g, s FROM r WHERE s > 30000 UNION ALL SELECT g, s FROM r';
    const text = await p1.sql(q).explain();
    const physical = text.slice(text.indexOf('== Physical Plan =='));
    expect(physical).toMatch(/shared: HashAggregate#/);
    expect(physical).not.toMatch(/having:/);
    expectSameResult(fromArrow(await p1.sql(q).collect()), await duck.query(q));
  });
});

describe('EXPLAIN of a HAVING', () => {
  it('shows it on the HashAggregate; the logical plan keeps its Filter', async () => {
    const text = await p1.sql('SELECT k FROM t GROUP BY k HAVING sum(v) > 400 AND count(*) > 2').explain();
    const physical = text.slice(text.indexOf('== Physical Plan =='));
    expect(physical).toMatch(/HashAggregate\(group=\[k\], aggs=\[sum\(v\), count_star\(\)\]; having: \(\(sum\(v\) > 400\) AND \(count_star\(\) > 2\)\)\)/);
    expect(physical).not.toMatch(/Filter/);
    expect(text.slice(text.indexOf('== Optimized Plan =='), text.indexOf('== Physical Plan =='))).toContain('Filter(condition=[((sum(v) > 400) AND (count_star() > 2))])');
  });
});
