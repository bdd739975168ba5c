/**
 * Ordered aggregates, `agg(x ORDER BY y)` (issue #7, bug 6): eddy does not
 * sort an aggregate's input, so ORDER BY is accepted only where the result
 * cannot depend on it (count, min, max; sum and avg over INTEGER/BIGINT) and
 * rejected with a clear error elsewhere — never silently ignored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { rowsOf } from '../../src/api/result.js';

let env: TableEnvironment;
beforeEach(() => { env = TableEnvironment.create(); });
afterEach(async () => { await env.close(); });

const sql = async (q: string): Promise<Record<string, unknown>[]> => rowsOf(await env.sql(q).collect());
const FLOATS = '(VALUES (1e20), (-1e20), (1.0)) t(v)';
const INTS = '(VALUES (3), (-1), (2), (NULL)) t(v)';

describe('ordered aggregates', () => {
  it('sum over DOUBLE with ORDER BY is rejected, not answered unordered (the order changes the float sum)', async () => {
    // In input order the float sum is 1; in ORDER BY abs(v) order it is 0 (1 is absorbed by 1e20). Ignoring ORDER BY gave 1.
    await expect(sql(`SELECT sum(v ORDER BY abs(v)) AS s FROM ${FLOATS}`)).rejects.toThrow(/ORDER BY inside sum\(\.\.\.\) is not supported over DOUBLE: the result depends on the order/);
  });

  it('avg over DOUBLE with ORDER BY is rejected too, also with GROUP BY', async () => {
    await expect(sql(`SELECT avg(v ORDER BY v DESC) FROM ${FLOATS}`)).rejects.toThrow('ORDER BY inside avg(...) is not supported over DOUBLE');
    await expect(sql(`SELECT v > 0 AS p, sum(v ORDER BY v) FROM ${FLOATS} GROUP BY v > 0`)).rejects.toThrow('ORDER BY inside sum(...) is not supported over DOUBLE');
  });

  it('order-sensitive aggregates other than sum/avg are rejected at parse time', async () => {
    await expect(sql(`SELECT stddev(v ORDER BY v) FROM ${INTS}`)).rejects.toThrow('ORDER BY inside stddev(...) is not supported');
  });

  it('accepts ORDER BY where the result cannot depend on it: count, min, max, and sum/avg over integers', async () => {
    const rows = await sql(`SELECT count(v ORDER BY v DESC) AS c, min(v ORDER BY abs(v)) AS mn, max(v ORDER BY v) AS mx, sum(v ORDER BY v DESC) AS s, avg(v ORDER BY -v) AS a FROM ${INTS}`);
    expect(rows).toEqual([{ c: 3n, mn: -1, mx: 3, s: 4n, a: 4 / 3 }]);
    const d = await sql(`SELECT min(v ORDER BY v) AS mn, max(v ORDER BY v DESC) AS mx, count(v ORDER BY v) AS c FROM ${FLOATS}`);
    expect(d).toEqual([{ mn: -1e20, mx: 1e20, c: 3n }]);
  });

  it('still binds the ORDER BY keys of an accepted ordered aggregate (a bad name is an error)', async () => {
    await expect(sql(`SELECT count(v ORDER BY nosuch) FROM ${INTS}`)).rejects.toThrow('column "nosuch" not found');
  });

  it('an unaliased ordered aggregate is named with its ORDER BY, as DuckDB names it', async () => {
    const names = async (q: string): Promise<string[]> => (await env.sql(q).collect()).schema.fields.map((f) => f.name);
    const T = "(VALUES ('a'), ('b')) t(x)";
    expect(await names(`SELECT string_agg(x, ',' ORDER BY x DESC) FROM ${T}`)).toEqual(["string_agg(x, ',' ORDER BY x DESC)"]);
    expect(await names(`SELECT string_agg(x, ',' ORDER BY x DESC NULLS FIRST, x ASC NULLS LAST) FROM ${T}`)).toEqual(["string_agg(x, ',' ORDER BY x DESC NULLS FIRST, x ASC NULLS LAST)"]);
    expect(await names(`SELECT string_agg(DISTINCT x, ',' ORDER BY x) FILTER (WHERE x > 'a') FROM ${T}`)).toEqual(["string_agg(DISTINCT x, ',' ORDER BY x) FILTER (WHERE (x > 'a'))"]);
    expect(await names(`SELECT count(x ORDER BY x) FROM ${T}`)).toEqual(['count(x ORDER BY x)']);
  });

  it('SQL text in Table methods does not ignore ORDER BY either', async () => {
    const t = env.fromRecords([{ v: 1e20 }, { v: -1e20 }, { v: 1 }], { v: 'DOUBLE' });
    expect(() => t.select('sum(v ORDER BY abs(v)) AS s')).toThrow('ORDER BY inside sum(...) is not supported');
  });
});
