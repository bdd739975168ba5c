/**
 * Runtime errors as a user reads them: an error raised while an expression is evaluated quotes the
 * SQL line with a caret under the failing expression, in whatever clause it was written, as parse
 * and bind errors do (relnode/source-span.ts, exec/kernels/compile.ts, exec/runtime/run-options.ts);
 * no operator class, id or callback in the message, the same text at parallelism 1 and 2 (the
 * aggregate's stage on worker threads), the operator still on the error (`operator`, `cause`). The
 * Table API has no SQL text: its messages name the expression. DuckDB rejects every query here too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { col, ExecutionError, TableEnvironment, ValidationError } from '../../src/index.js';
import { loadRows, openDuck, type Duck } from '../helpers/duckdb.js';
import { rowsOf } from '../../src/api/result.js';

const ROWS = [{ k: 1, s: '1' }, { k: 2, s: '22' }, { k: 3, s: 'oops' }, { k: 4, s: '4' }];
const TYPES = { k: 'INTEGER', s: 'VARCHAR' } as const;

let env1: TableEnvironment;
let env2: TableEnvironment;
let duck: Duck;

beforeAll(async () => {
  env1 = TableEnvironment.create({ parallelism: 1 });
  // Every aggregate on worker threads, none of it on the calling thread: a worker raises the error.
  env2 = TableEnvironment.create({ parallelism: 2, workers: 'always', callingThreadShare: false });
  for (const e of [env1, env2]) e.registerTable('t', e.fromRecords(ROWS, TYPES));
  duck = await openDuck();
  await loadRows(duck, 't', TYPES, ROWS);
});

afterAll(async () => {
  await env1?.close();
  await env2?.close();
  duck?.close();
});

/** The error `sql` fails with (after checking DuckDB fails on it too). */
async function failure(env: TableEnvironment, sql: string): Promise<Error> {
  await expect(duck.query(sql), `DuckDB: ${sql}`).rejects.toThrow();
  const e = await env.executeSql(sql).then(() => undefined, (x: unknown) => x);
  if (!(e instanceof Error)) throw new Error(`expected an error from ${sql}`);
  return e;
}

/** The caret block under `line` for `column`/`length` (what formatSqlError renders). */
const quote = (n: number, line: string, column: number, length: number): string =>
  `\n  ${n} | ${line}\n  ${' '.repeat(String(n).length)} | ${' '.repeat(column - 1)}${'^'.repeat(length)}`;

