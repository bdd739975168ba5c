/**
 * The 22 TPC-H queries in SQL (the spec's text with its validation
 * parameters; Q15's view written as a CTE), for the SQL end-to-end tests and
 * scripts. One copy only: the benchmark suite's files bench/tpch/qNN.sql,
 * whose `-- order:` line names the ORDER BY columns whose sequence must match.
 */
import { loadQueries } from '../../bench/suite/queries.js';

/** One TPC-H query: its number, SQL, and the columns of its ORDER BY whose row sequence must match. */
export interface TpchSql {
  readonly n: number;
  readonly sql: string;
  /** Columns of the ORDER BY whose sequence must match (absent: a single row, or no ORDER BY). */
  readonly orderKeys?: readonly string[];
}

export const TPCH_SQL: readonly TpchSql[] = loadQueries(Array.from({ length: 22 }, (_, i) => `q${i + 1}`))
  .map((q) => (q.orderKeys.length > 0 ? { n: q.n, sql: q.sql, orderKeys: q.orderKeys } : { n: q.n, sql: q.sql }));
