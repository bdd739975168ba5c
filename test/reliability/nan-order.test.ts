/**
 * NaN, ±Infinity, ±0 and NULL against DuckDB (issue #11, "NaN"): one total
 * order of doubles everywhere (src/exec/kernels/float-order.ts) — NaN = NaN,
 * NaN above +Infinity, -0.0 = 0.0 — in comparisons (fused loops, row tests,
 * constants), BETWEEN, IN, CASE, NULLIF, IS [NOT] DISTINCT FROM, min/max,
 * ORDER BY (both directions, both NULL placements, top-N), GROUP BY,
 * DISTINCT, set operations, hash and nested-loop joins, IN/NOT IN
 * subqueries, the Table API forms, and filters over cached data (zone maps
 * must not skip a batch a NaN literal matches). At parallelism 1 and at
 * parallelism 2 with 3-row batches.
 */
import { Table as ArrowTableClass, type RecordBatch } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import '../../src/index.js';
import { col, countStar, desc, lit, max, min, nullif } from '../../src/api/expr.js';
import type { Table } from '../../src/api/table.js';
import { loadRows, type ColumnType } from '../helpers/duckdb.js';
import { useHarness, type Harness } from '../diff/harness.js';

const COLUMNS: Readonly<Record<string, ColumnType>> = { id: 'INTEGER', x: 'DOUBLE', y: 'DOUBLE' };

/**
 * In 3-row batches: [NaN, +Inf, -Inf], [0, -0, NULL] (no NaN: its zone map has
 * bounds), [1.5, NaN, -2], [1, 3]. `y` pairs every kind of value with every other.
 */
const ROWS: readonly Record<string, unknown>[] = [
  { id: 1, x: NaN, y: 1 }, { id: 2, x: Infinity, y: NaN }, { id: 3, x: -Infinity, y: -0 },
  { id: 4, x: 0, y: 0 }, { id: 5, x: -0, y: Infinity }, { id: 6, x: null, y: NaN },
  { id: 7, x: 1.5, y: null }, { id: 8, x: NaN, y: -Infinity }, { id: 9, x: -2, y: 1.5 },
  { id: 10, x: 1, y: 1 }, { id: 11, x: 3, y: NaN },
];

async function register(h: Harness, name: string, batchRows: number): Promise<void> {
  const batches: RecordBatch[] = [];
  for (let i = 0; i < ROWS.length; i += batchRows) batches.push(...(await h.env.fromRecords(ROWS.slice(i, i + batchRows), COLUMNS).collect()).batches);
  h.env.registerTable(name, new ArrowTableClass(batches[0]!.schema, batches));
  await loadRows(h.duck, name, COLUMNS, ROWS);
}

