/**
 * The function library against DuckDB on the differential tables (nulls,
 * strs, TPC-H SF 0.01): the new aggregates grouped and global (partial
 * states merge under parallelism), string / regex / math / date scalars
 * over columns with NULLs, TRY_CAST, IF, GROUP BY ALL. Results use eddy's
 * types, so kinds are compared loosely where DuckDB says DECIMAL/HUGEINT.
 */
import { describe, expect, it } from 'vitest';
import { diffCase } from '../cases.js';
import type { Harness } from '../harness.js';

/** Registers the cases on a harness (any environment options). */
export function libraryFunctionSuite(h: Harness): void {
  const q = (name: string, sql: string, ordered = false): void => diffCase(h, name, () => h.env.sql(sql), sql, { ordered, kinds: false });

  describe('library aggregates', () => {
    q('variances, covariance and correlation on TPC-H, grouped', `SELECT l_returnflag, l_linestatus, var_pop(l_quantity) AS vp, var_samp(l_extendedprice) AS vs, stddev_pop(l_discount) AS sp,
      covar_pop(l_extendedprice, l_quantity) AS cp, covar_samp(l_quantity, l_tax) AS cs, corr(l_extendedprice, l_quantity) AS r FROM lineitem GROUP BY ALL`);
    q('variances and covariance with NULLs, per group', 'SELECT g, var_pop(i) AS a, var_samp(d) AS b, stddev_pop(b) AS c, covar_pop(d, i) AS e FROM nulls GROUP BY g');
    // corr where both variances are non-zero (DuckDB answers NULL or NaN for a zero variance, depending on the plan; eddy NULL).
    q('corr with NULLs', "SELECT g, corr(d, b) AS f, corr(i, d) AS r FROM nulls WHERE g = 'x' OR g IS NULL GROUP BY g");
    q('median and quantiles on TPC-H', `SELECT l_shipmode, median(l_quantity) AS m, quantile_cont(l_extendedprice, 0.9) AS p90, quantile_disc(l_orderkey, 0.25) AS q25,
      median(l_shipdate) AS md, quantile_disc(l_shipinstruct, 0.5) AS qs FROM lineitem GROUP BY l_shipmode`);
    q('median of strings and of NULL groups', 'SELECT g, median(i) AS mi, median(d) AS md, median(s) AS ms, quantile_cont(b, 0.5) AS qb FROM nulls GROUP BY g');
    q('bool_and / bool_or with NULLs', 'SELECT g, bool_and(f) AS a, bool_or(f2) AS o, bool_and(i > 0) AS p FROM nulls GROUP BY g');
    q('arg_min / arg_max on unique keys', 'SELECT o_orderpriority, arg_max(o_orderkey, o_totalprice) AS k, arg_min(o_clerk, o_totalprice) AS c, max_by(o_orderdate, o_totalprice) AS d FROM orders GROUP BY o_orderpriority');
    // approx_count_distinct is a HyperLogLog estimate (~2.3% standard error past 256 distinct values, exact below);
    // the oracle is DuckDB's exact count(DISTINCT), within 7% (3 standard errors), and exact for small counts.
    it('approx_count_distinct on TPC-H is within 7% of count(DISTINCT), exact up to 256', async () => {
      const cols = ['l_orderkey', 'l_partkey', 'l_suppkey', 'l_comment', 'l_extendedprice', 'l_shipdate', 'l_linenumber', 'l_shipmode', 'CAST(l_orderkey AS BIGINT) * 1000000007'];
      const list = (fn: (c: string, i: number) => string): string => cols.map(fn).join(', ');
      const eddy = await h.run(h.env.sql(`SELECT l_returnflag, ${list((c, i) => `approx_count_distinct(${c}) AS a${i}`)} FROM lineitem GROUP BY ALL ORDER BY 1`));
      const duck = await h.duck.query(`SELECT l_returnflag, ${list((c, i) => `count(DISTINCT ${c}) AS a${i}`)} FROM lineitem GROUP BY ALL ORDER BY 1`);
      expect(eddy.rows.length).toBe(3);
      eddy.rows.forEach((row, r) => cols.forEach((c, i) => {
        const est = Number(row[i + 1]), exact = Number(duck.rows[r]![i + 1]);
        if (exact <= 256) expect(est, c).toBe(exact);
        else expect(Math.abs(est - exact) / exact, `${c}: ${est} vs ${exact}`).toBeLessThan(0.07);
      }));
    });
    q('mode of a clear winner', 'SELECT l_returnflag, mode(l_linestatus) AS m FROM lineitem WHERE l_linenumber = 1 GROUP BY ALL');
    q('ordered string_agg (total order)', "SELECT n_regionkey, string_agg(n_name, '|' ORDER BY n_name DESC) AS names, string_agg(n_name ORDER BY n_nationkey) AS byk FROM nation GROUP BY n_regionkey");
    q('ordered string_agg of many rows', "SELECT o_orderstatus, length(string_agg(CAST(o_orderkey AS VARCHAR), ',' ORDER BY o_orderkey)) AS len, left(string_agg(CAST(o_orderkey AS VARCHAR), ',' ORDER BY o_orderkey DESC), 40) AS head FROM orders GROUP BY ALL");
    q('string_agg with NULLs and DISTINCT', "SELECT g, string_agg(s, ',' ORDER BY s) AS a, string_agg(DISTINCT s, ';' ORDER BY s) AS b FROM nulls GROUP BY g");
    q('library aggregates over no rows', 'SELECT count(*) AS n, var_pop(i) AS v, median(d) AS m, bool_or(f) AS b, string_agg(s) AS s, approx_count_distinct(i) AS a, corr(d, i) AS c FROM nulls WHERE k < 0');
  });

  describe('library scalars', () => {
    q('string functions over NULLs', `SELECT k, replace(s, 'a', 'A') AS r, split_part(s, '_', 1) AS sp, starts_with(s, 'a') AS sw, contains(s, 'e') AS c, strpos(s, 'p') AS p,
      lpad(s, 7, '.') AS lp, rpad(s, 7, '.') AS rp, reverse(s) AS rv, left(s, 2) AS l, right(s, -1) AS rt, repeat(s, 2) AS rep FROM nulls`);
    q('position(x IN y) syntax', "SELECT k, position('p' IN s) AS a, position(left(s, 1) IN 'x' || s) AS b, position(s IN s) AS c FROM nulls");
    q('regex functions over NULLs', `SELECT k, regexp_matches(s, '^[a-z]+$') AS m, regexp_replace(s, '[aeiou]', '*', 'g') AS r, regexp_extract(s, '([a-z])([a-z])', 2) AS e,
      regexp_full_match(s, '(?i)apple') AS f FROM nulls`);
    q('regex over non-ASCII text (batch kernels decode code points)', `SELECT id, regexp_matches(u, 'é|😀') AS m, regexp_matches(u, '^.{3}$') AS three, regexp_full_match(u, '\\S+ \\S+') AS two,
      regexp_extract(u, '(.)(.)$', 1) AS e, regexp_replace(u, '[aeiouéï]', '_', 'g') AS r, regexp_replace(u, '(😀)', '<\\1>') AS r1,
      regexp_matches(u, 'CAFÉ', 'i') AS ci, regexp_matches(u, 'a.b', 'l') AS lit FROM strs`);
    q('regex with literal prefixes and anchors over TPC-H comments', `SELECT count(*) AS n, sum(CASE WHEN regexp_matches(l_comment, 'furiously') THEN 1 ELSE 0 END) AS a,
      sum(CASE WHEN regexp_matches(l_comment, '^(the|a) ') THEN 1 ELSE 0 END) AS b, sum(CASE WHEN regexp_matches(l_comment, 'ly ?[a-z]+s$') THEN 1 ELSE 0 END) AS c,
      sum(length(regexp_replace(l_comment, 'the', 'THE'))) AS d, count(DISTINCT regexp_extract(l_comment, 'sl(\\w+)', 1)) AS e,
      sum(length(regexp_replace(l_comment, '[aeiou]', '', 'g'))) AS f, max(regexp_replace(l_comment, '[^a-z]', '#')) AS g, min(regexp_replace(l_comment, 'E', '3', 'gi')) AS h FROM lineitem`);
    q('regex over TPC-H comments', "SELECT count(*) AS n, sum(CASE WHEN regexp_matches(l_comment, 'fu[a-z]+y') THEN 1 ELSE 0 END) AS m, max(regexp_extract(l_comment, '(\\w+) (\\w+)$', 1)) AS x FROM lineitem");
    q('math functions', 'SELECT k, greatest(i, k, 3) AS g, least(d, 0) AS l, sign(d) AS s, trunc(d) AS t, mod(b, 7) AS m, round(log10(abs(b) + 1), 9) AS lg, round(atan2(d, k), 9) AS a FROM nulls');
    q('date functions', `SELECT k, date_part('quarter', dt) AS q, extract(dow FROM dt) AS w, date_trunc('month', dt) AS t, date_diff('day', dt, DATE '2024-03-01') AS dd,
      last_day(dt) AS ld, strftime(dt, '%Y-%j %a') AS f, dayname(dt) AS dn, make_date(year(dt), 1, 1) AS y FROM nulls`);
    // DATE ± INTERVAL is a TIMESTAMP (DuckDB's type; kinds compared), DATE + INTEGER a DATE.
    diffCase(h, 'DATE ± INTERVAL gives TIMESTAMP', () => h.env.sql(`SELECT k, dt + INTERVAL 1 MONTH AS a, dt - INTERVAL '2' DAY AS b, dt + 3 AS c,
      DATE '2020-01-31' + INTERVAL 1 MONTH AS d, INTERVAL 1 YEAR + dt AS e, dt - INTERVAL '1' YEAR - INTERVAL 3 DAY AS f FROM nulls`),
    `SELECT k, dt + INTERVAL 1 MONTH AS a, dt - INTERVAL '2' DAY AS b, dt + 3 AS c, DATE '2020-01-31' + INTERVAL 1 MONTH AS d, INTERVAL 1 YEAR + dt AS e,
      dt - INTERVAL '1' YEAR - INTERVAL 3 DAY AS f FROM nulls`);
    q('DATE columns compared with TIMESTAMP constants (midnight and not)', `SELECT count(*) AS n,
      sum(CASE WHEN l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY THEN 1 ELSE 0 END) AS a,
      sum(CASE WHEN l_shipdate < TIMESTAMP '1995-01-01 10:00:00' THEN 1 ELSE 0 END) AS b, sum(CASE WHEN l_shipdate <= TIMESTAMP '1995-01-01 10:00:00' THEN 1 ELSE 0 END) AS c,
      sum(CASE WHEN l_shipdate > TIMESTAMP '1995-01-01 10:00:00' THEN 1 ELSE 0 END) AS d, sum(CASE WHEN l_shipdate >= TIMESTAMP '1995-01-01 10:00:00' THEN 1 ELSE 0 END) AS e,
      sum(CASE WHEN l_shipdate = TIMESTAMP '1995-01-01 00:00:00' THEN 1 ELSE 0 END) AS f, sum(CASE WHEN l_shipdate = TIMESTAMP '1995-01-01 00:00:01' THEN 1 ELSE 0 END) AS g,
      sum(CASE WHEN TIMESTAMP '1995-01-01 10:00:00' < l_shipdate THEN 1 ELSE 0 END) AS h, sum(CASE WHEN l_shipdate <> DATE '1995-01-01' + INTERVAL 1 MONTH THEN 1 ELSE 0 END) AS i,
      sum(CASE WHEN l_shipdate BETWEEN DATE '1994-01-01' AND DATE '1994-01-01' + INTERVAL 1 YEAR THEN 1 ELSE 0 END) AS j FROM lineitem`);
    q('date functions on TPC-H', `SELECT date_trunc('quarter', l_shipdate) AS q, count(*) AS n, min(date_diff('month', l_shipdate, l_receiptdate)) AS mn, max(date_diff('day', l_commitdate, l_receiptdate)) AS mx
      FROM lineitem GROUP BY ALL`);
    q('TRY_CAST and IF', "SELECT k, TRY_CAST(s AS INTEGER) AS i, TRY_CAST(CAST(d AS VARCHAR) AS DOUBLE) AS d2, IF(i > 2, 'big', s) AS x, ifnull(i, -1) AS y FROM nulls");
    q('GROUP BY ALL with expressions', 'SELECT g IS NULL AS n, i % 2 AS p, count(*) AS c, sum(d) AS s FROM nulls GROUP BY ALL');
  });
}
