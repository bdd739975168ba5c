/**
 * Random SQL differentially tested against DuckDB (generator, runner and
 * minimizer in test/diff/random/): a fixed seed and count of generated
 * queries over TPC-H SF 0.01 and the NULL tables must all give DuckDB's
 * results. More seeds: `npm run test:diff -- --count 2000 --seed 1`.
 *
 * Known eddy bugs the random test found have repros below (as `it.fails`
 * while open, with their generator feature left out of the run; as `it`
 * regression tests once fixed). All are fixed now:
 * - BUG 1 (correlatedHaving): a correlated scalar subquery with a HAVING gave,
 *   where HAVING removes the group, its select expression over no rows (0
 *   for count()) instead of NULL.
 * - BUG 2 (correlatedAggPredicate): [NOT] EXISTS / [NOT] IN over a correlated
 *   aggregate without GROUP BY (one row even over no input) was planned as a
 *   semi / anti join on the correlation keys, as if empty with no inner rows.
 * - BUG 3: UNION ALL of a literal VARCHAR with a dictionary column that went
 *   through a join shifted the strings by one row.
 * - BUG 4 (notInOuterJoin): `x NOT IN (subquery)` with x from the NULL side
 *   of an outer join let the NULL rows through (x taken as non-nullable).
 * - BUG 5 (subqueryInCorrelatedAgg): a correlated aggregate subquery with a
 *   subquery in its select list crashed the binder (TypeError in
 *   AggPlanner.overNoRows).
 * BUGs 1, 2 and 5 are fixed by decorrelating such subqueries over the outer
 * domain (src/sql/binder/domain.ts), BUG 4 by taking a join's column
 * nullability from its schema (src/sql/binder/from.ts).
 * Also left out: KNOWN_GAPS (constructs eddy rejects by design, see features.ts).
 * Not a wrong answer but seen as a timeout: `LEFT JOIN t ON a = b AND FALSE`
 * becomes a nested-loop join over the whole of t (the folded FALSE condition
 * loses the hash keys; the right side could be dropped instead).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { dictsTable, registerNullTables, SF, useHarness } from './harness.js';
import { buildCatalog, type Catalog } from './random/catalog.js';
import { avoidDuckBugs } from './random/engines.js';
import { featuresExcept, KNOWN_GAPS, type Feature } from './random/features.js';
import { generateQuery } from './random/query-gen.js';
import { orderViolation } from './random/run-query.js';
import { formatFailure, formatStats, querySeed, runRandom } from './random/runner.js';
import { shrinkQuery } from './random/shrink.js';
import { HEAVY } from '../helpers/heavy.js';

const SEED = 1;
/** `npm test` runs a slice; `npm run test:heavy` all of them (test/helpers/heavy.ts). */
const COUNT = HEAVY ? 500 : 250;
/** Queries run again on an environment with parallelism 3 and small batches. */
const PARALLEL_COUNT = HEAVY ? 150 : 60;

/**
 * A run stops starting queries after BUDGET_MS; the test's timeout leaves room for the query in flight
 * (QUERY_TIMEOUT_MS at most) and a shrink. Neither is the assertion (the answers are): the whole file
 * takes ~8 s on a quiet machine, but at load ~25, beside another test file, the first run did 172 of
 * its 250 queries in the old 150 s budget and failed on it. The budget now leaves ~3× that run's pace:
 * it stops a run that hangs, not a slow machine. A query past QUERY_TIMEOUT_MS (wall) counts as a
 * failure; it was 20 s, now 60 s.
 */
const BUDGET_MS = 600_000;
const QUERY_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = BUDGET_MS + QUERY_TIMEOUT_MS + 30_000;

/** Left out of the run: constructs eddy rejects by design, and features of open bugs (see the file comment). */
const EXCLUDED: readonly Feature[] = [...KNOWN_GAPS];

const h = useHarness();
let catalog: Catalog;

beforeAll(async () => {
  await avoidDuckBugs(h.duck);
  catalog = buildCatalog(h.tpch);
});

