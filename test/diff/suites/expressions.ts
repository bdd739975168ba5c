/**
 * Every expression family against DuckDB, mostly over the hand-made `nulls`
 * table (NULLs in every type) and a few TPC-H columns (dictionary strings,
 * dates): arithmetic, comparisons, three-valued logic, IS [NOT] NULL, IN,
 * BETWEEN, LIKE, CAST, CASE, string, math and date functions.
 */
import { describe } from 'vitest';
import {
  abs, ceil, coalesce, col, concat, date, dateAdd, day, exp, floor, length, lit, ln, lower, month, nullif, power, round,
  sqrt, substring, sum, countStar, trim, upper, when, year,
} from '../../../src/api/expr.js';
import { diffCase } from '../cases.js';
import type { Harness } from '../harness.js';

/** Registers the cases on a harness (any environment options). */
export function expressionSuite(h: Harness): void {
  const n = () => h.env.from('nulls');

  describe('arithmetic', () => {
    diffCase(h, 'plus minus times on INTEGER, BIGINT, DOUBLE with NULLs', () => n().select('k',
      col('i').plus(col('k')).as('a'), col('b').minus(col('i')).as('b2'), col('d').times(col('i')).as('c'), col('b').times(3).as('e'), col('d').plus(0.25).as('f')),
    'SELECT k, i + k AS a, b - i AS b2, d * i AS c, b * 3 AS e, d + 0.25 AS f FROM nulls');
    diffCase(h, 'div is float division', () => n().select('k', col('i').div(2).as('a'), col('b').div(col('k')).as('b2'), col('d').div(col('i')).as('c')),
      'SELECT k, i / 2 AS a, b / k AS b2, d / i AS c FROM nulls WHERE true');
    diffCase(h, 'division by zero is NULL (INTEGER, BIGINT, DOUBLE; literal and column zero)', () => n().select('k',
      col('i').div(0).as('a'), col('d').div(0).as('b2'), col('k').div(col('i')).as('c'), col('b').div(col('i')).as('e'), col('d').div(col('d').minus(col('d'))).as('f')),
    'SELECT k, i / 0 AS a, d / 0 AS b2, k / i AS c, b / i AS e, d / (d - d) AS f FROM nulls');
    diffCase(h, 'mod, incl. negative operands and modulo by zero → NULL', () => n().select('k',
      col('i').mod(3).as('a'), col('k').mod(col('i')).as('b2'), col('b').mod(7).as('c'), col('d').mod(2).as('e'), col('i').mod(0).as('f')),
    'SELECT k, i % 3 AS a, k % i AS b2, b % 7 AS c, d % 2 AS e, i % 0 AS f FROM nulls');
    diffCase(h, 'neg', () => n().select('k', col('i').neg().as('a'), col('b').neg().as('b2'), col('d').neg().as('c')),
      'SELECT k, -i AS a, -b AS b2, -d AS c FROM nulls');
    diffCase(h, 'arithmetic on TPC-H money columns', () => h.env.from('lineitem').select('l_orderkey', 'l_linenumber', col('l_extendedprice').times(lit(1).minus(col('l_discount'))).times(lit(1).plus(col('l_tax'))).as('charge'), col('l_quantity').div(col('l_linenumber')).as('r')),
      'SELECT l_orderkey, l_linenumber, l_extendedprice * (1 - l_discount) * (1 + l_tax) AS charge, l_quantity / l_linenumber AS r FROM lineitem');
  });

  describe('comparisons and logic', () => {
    diffCase(h, 'comparisons with NULLs on every type', () => n().select('k',
      col('i').eq(2).as('c1'), col('i').ne(col('k')).as('c2'), col('d').lt(col('i')).as('c3'), col('b').le(20).as('c4'),
      col('s').gt(lit('apple')).as('c5'), col('dt').ge(date('2020-01-01')).as('c6'), col('f').eq(col('f2')).as('c7'), col('s').ge(col('g')).as('c8')),
    "SELECT k, i = 2 AS c1, i <> k AS c2, d < i AS c3, b <= 20 AS c4, s > 'apple' AS c5, dt >= DATE '2020-01-01' AS c6, f = f2 AS c7, s >= g AS c8 FROM nulls");
    diffCase(h, 'comparing INTEGER with DOUBLE and BIGINT', () => n().select('k', col('i').lt(col('d')).as('a'), col('b').eq(col('i').times(10)).as('b2'), col('i').gt(1.5).as('c')),
      'SELECT k, i < d AS a, b = i * 10 AS b2, i > 1.5 AS c FROM nulls');
    diffCase(h, 'and / or / not are three-valued (all nine combinations)', () => n().select('k', col('f').and(col('f2')).as('a'), col('f').or(col('f2')).as('o'), col('f').not().as('nf'), col('f').and(col('f2').not()).or(col('f2').isNull()).as('x')),
      'SELECT k, f AND f2 AS a, f OR f2 AS o, NOT f AS nf, (f AND NOT f2) OR f2 IS NULL AS x FROM nulls');
    diffCase(h, 'and / or over comparisons with NULL operands', () => n().select('k', col('i').gt(0).and(col('d').gt(0)).as('a'), col('i').gt(0).or(col('d').gt(0)).as('o'), col('i').gt(0).and(col('d').gt(0)).not().as('na')),
      'SELECT k, i > 0 AND d > 0 AS a, i > 0 OR d > 0 AS o, NOT (i > 0 AND d > 0) AS na FROM nulls');
    diffCase(h, 'filter with three-valued or / not', () => n().filter(col('f').or(col('f2')).not()).select('k'),
      'SELECT k FROM nulls WHERE NOT (f OR f2)');
    diffCase(h, 'n-ary and / or', () => n().select('k', col('f').and(col('f2'), col('i').gt(0)).as('a'), col('f').or(col('f2'), col('i').gt(5)).as('o')),
      'SELECT k, f AND f2 AND i > 0 AS a, f OR f2 OR i > 5 AS o FROM nulls');
    diffCase(h, 'isNull / isNotNull on every type', () => n().select('k', col('i').isNull().as('i0'), col('b').isNull().as('b0'), col('d').isNotNull().as('d1'), col('s').isNull().as('s0'), col('dt').isNotNull().as('dt1'), col('f').isNull().as('f0')),
      'SELECT k, i IS NULL AS i0, b IS NULL AS b0, d IS NOT NULL AS d1, s IS NULL AS s0, dt IS NOT NULL AS dt1, f IS NULL AS f0 FROM nulls');
    diffCase(h, 'in (with and without a NULL in the list)', () => n().select('k', col('i').in([1, 2, 9]).as('a'), col('i').in([1, null]).as('b2'), col('s').in([lit('apple'), lit('zz'), lit('')]).as('c'), col('d').in([1.5, 2]).as('e')),
      "SELECT k, i IN (1, 2, 9) AS a, i IN (1, NULL) AS b2, s IN ('apple', 'zz', '') AS c, d IN (1.5, 2) AS e FROM nulls");
    diffCase(h, 'in on a dictionary column', () => h.env.from('lineitem').filter(col('l_shipmode').in([lit('MAIL'), lit('SHIP'), lit('NOPE')])).groupBy('l_shipmode').select('l_shipmode', col('l_shipmode').in([lit('MAIL')]).as('m')),
      "SELECT l_shipmode, l_shipmode IN ('MAIL') AS m FROM lineitem WHERE l_shipmode IN ('MAIL', 'SHIP', 'NOPE') GROUP BY l_shipmode");
    diffCase(h, 'between (inclusive) on INTEGER, DOUBLE, DATE', () => n().select('k', col('i').between(0, 4).as('a'), col('d').between(-1, 2.5).as('b2'), col('dt').between(date('2020-01-01'), date('2020-12-31')).as('c')),
      "SELECT k, i BETWEEN 0 AND 4 AS a, d BETWEEN -1 AND 2.5 AS b2, dt BETWEEN DATE '2020-01-01' AND DATE '2020-12-31' AS c FROM nulls");
    diffCase(h, 'a string literal compared with a DATE column is a DATE', () => h.env.from('orders').filter(col('o_orderdate').lt(lit('1992-01-10'))).select('o_orderkey'),
      "SELECT o_orderkey FROM orders WHERE o_orderdate < DATE '1992-01-10'");
  });

  describe('like', () => {
    diffCase(h, 'like with % and _', () => n().select('k', col('s').like('a%').as('a'), col('s').like('_pple').as('b2'), col('s').like('%e%').as('c'), col('s').like('a_b').as('e'), col('s').like('%').as('f'), col('s').like('').as('g2')),
      "SELECT k, s LIKE 'a%' AS a, s LIKE '_pple' AS b2, s LIKE '%e%' AS c, s LIKE 'a_b' AS e, s LIKE '%' AS f, s LIKE '' AS g2 FROM nulls");
    diffCase(h, 'like is case-sensitive; pattern characters in the data', () => n().select('k', col('s').like('A%').as('a'), col('s').like('Elder%').as('b2'), col('s').like('%\u0025').as('c'), col('s').like('__').as('e')),
      "SELECT k, s LIKE 'A%' AS a, s LIKE 'Elder%' AS b2, s LIKE '%%' AS c, s LIKE '__' AS e FROM nulls");
    diffCase(h, 'like on TPC-H (dictionary and plain strings)', () => h.env.from('part').filter(col('p_type').like('%BRASS').or(col('p_name').like('%green%'))).select('p_partkey'),
      "SELECT p_partkey FROM part WHERE p_type LIKE '%BRASS' OR p_name LIKE '%green%'");
    diffCase(h, 'not like', () => h.env.from('orders').filter(col('o_comment').like('%special%requests%').not()).select('o_orderkey'),
      "SELECT o_orderkey FROM orders WHERE o_comment NOT LIKE '%special%requests%'");
  });

  describe('cast', () => {
    diffCase(h, 'cast to DOUBLE', () => n().select('k', col('i').cast('DOUBLE').as('a'), col('b').cast('DOUBLE').as('b2')),
      'SELECT k, i::DOUBLE AS a, b::DOUBLE AS b2 FROM nulls');
    diffCase(h, 'cast to INTEGER (from BIGINT, and from DOUBLE away from .5 ties)', () => n().filter(col('d').ne(2.5).and(col('d').ne(-0.5)).or(col('d').isNull())).select('k', col('b').cast('INTEGER').as('a'), col('d').cast('INTEGER').as('b2')),
      'SELECT k, b::INTEGER AS a, d::INTEGER AS b2 FROM nulls WHERE (d <> 2.5 AND d <> -0.5) OR d IS NULL');
    diffCase(h, 'cast DOUBLE .5 ties to INTEGER rounds half to even', () => n().filter(col('d').in([2.5, -0.5, 1.5])).select('k', col('d').cast('INTEGER').as('a')),
      'SELECT k, d::INTEGER AS a FROM nulls WHERE d IN (2.5, -0.5, 1.5)');
    diffCase(h, 'cast TPC-H money to INTEGER', () => h.env.from('orders').select('o_orderkey', col('o_totalprice').cast('INTEGER').as('p')),
      'SELECT o_orderkey, o_totalprice::INTEGER AS p FROM orders');
    diffCase(h, 'cast to VARCHAR (INTEGER, BIGINT, DATE, BOOLEAN)', () => n().select('k', col('i').cast('VARCHAR').as('a'), col('b').cast('VARCHAR').as('b2'), col('dt').cast('VARCHAR').as('c'), col('f').cast('VARCHAR').as('e')),
      'SELECT k, i::VARCHAR AS a, b::VARCHAR AS b2, dt::VARCHAR AS c, f::VARCHAR AS e FROM nulls');
    diffCase(h, 'cast non-integral DOUBLE to VARCHAR', () => n().filter(col('d').ne(col('d').cast('INTEGER').cast('DOUBLE'))).select('k', col('d').cast('VARCHAR').as('a')),
      'SELECT k, d::VARCHAR AS a FROM nulls WHERE d <> d::INTEGER::DOUBLE');
    diffCase(h, 'cast VARCHAR to DATE and INTEGER', () => n().select('k', col('dt').cast('VARCHAR').cast('DATE').as('a'), col('i').cast('VARCHAR').cast('INTEGER').as('b2'), lit('2021-03-04').cast('DATE').as('c')),
      "SELECT k, dt::VARCHAR::DATE AS a, i::VARCHAR::INTEGER AS b2, DATE '2021-03-04' AS c FROM nulls");
    diffCase(h, 'cast INTEGER to BIGINT and a literal to DATE', () => n().select('k', col('i').cast('BIGINT').plus(col('b')).as('a'), col('dt').lt(lit('2020-01-01').cast('DATE')).as('b2')),
      "SELECT k, i::BIGINT + b AS a, dt < DATE '2020-01-01' AS b2 FROM nulls");
  });

  describe('cast and formatting extras', () => {
    diffCase(h, 'cast every DOUBLE to VARCHAR (integral values print as 10.0)', () => n().select('k', col('d').cast('VARCHAR').as('a'), concat(col('d'), lit('')).as('b2'), col('d').div(3).cast('VARCHAR').as('c'), col('d').times(1e20).cast('VARCHAR').as('e')),
      "SELECT k, d::VARCHAR AS a, concat(d, '') AS b2, (d / 3)::VARCHAR AS c, (d * 1e20)::VARCHAR AS e FROM nulls");
    diffCase(h, 'cast BOOLEAN to INTEGER and DATE to TIMESTAMP', () => n().select('k', col('f').cast('INTEGER').as('a'), col('dt').cast('TIMESTAMP').as('b2')),
      'SELECT k, f::INTEGER AS a, dt::TIMESTAMP AS b2 FROM nulls');
    diffCase(h, 'cast a padded string literal to INTEGER', () => n().select('k', lit(' 12 ').cast('INTEGER').as('a')), "SELECT k, ' 12 '::INTEGER AS a FROM nulls");
    diffCase(h, 'concat of BOOLEAN, DOUBLE and BIGINT', () => n().select('k', concat(col('f'), col('d'), col('b')).as('a')), 'SELECT k, concat(f, d, b) AS a FROM nulls');
  });

  describe('case / coalesce / nullif', () => {
    diffCase(h, 'when / otherwise', () => n().select('k', when(col('i').gt(2), lit('big')).when(col('i').isNull(), lit('none')).otherwise(lit('small')).as('a')),
      "SELECT k, CASE WHEN i > 2 THEN 'big' WHEN i IS NULL THEN 'none' ELSE 'small' END AS a FROM nulls");
    diffCase(h, 'when without otherwise is NULL; NULL conditions fall through', () => n().select('k', when(col('f'), col('d')).as('a'), when(col('f2'), col('i')).when(col('f'), 0).as('b2')),
      'SELECT k, CASE WHEN f THEN d END AS a, CASE WHEN f2 THEN i WHEN f THEN 0 END AS b2 FROM nulls');
    diffCase(h, 'when mixing INTEGER and DOUBLE branches', () => n().select('k', when(col('k').lt(5), col('i')).otherwise(col('d')).as('a')),
      'SELECT k, CASE WHEN k < 5 THEN i ELSE d END AS a FROM nulls');
    diffCase(h, 'when with DATE branches', () => n().select('k', when(col('dt').isNull(), date('1970-01-01')).otherwise(col('dt')).as('a')),
      "SELECT k, CASE WHEN dt IS NULL THEN DATE '1970-01-01' ELSE dt END AS a FROM nulls");
    diffCase(h, 'coalesce and nullif', () => n().select('k', coalesce(col('i'), col('b').cast('INTEGER'), lit(-1)).as('a'), nullif('i', 2).as('b2'), coalesce(col('s'), lit('?')).as('c')),
      "SELECT k, coalesce(i, b::INTEGER, -1) AS a, nullif(i, 2) AS b2, coalesce(s, '?') AS c FROM nulls");
  });

  describe('string functions', () => {
    diffCase(h, 'upper lower trim length', () => n().select('k', upper('s').as('u'), lower('s').as('l'), trim('s').as('t'), length('s').as('n')),
      'SELECT k, upper(s) AS u, lower(s) AS l, trim(s) AS t, length(s) AS n FROM nulls');
    diffCase(h, 'substring with and without length', () => n().select('k', substring('s', 2, 3).as('a'), substring('s', 2).as('b2'), substring('s', 1, 1).as('c'), substring('s', 5, 10).as('e')),
      'SELECT k, substring(s, 2, 3) AS a, substring(s, 2) AS b2, substring(s, 1, 1) AS c, substring(s, 5, 10) AS e FROM nulls');
    diffCase(h, 'concat (NULL as empty) and concat operator (NULL if any NULL)', () => n().select('k', concat(col('s'), lit('-'), col('g')).as('a'), col('s').concat(col('g')).as('b2'), col('s').concat(lit('!')).as('c')),
      "SELECT k, concat(s, '-', g) AS a, s || g AS b2, s || '!' AS c FROM nulls");
    diffCase(h, 'concat with non-string arguments', () => n().select('k', concat(col('i'), lit(':'), col('dt')).as('a')),
      "SELECT k, concat(i, ':', dt) AS a FROM nulls");
    diffCase(h, 'string functions on dictionary columns', () => h.env.from('nation').select('n_nationkey', lower('n_name').as('l'), length('n_name').as('n'), substring('n_name', 1, 3).as('p'), concat(col('n_name'), lit('/'), col('n_regionkey')).as('c')),
      "SELECT n_nationkey, lower(n_name) AS l, length(n_name) AS n, substring(n_name, 1, 3) AS p, concat(n_name, '/', n_regionkey) AS c FROM nation");
    diffCase(h, 'string functions on TPC-H plain strings', () => h.env.from('customer').select('c_custkey', upper('c_comment').as('u'), length('c_address').as('n'), substring('c_phone', 1, 2).as('cc'), trim('c_address').as('t')),
      'SELECT c_custkey, upper(c_comment) AS u, length(c_address) AS n, substring(c_phone, 1, 2) AS cc, trim(c_address) AS t FROM customer');
    diffCase(h, 'group by a string function', () => h.env.from('customer').groupBy(substring('c_phone', 1, 2).as('cc')).select(substring('c_phone', 1, 2).as('cc'), countStar().as('n')),
      'SELECT substring(c_phone, 1, 2) AS cc, count(*) AS n FROM customer GROUP BY 1');
  });

  describe('string function extras', () => {
    diffCase(h, 'substring with 0 and negative starts inside the string, and zero / negative lengths', () => n().filter(length('s').ge(3)).select('k', substring('s', 0, 2).as('a'), substring('s', -2).as('b2'), substring('s', -3, 2).as('c'), substring('s', 2, 0).as('e'), substring('s', 2, -1).as('f')),
      'SELECT k, substring(s, 0, 2) AS a, substring(s, -2) AS b2, substring(s, -3, 2) AS c, substring(s, 2, 0) AS e, substring(s, 2, -1) AS f FROM nulls WHERE length(s) >= 3');
    diffCase(h, 'substring with column (and NULL) start and length', () => n().select('k', substring('s', col('i')).as('a'), substring('s', 1, col('i')).as('b2')),
      'SELECT k, substring(s, i) AS a, substring(s, 1, i) AS b2 FROM nulls');
  });

  describe('math functions', () => {
    diffCase(h, 'abs on INTEGER, BIGINT, DOUBLE', () => n().select('k', abs('i').as('a'), abs('b').as('b2'), abs('d').as('c')),
      'SELECT k, abs(i) AS a, abs(b) AS b2, abs(d) AS c FROM nulls');
    diffCase(h, 'round (half away from zero), with digits', () => n().select('k', round('d').as('a'), round('d', 1).as('b2'), round(col('d').div(7), 2).as('c')),
      'SELECT k, round(d) AS a, round(d, 1) AS b2, round(d / 7, 2) AS c FROM nulls');
    diffCase(h, 'round on INTEGER', () => n().select('k', round('i').as('a')), 'SELECT k, round(i) AS a FROM nulls');
    diffCase(h, 'floor and ceil on DOUBLE', () => n().select('k', floor('d').as('a'), ceil('d').as('b2'), floor(col('d').neg()).as('c')),
      'SELECT k, floor(d) AS a, ceil(d) AS b2, floor(-d) AS c FROM nulls');
    diffCase(h, 'sqrt ln exp on positive values', () => n().filter(col('d').gt(0)).select('k', sqrt('d').as('a'), ln('d').as('b2'), exp('d').as('c'), sqrt(abs('i')).as('e')),
      'SELECT k, sqrt(d) AS a, ln(d) AS b2, exp(d) AS c, sqrt(abs(i)) AS e FROM nulls WHERE d > 0');
    diffCase(h, 'math functions over NULLs give NULL', () => n().filter(col('d').isNull()).select('k', sqrt('d').as('a'), ln('d').as('b2'), exp('d').as('c'), abs('d').as('e'), round('d').as('f')),
      'SELECT k, sqrt(d) AS a, ln(d) AS b2, exp(d) AS c, abs(d) AS e, round(d) AS f FROM nulls WHERE d IS NULL');
    diffCase(h, 'power', () => n().select('k', power('d', 2).as('a'), power('i', 3).as('b2'), power(abs('d'), 0.5).as('c')),
      'SELECT k, power(d, 2) AS a, power(i, 3) AS b2, power(abs(d), 0.5) AS c FROM nulls');
    diffCase(h, 'math on TPC-H money', () => h.env.from('customer').select('c_custkey', round(col('c_acctbal').div(3), 2).as('r'), floor('c_acctbal').as('f'), ceil('c_acctbal').as('c'), sqrt(abs('c_acctbal')).as('s')),
      'SELECT c_custkey, round(c_acctbal / 3, 2) AS r, floor(c_acctbal) AS f, ceil(c_acctbal) AS c, sqrt(abs(c_acctbal)) AS s FROM customer');
  });

  describe('math extras', () => {
    diffCase(h, 'round with negative digits', () => n().select('k', round(col('b').cast('DOUBLE').times(12.34), -1).as('a')), 'SELECT k, round(b::DOUBLE * 12.34, -1) AS a FROM nulls');
    diffCase(h, 'mod with negative divisors', () => n().select('k', col('d').mod(-1.5).as('a'), col('i').mod(-4).as('b2')), 'SELECT k, d % -1.5 AS a, i % -4 AS b2 FROM nulls');
    diffCase(h, 'INTEGER / BIGINT', () => n().select('k', col('i').div(col('b')).as('a')), 'SELECT k, i / b AS a FROM nulls');
    diffCase(h, 'power with zero exponent and zero base', () => n().select('k', power('i', 0).as('a'), power(lit(0), abs('i')).as('b2')), 'SELECT k, power(i, 0) AS a, power(0, abs(i)) AS b2 FROM nulls');
    diffCase(h, 'exp of large and negative values', () => n().select('k', exp('b').as('a')), 'SELECT k, exp(b) AS a FROM nulls');
  });

  describe('date functions', () => {
    diffCase(h, 'year month day with NULLs and leap days', () => n().select('k', year('dt').as('y'), month('dt').as('m'), day('dt').as('d2')),
      'SELECT k, year(dt) AS y, month(dt) AS m, day(dt) AS d2 FROM nulls');
    diffCase(h, 'dateAdd (positive, negative, across leap days)', () => n().select('k', dateAdd('dt', 30).as('a'), dateAdd('dt', -366).as('b2'), dateAdd('dt', col('i')).as('c')),
      'SELECT k, dt + 30 AS a, dt - 366 AS b2, dt + i AS c FROM nulls');
    diffCase(h, 'DATE + INTEGER and DATE - DATE', () => n().select('k', col('dt').plus(1).as('a'), col('dt').minus(date('2000-01-01')).as('b2')),
      "SELECT k, dt + 1 AS a, dt - DATE '2000-01-01' AS b2 FROM nulls");
    diffCase(h, 'year/month over all TPC-H order dates', () => h.env.from('orders').groupBy(year('o_orderdate').as('y'), month('o_orderdate').as('m')).select(year('o_orderdate').as('y'), month('o_orderdate').as('m'), sum('o_totalprice').as('s')),
      'SELECT year(o_orderdate) AS y, month(o_orderdate) AS m, sum(o_totalprice) AS s FROM orders GROUP BY 1, 2');
    diffCase(h, 'day and dateAdd on TPC-H dates', () => h.env.from('lineitem').filter(dateAdd('l_shipdate', 30).gt(col('l_receiptdate'))).select('l_orderkey', 'l_linenumber', day('l_receiptdate').as('d')),
      'SELECT l_orderkey, l_linenumber, day(l_receiptdate) AS d FROM lineitem WHERE l_shipdate + 30 > l_receiptdate');
  });

  describe('date extras', () => {
    diffCase(h, 'year / month / day of dates before the epoch and before year 1', () => n().select('k', year(dateAdd('dt', -800000)).as('a'), month(dateAdd('dt', -800000)).as('b2'), day(dateAdd('dt', -800000)).as('c'), year(dateAdd('dt', -20000)).as('e')),
      'SELECT k, year(dt - 800000) AS a, month(dt - 800000) AS b2, day(dt - 800000) AS c, year(dt - 20000) AS e FROM nulls');
  });
}
