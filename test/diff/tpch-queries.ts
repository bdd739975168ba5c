/**
 * TPC-H queries 1, 3, 5, 6, 10 and 12 written with the Table API, each with
 * the equivalent SQL text (DuckDB dialect, also plain ANSI) — shared by the
 * differential tests and the benchmark. Parameters are the spec's validation
 * values. Plus FLIP-36's motivating example: `b` = lineitem ⋈ orders,
 * filtered and projected, on which `b.max()`, `b.min()`, `b.count()` run.
 */
import type { TableEnvironment } from '../../src/api/environment.js';
import type { Table } from '../../src/api/table.js';
import { avg, col, countStar, date, desc, lit, sum, when } from '../../src/api/expr.js';

/** l_extendedprice * (1 - l_discount) */
const discPrice = () => col('l_extendedprice').times(lit(1).minus(col('l_discount')));

/** TPC-H Q1: pricing summary report. */
export function q1(env: TableEnvironment): Table {
  return env.from('lineitem')
    .filter(col('l_shipdate').le(date('1998-09-02')))
    .groupBy('l_returnflag', 'l_linestatus')
    .select(
      'l_returnflag', 'l_linestatus',
      sum('l_quantity').as('sum_qty'),
      sum('l_extendedprice').as('sum_base_price'),
      sum(discPrice()).as('sum_disc_price'),
      sum(discPrice().times(lit(1).plus(col('l_tax')))).as('sum_charge'),
      avg('l_quantity').as('avg_qty'),
      avg('l_extendedprice').as('avg_price'),
      avg('l_discount').as('avg_disc'),
      countStar().as('count_order'),
    )
    .orderBy('l_returnflag', 'l_linestatus');
}

/** SQL of Q1. */
export const Q1_SQL = `
SELECT l_returnflag, l_linestatus,
       sum(l_quantity) AS sum_qty,
       sum(l_extendedprice) AS sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
       sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
       avg(l_quantity) AS avg_qty,
       avg(l_extendedprice) AS avg_price,
       avg(l_discount) AS avg_disc,
       count(*) AS count_order
FROM lineitem
WHERE l_shipdate <= DATE '1998-09-02'
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus`;

/** TPC-H Q3: shipping priority. */
export function q3(env: TableEnvironment): Table {
  const c = env.from('customer').filter(col('c_mktsegment').eq(lit('BUILDING')));
  const o = env.from('orders').filter(col('o_orderdate').lt(date('1995-03-15')));
  const l = env.from('lineitem').filter(col('l_shipdate').gt(date('1995-03-15')));
  return c.join(o, col('c_custkey').eq(col('o_custkey')))
    .join(l, col('l_orderkey').eq(col('o_orderkey')))
    .groupBy('l_orderkey', 'o_orderdate', 'o_shippriority')
    .select('l_orderkey', sum(discPrice()).as('revenue'), 'o_orderdate', 'o_shippriority')
    .orderBy(desc('revenue'), 'o_orderdate', 'l_orderkey')
    .limit(10);
}

/** SQL of Q3 (l_orderkey added as a last sort key to make the order total). */
export const Q3_SQL = `
SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate, o_shippriority
FROM customer, orders, lineitem
WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey
  AND o_orderdate < DATE '1995-03-15' AND l_shipdate > DATE '1995-03-15'
GROUP BY l_orderkey, o_orderdate, o_shippriority
ORDER BY revenue DESC, o_orderdate, l_orderkey
LIMIT 10`;

/** TPC-H Q5: local supplier volume. */
export function q5(env: TableEnvironment): Table {
  const r = env.from('region').filter(col('r_name').eq(lit('ASIA')));
  const o = env.from('orders').filter(col('o_orderdate').ge(date('1994-01-01')).and(col('o_orderdate').lt(date('1995-01-01'))));
  return env.from('customer')
    .join(o, col('c_custkey').eq(col('o_custkey')))
    .join(env.from('lineitem'), col('l_orderkey').eq(col('o_orderkey')))
    .join(env.from('supplier'), col('l_suppkey').eq(col('s_suppkey')).and(col('c_nationkey').eq(col('s_nationkey'))))
    .join(env.from('nation'), col('s_nationkey').eq(col('n_nationkey')))
    .join(r, col('n_regionkey').eq(col('r_regionkey')))
    .groupBy('n_name')
    .select('n_name', sum(discPrice()).as('revenue'))
    .orderBy(desc('revenue'));
}

/** SQL of Q5. */
export const Q5_SQL = `
SELECT n_name, sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM customer, orders, lineitem, supplier, nation, region
WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey
  AND c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey
  AND r_name = 'ASIA' AND o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1995-01-01'
GROUP BY n_name
ORDER BY revenue DESC`;

/** TPC-H Q6: forecasting revenue change. */
export function q6(env: TableEnvironment): Table {
  return env.from('lineitem')
    .filter(col('l_shipdate').ge(date('1994-01-01'))
      .and(col('l_shipdate').lt(date('1995-01-01')))
      .and(col('l_discount').between(0.05, 0.07))
      .and(col('l_quantity').lt(24)))
    .select(sum(col('l_extendedprice').times(col('l_discount'))).as('revenue'));
}

/** SQL of Q6. */
export const Q6_SQL = `
SELECT sum(l_extendedprice * l_discount) AS revenue
FROM lineitem
WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
  AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24`;

