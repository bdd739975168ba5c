/**
 * avg and sum over INTEGER/BIGINT are exact in the accumulation (issue #7,
 * bug 4), against DuckDB: values near ±2^63 and around 2^53, grouped and
 * global, HAVING on an average, avg(DISTINCT), NULLs, all-NULL and empty
 * groups; at parallelism 1 and at parallelism 2 with 4-row batches.
 */
import { beforeAll, describe, it } from 'vitest';
import { useHarness, type Harness } from './harness.js';
import { registerNumericTables } from './numeric-tables.js';

function exactAvgSuite(h: Harness): void {
  beforeAll(async () => { await registerNumericTables(h, 3); });
  const check = (sql: string) => async () => { await h.check(h.env.sql(sql), sql); };

  it('the issue\'s query: avg of 2^53 + 1, 1 and -2^53 is 2/3, not 0',
    check('SELECT avg(x) AS a FROM (VALUES (9007199254740993::BIGINT), (1::BIGINT), (-9007199254740992::BIGINT)) t(x)'));
  it('grouped avg over BIGINT near ±2^63 (sums beyond the BIGINT range)', check('SELECT g, avg(big) AS a, count(big) AS c FROM big_a GROUP BY g'));
  it('global avg over BIGINT', check('SELECT avg(big) AS a FROM big_a'));
  it('HAVING on an exact average keeps the right groups', check('SELECT g, avg(big) AS a FROM big_a GROUP BY g HAVING avg(big) > 0'));
  it('HAVING avg > 0 in the issue\'s cancelling group', check("SELECT g FROM big_a WHERE g = 'cancel' GROUP BY g HAVING avg(big) > 0.5"));
  it('exact sum per group where it fits BIGINT', check("SELECT g, sum(big) AS s FROM big_a WHERE g IN ('mid', 'small', 'cancel', 'nulls') GROUP BY g"));
  it('avg(DISTINCT) over BIGINT', check('SELECT g, avg(DISTINCT big) AS a FROM big_a GROUP BY g'));
  it('avg over an empty input is NULL', check("SELECT avg(big) AS a, sum(big) AS s FROM big_a WHERE g = 'none'"));
  it('avg of an all-NULL group is NULL', check("SELECT g, avg(big) AS a FROM big_a WHERE g = 'nulls' GROUP BY g"));
  it('avg over INTEGER', check('SELECT avg(i) AS a, sum(i) AS s FROM ints'));
  it('stddev over BIGINT (DOUBLE accumulation, as DuckDB)', check('SELECT g, stddev(big) AS sd FROM big_a GROUP BY g'));
}

describe('exact avg, parallelism 1', () => {
  exactAvgSuite(useHarness({ tpch: false, env: { parallelism: 1 } }));
});

describe('exact avg, parallelism 2, batchSize 4', () => {
  // Workers off: the parallelism-2 graph (a plan without a worker stage otherwise runs at parallelism 1).
  exactAvgSuite(useHarness({ tpch: false, env: { parallelism: 2, batchSize: 4, workers: 'off', parallelGraph: true }, smallBatchRows: 2 }));
});
