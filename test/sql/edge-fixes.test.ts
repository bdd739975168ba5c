/**
 * What the edge sweep (edge-sweep.test.ts) found, one case each, as a user meets it: over a column at
 * parallelism 1 and 2 (the stage on worker threads) as well as with constants. A DATE past the
 * TIMESTAMP range converted to TIMESTAMP is a conversion error, not an internal one; TRY_CAST between
 * DATE and TIMESTAMP converts; literals, text and date_trunc results past the ranges are refused with
 * the reason; errors name the function or operator the user wrote; power and gamma give C's (DuckDB's)
 * values at the infinities.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionError, TableEnvironment, ValidationError } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { loadRows, openDuck, type Duck } from '../helpers/duckdb.js';
import { failure, firstLine } from '../helpers/failure.js';

const ROWS = [
  { k: 1, d: '2020-02-29', s: '2020-02-29 12:34:56.789', x: 1 },
  { k: 2, d: '0001-01-01', s: '0001-01-01 00:00:00', x: 0 },
  { k: 3, d: '9999-12-31', s: '9999-12-31 23:59:59.999', x: -1 },
  { k: 4, d: null, s: null, x: null },
  { k: 5, d: '1969-12-31', s: '1969-12-31 23:59:59.999', x: 2 },
];
const TYPES = { k: 'INTEGER', d: 'DATE', s: 'VARCHAR', x: 'DOUBLE' } as const;
/** t and one row past the TIMESTAMP range (5881580-07-10 is a DATE both engines accept; fromRecords reads 4-digit years). */
const FAR = "SELECT k, d, s, x FROM t UNION ALL SELECT 6, DATE '5881580-07-10', '5881580-07-10', 3.0";

let envs: [string, TableEnvironment][];
let duck: Duck;

beforeAll(async () => {
  const p1 = TableEnvironment.create({ parallelism: 1 });
  // Every stage on worker threads, none on the calling thread: a worker raises the error.
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', callingThreadShare: false });
  envs = [['p1', p1], ['p2', p2]];
  for (const [, e] of envs) {
    e.registerTable('t', e.fromRecords(ROWS, TYPES));
    e.registerTable('far', e.sql(FAR));
  }
  duck = await openDuck();
  await loadRows(duck, 't', TYPES, ROWS);
});

afterAll(async () => {
  for (const [, e] of envs ?? []) await e.close();
  duck?.close();
});

const RANGE = 'TIMESTAMP values lie between 271822-04-20 (BC) and 275760-09-13';