/** TPC-H Q10: returned item reporting. */
export function q10(env: TableEnvironment): Table {
  const o = env.from('orders').filter(col('o_orderdate').ge(date('1993-10-01')).and(col('o_orderdate').lt(date('1994-01-01'))));
  const l = env.from('lineitem').filter(col('l_returnflag').eq(lit('R')));
  return env.from('customer')
    .join(o, col('c_custkey').eq(col('o_custkey')))
    .join(l, col('l_orderkey').eq(col('o_orderkey')))
    .join(env.from('nation'), col('c_nationkey').eq(col('n_nationkey')))
    .groupBy('c_custkey', 'c_name', 'c_acctbal', 'c_phone', 'n_name', 'c_address', 'c_comment')
    .select('c_custkey', 'c_name', sum(discPrice()).as('revenue'), 'c_acctbal', 'n_name', 'c_address', 'c_phone', 'c_comment')
    .orderBy(desc('revenue'), 'c_custkey')
    .limit(20);
}

/** SQL of Q10 (c_custkey added as a last sort key to make the order total). */
export const Q10_SQL = `
SELECT c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) AS revenue, c_acctbal, n_name, c_address, c_phone, c_comment
FROM customer, orders, lineitem, nation
WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey
  AND o_orderdate >= DATE '1993-10-01' AND o_orderdate < DATE '1994-01-01'
  AND l_returnflag = 'R' AND c_nationkey = n_nationkey
GROUP BY c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
ORDER BY revenue DESC, c_custkey
LIMIT 20`;

/** TPC-H Q12: shipping modes and order priority. */
export function q12(env: TableEnvironment): Table {
  const urgent = col('o_orderpriority').eq(lit('1-URGENT')).or(col('o_orderpriority').eq(lit('2-HIGH')));
  const l = env.from('lineitem').filter(
    col('l_shipmode').in([lit('MAIL'), lit('SHIP')])
      .and(col('l_commitdate').lt(col('l_receiptdate')))
      .and(col('l_shipdate').lt(col('l_commitdate')))
      .and(col('l_receiptdate').ge(date('1994-01-01')))
      .and(col('l_receiptdate').lt(date('1995-01-01'))),
  );
  return env.from('orders')
    .join(l, col('o_orderkey').eq(col('l_orderkey')))
    .groupBy('l_shipmode')
    .select(
      'l_shipmode',
      sum(when(urgent, 1).otherwise(0)).as('high_line_count'),
      sum(when(urgent.not(), 1).otherwise(0)).as('low_line_count'),
    )
    .orderBy('l_shipmode');
}

/** SQL of Q12. */
export const Q12_SQL = `
SELECT l_shipmode,
       sum(CASE WHEN o_orderpriority = '1-URGENT' OR o_orderpriority = '2-HIGH' THEN 1 ELSE 0 END) AS high_line_count,
       sum(CASE WHEN o_orderpriority <> '1-URGENT' AND o_orderpriority <> '2-HIGH' THEN 1 ELSE 0 END) AS low_line_count
FROM orders, lineitem
WHERE o_orderkey = l_orderkey AND l_shipmode IN ('MAIL', 'SHIP')
  AND l_commitdate < l_receiptdate AND l_shipdate < l_commitdate
  AND l_receiptdate >= DATE '1994-01-01' AND l_receiptdate < DATE '1995-01-01'
GROUP BY l_shipmode
ORDER BY l_shipmode`;

/** One TPC-H query: its Table API form, its SQL, and whether its result order is total. */
export interface TpchQuery {
  readonly name: string;
  readonly build: (env: TableEnvironment) => Table;
  readonly sql: string;
  /** The query's ORDER BY is a total order (compare in order). */
  readonly ordered: boolean;
}

/** The queries, in number order. */
export const TPCH_QUERIES: readonly TpchQuery[] = [
  { name: 'Q1', build: q1, sql: Q1_SQL, ordered: true },
  { name: 'Q3', build: q3, sql: Q3_SQL, ordered: true },
  { name: 'Q5', build: q5, sql: Q5_SQL, ordered: true },
  { name: 'Q6', build: q6, sql: Q6_SQL, ordered: true },
  { name: 'Q10', build: q10, sql: Q10_SQL, ordered: true },
  { name: 'Q12', build: q12, sql: Q12_SQL, ordered: true },
];

/**
 * FLIP-36's motivating example: `b` is lineitem ⋈ orders, filtered and
 * projected; the example then runs `b.max()`, `b.min()` and `b.count()`.
 */
export function flip36B(env: TableEnvironment): Table {
  return env.from('lineitem')
    .join(env.from('orders'), col('l_orderkey').eq(col('o_orderkey')))
    .filter(col('o_orderdate').ge(date('1995-01-01')).and(col('l_quantity').gt(10)))
    .select('l_orderkey', discPrice().as('revenue'), 'o_orderdate');
}

/** SQL of FLIP-36's `b` (wrap it: `SELECT max(revenue) FROM (...)`). */
export const FLIP36_B_SQL = `
SELECT l_orderkey, l_extendedprice * (1 - l_discount) AS revenue, o_orderdate
FROM lineitem JOIN orders ON l_orderkey = o_orderkey
WHERE o_orderdate >= DATE '1995-01-01' AND l_quantity > 10`;
