/**
 * Aggregate and table-function entries of the function registry
 * (function-registry.ts). Every aggregate merges partial states, so it runs
 * at any parallelism; its result is DuckDB's, exactly where DuckDB's is
 * exact (see docs/sql-numerics.md).
 */
import { entry, type FunctionEntry } from './registry-entry.js';

const agg = (name: string, fn: string, sig: string | readonly string[], returns: string, desc: string, aliases: readonly string[] = []): FunctionEntry =>
  entry('aggregate', 'aggregate', name, { aggregate: fn }, sig, returns, desc, aliases);
const tbl = (name: string, sig: string | readonly string[], desc: string, aliases: readonly string[] = []): FunctionEntry =>
  entry('table', 'table', name, { table: name }, sig, 'a table', desc, aliases);

export const AGGREGATE_ENTRIES: readonly FunctionEntry[] = [
  agg('count', 'count', ['count(*)', 'count(x)', 'count(DISTINCT x)'], 'BIGINT', 'Number of rows, or of non-NULL values of x.'),
  agg('sum', 'sum', 'sum(x)', 'BIGINT for integers (exact; error on overflow), DOUBLE otherwise', 'Sum of the non-NULL values.'),
  agg('avg', 'avg', 'avg(x)', 'DOUBLE', 'Mean of the non-NULL values (exact accumulation for integers).', ['mean']),
  agg('min', 'min', 'min(x)', 'the type of x', 'Smallest value.'),
  agg('max', 'max', 'max(x)', 'the type of x', 'Largest value.'),
  agg('stddev_samp', 'stddev', 'stddev_samp(x)', 'DOUBLE', 'Sample standard deviation (NULL for fewer than 2 values).', ['stddev']),
  agg('stddev_pop', 'stddev_pop', 'stddev_pop(x)', 'DOUBLE', 'Population standard deviation.'),
  agg('var_samp', 'var_samp', 'var_samp(x)', 'DOUBLE', 'Sample variance (NULL for fewer than 2 values).', ['variance']),
  agg('var_pop', 'var_pop', 'var_pop(x)', 'DOUBLE', 'Population variance.'),
  agg('covar_samp', 'covar_samp', 'covar_samp(y, x)', 'DOUBLE', 'Sample covariance of the pairs where both are non-NULL.'),
  agg('covar_pop', 'covar_pop', 'covar_pop(y, x)', 'DOUBLE', 'Population covariance of the pairs where both are non-NULL.'),
  agg('corr', 'corr', 'corr(y, x)', 'DOUBLE', 'Pearson correlation coefficient of the pairs where both are non-NULL.'),
  agg('bool_and', 'bool_and', 'bool_and(b BOOLEAN)', 'BOOLEAN', 'True when every non-NULL value is true.', ['every']),
  agg('bool_or', 'bool_or', 'bool_or(b BOOLEAN)', 'BOOLEAN', 'True when any non-NULL value is true.'),
  agg('arg_min', 'arg_min', 'arg_min(x, by)', 'the type of x', 'x of the row with the smallest `by` (rows with NULL `by` are skipped).', ['argmin', 'min_by']),
  agg('arg_max', 'arg_max', 'arg_max(x, by)', 'the type of x', 'x of the row with the largest `by` (rows with NULL `by` are skipped).', ['argmax', 'max_by']),
  agg('median', 'median', 'median(x)', 'DOUBLE for numbers (the type of x otherwise)', 'The middle value, interpolated between the two middle ones (quantile_cont(x, 0.5)).'),
  agg('quantile_cont', 'quantile_cont', 'quantile_cont(x, q DOUBLE)', 'DOUBLE for numbers', 'The q-quantile (0 ≤ q ≤ 1), linearly interpolated.'),
  agg('quantile_disc', 'quantile_disc', 'quantile_disc(x, q DOUBLE)', 'the type of x', 'The q-quantile (0 ≤ q ≤ 1), an actual value of x.', ['quantile']),
  agg('mode', 'mode', 'mode(x)', 'the type of x', 'The most frequent non-NULL value (ties: the first met, as DuckDB).'),
  agg('string_agg', 'string_agg', ['string_agg(s VARCHAR)', 'string_agg(s VARCHAR, separator VARCHAR)', 'string_agg(s, separator ORDER BY ...)'], 'VARCHAR', 'Concatenates the non-NULL values with `separator` (default ","), in ORDER BY order when given.', ['group_concat', 'listagg']),
  agg('first', 'first', 'first(x)', 'the type of x', 'The first value met, NULL included (arbitrary without an order: rows arrive in parallel).', ['arbitrary']),
  agg('last', 'last', 'last(x)', 'the type of x', 'The last value met, NULL included (arbitrary without an order).'),
  agg('any_value', 'any_value', 'any_value(x)', 'the type of x', 'Some non-NULL value of x.'),
  agg('approx_count_distinct', 'approx_count_distinct', 'approx_count_distinct(x)', 'BIGINT', 'Estimated number of distinct non-NULL values (HyperLogLog, at most ~2 KiB per group): exact up to 256 distinct values, then a standard error of ~2.3%. DuckDB estimates too, with another sketch, so the two differ by a few percent on large inputs.'),
];

export const TABLE_ENTRIES: readonly FunctionEntry[] = [
  tbl('read_csv', "read_csv(path VARCHAR, header := auto, delim := auto, quote := '\"', nullstr := '', skip := 0, ignore_errors := false, columns := {...}, types := {...})",
    'Reads a CSV file (types inferred). Without `header`, the first row is a header when every column is text or one of its values does not fit its column type (DuckDB\'s rule); `skip` drops that many lines first; `ignore_errors` drops rows with the wrong field count or a value the read columns cannot take.', ['read_csv_auto']),
  tbl('read_parquet', 'read_parquet(path VARCHAR)', 'Reads a Parquet file.', ['parquet_scan']),
  tbl('read_arrow', 'read_arrow(path VARCHAR)', 'Reads an Arrow IPC file.'),
  tbl('read_json', 'read_json(path VARCHAR)', 'Reads newline-delimited JSON.', ['read_ndjson', 'read_json_auto']),
  tbl('range', ['range(stop BIGINT)', 'range(start BIGINT, stop BIGINT[, step BIGINT])'], 'Integers from start (default 0) up to but excluding stop, by step (default 1); one BIGINT column `range`. Arguments may read earlier FROM items after LATERAL (`FROM t, LATERAL range(t.n)`): no rows when one is NULL.'),
  tbl('generate_series', 'generate_series(start BIGINT, stop BIGINT[, step BIGINT])', 'As range, but including stop; column `generate_series`.'),
  tbl('eddy_functions', 'eddy_functions()', 'This list: one row per function signature (name, kind, category, signature, return_type, description, aliases).'),
];