describe('DATE and TIMESTAMP past their ranges', () => {
  it('CAST of a DATE past the TIMESTAMP range is a conversion error at the cast, over a column and a constant', async () => {
    for (const [name, env] of envs) {
      const e = await failure(env, 'SELECT k, CAST(d AS TIMESTAMP) AS ts FROM far');
      expect(e, name).toBeInstanceOf(ExecutionError);
      expect(firstLine(e), name).toBe(`line 1, column 11: could not cast DATE value 5881580-07-10 to TIMESTAMP: out of range (${RANGE}), in CAST(d AS TIMESTAMP)`);
      const c = await failure(env, "SELECT CAST(DATE '5881580-07-10' AS TIMESTAMP) AS ts");
      expect(firstLine(c), name).toBe(`line 1, column 8: could not cast DATE value 5881580-07-10 to TIMESTAMP: out of range (${RANGE}), in CAST(DATE '5881580-07-10' AS TIMESTAMP)`);
      // The last DATE that is a TIMESTAMP converts.
      const ok = fromArrow(await env.sql("SELECT CAST(DATE '275760-09-13' AS TIMESTAMP) AS ts").collect());
      expect(ok.rows, name).toEqual([[8.64e15]]);
    }
    await expect(duck.query("SELECT CAST(DATE '5881580-07-10' AS TIMESTAMP)")).rejects.toThrow(/Conversion Error/);
  });

  it('TRY_CAST between DATE and TIMESTAMP converts (it returned the numbers unconverted), NULL past the range', async () => {
    const q = 'SELECT k, TRY_CAST(d AS TIMESTAMP) AS a, TRY_CAST(CAST(s AS TIMESTAMP) AS DATE) AS b FROM t ORDER BY k';
    const want = await duck.query(q);
    for (const [name, env] of envs) {
      expectSameResult(fromArrow(await env.sql(q).collect()), want, { ordered: true });
      const far = fromArrow(await env.sql('SELECT k, TRY_CAST(d AS TIMESTAMP) AS a FROM far WHERE k = 6').collect());
      expect(far.rows, name).toEqual([[6, null]]);
    }
  });

  it('literals and text past the ranges are refused with the reason; date_trunc, make_date and strptime results too', async () => {
    const [, env] = envs[0]!;
    expect(firstLine(await failure(env, "SELECT TIMESTAMP '294247-01-10 04:00:54.775'"))).toBe(`line 1, column 8: invalid TIMESTAMP literal '294247-01-10 04:00:54.775': past the range of TIMESTAMP (${RANGE})`);
    expect(firstLine(await failure(env, "SELECT CAST('300000-01-01' AS TIMESTAMP)"))).toBe(`line 1, column 8: cannot cast '300000-01-01' to TIMESTAMP: past the range of TIMESTAMP (${RANGE})`);
    expect(firstLine(await failure(env, "SELECT DATE '99999999-01-01'"))).toBe("line 1, column 8: invalid DATE literal '99999999-01-01': past the range of DATE (DATE values lie between 5877642-06-24 (BC) and 5881580-07-11)");
    for (const [name, e] of envs) {
      const t = await failure(e, "SELECT date_trunc('year', d) FROM far");
      expect(t, name).toBeInstanceOf(ExecutionError);
      expect(firstLine(t), name).toBe(`line 1, column 8: date_trunc('year', 5881580-07-10): the result is out of range (${RANGE})`);
      const s = await failure(e, "SELECT strptime(s, '%Y-%m-%d') FROM far WHERE k = 6");
      expect(firstLine(s), name).toBe(`line 1, column 8: strptime('5881580-07-10', '%Y-%m-%d'): the result is out of range (${RANGE})`);
      const m = await failure(e, 'SELECT make_date(CAST(k AS BIGINT) * 10000000, 1, 1) FROM t WHERE k = 1');
      expect(firstLine(m), name).toBe('line 1, column 8: date out of range: make_date(10000000, 1, 1) is past the range of DATE');
    }
  });
});