/** SQL that both engines run, row order ignored (ORDER BY queries break ties by id and are compared in order). */
const SQL: Readonly<Record<string, readonly string[]>> = {
  'comparisons between columns': [
    'SELECT id, x = y, x <> y, x < y, x <= y, x > y, x >= y FROM t',
    'SELECT id FROM t WHERE x > y', 'SELECT id FROM t WHERE x = y', 'SELECT id FROM t WHERE x <> y',
    'SELECT id FROM t WHERE x <= y', 'SELECT id FROM t WHERE x * 1 = y * 1',
  ],
  'comparisons with NaN, infinity and zero literals': [
    "SELECT id, x = 'nan'::DOUBLE, x <> 'nan'::DOUBLE, x < 'nan'::DOUBLE, x <= 'nan'::DOUBLE, x > 'nan'::DOUBLE, x >= 'nan'::DOUBLE FROM t",
    "SELECT id, x > 1, x >= 'inf'::DOUBLE, x < 'inf'::DOUBLE, x = 0, x = -0.0, 'nan'::DOUBLE > x FROM t",
    'SELECT id FROM t WHERE x > 1', "SELECT id FROM t WHERE x >= 'inf'::DOUBLE", "SELECT id FROM t WHERE x = 'nan'::DOUBLE",
    "SELECT id FROM t WHERE x <> 'nan'::DOUBLE", "SELECT id FROM t WHERE x < 'nan'::DOUBLE", "SELECT id FROM t WHERE 'nan'::DOUBLE > x",
    'SELECT id FROM t WHERE x = -0.0', "SELECT id FROM t WHERE x + 0 > 1 AND x <> 'inf'::DOUBLE",
    "SELECT id FROM t WHERE CAST(x AS FLOAT) = CAST('nan' AS FLOAT)", 'SELECT id FROM t WHERE CAST(x AS FLOAT) > 1',
  ],
  constants: [
    "SELECT 'nan'::DOUBLE = 'nan'::DOUBLE, 'nan'::DOUBLE > 'inf'::DOUBLE, 'nan'::DOUBLE <> 'nan'::DOUBLE, -0.0::DOUBLE = 0.0::DOUBLE, 'nan'::FLOAT > 'inf'::FLOAT, 1 < 'nan'::DOUBLE",
    "SELECT 'nan'::DOUBLE BETWEEN 1 AND 'nan'::DOUBLE, 'nan'::DOUBLE IN (1, 'nan'::DOUBLE), CASE 'nan'::DOUBLE WHEN 'nan'::DOUBLE THEN 'y' ELSE 'n' END, nullif('nan'::DOUBLE, 'nan'::DOUBLE)",
  ],
  'BETWEEN and IN': [
    "SELECT id FROM t WHERE x BETWEEN 0 AND 'nan'::DOUBLE", "SELECT id FROM t WHERE x BETWEEN 1 AND 'inf'::DOUBLE",
    'SELECT id FROM t WHERE x NOT BETWEEN -1 AND 1', "SELECT id, x BETWEEN y AND 'nan'::DOUBLE FROM t",
    "SELECT id FROM t WHERE x IN (1.5, 'nan'::DOUBLE)", "SELECT id FROM t WHERE x IN (y, 'nan'::DOUBLE)",
    "SELECT id, x IN (1.5, 'nan'::DOUBLE), x NOT IN (0, 'nan'::DOUBLE) FROM t",
    "SELECT id FROM t WHERE x IN (1.5, 2, 3, 4, 5, 6, 7, 8, 9, 10, 'nan'::DOUBLE)", 'SELECT id FROM t WHERE x IN (1.5, 2, 3, 4, 5, 6, 7, 8, 9, 10, -0.0)',
  ],
  'CASE, NULLIF, COALESCE, IS DISTINCT FROM': [
    "SELECT id, CASE WHEN x = y THEN 'eq' WHEN x > y THEN 'gt' ELSE 'other' END FROM t",
    "SELECT id, CASE x WHEN 'nan'::DOUBLE THEN 'nan' WHEN 0 THEN 'zero' ELSE 'no' END FROM t",
    'SELECT id, nullif(x, y), coalesce(x, y) > 1 FROM t',
    'SELECT id, x IS DISTINCT FROM y, x IS NOT DISTINCT FROM y, x IS DISTINCT FROM 0 FROM t',
  ],
  'min and max': [
    'SELECT min(x), max(x), min(y), max(y) FROM t', 'SELECT id > 5, min(x), max(x), min(y), max(y) FROM t GROUP BY id > 5',
    "SELECT max(x) FROM t WHERE x < 'nan'::DOUBLE",
  ],
  'ORDER BY': [
    'SELECT id, x FROM t ORDER BY x, id', 'SELECT id, x FROM t ORDER BY x DESC, id', 'SELECT id, x FROM t ORDER BY x NULLS FIRST, id',
    'SELECT id, x FROM t ORDER BY x DESC NULLS LAST, id', 'SELECT id, x, y FROM t ORDER BY y, x, id', 'SELECT id, x, y FROM t ORDER BY y DESC, x DESC, id',
    'SELECT id, x FROM t ORDER BY x, id LIMIT 4', 'SELECT id, x FROM t ORDER BY x DESC, id LIMIT 3', 'SELECT id, y FROM t ORDER BY y DESC NULLS LAST, id LIMIT 4',
    'SELECT id, y FROM t ORDER BY y, id LIMIT 9', 'SELECT x FROM t GROUP BY x ORDER BY x DESC',
  ],
  'GROUP BY, DISTINCT and set operations': [
    'SELECT x, count(*) FROM t GROUP BY x', 'SELECT y, count(*), sum(id) FROM t GROUP BY y', 'SELECT x, y, count(*) FROM t GROUP BY x, y',
    'SELECT DISTINCT x FROM t', 'SELECT count(DISTINCT x), count(DISTINCT y) FROM t', 'SELECT x, sum(id) FROM t GROUP BY x HAVING x > 0',
    'SELECT x FROM t UNION SELECT y FROM t', 'SELECT x FROM t INTERSECT SELECT y FROM t', 'SELECT x FROM t EXCEPT SELECT y FROM t',
    'SELECT y FROM t EXCEPT SELECT x FROM t',
  ],
  joins: [
    'SELECT a.id, b.id FROM t a JOIN t b ON a.x = b.y', 'SELECT a.id, b.id FROM t a JOIN t b ON a.x = b.x',
    'SELECT a.id, b.id FROM t a LEFT JOIN t b ON a.x = b.y', 'SELECT a.id, b.id FROM t a FULL JOIN t b ON a.x = b.y',
    'SELECT a.id, b.id FROM t a JOIN t b ON a.x < b.y', 'SELECT a.id, b.id FROM t a JOIN t b ON a.x BETWEEN b.y AND b.x',
    'SELECT a.id, b.id FROM t a JOIN t b ON a.x = b.y AND a.id < b.id', 'SELECT a.id, b.id FROM t a JOIN t b ON a.x = b.y OR a.id = b.id',
    'SELECT a.id, b.id FROM t a JOIN t b ON a.x IS NOT DISTINCT FROM b.y', 'SELECT a.id, b.id FROM t a LEFT JOIN t b ON a.x > b.x AND b.id < 4',
    'SELECT id FROM t WHERE x IN (SELECT y FROM t)', 'SELECT id FROM t WHERE x NOT IN (SELECT y FROM t WHERE y IS NOT NULL)',
    'SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t u WHERE u.y = t.x)', 'SELECT id FROM t WHERE x = (SELECT max(y) FROM t)',
  ],
};