describe('random SQL vs DuckDB', () => {
  it(`${COUNT} generated queries of seed ${SEED} give DuckDB's results`, async () => {
    const { stats, failures } = await runRandom({ env: h.env, duck: h.duck, catalog }, {
      seed: SEED, count: COUNT, features: featuresExcept(EXCLUDED), timeoutMs: QUERY_TIMEOUT_MS, log: () => {}, budgetMs: BUDGET_MS,
    });
    expect(failures.map(formatFailure).join('\n\n'), formatStats(stats)).toBe('');
    // The generator rarely writes SQL that DuckDB rejects.
    expect(stats.discarded, formatStats(stats)).toBeLessThan(COUNT * 0.02);
  }, TEST_TIMEOUT_MS);

  it(`${PARALLEL_COUNT} queries of seed ${SEED + 1} at parallelism 3 with 500-row batches give DuckDB's results`, async () => {
    const env = TableEnvironment.create({ parallelism: 3, batchSize: 500 });
    try {
      await registerNullTables(env, 5);
      env.registerTable('dicts', dictsTable());
      env.registerTpch(SF);
      const { stats, failures } = await runRandom({ env, duck: h.duck, catalog }, {
        seed: SEED + 1, count: PARALLEL_COUNT, features: featuresExcept(EXCLUDED), timeoutMs: QUERY_TIMEOUT_MS, log: () => {}, budgetMs: BUDGET_MS,
      });
      expect(failures.map(formatFailure).join('\n\n'), formatStats(stats)).toBe('');
    } finally {
      await env.close();
    }
  }, TEST_TIMEOUT_MS);

  it('a run past its budget stops starting queries and fails as itself', async () => {
    await expect(runRandom({ env: h.env, duck: h.duck, catalog }, {
      seed: SEED, count: 5, features: featuresExcept(EXCLUDED), log: () => {}, budgetMs: -1,
    })).rejects.toThrow(/budget of -1 ms ran out after 0 of 5 queries/);
  });

  it('generation is deterministic and covers every construct family', () => {
    const features = featuresExcept(EXCLUDED);
    const sqls = Array.from({ length: 400 }, (_, i) => generateQuery(querySeed(SEED, i), catalog, features).sql);
    expect(generateQuery(querySeed(SEED, 7), catalog, features).sql).toBe(sqls[7]);
    const wanted: Record<string, RegExp> = {
      join: / JOIN /, leftJoin: /LEFT (OUTER )?JOIN/, rightJoin: /RIGHT (OUTER )?JOIN/, fullJoin: /FULL (OUTER )?JOIN/, crossJoin: /CROSS JOIN|, \w+ AS/,
      derived: /FROM \(SELECT/, cte: /^WITH |\(WITH /, groupBy: /GROUP BY/, having: /HAVING/, distinct: /SELECT DISTINCT/, distinctAgg: /\((DISTINCT) /,
      orderBy: /ORDER BY/, limit: /LIMIT \d+/, offset: /OFFSET/, union: /UNION/, intersect: /INTERSECT/, except: /EXCEPT/,
      exists: /EXISTS \(/, inSubquery: / IN \(SELECT/, scalarSubquery: /\(SELECT (count|sum|avg|min|max)\(/, inList: / IN \((?!SELECT)/,
      between: / BETWEEN /, like: / LIKE /, isNull: / IS (NOT )?NULL/, case: /CASE /, cast: /CAST\(|::/, coalesce: /coalesce\(/,
      stringFns: /upper\(|lower\(|substring\(|trim\(/, dateFns: /year\(|month\(|day\(|extract\(/, interval: /INTERVAL/, arith: / [-+*\/%] /,
      using: /USING \(/, groupByRef: /GROUP BY (\d|c\d|x\d)/,
    };
    const missing = Object.entries(wanted).filter(([, re]) => sqls.filter((s) => re.test(s)).length < 3).map(([k]) => k);
    expect(missing).toEqual([]);
  });

  it('the minimizer keeps the failure and shrinks the query', async () => {
    const features = featuresExcept(EXCLUDED);
    const g = Array.from({ length: 200 }, (_, i) => generateQuery(querySeed(SEED, i), catalog, features)).find((x) => x.sql.includes(' LIKE ') && x.sql.length > 400)!;
    const r = await shrinkQuery(g.query, async (_q, sql) => sql.includes(' LIKE '));
    expect(r.sql).toContain(' LIKE ');
    expect(r.sql.length).toBeLessThan(g.sql.length / 2);
  });

  it('an ORDER BY is checked on eddy\'s own rows, NULLS LAST by default', () => {
    const keys = [{ col: 0, desc: false, ordinal: false }, { col: 1, desc: true, ordinal: false }];
    expect(orderViolation([[1, 'b'], [1, 'a'], [2, 'z'], [null, 'q']], keys)).toBeUndefined();
    expect(orderViolation([[1, 'a'], [1, 'b']], keys)).toMatch(/out of order/);
    expect(orderViolation([[null, 'a'], [1, 'b']], keys)).toMatch(/out of order/);
  });
});

describe('eddy bugs found by the random test (regression tests; an open one is it.fails with its feature excluded above)', () => {
  const check = (sql: string) => async () => { await h.check(h.env.sql(sql), sql); };
  it('BUG 1 (fixed): correlated count() subquery with a HAVING that removes the group gives 0, not NULL',
    check('SELECT nu1.k, (SELECT count(*) FROM nulls AS nu2 WHERE nu2.g = nu1.g HAVING count(*) > 2) AS s FROM nulls AS nu1'));
  it('BUG 2 (fixed): EXISTS over a correlated aggregate without GROUP BY is always true',
    check('SELECT count(*) AS n FROM orders AS o WHERE EXISTS (SELECT min(c.c_phone) FROM customer AS c WHERE c.c_custkey = o.o_custkey AND c.c_custkey < 100)'));
  it('BUG 2 (fixed): NOT IN over a correlated aggregate without GROUP BY meets one NULL row, not an empty set',
    check('SELECT count(*) AS n FROM part AS p WHERE p.p_retailprice NOT IN (SELECT sum(ps.ps_supplycost) FROM partsupp AS ps WHERE ps.ps_partkey = p.p_partkey AND ps.ps_partkey < 125)'));
  // Fixed (src/api/result.ts decoded sliced dictionary codes at the wrong offset); kept as a regression test.
  it('BUG 3 (fixed): UNION ALL of a VARCHAR literal and a joined dictionary column keeps the strings in place',
    check("SELECT nation.n_name, nulls.k FROM nation JOIN nulls ON nation.n_nationkey = nulls.k WHERE nulls.k < 4 UNION ALL SELECT 'x', 0"));
  it('BUG 4 (fixed): NOT IN (subquery) on a column from the NULL side of a LEFT JOIN keeps the NULL rows',
    check('SELECT count(*) AS n FROM nation AS n LEFT JOIN region AS r ON n.n_regionkey = r.r_regionkey AND r.r_regionkey < 2 WHERE r.r_name NOT IN (SELECT l_shipmode FROM lineitem WHERE l_orderkey < 10)'));
  it('BUG 5 (fixed): a subquery inside a correlated aggregate subquery crashes the binder',
    check('SELECT n.n_nationkey, (SELECT sum(s.s_acctbal) + (SELECT max(r_regionkey) FROM region) FROM supplier AS s WHERE s.s_nationkey = n.n_nationkey) AS x FROM nation AS n'));
  it('BUG 5 (fixed): count(*) plus a subquery in a correlated aggregate subquery is the subquery over no inner rows',
    check('SELECT n.n_nationkey, (SELECT count(*) + (SELECT max(r_regionkey) FROM region) FROM supplier AS s WHERE s.s_nationkey = n.n_nationkey AND s.s_suppkey < 30) AS x FROM nation AS n'));
  it('BUG 1 (fixed): a HAVING true over no rows keeps the value over no rows (count() = 0)',
    check('SELECT nu1.k, (SELECT count(*) FROM nulls AS nu2 WHERE nu2.g = nu1.g AND nu2.k > 3 HAVING count(*) = 0) AS s FROM nulls AS nu1'));
  it('BUG 1 (fixed): aggregates of constants in a correlated subquery with HAVING are NULL where no inner row matches',
    check("SELECT (SELECT count(*) FROM nulls AS nu2 WHERE nu2.i = nr1.j HAVING max('a') IS NULL) AS c1, nr1.j FROM nulls_r AS nr1"));
  it('BUG 1 (fixed): a correlated max() of a constant with HAVING TRUE compared in WHERE',
    check("SELECT p FROM dicts AS t1 WHERE t1.p <> (SELECT max('x') AS c0 FROM nulls AS nu2 WHERE nu2.k = t1.id HAVING TRUE)"));
  it('BUG 2 (fixed): IN and EXISTS (as values) over a correlated aggregate without GROUP BY',
    check('SELECT c.c_custkey, EXISTS (SELECT max(o.o_totalprice) FROM orders AS o WHERE o.o_custkey = c.c_custkey AND o.o_orderkey < 100) AS e FROM customer AS c WHERE (c.c_custkey < 50 OR NOT EXISTS (SELECT sum(o.o_totalprice) FROM orders AS o WHERE o.o_custkey = c.c_custkey)) AND c.c_custkey % 20 IN (SELECT count(*) FROM orders AS o WHERE o.o_custkey = c.c_custkey)'));
});
