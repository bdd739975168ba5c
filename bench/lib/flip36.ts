/**
 * FLIP-36's motivating example for `bench:cache`: the derived table `b`
 * (lineitem ⋈ orders, filtered, projected, with a computed revenue) and the
 * five actions run on it — max, min, count, a group-by and a top-k — each
 * with its result normalised for comparison.
 */
import type { Table as ArrowTable } from 'apache-arrow';
import type { TableEnvironment } from '../../src/api/environment.js';
import type { Table } from '../../src/api/table.js';
import { col, countStar, date, desc, lit, sum } from '../../src/api/expr.js';
import { plainFromArrow, plainFromObjects, type PlainResult } from './verify.js';

/** The Table API text of `b`, for reports. */
export const B_TEXT = "lineitem.join(orders, l_orderkey = o_orderkey).filter(o_orderdate >= DATE '1995-01-01' AND l_quantity > 10)"
  + ".select(l_orderkey, o_orderdate, l_shipmode, l_extendedprice * (1 - l_discount) AS revenue)";

/** FLIP-36's `b`: lineitem ⋈ orders on the order key, filtered on the order date and quantity, four columns. */
export function buildB(env: TableEnvironment): Table {
  return env.from('lineitem')
    .join(env.from('orders'), col('l_orderkey').eq(col('o_orderkey')))
    .filter(col('o_orderdate').ge(date('1995-01-01')).and(col('l_quantity').gt(10)))
    .select('l_orderkey', 'o_orderdate', 'l_shipmode', col('l_extendedprice').times(lit(1).minus(col('l_discount'))).as('revenue'));
}

/** Columns of `b`, in order (the hand-written loops read them by these positions). */
export const B_COLUMNS = ['l_orderkey', 'o_orderdate', 'l_shipmode', 'revenue'] as const;

/** One action on `b`. */
export interface BQuery {
  readonly id: 'max' | 'min' | 'count' | 'group-by' | 'top-k';
  /** The call as written. */
  readonly text: string;
  /** Runs it on `b` and normalises the result. */
  readonly run: (b: Table) => Promise<PlainResult>;
}

const scalar = (name: string, v: unknown): PlainResult => plainFromObjects([{ [name]: v }], [name], []);

/** The group-by on `b`: revenue and line count per ship mode. */
export function groupByB(b: Table): Table {
  return b.groupBy('l_shipmode').select('l_shipmode', sum('revenue').as('revenue'), countStar().as('lines')).orderBy('l_shipmode');
}

/** The top-k on `b`: the ten lines with the highest revenue (ties by order key). */
export function topKB(b: Table): Table {
  return b.orderBy(desc('revenue'), 'l_orderkey').limit(10).select('l_orderkey', 'o_orderdate', 'revenue');
}

/** The actions, in the order FLIP-36's program runs them (the first one fills the cache). */
export const B_QUERIES: readonly BQuery[] = [
  { id: 'max', text: "b.max('revenue')", run: async (b) => scalar('max', await b.max('revenue')) },
  { id: 'min', text: "b.min('revenue')", run: async (b) => scalar('min', await b.min('revenue')) },
  { id: 'count', text: 'b.count()', run: async (b) => scalar('count', await b.count()) },
  {
    id: 'group-by', text: "b.groupBy('l_shipmode').select('l_shipmode', sum('revenue'), countStar()).orderBy('l_shipmode')",
    run: async (b) => plainFromArrow(await groupByB(b).collect(), []),
  },
  {
    id: 'top-k', text: "b.orderBy(desc('revenue'), 'l_orderkey').limit(10).select('l_orderkey', 'o_orderdate', 'revenue')",
    run: async (b) => plainFromArrow(await topKB(b).collect(), ['o_orderdate']),
  },
];

/** `b`'s collected result (an Arrow Table): the input of the hand-written loops. */
export type BData = ArrowTable;
