/**
 * Every Table method against DuckDB: select, addColumns, dropColumns,
 * renameColumns, filter/where, groupBy().select/aggregate, distinct, the
 * joins, orderBy, limit, the set operations and as(alias).
 */
import { describe } from 'vitest';
import { col, countStar, date, desc, lit, max, min, sum, upper } from '../../../src/api/expr.js';
import { diffCase } from '../cases.js';
import type { Harness } from '../harness.js';

/** Registers the cases on a harness (any environment options). */
export function tableMethodSuite(h: Harness): void {
  const t = (name: string) => h.env.from(name);

  describe('projection', () => {
    diffCase(h, 'select columns and expressions', () => t('nation').select('n_name', col('n_nationkey').times(2).as('k2'), 'n_regionkey'),
      'SELECT n_name, n_nationkey * 2 AS k2, n_regionkey FROM nation');
    diffCase(h, "select('*')", () => t('region').select('*'), 'SELECT * FROM region');
    diffCase(h, 'select a literal and a qualified column', () => t('region').select(col('region.r_name'), lit('x').as('c'), lit(1.5).as('d')),
      "SELECT r_name, 'x' AS c, 1.5::DOUBLE AS d FROM region");
    diffCase(h, 'addColumns: new columns and one replaced in place', () => t('nation').addColumns(col('n_nationkey').plus(100).as('n_regionkey'), upper('n_name').as('up')),
      'SELECT n_nationkey, n_name, n_nationkey + 100 AS n_regionkey, n_comment, upper(n_name) AS up FROM nation');
    diffCase(h, 'dropColumns', () => t('orders').dropColumns('o_comment', 'o_clerk', 'o_totalprice'),
      'SELECT o_orderkey, o_custkey, o_orderstatus, o_orderdate, o_orderpriority, o_shippriority FROM orders');
    diffCase(h, 'renameColumns', () => t('nation').renameColumns({ n_name: 'name', n_regionkey: 'rk' }).select('name', 'rk'),
      'SELECT n_name AS name, n_regionkey AS rk FROM nation');
    diffCase(h, 'renameColumns then filter on the new name', () => t('nulls').renameColumns({ i: 'ii' }).filter(col('ii').gt(1)).select('k', 'ii'),
      'SELECT k, i AS ii FROM nulls WHERE i > 1');
  });

  describe('filter / where', () => {
    diffCase(h, 'filter on a date range', () => t('orders').filter(col('o_orderdate').ge(date('1996-01-01')).and(col('o_orderdate').lt(date('1996-02-01')))).select('o_orderkey', 'o_totalprice'),
      "SELECT o_orderkey, o_totalprice FROM orders WHERE o_orderdate >= DATE '1996-01-01' AND o_orderdate < DATE '1996-02-01'");
    diffCase(h, 'where (alias of filter) on a dictionary string column', () => t('lineitem').where(col('l_shipmode').eq(lit('AIR')).and(col('l_quantity').gt(45))).select('l_orderkey', 'l_linenumber'),
      "SELECT l_orderkey, l_linenumber FROM lineitem WHERE l_shipmode = 'AIR' AND l_quantity > 45");
    diffCase(h, 'chained filters', () => t('customer').filter(col('c_acctbal').gt(0)).filter(col('c_mktsegment').ne(lit('BUILDING'))).select('c_custkey'),
      "SELECT c_custkey FROM customer WHERE c_acctbal > 0 AND c_mktsegment <> 'BUILDING'");
    diffCase(h, 'filter keeping only TRUE (NULL conditions drop the row)', () => t('nulls').filter(col('f')).select('k'),
      'SELECT k FROM nulls WHERE f');
    diffCase(h, 'filter that removes every row', () => t('nation').filter(col('n_nationkey').lt(0)).select('n_name'),
      'SELECT n_name FROM nation WHERE n_nationkey < 0');
  });

  describe('groupBy', () => {
    diffCase(h, 'groupBy().select', () => t('orders').groupBy('o_orderstatus').select('o_orderstatus', countStar().as('n'), sum('o_totalprice').as('total')),
      'SELECT o_orderstatus, count(*) AS n, sum(o_totalprice) AS total FROM orders GROUP BY o_orderstatus');
    diffCase(h, 'groupBy().aggregate with two keys', () => t('lineitem').groupBy('l_returnflag', 'l_shipmode').aggregate('l_shipmode', 'l_returnflag', max('l_discount').as('mx'), min('l_shipdate').as('first')),
      'SELECT l_shipmode, l_returnflag, max(l_discount) AS mx, min(l_shipdate) AS first FROM lineitem GROUP BY l_returnflag, l_shipmode');
    diffCase(h, 'groupBy an integer key with many groups', () => t('lineitem').groupBy('l_orderkey').select('l_orderkey', countStar().as('lines'), sum('l_quantity').as('q')),
      'SELECT l_orderkey, count(*) AS lines, sum(l_quantity) AS q FROM lineitem GROUP BY l_orderkey');
    diffCase(h, 'groupBy an expression; expression over aggregates', () => t('orders').groupBy(col('o_custkey').mod(7).as('m')).select(col('o_custkey').mod(7).as('m'), sum('o_totalprice').div(countStar()).as('avg_price')),
      'SELECT o_custkey % 7 AS m, sum(o_totalprice) / count(*) AS avg_price FROM orders GROUP BY o_custkey % 7');
    diffCase(h, 'global aggregate via select', () => t('part').select(countStar().as('n'), max('p_retailprice').as('mx'), min('p_size').as('mn')),
      'SELECT count(*) AS n, max(p_retailprice) AS mx, min(p_size) AS mn FROM part');
    diffCase(h, 'filter after groupBy (HAVING)', () => t('lineitem').groupBy('l_suppkey').select('l_suppkey', sum('l_quantity').as('q')).filter(col('q').gt(3900)),
      'SELECT l_suppkey, sum(l_quantity) AS q FROM lineitem GROUP BY l_suppkey HAVING sum(l_quantity) > 3900');
  });

  describe('distinct', () => {
    diffCase(h, 'distinct on two dictionary columns', () => t('orders').select('o_orderstatus', 'o_orderpriority').distinct(),
      'SELECT DISTINCT o_orderstatus, o_orderpriority FROM orders');
    diffCase(h, 'distinct on an integer column', () => t('lineitem').select('l_suppkey').distinct(),
      'SELECT DISTINCT l_suppkey FROM lineitem');
    diffCase(h, 'distinct with NULLs in every type (NULLs are one value)', () => t('nulls').select('g', 'f', 'dt').distinct(),
      'SELECT DISTINCT g, f, dt FROM nulls');
    diffCase(h, 'distinct over doubles, bigints and strings with NULLs', () => t('nulls').select('d', 'b', 's').unionAll(t('nulls').select('d', 'b', 's')).distinct(),
      'SELECT DISTINCT d, b, s FROM (SELECT d, b, s FROM nulls UNION ALL SELECT d, b, s FROM nulls)');
  });

  describe('joins', () => {
    diffCase(h, 'inner join on an expression', () => t('orders').join(t('customer'), col('o_custkey').eq(col('c_custkey'))).select('o_orderkey', 'c_name', 'o_totalprice'),
      'SELECT o_orderkey, c_name, o_totalprice FROM orders JOIN customer ON o_custkey = c_custkey');
    diffCase(h, 'inner join on a shared column name (USING form keeps both columns)', () => t('nulls').select('k', 's').join(t('nulls').select('k', 'i'), 'k'),
      'SELECT a.k, a.s, b.k, b.i FROM nulls a JOIN nulls b ON a.k = b.k', { names: false });
    diffCase(h, 'inner join with a residual non-equi condition', () => t('orders').join(t('customer'), col('o_custkey').eq(col('c_custkey')).and(col('o_totalprice').gt(col('c_acctbal').times(40)))).select('o_orderkey', 'c_custkey'),
      'SELECT o_orderkey, c_custkey FROM orders JOIN customer ON o_custkey = c_custkey AND o_totalprice > c_acctbal * 40');
    diffCase(h, 'leftJoin (customers without orders get NULLs)', () => t('customer').leftJoin(t('orders').filter(col('o_totalprice').gt(300000)), col('c_custkey').eq(col('o_custkey'))).select('c_custkey', 'o_orderkey', 'o_orderdate'),
      'SELECT c_custkey, o_orderkey, o_orderdate FROM customer LEFT JOIN (SELECT * FROM orders WHERE o_totalprice > 300000) o ON c_custkey = o_custkey');
    diffCase(h, 'rightJoin', () => t('orders').filter(col('o_totalprice').gt(300000)).rightJoin(t('customer'), col('c_custkey').eq(col('o_custkey'))).select('o_orderkey', 'c_custkey', 'c_name'),
      'SELECT o_orderkey, c_custkey, c_name FROM (SELECT * FROM orders WHERE o_totalprice > 300000) o RIGHT JOIN customer ON c_custkey = o_custkey');
    diffCase(h, 'fullJoin', () => t('supplier').filter(col('s_acctbal').gt(5000)).select('s_suppkey', 's_nationkey').fullJoin(t('nation').filter(col('n_regionkey').lt(3)).select('n_nationkey', 'n_name'), col('s_nationkey').eq(col('n_nationkey'))),
      'SELECT s_suppkey, s_nationkey, n_nationkey, n_name FROM (SELECT * FROM supplier WHERE s_acctbal > 5000) s FULL JOIN (SELECT * FROM nation WHERE n_regionkey < 3) n ON s_nationkey = n_nationkey');
    diffCase(h, 'semiJoin', () => t('customer').semiJoin(t('orders').filter(col('o_orderpriority').eq(lit('1-URGENT'))), col('c_custkey').eq(col('o_custkey'))).select('c_custkey', 'c_nationkey'),
      "SELECT c_custkey, c_nationkey FROM customer WHERE EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey AND o_orderpriority = '1-URGENT')");
    diffCase(h, 'semiJoin keeps each left row once despite many matches', () => t('orders').semiJoin(t('lineitem'), col('o_orderkey').eq(col('l_orderkey'))).select('o_orderkey'),
      'SELECT o_orderkey FROM orders SEMI JOIN lineitem ON o_orderkey = l_orderkey');
    diffCase(h, 'antiJoin', () => t('customer').antiJoin(t('orders'), col('c_custkey').eq(col('o_custkey'))).select('c_custkey'),
      'SELECT c_custkey FROM customer WHERE NOT EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey)');
    diffCase(h, 'crossJoin (small tables)', () => t('region').crossJoin(t('nation')).select('r_name', 'n_name'),
      'SELECT r_name, n_name FROM region CROSS JOIN nation');
    diffCase(h, 'crossJoin with a condition', () => t('region').crossJoin(t('nation'), col('r_regionkey').eq(col('n_regionkey'))).select('r_name', 'n_name'),
      'SELECT r_name, n_name FROM region JOIN nation ON r_regionkey = n_regionkey');
    diffCase(h, 'crossJoin with NULLs', () => t('nulls').select('k', 'i').crossJoin(t('nulls_r')),
      'SELECT k, i, j, s2, w FROM nulls CROSS JOIN nulls_r');
    diffCase(h, 'non-equi join (nested loop)', () => t('nation').join(t('region'), col('n_regionkey').lt(col('r_regionkey'))).select('n_nationkey', 'r_regionkey'),
      'SELECT n_nationkey, r_regionkey FROM nation JOIN region ON n_regionkey < r_regionkey');
    diffCase(h, 'three-way join with aggregation', () => t('nation').join(t('supplier'), col('n_nationkey').eq(col('s_nationkey'))).join(t('region'), col('n_regionkey').eq(col('r_regionkey'))).groupBy('r_name').select('r_name', countStar().as('n')),
      'SELECT r_name, count(*) AS n FROM nation JOIN supplier ON n_nationkey = s_nationkey JOIN region ON n_regionkey = r_regionkey GROUP BY r_name');
    diffCase(h, 'join on a dictionary string key', () => t('nulls').join(t('nation'), upper(col('s')).eq(col('n_name'))).select('k', 'n_nationkey'),
      'SELECT k, n_nationkey FROM nulls JOIN nation ON upper(s) = n_name');
    diffCase(h, 'join on a VARCHAR key with NULLs', () => t('nulls').join(t('nulls_r'), col('s').eq(col('s2'))).select('k', 's', 'w'),
      'SELECT k, s, w FROM nulls JOIN nulls_r ON s = s2');
  });

  describe('orderBy and limit', () => {
    diffCase(h, 'orderBy asc', () => t('nation').orderBy('n_name').select('n_name'), 'SELECT n_name FROM nation ORDER BY n_name', { ordered: true });
    diffCase(h, 'orderBy desc, then asc', () => t('supplier').orderBy(desc('s_nationkey'), col('s_suppkey').asc()).select('s_nationkey', 's_suppkey'),
      'SELECT s_nationkey, s_suppkey FROM supplier ORDER BY s_nationkey DESC, s_suppkey ASC', { ordered: true });
    diffCase(h, 'orderBy default NULLS LAST (asc)', () => t('nulls').orderBy('i', 'k').select('i', 'k'), 'SELECT i, k FROM nulls ORDER BY i, k', { ordered: true });
    diffCase(h, 'orderBy desc NULLS LAST by default', () => t('nulls').orderBy(desc('d'), 'k').select('d', 'k'), 'SELECT d, k FROM nulls ORDER BY d DESC, k', { ordered: true });
    diffCase(h, 'orderBy asc NULLS FIRST', () => t('nulls').orderBy(col('s').nullsFirst(), 'k').select('s', 'k'), 'SELECT s, k FROM nulls ORDER BY s NULLS FIRST, k', { ordered: true });
    diffCase(h, 'orderBy desc NULLS FIRST', () => t('nulls').orderBy(col('dt').desc().nullsFirst(), 'k').select('dt', 'k'), 'SELECT dt, k FROM nulls ORDER BY dt DESC NULLS FIRST, k', { ordered: true });
    diffCase(h, 'orderBy desc NULLS LAST on BIGINT and BOOLEAN', () => t('nulls').orderBy(col('f').desc().nullsLast(), col('b').desc(), 'k').select('f', 'b', 'k'),
      'SELECT f, b, k FROM nulls ORDER BY f DESC NULLS LAST, b DESC, k', { ordered: true });
    diffCase(h, 'orderBy an expression not in the output', () => t('nulls').orderBy(col('k').mod(3), desc('k')).select('k'), 'SELECT k FROM nulls ORDER BY k % 3, k DESC', { ordered: true });
    diffCase(h, 'orderBy on a non-total key (ties compared as a multiset)', () => t('orders').orderBy('o_orderpriority').select('o_orderpriority', 'o_orderkey'),
      'SELECT o_orderpriority, o_orderkey FROM orders ORDER BY o_orderpriority', { orderKeys: ['o_orderpriority'] });
    diffCase(h, 'limit(n) after orderBy (top-k)', () => t('orders').orderBy(desc('o_totalprice'), 'o_orderkey').limit(7).select('o_orderkey', 'o_totalprice'),
      'SELECT o_orderkey, o_totalprice FROM orders ORDER BY o_totalprice DESC, o_orderkey LIMIT 7', { ordered: true });
    diffCase(h, 'limit(n, offset) after orderBy', () => t('lineitem').orderBy('l_orderkey', 'l_linenumber').limit(5, 1000).select('l_orderkey', 'l_linenumber'),
      'SELECT l_orderkey, l_linenumber FROM lineitem ORDER BY l_orderkey, l_linenumber LIMIT 5 OFFSET 1000', { ordered: true });
    diffCase(h, 'limit with offset past the end', () => t('nation').orderBy('n_nationkey').limit(10, 20).select('n_nationkey'),
      'SELECT n_nationkey FROM nation ORDER BY n_nationkey LIMIT 10 OFFSET 20', { ordered: true });
    diffCase(h, 'limit(0)', () => t('nation').limit(0).select('n_nationkey'), 'SELECT n_nationkey FROM nation LIMIT 0');
    diffCase(h, 'limit without orderBy returns n rows of the input', () => t('nation').limit(25).select('n_nationkey'), 'SELECT n_nationkey FROM nation');
    diffCase(h, 'orderBy then limit then orderBy again', () => t('customer').orderBy(desc('c_acctbal'), 'c_custkey').limit(10).orderBy('c_custkey').select('c_custkey', 'c_acctbal'),
      'SELECT c_custkey, c_acctbal FROM (SELECT * FROM customer ORDER BY c_acctbal DESC, c_custkey LIMIT 10) ORDER BY c_custkey', { ordered: true });
  });

  describe('set operations', () => {
    const a = () => t('nulls').filter(col('k').le(9)).select('i', 's', 'dt');
    const b = () => t('nulls').filter(col('k').ge(5)).select('i', 's', 'dt');
    const A = 'SELECT i, s, dt FROM nulls WHERE k <= 9';
    const B = 'SELECT i, s, dt FROM nulls WHERE k >= 5';
    diffCase(h, 'union (distinct, NULL rows are equal)', () => a().union(b()), `${A} UNION ${B}`);
    diffCase(h, 'unionAll', () => a().unionAll(b()), `${A} UNION ALL ${B}`);
    diffCase(h, 'intersect', () => a().intersect(b()), `${A} INTERSECT ${B}`);
    diffCase(h, 'except', () => a().except(b()), `${A} EXCEPT ${B}`);
    diffCase(h, 'intersectAll', () => a().unionAll(a()).intersectAll(b().unionAll(a())), `(${A} UNION ALL ${A}) INTERSECT ALL (${B} UNION ALL ${A})`);
    diffCase(h, 'exceptAll', () => a().unionAll(a()).exceptAll(b()), `(${A} UNION ALL ${A}) EXCEPT ALL ${B}`);
    diffCase(h, 'union of INTEGER and DOUBLE columns widens to DOUBLE', () => t('nulls').select('i').union(t('nulls').select('d')), 'SELECT i::DOUBLE AS i FROM nulls UNION SELECT d FROM nulls');
    diffCase(h, 'unionAll on TPC-H dictionary columns', () => t('orders').select('o_orderpriority').unionAll(t('lineitem').select('l_shipmode')).groupBy('o_orderpriority').select('o_orderpriority', countStar().as('n')),
      'SELECT o_orderpriority, count(*) AS n FROM (SELECT o_orderpriority FROM orders UNION ALL SELECT l_shipmode FROM lineitem) GROUP BY o_orderpriority');
    diffCase(h, 'except on TPC-H keys', () => t('customer').select(col('c_custkey').as('k')).except(t('orders').select(col('o_custkey').as('k'))),
      'SELECT c_custkey AS k FROM customer EXCEPT SELECT o_custkey FROM orders');
  });

  describe('as(alias)', () => {
    diffCase(h, 'self-join with aliases', () => t('nation').as('a').join(t('nation').as('b'), col('a.n_regionkey').eq(col('b.n_regionkey')).and(col('a.n_nationkey').lt(col('b.n_nationkey')))).select(col('a.n_name').as('x'), col('b.n_name').as('y')),
      'SELECT a.n_name AS x, b.n_name AS y FROM nation a JOIN nation b ON a.n_regionkey = b.n_regionkey AND a.n_nationkey < b.n_nationkey');
    diffCase(h, 'as(alias, ...columns) renames', () => t('region').as('r', 'id', 'name', 'cmt').select('r.id', 'name'),
      'SELECT r_regionkey AS id, r_name AS name FROM region');
    diffCase(h, 'alias after a transformation', () => t('orders').filter(col('o_orderstatus').eq(lit('P'))).as('p').join(t('customer').as('c'), col('p.o_custkey').eq(col('c.c_custkey'))).select(col('p.o_orderkey'), col('c.c_name')),
      "SELECT p.o_orderkey, c.c_name FROM (SELECT * FROM orders WHERE o_orderstatus = 'P') p JOIN customer c ON p.o_custkey = c.c_custkey");
  });
}
