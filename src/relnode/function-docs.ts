/**
 * docs/sql.md as text, rendered from the function registry: the SQL
 * dialect reference. `npm run docs:sql` writes it; a test fails when the
 * committed file differs from this rendering, so the docs cannot drift from
 * the functions that exist.
 */
import { FUNCTION_REGISTRY, type FunctionEntry } from './function-registry.js';

const SECTIONS: readonly { readonly category: string; readonly title: string; readonly intro: string }[] = [
  { category: 'string', title: 'Strings', intro: 'Characters are Unicode code points. Comparisons and `min`/`max` order strings by code point (UTF-8 byte order).' },
  { category: 'regex', title: 'Regular expressions', intro: 'RE2 syntax (DuckDB\'s), matched by a linear-time engine (a Pike VM): no pattern can make a match take more than O(text × pattern) time. Backreferences (`\\1`) and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) cannot be matched in linear time and are rejected with an error. Options (last argument): `c` case-sensitive (default), `i` case-insensitive, `s` `.` matches newline, `m`/`n`/`p` it does not (the default), `l` the pattern is a literal string, `g` (regexp_replace) every match; `(?m)` makes `^`/`$` match at line breaks. `LIKE`, `ILIKE` and `LIKE ... ESCAPE` are linear as well.' },
  { category: 'math', title: 'Numbers', intro: 'Operators: `+ - * /`, `%` (remainder), `//` (integer division, rounding toward minus infinity), `^` and `**` (power; binds tighter than `*`, associates left: `2 ^ 3 ^ 2` is 64). Integer arithmetic is exact and raises an error on overflow; see [sql-numerics.md](sql-numerics.md). DuckDB\'s TINYINT results are INTEGER here, its DECIMAL results DOUBLE.' },
  { category: 'date', title: 'Dates and times', intro: 'DATE is a day, TIMESTAMP a UTC instant with millisecond precision, both on the proleptic Gregorian calendar. A date constant is `DATE \'1995-03-15\'` (a string compared with a DATE or TIMESTAMP is read as one: `l_shipdate > \'1995-03-15\'`); `1995-03-15` without quotes is the subtraction 1995 - 3 - 15, and the type error says so. `DATE|TIMESTAMP ± INTERVAL n MILLISECOND|SECOND|MINUTE|HOUR|DAY|WEEK|MONTH|QUARTER|YEAR` (also `INTERVAL \'2 hours\'`) is a TIMESTAMP, as in DuckDB: calendar months first (a month added to the 31st lands on the month\'s last day), then days and smaller units; `DATE ± INTEGER` is a DATE; `DATE - DATE` gives days. Comparing a DATE column with a constant TIMESTAMP (`l_shipdate <= DATE \'1998-12-01\' - INTERVAL 90 DAY`) compares DATEs. Not yet: an INTERVAL type of its own (INTERVAL values only in ± arithmetic), TIMESTAMP - TIMESTAMP and age() (`date_diff(\'second\', b, a)` or `epoch(a) - epoch(b)` give the difference as a number).' },
  { category: 'conditional', title: 'Conditionals', intro: 'Also `CASE [x] WHEN ... THEN ... [ELSE ...] END`, `x [NOT] IN (...)`, `x [NOT] BETWEEN a AND b`, `x IS [NOT] NULL`, `CAST(x AS type)` and `x::type`.' },
  { category: 'aggregate', title: 'Aggregates', intro: 'Every aggregate accepts `DISTINCT` (not string_agg with ORDER BY) and runs at any parallelism: partial states merge. `agg(x ORDER BY ...)` is honoured by string_agg and accepted where the order cannot change the result; elsewhere it is an error, never silently ignored. `GROUP BY ALL` groups by every select item without an aggregate; `ORDER BY ALL` sorts by every output column.\n\n' +
    '`agg(...) FILTER (WHERE condition)` counts only the rows where the condition is true (NULL and false drop the row), also under OVER; `FILTER (condition)` is accepted as in DuckDB. It works for every aggregate but `first` and `last`, which keep NULL values (an error says so). `percentile_cont(f) WITHIN GROUP (ORDER BY x [DESC])` is `quantile_cont(x, f)` (DESC: `1 - f`), `percentile_disc(f) WITHIN GROUP (ORDER BY x)` is `quantile_disc(x, f)` (ascending only), and `mode() WITHIN GROUP (ORDER BY x)` is `mode(x)`.' },
  { category: 'table', title: 'Table functions', intro: 'In FROM. Relative paths resolve against the working directory.' },
];

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function rows(entries: readonly FunctionEntry[]): string[] {
  const out = ['| function | returns | description |', '|---|---|---|'];
  for (const e of entries) {
    const sigs = e.signatures.map((s) => `\`${cell(s)}\``).join('<br>');
    const aliases = e.aliases.length > 0 ? ` Aliases: ${e.aliases.map((a) => `\`${a}\``).join(', ')}.` : '';
    out.push(`| ${sigs} | ${cell(e.returns)} | ${cell(e.description)}${cell(aliases)} |`);
  }
  return out;
}

/** The Markdown of docs/sql.md. */
export function renderSqlDocs(): string {
  const out: string[] = [
    '# eddy SQL reference',
    '',
    '<!-- Generated from src/relnode/function-registry.ts by `npm run docs:sql`; do not edit by hand (a test checks it is current). -->',
    '',
    'eddy speaks DuckDB\'s dialect where engines differ; DuckDB is the oracle of its tests. This page lists every function;',
    '`SELECT * FROM eddy_functions()` lists the same registry from SQL. Limits on statement size are in [sql-limits.md](sql-limits.md).',
    '',
    '## Statements',
    '',
    '- `SELECT [DISTINCT | DISTINCT ON (a, ...)] ... FROM ... [WHERE] [GROUP BY ... | GROUP BY ALL] [HAVING] [WINDOW] [QUALIFY] [USING SAMPLE ...] [ORDER BY ... | ORDER BY ALL] [LIMIT] [OFFSET]`;',
    '  GROUP BY takes `ROLLUP (a, b)`, `CUBE (a, b)` (at most 12 expressions) and `GROUPING SETS ((a, b), (a), ())` beside plain expressions (several items combine as',
    '  their cross product; at most 4,096 sets); keys a set leaves out are NULL, and `GROUPING(a, b)` (alias `grouping_id`) tells them from NULLs of the data',
    '  (bit 1 for each argument the row\'s set leaves out, the first argument highest). the input is aggregated once, by every key, and each set from those groups (count, sum, avg, min, max, bool_and, bool_or; with any other aggregate, DISTINCT or ORDER BY inside a call, each set is one aggregate over the input, read once per set);',
    '  `FROM \'data.parquet\'` (a quoted path or glob) reads the file with the table function its extension names (.parquet, .csv/.tsv, .json/.ndjson, .arrow), named after the file;',
    '  `DISTINCT ON (a, b)` keeps the first row of each (a, b) in ORDER BY order (a row_number() window, then ORDER BY and LIMIT);',
    '  `SELECT * EXCLUDE (a, b)` leaves columns out of a star and `SELECT * REPLACE (expr AS a)` replaces a column\'s value in place (also `t.*`);',
    '  joins (`INNER`, `LEFT`, `RIGHT`, `FULL`, `CROSS`, `NATURAL`, `USING`), subqueries (scalar, `IN`, `EXISTS`, correlated), `WITH [RECURSIVE]`, `VALUES`,',
    '  `UNION` / `INTERSECT` / `EXCEPT` `[ALL]`.',
    '- FROM-first queries (DuckDB): `FROM t [SELECT [DISTINCT | DISTINCT ON (a, ...)] ...] [WHERE] [GROUP BY] ...`: the FROM items (joins and',
    '  comma lists too), then an optional select list (without one, `*`), then the clauses of a SELECT in their usual order. `FROM t` alone is',
    '  `SELECT * FROM t`; `FROM t WHERE a > 1 ORDER BY a LIMIT 5` filters it. Works wherever a query does: subqueries (`(FROM t SELECT max(a))`),',
    '  CTE bodies, set operations, `INSERT INTO t FROM u`, `CREATE TABLE t AS FROM u`, `CREATE VIEW`, `EXPLAIN`. As in DuckDB, SELECT comes',
    '  right after the FROM items (`FROM t WHERE ... SELECT ...` is an error) and a FROM-first query has one FROM clause.',
    '- `LATERAL`: a subquery or table function in FROM that reads the FROM items before it, evaluated per row of them:',
    '  `FROM t, LATERAL (SELECT ... FROM u WHERE u.k = t.k ORDER BY ... LIMIT 3) s` (top-N per row), `t CROSS JOIN LATERAL (...) s`,',
    '  `t [INNER | LEFT] JOIN LATERAL (...) s ON cond` (LEFT keeps a row whose right side is empty, with NULLs; an aggregate without GROUP BY',
    '  gives one row per row, `count()` 0 over none), `LATERAL (SELECT t.a * 2 AS b)`, `LATERAL range(t.n)` / `generate_series(1, t.n)`.',
    '  As in DuckDB, a FROM subquery without the keyword that reads an earlier item is lateral too. RIGHT / FULL JOIN LATERAL and USING / NATURAL',
    '  with a lateral item are errors. The planner decorrelates every lateral into joins (EXPLAIN shows them): a per-row LIMIT becomes a',
    '  per-value limit over the distinct correlated values. One level of correlation: a subquery inside the lateral one cannot read the lateral\'s left side.',
    '- Row values `(a, b, ...)` and `ROW(a, ...)` in comparisons and IN: `(a, b) = (1, 2)`, `<>`, `<`, `<=`, `>`, `>=` (lexicographic:',
    '  keyset pagination `WHERE (a, b) > (?, ?)`), `IS [NOT] DISTINCT FROM`, `(a, b) [NOT] IN ((1, 2), (3, 4))`, `(a, b) [NOT] IN (SELECT x, y ...)`',
    '  (correlated too; planned as a semi / anti join on every item). NULL items follow the SQL standard\'s three-valued logic, where DuckDB',
    '  compares rows as STRUCTs: `(1, NULL) = (1, 2)` is NULL in eddy, false in DuckDB. eddy has no STRUCT type: a row anywhere else is an error.',
    '  See [sql-row-values.md](sql-row-values.md).',
    '- `PIVOT t [ON col [IN (v [AS name], ...)], ...] [USING agg [AS name], ...] [GROUP BY col, ...]` (DuckDB\'s statement; also `PIVOT_WIDER`)',
    '  makes a row per GROUP BY group (default: every column ON and USING do not name) and a column per value of `col` (default aggregate `count(*)`),',
    '  named by the value (`2000`), with several ON items per combination (`NL_2000`), with several aggregates `<value>_<name or aggregate>`',
    '  (`2000_total`, `2000_sum(x)`). A NULL in the IN list matches NULL rows. Without IN, the columns are the distinct non-NULL values of `col`',
    '  in order, found by a query when the statement runs (`env.executeSql`, the REPL); `env.sql()`, views and prepared statements need the',
    '  IN list (a view would freeze the columns while its rows change), and at most 10,000 columns. The standard form is a FROM item (eddy also takes it without IN):',
    '  `FROM t PIVOT (sum(x) [AS name], ... FOR col IN (v, ...) ... [GROUP BY col, ...]) [AS p]`. Planned as DuckDB does: a GROUP BY of the',
    '  groups and ON values, then a GROUP BY of the groups spreading that into columns; an empty cell is the aggregate over no rows (NULL for sum,',
    '  0 for count). A USING expression may hold several aggregates (`sum(x) / count(*)`; DuckDB allows one).',
    '- `UNPIVOT t ON col [AS name], ... [INTO NAME n VALUE v]` (also `PIVOT_LONGER`) stacks the columns into rows: the other columns in order,',
    '  then `n` (default `name`, the column\'s name) and `v` (default `value`, the columns\' common type; INTEGER with VARCHAR is an error).',
    '  Rows whose value is NULL are dropped. `ON (a, b) AS x, (c, d) AS y ... VALUE v1, v2` fills several value columns (a row is dropped when',
    '  any is NULL). The standard form: `FROM t UNPIVOT [INCLUDE | EXCLUDE NULLS] (v FOR n IN (col [AS \'name\'], ...)) [AS u]`, with',
    '  `((v1, v2) FOR n IN ((a, b) AS x, ...))` for several. Planned as a UNION ALL of one filtered projection of `t` per entry.',
    '  Both statements work wherever a query does (subqueries, CTEs, UNION, with ORDER BY / LIMIT). `COLUMNS(...)` is not supported (eddy has',
    '  no COLUMNS expression): list the columns. PIVOT and UNPIVOT are not reserved words (DuckDB reserves them): a column named pivot still works.',
    '- `CREATE TABLE`, `CREATE TABLE ... AS`, `CREATE VIEW`, `INSERT INTO t [(columns)] VALUES | SELECT` (the other columns get NULL; a column named twice is an error), `DROP`, `SHOW TABLES`, `DESCRIBE`, `EXPLAIN [ANALYZE]`, `SET`.',
    '- The catalog as tables: `information_schema.tables`, `.columns`, `.schemata` and `.views`, with DuckDB\'s names (catalog `memory`, schema `main`)',
    '  and column names and types; `main.t` and `memory.main.t` name table `t` (in queries and statements). See [information-schema.md](information-schema.md).',
    '- Row order without `ORDER BY`: at parallelism 1 a scan, and what only filters or projects it',
    '  (`SELECT * FROM t`, `... WHERE ... LIMIT n`, `collect()` of a file), returns the rows in the',
    '  table\'s order (a file\'s, or insertion order); at higher parallelism, or after a join, an',
    '  aggregate or a set operation, the order is unspecified — write `ORDER BY` when it matters.',
    '- `USING SAMPLE` (DuckDB\'s clause, written after `QUALIFY` and before `ORDER BY`) takes a random part of the FROM clause\'s rows before',
    '  `WHERE`, grouping and the select list see them: `USING SAMPLE 100` or `100 ROWS` (exactly min(100, rows), `reservoir`), `USING SAMPLE 10%`',
    '  or `10 PERCENT` (`system`: whole blocks of 2,048 rows, each kept with that probability), `10% (bernoulli)` (each row on its own),',
    '  `10% (reservoir)` (exactly round(10% of the rows)), also `reservoir(100 ROWS)`; a seed as `(method, seed)` or `REPEATABLE (seed)` gives the',
    '  same sample for the same rows in the same order (at every parallelism: the sample reads its input in one instance); without one, each run',
    '  draws a new sample. A row count holds at most ~2× that many rows; a reservoir percentage holds its whole input until it ends.',
    '  `FROM t TABLESAMPLE 10%` (after the alias; the same forms) samples one table, subquery or table function before the joins.',
    '- String literals, anywhere a string goes (expressions, `DATE \'...\'`, aliases, `FROM \'file\'`, table-function arguments, COPY paths):',
    '  `\'it\'\'s\'` (standard: `\'\'` is a quote, a backslash is a backslash); `$$it\'s$$` and `$tag$ ... $tag$` (dollar-quoted, as in PostgreSQL',
    '  and DuckDB: no escapes, quotes and line breaks kept as written; a tag is a letter or `_` then letters, digits or `_`, case-sensitive, so `$1`',
    '  stays a parameter); `E\'a\\tb\'` / `e\'...\'` (escape string: `\\b \\f \\n \\r \\t`, `\\\\`, `\\\'` or `\'\'` for a quote, octal `\\o`..`\\ooo`',
    '  and hex `\\xh`/`\\xhh` bytes, which must spell UTF-8 text, `\\uXXXX` and `\\UXXXXXXXX` code points with surrogate pairs joined; any other',
    '  character after a backslash stands for itself). An invalid escape (`\\u12`, a lone surrogate, bytes that are not UTF-8, NUL) is a',
    '  syntax error pointing at it; PostgreSQL\'s rules where DuckDB answers "not implemented" (`\\u`, bytes ≥ 0x80). The shell reads an',
    '  unterminated `$$` or `E\'` on the next line, as it does an unterminated `\'`.',
    '- Types: BOOLEAN, INTEGER, BIGINT, DOUBLE, VARCHAR, DATE, TIMESTAMP (other names map to these: `INT`, `TEXT`, `DECIMAL`, ...; DECIMAL values are DOUBLEs). Not yet: LIST (`[1, 2]`, `INTEGER[]`, `array_agg`, `unnest`, `string_split`: each says so in its error), STRUCT, MAP, BLOB, and INTERVAL as a column type.',
    '',
    `## Functions (${FUNCTION_REGISTRY.length})`,
    '',
  ];
  for (const s of SECTIONS) {
    const entries = FUNCTION_REGISTRY.filter((e) => e.category === s.category);
    if (entries.length === 0) continue;
    out.push(`### ${s.title}`, '', s.intro, '', ...rows(entries), '');
  }
  const known = new Set(SECTIONS.map((s) => s.category));
  const other = FUNCTION_REGISTRY.filter((e) => !known.has(e.category));
  if (other.length > 0) out.push('### Other', '', ...rows(other), '');
  return out.join('\n');
}