describe('errors name what the user wrote', () => {
  it('log, not the log10 it computes', async () => {
    for (const [name, env] of envs) {
      const e = await failure(env, 'SELECT log(x) FROM t');
      expect(firstLine(e), name).toBe('line 1, column 8: cannot take logarithm of zero: log(0)');
    }
    await expect(duck.query('SELECT log(0)')).rejects.toThrow(/cannot take logarithm of zero/);
    // The base is checked too, as DuckDB does (it was used as is: log(0, 8) was 0).
    const [, env] = envs[0]!;
    expect(firstLine(await failure(env, 'SELECT log(0, 8)'))).toBe('line 1, column 8: cannot take logarithm of zero: log(0, 8)');
    expect(firstLine(await failure(env, 'SELECT log(-2, 8)'))).toBe('line 1, column 8: cannot take logarithm of a negative number: log(-2, 8)');
    expect(firstLine(await failure(env, 'SELECT log(1, 8)'))).toBe('line 1, column 8: division by zero in a logarithm to base 1: log(1, 8)');
    for (const q of ['SELECT log(0::DOUBLE, 8::DOUBLE)', 'SELECT log(-2::DOUBLE, 8::DOUBLE)', 'SELECT log(1::DOUBLE, 8::DOUBLE)']) await expect(duck.query(q)).rejects.toThrow(/Out of Range/);
    expect(fromArrow(await env.sql('SELECT log(2, 8) AS v').collect()).rows).toEqual([[3]]);
  });

  it('IS [NOT] DISTINCT FROM, ifnull and nvl, not the <> / = / coalesce they expand to', async () => {
    const [, env] = envs[0]!;
    expect(firstLine(await failure(env, "SELECT 1 IS DISTINCT FROM 'x'"))).toBe('line 1, column 8: cannot compare INTEGER and VARCHAR in IS DISTINCT FROM');
    expect(firstLine(await failure(env, "SELECT k IS NOT DISTINCT FROM s FROM t"))).toBe('line 1, column 8: cannot compare INTEGER and VARCHAR in IS NOT DISTINCT FROM');
    expect(firstLine(await failure(env, "SELECT ifnull(k, 'a') FROM t"))).toBe("line 1, column 8: cannot compare INTEGER and VARCHAR in ifnull (in ifnull(k, 'a'))");
    expect(firstLine(await failure(env, "SELECT nvl(k, 'a') FROM t"))).toBe("line 1, column 8: cannot compare INTEGER and VARCHAR in nvl (in nvl(k, 'a'))");
    expect(firstLine(await failure(env, "SELECT lcm(1, CAST('-9223372036854775808' AS BIGINT))"))).toBe('line 1, column 8: lcm: overflow on abs(-9223372036854775808)');
    expect(firstLine(await failure(env, "SELECT strptime('x', '%Y')"))).toBe("line 1, column 8: strptime: could not parse 'x' with the format '%Y'");
  });

  it('date_part takes a constant part: a column is refused as such, a NULL part gives NULL (as DuckDB)', async () => {
    const [, env] = envs[0]!;
    // (A bare name that is a part alias, such as s for second, is that part, as in extract(s FROM d).)
    const e = await failure(env, "SELECT date_part(k, DATE '2020-01-01') FROM t");
    expect(e).toBeInstanceOf(ValidationError);
    expect(firstLine(e)).toMatch(/^line 1, column 18: the part of date_part must be a constant string such as 'year', not k \(a part that varies per row is not supported; /);
    expect(firstLine(await failure(env, "SELECT date_part(s || 'x', DATE '2020-01-01') FROM t"))).toBe("line 1, column 18: the part of date_part must be a constant string such as 'year' (a part that varies per row is not supported)");
    expect(firstLine(await failure(env, "SELECT date_part('fortnight', DATE '2020-01-01')"))).toMatch(/^line 1, column 18: unsupported date part "fortnight" in date_part; use year, /);
    const q = "SELECT date_part(CAST(NULL AS VARCHAR), d) AS a, date_part(CAST('year' AS VARCHAR), d) AS b FROM t";
    expectSameResult(fromArrow(await env.sql(q).collect()), await duck.query(q));
  });
});

describe('BC dates as DuckDB', () => {
  it('decade divides the year toward zero (in date_part, date_trunc and date_diff); a BC timestamp reads "date (BC) time" both ways', async () => {
    const q = "SELECT decade(DATE '0016-06-01 (BC)') AS a, date_part('decade', DATE '5877642-06-25 (BC)') AS b, CAST(date_trunc('decade', DATE '0016-06-01 (BC)') AS VARCHAR) AS c, date_diff('decade', DATE '0016-06-01 (BC)', DATE '0001-01-01') AS d, CAST(CAST('0011-01-01 (BC) 10:00:00' AS TIMESTAMP) AS VARCHAR) AS e";
    const want = await duck.query(q);
    expect(want.rows).toEqual([[-1, -587764, '0011-01-01 (BC) 00:00:00', 1, '0011-01-01 (BC) 10:00:00']]);
    for (const [, env] of envs) expectSameResult(fromArrow(await env.sql(q).collect()), want);
  });
});

describe("C's (DuckDB's) values at the infinities", () => {
  it('power and ^: 1 to any power and -1 to ±infinity are 1; gamma past 172 and lgamma(±inf) are +inf', async () => {
    const q = "SELECT power(x, 'NaN'::DOUBLE) AS a, x ^ 'Infinity'::DOUBLE AS b, power(x, '-Infinity'::DOUBLE) AS c, gamma(x * 1e308) AS g, lgamma(x * 'Infinity'::DOUBLE) AS l FROM t WHERE x <> 0";
    const want = await duck.query(q);
    for (const [, env] of envs) expectSameResult(fromArrow(await env.sql(q).collect()), want);
  });
});
