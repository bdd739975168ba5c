/**
 * Issue 11: `CREATE TABLE t AS SELECT NULL` made a table whose inserts failed
 * with an internal error, and dates beyond a JS Date's range (year 275760)
 * failed with "Invalid time value" (EXPLAIN labels) or read as null (rows).
 * DuckDB (probed): the NULL column is INTEGER (inserting 1 works, 'abc' is a
 * conversion error); DATE '294247-01-10' is a valid date, and its node client
 * refuses to make a JS Date of it with a clear error.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { executeSql, type SqlResult } from '../../src/api/sql-statements.js';
import { rowsOf } from '../../src/api/result.js';
import { formatTable } from '../../src/cli/format.js';

let env: TableEnvironment;
beforeEach(() => { env = TableEnvironment.create(); });
afterEach(async () => { await env.close(); });

async function last(sql: string): Promise<SqlResult> {
  const r = await executeSql(env, sql);
  return r[r.length - 1]!;
}

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  const r = await last(sql);
  if (r.kind !== 'rows') throw new Error(`expected rows from ${sql}`);
  return rowsOf(r.table);
}

describe('CREATE TABLE AS SELECT NULL', () => {
  it('types the NULL column INTEGER, so inserts work (DuckDB)', async () => {
    await executeSql(env, 'CREATE TABLE t AS SELECT NULL AS x, 1 AS y');
    expect(await rows('DESCRIBE t')).toEqual([
      expect.objectContaining({ column_name: 'x', column_type: 'INTEGER', null: 'YES' }),
      expect.objectContaining({ column_name: 'y', column_type: 'INTEGER', null: expect.any(String) }),
    ]);
    await executeSql(env, 'INSERT INTO t VALUES (7, 2)');
    expect(await rows('SELECT x, y FROM t ORDER BY y')).toEqual([{ x: null, y: 1 }, { x: 7, y: 2 }]);
    const err = await executeSql(env, "INSERT INTO t VALUES ('abc', 3)").then(() => null, (e: Error) => e);
    expect(err?.message ?? '').not.toMatch(/internal error/);
  });
});

describe('dates beyond the range of a JS Date', () => {
  it('plan and compute (EXPLAIN labels included) and read as text', async () => {
    expect(await rows("SELECT CAST(CAST('294247-01-10' AS DATE) AS VARCHAR) AS d")).toEqual([{ d: '294247-01-10' }]);
    expect(await rows("SELECT CAST(DATE '2020-01-01' + 2000000000 AS VARCHAR) AS d")).toEqual([{ d: '5477834-01-06' }]);
    const plan = await last("EXPLAIN SELECT DATE '300000-01-01' AS d");
    expect(plan.kind).toBe('rows');
  });

  it('as JS rows fail with a clear error, not Invalid time value or null', async () => {
    await expect(rows("SELECT CAST('294247-01-10' AS DATE) AS d")).rejects.toThrow(
      'column "d": the date 106751991 days from 1970-01-01 is outside the range of a JavaScript Date (years -271821 to 275760)',
    );
  });

  it('print in the shell as dates', async () => {
    const r = await last("SELECT CAST('294247-01-10' AS DATE) AS d");
    if (r.kind !== 'rows') throw new Error('expected rows');
    expect(formatTable(r.table)).toContain('294247-01-10');
  });
});
