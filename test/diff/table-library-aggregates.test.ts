/**
 * The function library's aggregates through the Table API
 * (src/api/expr-aggregates.ts) against the same SQL on DuckDB, grouped and
 * global, at parallelism 1 and at parallelism 2 with small batches (partial
 * states merge); plus the argument checks.
 */
import { describe, expect, it } from 'vitest';
import {
  anyValue, approxCountDistinct, argMax, argMin, boolAnd, boolOr, corr, covarPop, covarSamp, median, mode, quantileCont, quantileDisc,
  stddevPop, stringAgg, varPop, varSamp,
} from '../../src/api/expr-aggregates.js';
import { col, countStar, desc } from '../../src/api/expr.js';
import { diffCase } from './cases.js';
import { useHarness, type Harness } from './harness.js';

function suite(h: Harness): void {
  const t = (name: string) => h.env.from(name);
  const q = (name: string, build: () => ReturnType<typeof t>, sql: string): void => diffCase(h, name, build, sql, { kinds: false });
  q('moments, grouped', () => t('lineitem').groupBy('l_returnflag').select('l_returnflag', varPop('l_quantity').as('vp'), varSamp('l_extendedprice').as('vs'),
    stddevPop('l_discount').as('sp'), covarPop('l_extendedprice', 'l_quantity').as('cp'), covarSamp('l_quantity', 'l_tax').as('cs'), corr('l_extendedprice', 'l_quantity').as('r')),
  `SELECT l_returnflag, var_pop(l_quantity) AS vp, var_samp(l_extendedprice) AS vs, stddev_pop(l_discount) AS sp, covar_pop(l_extendedprice, l_quantity) AS cp,
    covar_samp(l_quantity, l_tax) AS cs, corr(l_extendedprice, l_quantity) AS r FROM lineitem GROUP BY l_returnflag`);
  q('median and quantiles, grouped', () => t('lineitem').groupBy('l_shipmode').select('l_shipmode', median('l_quantity').as('m'), quantileCont('l_extendedprice', 0.9).as('p90'),
    quantileDisc('l_orderkey', 0.25).as('q25'), median('l_shipdate').as('md')),
  'SELECT l_shipmode, median(l_quantity) AS m, quantile_cont(l_extendedprice, 0.9) AS p90, quantile_disc(l_orderkey, 0.25) AS q25, median(l_shipdate) AS md FROM lineitem GROUP BY l_shipmode');
  q('arg_min / arg_max, bool_and / bool_or, mode', () => t('orders').groupBy('o_orderpriority').select('o_orderpriority', argMax('o_orderkey', 'o_totalprice').as('k'),
    argMin('o_clerk', 'o_totalprice').as('c'), boolAnd(col('o_totalprice').gt(900)).as('a'), boolOr(col('o_totalprice').gt(500000)).as('o')),
  `SELECT o_orderpriority, arg_max(o_orderkey, o_totalprice) AS k, arg_min(o_clerk, o_totalprice) AS c, bool_and(o_totalprice > 900) AS a, bool_or(o_totalprice > 500000) AS o
    FROM orders GROUP BY o_orderpriority`);
  q('mode and any_value of a single-valued group', () => t('lineitem').filter(col('l_linenumber').eq(1)).groupBy('l_returnflag').select('l_returnflag', mode('l_linestatus').as('m'), anyValue('l_returnflag').as('v')),
    'SELECT l_returnflag, mode(l_linestatus) AS m, any_value(l_returnflag) AS v FROM lineitem WHERE l_linenumber = 1 GROUP BY l_returnflag');
  q('ordered string_agg with a separator, and DISTINCT', () => t('nation').groupBy('n_regionkey').select('n_regionkey', stringAgg('n_name', { separator: '|', orderBy: desc('n_name') }).as('names'),
    stringAgg('n_name', { orderBy: 'n_nationkey' }).as('byk'), stringAgg(col('n_regionkey').cast('VARCHAR'), { distinct: true }).as('d')),
  "SELECT n_regionkey, string_agg(n_name, '|' ORDER BY n_name DESC) AS names, string_agg(n_name, ',' ORDER BY n_nationkey) AS byk, string_agg(DISTINCT CAST(n_regionkey AS VARCHAR), ',') AS d FROM nation GROUP BY n_regionkey");
  // approx_count_distinct is exact up to 256 values in eddy; DuckDB's sketch says 9 for these 8, so the oracle is count(DISTINCT).
  q('global library aggregates with NULLs', () => t('nulls').select(countStar().as('n'), varPop('i').as('v'), median('d').as('m'), boolOr('f').as('b'),
    stringAgg('s', { orderBy: 's' }).as('s'), approxCountDistinct('i').as('a')),
  "SELECT count(*) AS n, var_pop(i) AS v, median(d) AS m, bool_or(f) AS b, string_agg(s, ',' ORDER BY s) AS s, count(DISTINCT i) AS a FROM nulls");
}

describe('parallelism 1', () => suite(useHarness()));
describe('parallelism 2, small batches', () => suite(useHarness({ env: { parallelism: 2, batchSize: 1000 }, smallBatchRows: 3 })));

describe('argument checks', () => {
  const h = useHarness({ tpch: false });
  it('rejects a non-numeric moment, a bad fraction and window use with two arguments', () => {
    expect(() => h.env.from('nulls').select(varPop('s'))).toThrow(/var_pop expects a numeric argument, got VARCHAR/);
    expect(() => quantileCont('d', 1.5)).toThrow(/fraction must be between 0 and 1/);
    expect(() => corr('d', 'i').over({ spec: { partitionBy: [], orderBy: [] } })).toThrow(/not supported as a window function in the Table API/);
  });
});
