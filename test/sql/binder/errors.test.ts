/**
 * Binding errors: exact messages with the caret under the offending token,
 * suggestions for misspelt names, and what is available otherwise.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment, ValidationError } from '../../../src/index.js';

let env: TableEnvironment;
beforeAll(() => {
  env = TableEnvironment.create();
  env.registerTpch(0.01);
});

function message(sql: string): string {
  try {
    env.sql(sql);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as Error).message;
  }
  throw new Error(`no error for ${sql}`);
}

describe('binding errors', () => {
  it('unknown column with a suggestion', () => {
    expect(message('SELECT qty FROM lineitem')).toBe('line 1, column 8: column "qty" not found; did you mean "l_quantity"?\n  1 | SELECT qty FROM lineitem\n    |        ^^^');
  });

  it('unknown column without a close match lists the columns', () => {
    expect(message('SELECT r_name\nFROM region\nWHERE zzz > 1')).toBe('line 3, column 7: column "zzz" not found; available columns: r_regionkey, r_name, r_comment\n  3 | WHERE zzz > 1\n    |       ^^^');
  });

  it('a VALUES literal of another type names the column type with its article', () => {
    expect(message("SELECT * FROM (VALUES (1), ('x')) t(a)")).toMatch(/^line 1, column 29: VALUES column 1 is INTEGER but 'x' is not an INTEGER value\n/);
    expect(message("SELECT * FROM (VALUES (DATE '2020-01-01'), ('x')) t(a)")).toMatch(/VALUES column 1 is DATE but 'x' is not a DATE value/);
  });

  it('a date written without DATE is arithmetic: the message says so and shows the literal', () => {
    expect(message('SELECT count(*) FROM lineitem WHERE l_shipdate > 1995-01-01')).toMatch(/^line 1, column 37: cannot compare DATE and INTEGER in > \(in \(l_shipdate > 1995-01-01\)\); 1995-01-01 without quotes is the subtraction 1995 - 1 - 1: write DATE '1995-01-01'\n/);
    expect(message('SELECT count(*) FROM orders WHERE o_orderdate BETWEEN 1996-1-1 AND DATE \'1996-12-31\'')).toMatch(/write DATE '1996-01-01'/);
    // Not a date (month 13), or no DATE operand: no hint.
    expect(message('SELECT count(*) FROM orders WHERE o_orderdate = 1996-13-01')).not.toMatch(/write DATE/);
    expect(message("SELECT count(*) FROM orders WHERE o_comment = 1996-01-01")).not.toMatch(/write/);
  });

  it('a difference of TIMESTAMPs (an INTERVAL in DuckDB) names the functions that give it as a number', () => {
    expect(message("SELECT TIMESTAMP '2024-01-01' - TIMESTAMP '2023-01-01'")).toMatch(/; a difference of TIMESTAMPs is an INTERVAL, which eddy does not have yet: date_diff\('second', b, a\) or epoch\(a\) - epoch\(b\) gives it as a number\n/);
    expect(message("SELECT age(TIMESTAMP '2024-01-01', TIMESTAMP '2023-01-01')")).toMatch(/age\(\.\.\.\) returns an INTERVAL/);
  });

  it('LIST and STRUCT functions say eddy has no such type instead of suggesting a look-alike', () => {
    expect(message('SELECT array_agg(n_name) FROM nation')).toMatch(/^line 1, column 8: unknown function "array_agg": array_agg\(\.\.\.\) takes or returns LIST values, which eddy does not have yet \(see Types in docs\/sql\.md\); string_agg\(x, ','\) joins values into a VARCHAR\n/);
    expect(message('SELECT list(n_name) FROM nation')).not.toMatch(/did you mean/);
    expect(message('SELECT generate_series(1, 3)')).toMatch(/as a table it works in FROM: SELECT \* FROM generate_series\(1, 3\)/);
    expect(message('SELECT struct_pack(1)')).toMatch(/STRUCT or MAP values/);
  });

  it('a short name inside a long one is no suggestion; a misspelling of comparable length is', () => {
    expect(message("SELECT regexp_split_to_arrays('a', ',')")).not.toMatch(/did you mean "exp"/);
    expect(message('SELECT generate_seriez(1)')).not.toMatch(/did you mean "era"/);
    expect(message("SELECT lenght('x')")).toMatch(/did you mean "length"\?/);
    expect(message('SELECT n_nam FROM nation')).toMatch(/did you mean "n_name"\?/);
  });

  it('ambiguous column', () => {
    expect(message('SELECT n_name FROM nation, nation n2')).toBe('line 1, column 8: column reference "n_name" is ambiguous: it matches nation.n_name, n2.n_name; qualify it with a table name or alias\n  1 | SELECT n_name FROM nation, nation n2\n    |        ^^^^^^');
  });

  it('unknown qualifier and unknown table', () => {
    expect(message('SELECT x.r_name FROM region r')).toContain('column "x.r_name" not found: no table or alias "x" in FROM');
    expect(message('SELECT * FROM regoin')).toBe('line 1, column 15: table "regoin" not found; did you mean "region"?\n  1 | SELECT * FROM regoin\n    |               ^^^^^^');
  });

  it('a column neither grouped nor aggregated', () => {
    expect(message('SELECT n_name, count(*) FROM nation')).toBe('line 1, column 8: column "n_name" must appear in the GROUP BY clause or be used in an aggregate function\n  1 | SELECT n_name, count(*) FROM nation\n    |        ^^^^^^');
  });

  it('aggregates where they are not allowed, nested aggregates, unknown functions and types', () => {
    expect(message('SELECT 1 FROM nation WHERE sum(n_nationkey) > 1')).toContain('aggregate function sum() is not allowed in WHERE');
    expect(message('SELECT sum(max(n_nationkey)) FROM nation')).toContain('aggregate function calls cannot be nested');
    expect(message('SELECT uper(n_name) FROM nation')).toContain('unknown function "uper"; did you mean "upper"?');
    expect(message('SELECT CAST(n_name AS BLOB) FROM nation')).toContain('unknown type "BLOB" in CAST');
    expect(message("SELECT n_name + 1 FROM nation")).toContain('+ expects numeric arguments, got VARCHAR, INTEGER');
  });

  it('ORDER BY / GROUP BY positions, LIMIT values, set operation types, subquery widths', () => {
    expect(message('SELECT n_name FROM nation ORDER BY 2')).toContain('ORDER BY position 2 is not in the select list (1 to 1)');
    expect(message('SELECT n_name FROM nation GROUP BY 3')).toContain('GROUP BY position 3 is not in the select list (1 to 1)');
    expect(message('SELECT n_name FROM nation LIMIT 1.5')).toContain('LIMIT must be a non-negative integer, got 1.5');
    expect(message('SELECT n_name FROM nation UNION SELECT n_nationkey FROM nation')).toContain('UNION column 1 ("n_name") is VARCHAR on one side and INTEGER on the other; cast one side');
    expect(message('SELECT 1 FROM region WHERE r_regionkey IN (SELECT n_regionkey, n_name FROM nation)')).toContain('subquery returns 2 columns; it must return exactly one here');
  });

  it('correlation limits are explained', () => {
    expect(message('SELECT r_name FROM region WHERE EXISTS (SELECT 1 FROM nation WHERE EXISTS (SELECT 1 FROM supplier WHERE s_nationkey = n_nationkey AND s_suppkey = r_regionkey))'))
      .toContain('column "r_regionkey" refers to a query two or more levels out');
  });

  it('table functions need executeSql', () => {
    expect(message("SELECT * FROM read_parquet('x.parquet')")).toContain('run this query with env.executeSql(...)');
  });

  it('a well-formed date or time text says which field is out of range', () => {
    expect(message("SELECT DATE '2020-02-30'")).toContain("invalid DATE literal '2020-02-30': day 30 is out of range for 2020-02, which has 29 days");
    expect(message("SELECT DATE '2021-02-29'")).toContain('day 29 is out of range for 2021-02, which has 28 days');
    expect(message("SELECT DATE '2020-13-01'")).toContain('month 13 is out of range (1 to 12)');
    expect(message("SELECT TIMESTAMP '2020-01-01 25:00:00'")).toContain('hour 25 is out of range (0 to 23)');
    expect(message("SELECT TIMESTAMP '2020-01-01 10:61:00'")).toContain('minute 61 is out of range (0 to 59)');
    expect(message("SELECT CAST('2020-04-31' AS DATE)")).toContain("cannot cast '2020-04-31' to DATE: day 31 is out of range for 2020-04, which has 30 days");
    // Not the shape at all: the expected format.
    expect(message("SELECT DATE 'tomorrow'")).toContain("invalid DATE literal 'tomorrow': expected 'YYYY-MM-DD'");
    expect(message("SELECT CAST('soon' AS TIMESTAMP)")).toMatch(/cannot cast 'soon' to TIMESTAMP$/m);
  });
});