describe('runtime errors in SQL point at the expression', () => {
  const CAST = "could not convert string 'oops' to INTEGER in CAST(s AS INTEGER)";

  it('in every clause: the select list, WHERE, an aggregate argument, ORDER BY, a join condition, HAVING, CASE', async () => {
    const cases = [
      'SELECT k, CAST(s AS INTEGER) AS v FROM t',
      'SELECT k FROM t WHERE k > 0 AND CAST(s AS INTEGER) > 0',
      'SELECT sum(CAST(s AS INTEGER)) AS v FROM t',
      'SELECT k FROM t ORDER BY CAST(s AS INTEGER)',
      'SELECT a.k FROM t a JOIN t b ON a.k = b.k AND CAST(b.s AS INTEGER) = a.k',
      'SELECT k, count(*) AS c FROM t GROUP BY k HAVING max(CAST(s AS INTEGER)) > 0',
      'SELECT CASE WHEN k > 2 THEN CAST(s AS INTEGER) ELSE 0 END AS v FROM t',
    ];
    for (const sql of cases) {
      const e = await failure(env1, sql);
      expect(e, sql).toBeInstanceOf(ExecutionError);
      const column = sql.indexOf('CAST') + 1;
      const length = sql.indexOf(')', column) + 2 - column;
      // The CAST as written (CAST(b.s AS INTEGER) in the join).
      expect(e.message, sql).toBe(`line 1, column ${column}: could not convert string 'oops' to INTEGER in ${sql.slice(column - 1, column - 1 + length)}${quote(1, sql, column, length)}`);
    }
  });

  it('the line of a multi-line statement; a constant call does not repeat itself', async () => {
    const sql = 'SELECT k,\n       sqrt(k - 3) AS r\nFROM t';
    expect((await failure(env1, sql)).message).toBe(`line 2, column 8: cannot take square root of a negative number: sqrt(-2) in sqrt(k - 3)${quote(2, '       sqrt(k - 3) AS r', 8, 11)}`);
    expect((await failure(env1, 'SELECT sqrt(-1)')).message).toBe(`line 1, column 8: cannot take square root of a negative number: sqrt(-1)${quote(1, 'SELECT sqrt(-1)', 8, 8)}`);
  });

  it('an overflow inside one fused arithmetic loop points at the operation that overflowed, not the whole tree', async () => {
    const sql = 'SELECT 1 + (k * 1073741824) - 5 AS v FROM t';
    const e = await failure(env1, sql);
    expect(e.message.split('\n')[0]).toBe('line 1, column 12: integer overflow: 2 * 1073741824 is out of range for INTEGER in (k * 1073741824)');
    expect(e.message).toContain(quote(1, sql, 12, 16));
  });

  it('a scalar subquery with more than one row: the caret under the subquery, correlated or not', async () => {
    const MANY = 'more than one row returned by a subquery used as an expression; make it return one row (e.g. with an aggregate or LIMIT 1)';
    for (const sql of ['SELECT k FROM t WHERE k = (SELECT k FROM t)', 'SELECT k,\n  (SELECT b.k FROM t b WHERE b.k >= a.k) AS v\nFROM t a']) {
      const line = sql.includes('\n') ? 2 : 1;
      const text = sql.split('\n')[line - 1]!;
      const column = text.indexOf('(SELECT') + 1;
      const length = text.indexOf(')', column) + 2 - column;
      const e = await failure(env1, sql);
      expect(e).toBeInstanceOf(ExecutionError);
      expect(e.message, sql).toBe(`line ${line}, column ${column}: ${MANY}${quote(line, text, column, length)}`);
    }
  });

  it('the internal location stays on the error: the operator and callback, and the original error with its position', async () => {
    const e = await failure(env1, 'SELECT k, CAST(s AS INTEGER) AS v FROM t') as ExecutionError;
    expect(e.operator).toMatch(/^Project#\d+\[0\], processBatch$/);
    expect(e.message).not.toMatch(/#\d+\[|processBatch/);
    const cause = e.cause as ExecutionError;
    expect(cause).toBeInstanceOf(ExecutionError);
    expect(cause.message).toBe(CAST);
    expect(cause.at).toMatchObject({ line: 1, column: 11, length: 18 });
  });

  it('reads the same at parallelism 2 when a worker thread raises it', async () => {
    const sql = 'SELECT k % 2 AS g, sum(CAST(s AS INTEGER)) AS v FROM t GROUP BY g';
    const e2 = await failure(env2, sql) as ExecutionError;
    // Raised on a worker thread: the operator it names is the worker's.
    expect(e2.operator).toMatch(/^worker: \w+#\d+\[\d+\], processBatch$/);
    const e1 = await failure(env1, sql) as ExecutionError;
    expect(e2).toBeInstanceOf(ExecutionError);
    expect(e2.message).toBe(e1.message);
    expect(e2.message).toBe(`line 1, column 24: ${CAST}${quote(1, sql, 24, 18)}`);
  });

  it('a plan reused for another text quotes that text', async () => {
    const a = 'SELECT CAST(s AS INTEGER) AS v FROM t';
    const b = 'SELECT   CAST(s AS INTEGER) AS v FROM t';
    for (const sql of [a, b, a]) {
      const column = sql === a ? 8 : 10;
      expect((await failure(env1, sql)).message).toBe(`line 1, column ${column}: ${CAST}${quote(1, sql, column, 18)}`);
    }
  });

  it('an error found while the expression is compiled keeps its class and gets the caret', async () => {
    const sql = "SELECT k FROM t WHERE s LIKE 'a%' ESCAPE 'xy'";
    const e = await failure(env1, sql);
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe(`line 1, column 23: invalid LIKE escape string "xy": it must be empty or one character${quote(1, sql, 23, 23)}`);
  });

  it('a long line is quoted around the expression, not whole', async () => {
    const sql = `SELECT ${Array.from({ length: 40 }, (_, i) => `k + ${i} AS c${i}`).join(', ')}, CAST(s AS INTEGER) AS v FROM t`;
    const e = await failure(env1, sql);
    const [head, quoted, carets] = e.message.split('\n');
    expect(head).toBe(`line 1, column ${sql.indexOf('CAST') + 1}: ${CAST}`);
    expect(quoted!.length).toBeLessThan(200);
    expect(quoted).toContain('…');
    expect(quoted!.indexOf('CAST')).toBe(carets!.indexOf('^'));
  });
});

describe('runtime errors of aggregate and window calls point at the call', () => {
  const OVER = (total: string): string => `sum overflowed BIGINT (${total}); cast the argument to DOUBLE to sum approximately`;
  const BIG = [{ g: 1, x: 9223372036854775807n }, { g: 2, x: 5n }, { g: 1, x: 1n }, { g: 2, x: 7n }];

  beforeAll(() => {
    for (const e of [env1, env2]) e.registerTable('big', e.fromRecords(BIG, { g: 'INTEGER', x: 'BIGINT' }));
  });

  /** eddy's error for `sql`, which DuckDB answers (it sums BIGINT into HUGEINT, which does not overflow here). */
  async function overflow(env: TableEnvironment, sql: string): Promise<ExecutionError> {
    await expect(duck.query(sql), `DuckDB: ${sql}`).resolves.toBeDefined();
    const e = await env.executeSql(sql).then(() => undefined, (x: unknown) => x);
    expect(e, sql).toBeInstanceOf(ExecutionError);
    return e as ExecutionError;
  }

  beforeAll(async () => {
    await loadRows(duck, 'big', { g: 'INTEGER', x: 'BIGINT' }, BIG);
  });

  it('DuckDB answers the exact total eddy cannot hold in BIGINT', async () => {
    expect(String((await duck.query('SELECT sum(x) FROM big')).rows[0]![0])).toBe('9223372036854775820');
  });

  it('sum overflowing BIGINT: global, grouped, with HAVING, under ROLLUP, at parallelism 1 and 2 (the final aggregate of a split raises it)', async () => {
    const cases: [string, string][] = [
      ['SELECT sum(x) AS s FROM big', '9223372036854775820'],
      ['SELECT g, sum(x) AS s FROM big GROUP BY g ORDER BY g', '9223372036854775808'],
      ['SELECT g, count(*) AS c FROM big GROUP BY g HAVING sum(x) > 0 ORDER BY g', '9223372036854775808'],
      ['SELECT g, avg(x) AS a, sum(x) AS s FROM big GROUP BY ROLLUP (g) ORDER BY g NULLS LAST', '9223372036854775808'],
    ];
    for (const [sql, total] of cases) {
      const column = sql.indexOf('sum(x)') + 1;
      const e1 = await overflow(env1, sql);
      expect(e1.message, sql).toBe(`line 1, column ${column}: ${OVER(total)}${quote(1, sql, column, 'sum(x)'.length)}`);
      const e2 = await overflow(env2, sql);
      expect(e2.message, sql).toBe(e1.message);
    }
  });

  it('the final aggregate of a partial/final split on the calling thread and a worker thread raise the same message', async () => {
    const global = await overflow(env2, 'SELECT sum(x) AS s FROM big');
    expect(global.operator).toMatch(/^HashAggregate#\d+\[0\], finish$/);
    const keyed = await overflow(env2, 'SELECT g, sum(x) AS s FROM big GROUP BY g');
    expect(keyed.operator).toMatch(/^worker: HashAggregate#\d+\[\d+\], finish$/);
    expect(keyed.message.split('\n')[0]).toBe(`line 1, column 11: ${OVER('9223372036854775808')}`);
  });

  it('a plan reused for another text quotes that text (the calls\' places are part of plan identity)', async () => {
    const a = 'SELECT sum(x) AS s FROM big';
    const b = 'SELECT   sum(x) AS s FROM big';
    for (const sql of [a, b, a]) {
      const column = sql === a ? 8 : 10;
      expect((await overflow(env1, sql)).message.split('\n')[0], sql).toBe(`line 1, column ${column}: ${OVER('9223372036854775820')}`);
    }
  });

  it('a window sum past BIGINT raises (it does not wrap), pointing at the call and its OVER clause', async () => {
    const sql = 'SELECT g, sum(x) OVER (PARTITION BY g) AS s FROM big';
    for (const env of [env1, env2]) {
      const e = await env.executeSql(sql).then(() => undefined, (x: unknown) => x) as ExecutionError;
      expect(e).toBeInstanceOf(ExecutionError);
      expect(e.message).toBe(`line 1, column 11: ${OVER('9223372036854775808')}${quote(1, sql, 11, 'sum(x) OVER (PARTITION BY g)'.length)}`);
    }
    // The sums that fit are exact, as before.
    const ok = await env1.sql('SELECT g, sum(x) OVER (PARTITION BY g) AS s FROM big WHERE g = 2').collect();
    expect(ok.toArray().map((r) => r.s)).toEqual([12n, 12n]);
  });

  it('stddev and var_pop out of range, as an aggregate and over a window', async () => {
    const from = 'FROM (VALUES (1e308::DOUBLE), (-1e308::DOUBLE)) v(y)';
    const cases: [string, string][] = [
      [`SELECT stddev(y) AS s ${from}`, 'stddev(y)'],
      [`SELECT var_pop(y) AS s ${from}`, 'var_pop(y)'],
      [`SELECT var_pop(y) OVER () AS s ${from}`, 'var_pop(y) OVER ()'],
    ];
    for (const [sql, callText] of cases) {
      const name = callText.slice(0, callText.indexOf('('));
      const e = await failure(env1, sql);
      expect(e, sql).toBeInstanceOf(ExecutionError);
      expect(e.message, sql).toBe(`line 1, column 8: ${name} is out of range (an infinite or NaN input, or an overflow)${quote(1, sql, 8, callText.length)}`);
    }
  });
});

describe('a value INSERT or UPDATE cannot convert names its column, not an internal CAST', () => {
  const NOT_INT = (v: string): string => `could not convert string '${v}' to INTEGER for column "a" of table "ins"`;

  beforeAll(async () => {
    for (const e of [env1, env2]) await e.executeSql('CREATE TABLE ins (a INTEGER, b VARCHAR)');
    await duck.query('CREATE TABLE ins (a INTEGER, b VARCHAR)');
  });

  it('INSERT ... VALUES, INSERT ... (cols) SELECT, INSERT ... SELECT FROM a table, through WITH: the caret under the value, at parallelism 1 and 2', async () => {
    // [statement, the value's text (its first occurrence after the last VALUES or SELECT), message]
    const cases: [string, string, string][] = [
      ["INSERT INTO ins VALUES ('abc', 'x')", "'abc'", NOT_INT('abc')],
      ["INSERT INTO ins (b, a) SELECT 'y', 'q1'", "'q1'", NOT_INT('q1')],
      ['INSERT INTO ins SELECT s, s FROM t', 's', NOT_INT('oops')],
      ["INSERT INTO ins VALUES (99999999999, 'x')", '99999999999', 'could not cast BIGINT value 99999999999 to INTEGER for column "a" of table "ins": out of range'],
      ["INSERT INTO ins WITH v AS (SELECT 'zz' AS z) SELECT z, z FROM v", 'z', NOT_INT('zz')],
    ];
    for (const [sql, value, message] of cases) {
      const column = sql.indexOf(value, Math.max(sql.lastIndexOf('VALUES'), sql.lastIndexOf('SELECT')) + 6) + 1;
      for (const env of [env1, env2]) {
        const e = await failure(env, sql);
        expect(e, sql).toBeInstanceOf(ExecutionError);
        expect(e.message, sql).toBe(`line 1, column ${column}: ${message}${quote(1, sql, column, value.length)}`);
      }
    }
    expect((await env1.from('ins').collect()).numRows).toBe(0);
  });

  it('a VALUES list of several rows: the message names the value and the column (the cast does not know the row)', async () => {
    const sql = "INSERT INTO ins VALUES ('1', 'x'), ('abc', 'y')";
    const e = await failure(env1, sql);
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe(NOT_INT('abc'));
  });

  it('UPDATE ... SET: the caret under the assigned expression; the table is unchanged', async () => {
    await env1.executeSql("INSERT INTO ins VALUES (1, 'x')");
    await duck.query("INSERT INTO ins VALUES (1, 'x')");
    for (const [sql, value, bad] of [["UPDATE ins SET a = 'x'", "'x'", 'x'], ["UPDATE ins SET b = 'y', a = b || 'q' WHERE a = 1", "b || 'q'", 'xq']] as const) {
      const e = await failure(env1, sql);
      expect(e, sql).toBeInstanceOf(ExecutionError);
      const column = sql.indexOf(value) + 1;
      expect(e.message, sql).toBe(`line 1, column ${column}: ${NOT_INT(bad)}${quote(1, sql, column, value.length)}`);
    }
    expect((await env1.from('ins').collect()).toArray().map((r) => [r.a, r.b])).toEqual([[1, 'x']]);
    await env1.executeSql('DELETE FROM ins');
    await duck.query('DELETE FROM ins');
  });

  it('the Table API names the column too (no SQL text: no caret)', async () => {
    for (const env of [env1, env2]) {
      const e = await env.insertInto('ins', env.from('t').select(col('s'), col('s'))).then(() => undefined, (x: unknown) => x) as ExecutionError;
      expect(e).toBeInstanceOf(ExecutionError);
      expect(e.message).toBe(NOT_INT('oops'));
    }
  });
});

describe('other runtime errors found on the way point at their expression', () => {
  it('a LATERAL range / generate_series with a computed step of 0 names the function written, with the caret', async () => {
    for (const fn of ['range', 'generate_series']) {
      const sql = `SELECT * FROM t, LATERAL ${fn}(1, t.k, t.k - t.k) r`;
      for (const env of [env1, env2]) {
        const e = await failure(env, sql);
        expect(e, sql).toBeInstanceOf(ExecutionError);
        const column = sql.indexOf('LATERAL') + 1;
        expect(e.message, sql).toBe(`line 1, column ${column}: ${fn}: the step must not be 0${quote(1, sql, column, sql.length - column + 1)}`);
      }
    }
  });

  it('repeat, lpad and rpad past the longest text say so at the call (repeat named the operator, lpad stopped the process)', async () => {
    const cases: [string, string, string][] = [
      ["SELECT repeat(s, 1000000000) AS r FROM t", 'repeat(s, 1000000000)', 'repeat: the result would be 1000000000 characters long'],
      ["SELECT lpad(s, 1000000000, 'x') AS r FROM t", "lpad(s, 1000000000, 'x')", 'lpad: the result would be 1000000000 characters long'],
      ["SELECT rpad('a', 600000000, 'xy') AS r", "rpad('a', 600000000, 'xy')", 'rpad: the result would be 600000000 characters long'],
    ];
    for (const [sql, call, head] of cases) {
      // eddy's own limit (V8's longest string), which DuckDB does not share: DuckDB is not asked.
      const e = await env1.executeSql(sql).then(() => undefined, (x: unknown) => x) as ExecutionError;
      expect(e, sql).toBeInstanceOf(ExecutionError);
      expect(e.message, sql).toBe(`line 1, column 8: ${head}, more than the 536870888 a text value can hold${quote(1, sql, 8, call.length)}`);
    }
    expect(rowsOf(await env1.sql("SELECT lpad('abc', 8, 'xy') AS l, rpad('abc', 8, 'xy') AS r, lpad('abc', 2, 'x') AS c, lpad('é', 3, '😀') AS u").collect())).toEqual([{ l: 'xyxyxabc', r: 'abcxyxyx', c: 'ab', u: '😀😀é' }]);
  });

  it('a DATE or TIMESTAMP plus INTERVAL months past the range is an error, not a wrapped or undisplayable value', async () => {
    const constant = "SELECT DATE '2020-01-01' + INTERVAL 999999999 MONTH";
    const c = await failure(env1, constant);
    expect(c).toBeInstanceOf(ValidationError);
    expect(c.message.split('\n')[0]).toBe("line 1, column 8: timestamp out of range: DATE '2020-01-01' + INTERVAL 999999999 MONTH is past the range of TIMESTAMP (TIMESTAMP values lie between 271822-04-20 (BC) and 275760-09-13)");
    const date = "SELECT CAST('2020-01-01' AS DATE) + k + INTERVAL 999999999 MONTH AS d FROM t";
    const d = await failure(env1, date);
    expect(d).toBeInstanceOf(ExecutionError);
    expect(d.message.split('\n')[0]).toBe("line 1, column 8: date out of range: add_months(DATE '2020-01-02', 999999999) is past the range of DATE (DATE values lie between 5877642-06-24 (BC) and 5881580-07-11) in CAST('2020-01-01' AS DATE) + k + INTERVAL 999999999 MONTH");
    const ts = 'SELECT to_timestamp(k) + INTERVAL 9999999 MONTH AS d FROM t';
    const e = await failure(env1, ts);
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe(`line 1, column 8: timestamp out of range: TIMESTAMP '1970-01-01 00:00:01' + INTERVAL 9999999 MONTH is past the range of TIMESTAMP (TIMESTAMP values lie between 271822-04-20 (BC) and 275760-09-13) in to_timestamp(k) + INTERVAL 9999999 MONTH${quote(1, ts, 8, 'to_timestamp(k) + INTERVAL 9999999 MONTH'.length)}`);
  });
});

describe('runtime errors in the Table API name the expression', () => {
  it('no operator in the message; the same at parallelism 2', async () => {
    for (const env of [env1, env2]) {
      const e = await env.from('t').select(col('s').cast('INTEGER')).collect().then(() => undefined, (x: unknown) => x) as ExecutionError;
      expect(e).toBeInstanceOf(ExecutionError);
      expect(e.message).toBe("could not convert string 'oops' to INTEGER in CAST(s AS INTEGER)");
      expect(e.operator).toMatch(/^\w+#\d+\[\d+\], processBatch$/);
    }
  });
});

describe('binding errors found on the way', () => {
  it('an unknown table function is unknown, with the closest name or the list', async () => {
    const e = await failure(env1, 'SELECT * FROM duckdb_tablez()');
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message.split('\n')[0]).toMatch(/^line 1, column 15: unknown table function "duckdb_tablez"; table functions: eddy_functions, generate_series, .*read_csv, .*read_parquet$/);
    expect(e.message).not.toContain('file path');
    expect((await failure(env1, "SELECT * FROM read_cvs('x.csv')")).message.split('\n')[0]).toBe('line 1, column 15: unknown table function "read_cvs"; did you mean "read_csv"?');
    // env.sql() binds at once: the same message, not advice to run a file reader with executeSql.
    expect(() => env1.sql('SELECT * FROM duckdb_tablez()')).toThrow(/^line 1, column 15: unknown table function "duckdb_tablez"; table functions: /);
  });

  it('a lag / ntile argument that reads a column is not constant (it was "column not found"); DuckDB evaluates it per row, eddy does not', async () => {
    for (const [sql, what] of [['SELECT lag(s, k) OVER (ORDER BY k) AS v FROM t', 'the lag() offset'], ['SELECT ntile(k) OVER () AS v FROM t', 'the ntile() bucket count']] as const) {
      const e = await env1.executeSql(sql).then(() => undefined, (x: unknown) => x) as Error;
      expect(e, sql).toBeInstanceOf(ValidationError);
      const column = sql.indexOf('k)') + 1;
      expect(e.message, sql).toBe(`line 1, column ${column}: ${what} must be a constant${quote(1, sql, column, 1)}`);
    }
  });

  it('an aggregate over a window function says so (it was a TypeError)', async () => {
    const sql = 'SELECT sum(row_number() OVER ()) FROM t';
    const e = await failure(env1, sql);
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message.split('\n')[0]).toBe('line 1, column 12: aggregate function calls cannot contain window function calls: sum() is computed before the window functions; compute the window in a subquery and aggregate over it');
  });
});