/** Table API forms, each with its DuckDB SQL. */
function tableCases(t: () => Table): readonly [string, () => Table, string][] {
  const nan = lit(NaN);
  return [
    ['filter x > NaN literal / x = NaN / x >= 1', () => t().filter(col('x').eq(nan).or(col('x').ge(lit(1.5)))).select('id'), "SELECT id FROM t WHERE x = 'nan'::DOUBLE OR x >= 1.5"],
    ['comparisons as values', () => t().select('id', col('x').lt(col('y')).as('lt'), col('x').ge(nan).as('ge'), col('x').ne(col('y')).as('ne')),
      "SELECT id, x < y AS lt, x >= 'nan'::DOUBLE AS ge, x <> y AS ne FROM t"],
    ['between and in', () => t().filter(col('x').between(lit(1), nan).or(col('y').in([nan, -0]))).select('id'),
      "SELECT id FROM t WHERE x BETWEEN 1 AND 'nan'::DOUBLE OR y IN ('nan'::DOUBLE, -0.0)"],
    ['nullif', () => t().select('id', nullif('x', col('y')).as('n')), 'SELECT id, nullif(x, y) AS n FROM t'],
    ['orderBy desc', () => t().orderBy(desc('x'), 'id').select('id', 'x'), 'SELECT id, x FROM t ORDER BY x DESC, id'],
    ['groupBy with min/max', () => t().groupBy('x').select('x', countStar().as('n'), min('y').as('lo'), max('y').as('hi')),
      'SELECT x, count(*) AS n, min(y) AS lo, max(y) AS hi FROM t GROUP BY x'],
    ['distinct', () => t().select('y').distinct(), 'SELECT DISTINCT y FROM t'],
    ['join on x = y', () => t().select(col('id').as('a'), 'x').join(t().select(col('id').as('b'), 'y'), col('x').eq(col('y'))).select('a', 'b'),
      'SELECT l.id AS a, r.id AS b FROM t l JOIN t r ON l.x = r.y'],
    ['semiJoin and antiJoin', () => t().select('id', 'x').antiJoin(t().select('y'), col('x').eq(col('y'))).select('id'),
      'SELECT id FROM t WHERE NOT EXISTS (SELECT 1 FROM t r WHERE r.y = t.x)'],
    ['intersect', () => t().select('x').intersect(t().select('y')), 'SELECT x FROM t INTERSECT SELECT y FROM t'],
  ];
}

function nanSuite(h: Harness): void {
  beforeAll(async () => { await register(h, 't', 3); });
  for (const [group, queries] of Object.entries(SQL)) {
    describe(group, () => {
      for (const q of queries) {
        it(q, async () => { await h.check(h.env.sql(q), q, { names: false, ordered: /ORDER BY/.test(q) }); });
      }
    });
  }
  describe('Table API', () => {
    for (const [name, table, sql] of tableCases(() => h.env.from('t'))) {
      it(name, async () => { await h.check(table(), sql, { names: false, ordered: /ORDER BY/.test(sql) }); });
    }
    it('min/max actions: NaN is the largest double', async () => {
      expect(await h.env.from('t').max('x')).toBeNaN();
      expect(await h.env.from('t').min('x')).toBe(-Infinity);
      expect(await h.env.from('t').filter(col('x').lt(nan())).max('x')).toBe(Infinity);
    });
  });
}

function nan(): ReturnType<typeof lit> { return lit(NaN); }

describe('NaN total order, parallelism 1', () => {
  nanSuite(useHarness({ tpch: false, env: { parallelism: 1 } }));
});

describe('NaN total order, parallelism 2, batchSize 3', () => {
  // Workers off: the parallelism-2 graph (a plan without a worker stage otherwise runs at parallelism 1).
  nanSuite(useHarness({ tpch: false, env: { parallelism: 2, batchSize: 3, workers: 'off', parallelGraph: true } }));
});
