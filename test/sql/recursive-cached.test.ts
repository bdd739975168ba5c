/**
 * WITH RECURSIVE under the cache's test switch `cacheAllSubtrees` (every
 * deterministic subtree cached, as the slt suites run eddy's files): an
 * unlimited recursion that an outer LIMIT stops gets no cache sink (a sink
 * would read its endless result), and a finite recursion's answers do not
 * change when it is cached and read back.
 */
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { fromArrow } from '../helpers/compare.js';

const rows = async (env: TableEnvironment, sql: string): Promise<unknown[][]> => fromArrow(await env.sql(sql).collect()).rows as unknown[][];

describe('recursive CTEs with every subtree cached', () => {
  it('an outer LIMIT still stops an infinite recursion', async () => {
    const env = TableEnvironment.create({ cache: { cacheAllSubtrees: true }, maxIterationRounds: 500 });
    expect(await rows(env, 'WITH RECURSIVE inf(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM inf) SELECT n FROM inf LIMIT 3')).toEqual([[1], [2], [3]]);
    expect(await rows(env, 'SELECT * FROM (WITH RECURSIVE inf(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM inf) SELECT n * 2 AS m FROM inf) LIMIT 2')).toEqual([[2], [4]]);
    await env.close();
  });

  it('a finite recursion gives the same rows when its result is cached and read again', async () => {
    const env = TableEnvironment.create({ cache: { cacheAllSubtrees: true } });
    const sql = 'WITH RECURSIVE t(x) AS (SELECT 1 UNION SELECT x + 1 FROM t WHERE x < 5) SELECT x FROM t ORDER BY x';
    const first = await rows(env, sql);
    expect(first).toEqual([[1], [2], [3], [4], [5]]);
    expect(await rows(env, sql)).toEqual(first);
    await env.close();
  });
});
