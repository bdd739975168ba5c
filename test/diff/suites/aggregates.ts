/**
 * Aggregates and NULL handling against DuckDB: count, countStar,
 * countDistinct, sum, avg, min, max, stddev (and the DISTINCT forms) —
 * grouped, global, over empty input and over all-NULL groups; NULL keys
 * never join, NULL group keys group together, NULLs ignored by aggregates.
 */
import { describe } from 'vitest';
import {
  avg, avgDistinct, col, count, countDistinct, countStar, lit, max, min, stddev, sum, sumDistinct, when,
} from '../../../src/api/expr.js';
import { diffCase } from '../cases.js';
import type { Harness } from '../harness.js';

/** Registers the cases on a harness (any environment options). */
export function aggregateSuite(h: Harness): void {
  const n = () => h.env.from('nulls');
  const r = () => h.env.from('nulls_r');

  const ALL = (x: string) => `count(${x}) AS c_${x}, sum(${x}) AS s_${x}, avg(${x}) AS a_${x}, min(${x}) AS mn_${x}, max(${x}) AS mx_${x}`;
  const all = (x: string) => [count(x).as(`c_${x}`), sum(x).as(`s_${x}`), avg(x).as(`a_${x}`), min(x).as(`mn_${x}`), max(x).as(`mx_${x}`)];

  describe('aggregate functions', () => {
    diffCase(h, 'count sum avg min max over INTEGER, BIGINT, DOUBLE with NULLs, grouped (incl. an all-NULL group and a NULL key)', () => n().groupBy('g').select('g', countStar().as('n'), ...all('i'), ...all('b'), ...all('d')),
      `SELECT g, count(*) AS n, ${ALL('i')}, ${ALL('b')}, ${ALL('d')} FROM nulls GROUP BY g`);
    diffCase(h, 'global count sum avg min max', () => n().select(countStar().as('n'), ...all('i'), ...all('b'), ...all('d')),
      `SELECT count(*) AS n, ${ALL('i')}, ${ALL('b')}, ${ALL('d')} FROM nulls`);
    diffCase(h, 'min / max over VARCHAR, DATE, BOOLEAN with NULLs', () => n().groupBy('g').select('g', min('s').as('mns'), max('s').as('mxs'), min('dt').as('mnd'), max('dt').as('mxd'), min('f').as('mnf'), max('f').as('mxf')),
      'SELECT g, min(s) AS mns, max(s) AS mxs, min(dt) AS mnd, max(dt) AS mxd, min(f) AS mnf, max(f) AS mxf FROM nulls GROUP BY g');
    diffCase(h, 'count of every type ignores NULLs', () => n().groupBy('g').select('g', count('s').as('cs'), count('dt').as('cdt'), count('f').as('cf'), count('f2').as('cf2')),
      'SELECT g, count(s) AS cs, count(dt) AS cdt, count(f) AS cf, count(f2) AS cf2 FROM nulls GROUP BY g');
    diffCase(h, 'countDistinct, sumDistinct, avgDistinct', () => n().groupBy('g').select('g', countDistinct('i').as('ci'), countDistinct('s').as('cs'), countDistinct('dt').as('cdt'), sumDistinct('b').as('sb'), avgDistinct('d').as('ad')),
      'SELECT g, count(DISTINCT i) AS ci, count(DISTINCT s) AS cs, count(DISTINCT dt) AS cdt, sum(DISTINCT b) AS sb, avg(DISTINCT d) AS ad FROM nulls GROUP BY g');
    diffCase(h, 'global countDistinct with NULLs', () => n().select(countDistinct('i').as('ci'), countDistinct('d').as('cd'), countDistinct('g').as('cg'), countDistinct('f').as('cf')),
      'SELECT count(DISTINCT i) AS ci, count(DISTINCT d) AS cd, count(DISTINCT g) AS cg, count(DISTINCT f) AS cf FROM nulls');
    diffCase(h, 'stddev (sample; NULL for fewer than two values)', () => n().groupBy('g').select('g', stddev('i').as('si'), stddev('d').as('sd'), stddev('b').as('sb')),
      'SELECT g, stddev(i) AS si, stddev(d) AS sd, stddev(b) AS sb FROM nulls GROUP BY g');
    diffCase(h, 'stddev on TPC-H', () => h.env.from('lineitem').groupBy('l_returnflag', 'l_linestatus').select('l_returnflag', 'l_linestatus', stddev('l_quantity').as('sq'), stddev('l_extendedprice').as('sp')),
      'SELECT l_returnflag, l_linestatus, stddev(l_quantity) AS sq, stddev(l_extendedprice) AS sp FROM lineitem GROUP BY 1, 2');
    diffCase(h, 'sum of INTEGER is an integer (exact), sum of DOUBLE a double', () => h.env.from('lineitem').groupBy('l_shipmode').select('l_shipmode', sum('l_linenumber').as('s'), sum('l_partkey').as('sp'), sum('l_quantity').as('q'), avg('l_linenumber').as('a')),
      'SELECT l_shipmode, sum(l_linenumber) AS s, sum(l_partkey) AS sp, sum(l_quantity) AS q, avg(l_linenumber) AS a FROM lineitem GROUP BY l_shipmode');
    diffCase(h, 'countDistinct on TPC-H', () => h.env.from('lineitem').groupBy('l_returnflag').select('l_returnflag', countDistinct('l_suppkey').as('s'), countDistinct('l_shipmode').as('m'), countDistinct('l_shipdate').as('d')),
      'SELECT l_returnflag, count(DISTINCT l_suppkey) AS s, count(DISTINCT l_shipmode) AS m, count(DISTINCT l_shipdate) AS d FROM lineitem GROUP BY l_returnflag');
    diffCase(h, 'avg and stddev of BIGINT beyond 2^53', () => h.env.from('bigs').select(avg('v').as('a'), stddev('v').as('s')),
      'SELECT avg(v) AS a, stddev(v) AS s FROM bigs');
    diffCase(h, 'sum of large DOUBLEs with cancellation', () => n().select(sum(col('d').times(1e17)).as('a')), 'SELECT sum(d * 1e17) AS a FROM nulls');
    diffCase(h, 'aggregates of expressions and expressions of aggregates', () => n().groupBy('g').select('g', sum(col('i').times(col('d'))).as('sid'), max(col('i').plus(col('k'))).minus(min('k')).as('x'), sum(when(col('f'), 1).otherwise(0)).as('nt')),
      'SELECT g, sum(i * d) AS sid, max(i + k) - min(k) AS x, sum(CASE WHEN f THEN 1 ELSE 0 END) AS nt FROM nulls GROUP BY g');
    diffCase(h, 'the same aggregate twice and a key used in an expression', () => n().groupBy('g').select(col('g').concat(lit('!')).as('g2'), sum('i').as('a'), sum('i').as('b2'), sum('i').plus(1).as('c')),
      "SELECT g || '!' AS g2, sum(i) AS a, sum(i) AS b2, sum(i) + 1 AS c FROM nulls GROUP BY g");
  });

  describe('aggregates over empty input', () => {
    const none = () => n().filter(col('k').lt(0));
    diffCase(h, 'global aggregate over no rows: one row, count 0, others NULL', () => none().select(countStar().as('n'), count('i').as('c'), sum('i').as('s'), sum('d').as('sd'), avg('d').as('a'), min('s').as('mn'), max('dt').as('mx'), stddev('d').as('sdv'), countDistinct('s').as('cd')),
      'SELECT count(*) AS n, count(i) AS c, sum(i) AS s, sum(d) AS sd, avg(d) AS a, min(s) AS mn, max(dt) AS mx, stddev(d) AS sdv, count(DISTINCT s) AS cd FROM nulls WHERE k < 0');
    diffCase(h, 'grouped aggregate over no rows: no rows', () => none().groupBy('g').select('g', countStar().as('n'), sum('d').as('s')),
      'SELECT g, count(*) AS n, sum(d) AS s FROM nulls WHERE k < 0 GROUP BY g');
    diffCase(h, 'global aggregate over an empty TPC-H filter', () => h.env.from('lineitem').filter(col('l_quantity').gt(1000)).select(countStar().as('n'), sum('l_extendedprice').as('s'), max('l_shipdate').as('m')),
      'SELECT count(*) AS n, sum(l_extendedprice) AS s, max(l_shipdate) AS m FROM lineitem WHERE l_quantity > 1000');
    diffCase(h, 'aggregates over an all-NULL column: count 0, sum/avg/min/max NULL', () => n().filter(col('g').eq(lit('v'))).select(countStar().as('n'), count('d').as('c'), sum('d').as('s'), avg('i').as('a'), min('b').as('mn'), max('dt').as('mx'), stddev('d').as('sd')),
      "SELECT count(*) AS n, count(d) AS c, sum(d) AS s, avg(i) AS a, min(b) AS mn, max(dt) AS mx, stddev(d) AS sd FROM nulls WHERE g = 'v'");
    diffCase(h, 'Table.count() on an empty table is 0 via a grouped-less select', () => h.env.from('nation').filter(lit(false)).select(countStar().as('n')),
      'SELECT count(*) AS n FROM nation WHERE false');
  });

  describe('NULL handling', () => {
    diffCase(h, 'NULL group keys group together (one key)', () => n().groupBy('g').select('g', countStar().as('n')),
      'SELECT g, count(*) AS n FROM nulls GROUP BY g');
    diffCase(h, 'NULL group keys group together (keys of every type)', () => n().groupBy('i').select('i', countStar().as('n')).unionAll(n().groupBy('f').select(col('f').cast('INTEGER').as('i'), countStar().as('n'))),
      'SELECT i, count(*) AS n FROM nulls GROUP BY i UNION ALL SELECT f::INTEGER, count(*) FROM nulls GROUP BY f');
    diffCase(h, 'NULL group keys with several keys', () => n().groupBy('g', 'f', 'dt').select('g', 'f', 'dt', countStar().as('n'), sum('b').as('sb')),
      'SELECT g, f, dt, count(*) AS n, sum(b) AS sb FROM nulls GROUP BY g, f, dt');
    diffCase(h, 'NULL group keys of DOUBLE, BIGINT and VARCHAR', () => n().groupBy('d', 'b', 's').select('d', 'b', 's', countStar().as('n')),
      'SELECT d, b, s, count(*) AS n FROM nulls GROUP BY d, b, s');
    diffCase(h, 'NULL keys never join (inner)', () => n().join(r(), col('i').eq(col('j'))).select('k', 'i', 'j', 'w'),
      'SELECT k, i, j, w FROM nulls JOIN nulls_r ON i = j');
    diffCase(h, 'NULL keys never join (left: NULL-key rows kept, unmatched)', () => n().leftJoin(r(), col('i').eq(col('j'))).select('k', 'i', 'j', 's2'),
      'SELECT k, i, j, s2 FROM nulls LEFT JOIN nulls_r ON i = j');
    diffCase(h, 'NULL keys never join (right)', () => n().rightJoin(r(), col('i').eq(col('j'))).select('k', 'j', 's2'),
      'SELECT k, j, s2 FROM nulls RIGHT JOIN nulls_r ON i = j');
    diffCase(h, 'NULL keys never join (full)', () => n().fullJoin(r(), col('i').eq(col('j'))).select('k', 'i', 'j', 'w'),
      'SELECT k, i, j, w FROM nulls FULL JOIN nulls_r ON i = j');
    diffCase(h, 'NULL keys never join (semi)', () => n().semiJoin(r(), col('i').eq(col('j'))).select('k', 'i'),
      'SELECT k, i FROM nulls WHERE EXISTS (SELECT 1 FROM nulls_r WHERE i = j)');
    diffCase(h, 'NULL keys never join (anti keeps NULL-key rows)', () => n().antiJoin(r(), col('i').eq(col('j'))).select('k', 'i'),
      'SELECT k, i FROM nulls WHERE NOT EXISTS (SELECT 1 FROM nulls_r WHERE i = j)');
    diffCase(h, 'NULL keys never join (two keys, one NULL)', () => n().join(r(), col('i').eq(col('j')).and(col('s').eq(col('s2')))).select('k', 'j', 's2'),
      'SELECT k, j, s2 FROM nulls JOIN nulls_r ON i = j AND s = s2');
    diffCase(h, 'NULL keys never join (full, string keys)', () => n().fullJoin(r(), col('s').eq(col('s2'))).select('k', 's', 's2'),
      'SELECT k, s, s2 FROM nulls FULL JOIN nulls_r ON s = s2');
    diffCase(h, 'NULL keys never join (anti on a string key with NULLs on both sides)', () => n().antiJoin(r(), col('s').eq(col('s2'))).select('k', 's'),
      'SELECT k, s FROM nulls WHERE NOT EXISTS (SELECT 1 FROM nulls_r WHERE s = s2)');
    diffCase(h, 'aggregate after an outer join counts only non-NULL right values', () => n().leftJoin(r(), col('i').eq(col('j'))).groupBy('k').select('k', count('w').as('c'), countStar().as('n'), sum('w').as('s')),
      'SELECT k, count(w) AS c, count(*) AS n, sum(w) AS s FROM nulls LEFT JOIN nulls_r ON i = j GROUP BY k');
  });
}
