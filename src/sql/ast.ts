/**
 * The SQL abstract syntax tree: our own discriminated unions (not the CST).
 * The parser (CST → AST visitor) produces it; the binder turns queries into
 * RelNode trees and the statement executor runs the rest. Every expression
 * and table reference carries the position of its first token, so binding
 * errors can point at it with a caret.
 */

/** 1-based line and column of a token in the SQL text, and its 0-based offset and length. */
export interface Pos {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly length: number;
}

// ---------------------------------------------------------------- expressions

/**
 * `IS [NOT] DISTINCT FROM` stands between scalars and between row values; the binder expands it and the row
 * comparisons (binder/row-values.ts).
 */
export type BinaryOp = '+' | '-' | '*' | '/' | '//' | '%' | '^' | '||' | '=' | '<>' | '<' | '<=' | '>' | '>=' | 'AND' | 'OR'
  | 'IS DISTINCT FROM' | 'IS NOT DISTINCT FROM';

/** Literal kinds as written: numbers keep their text so the binder can choose INTEGER, BIGINT or DOUBLE. */
export type LiteralKind = 'number' | 'string' | 'boolean' | 'null' | 'date' | 'timestamp' | 'parameter';

export type Expr =
  | { readonly kind: 'column'; readonly name: string; readonly qualifier?: string; readonly pos: Pos }
  /**
   * `value` is the token text for numbers, the unquoted string for strings/dates/timestamps, 'true'/'false', or null;
   * for a parameter (`$2`, or the second `?`) its 1-based number as text (the binder takes the value from SqlContext).
   */
  | { readonly kind: 'literal'; readonly literal: LiteralKind; readonly value: string | null; readonly pos: Pos }
  /** `INTERVAL '90' DAY` / `INTERVAL 3 MONTH`: value in units. */
  | { readonly kind: 'interval'; readonly value: number; readonly unit: 'day' | 'month' | 'year' | 'ms'; readonly pos: Pos }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr; readonly pos: Pos }
  | { readonly kind: 'unary'; readonly op: '-' | '+' | 'NOT'; readonly arg: Expr; readonly pos: Pos }
  | { readonly kind: 'isNull'; readonly arg: Expr; readonly negated: boolean; readonly pos: Pos }
  | { readonly kind: 'between'; readonly arg: Expr; readonly low: Expr; readonly high: Expr; readonly negated: boolean; readonly pos: Pos }
  /** `arg [NOT] LIKE | ILIKE pattern [ESCAPE escape]`. */
  | { readonly kind: 'like'; readonly arg: Expr; readonly pattern: Expr; readonly negated: boolean; readonly caseInsensitive?: boolean; readonly escape?: Expr; readonly pos: Pos }
  | { readonly kind: 'inList'; readonly arg: Expr; readonly list: readonly Expr[]; readonly negated: boolean; readonly pos: Pos }
  | { readonly kind: 'inSubquery'; readonly arg: Expr; readonly query: Query; readonly negated: boolean; readonly pos: Pos }
  | { readonly kind: 'exists'; readonly query: Query; readonly negated: boolean; readonly pos: Pos }
  | { readonly kind: 'subquery'; readonly query: Query; readonly pos: Pos }
  /**
   * A row value: `(a, b, ...)` (two or more items) or `ROW(a, ...)`. Valid only as an operand of a comparison,
   * `IS [NOT] DISTINCT FROM` and IN (binder/row-values.ts); anywhere else a bind error (eddy has no STRUCT type).
   */
  | { readonly kind: 'row'; readonly items: readonly Expr[]; readonly pos: Pos }
  /** CASE [operand] WHEN ... THEN ... [ELSE ...] END */
  | { readonly kind: 'case'; readonly operand?: Expr; readonly whens: readonly { readonly when: Expr; readonly then: Expr }[]; readonly else?: Expr; readonly pos: Pos }
  /** CAST(x AS type) and x::type; `type` as written (`DECIMAL(15,2)`, `VARCHAR`). */
  | { readonly kind: 'cast'; readonly arg: Expr; readonly type: string; readonly pos: Pos; readonly try?: boolean }
  /**
   * A function call; `star` for count(*); `distinct` for agg(DISTINCT x); `orderBy` for an
   * ordered aggregate, agg(x ORDER BY y) (the binder decides whether it is supported). Names are lower-cased.
   * `FILTER (WHERE c)` and `WITHIN GROUP (ORDER BY x)` are desugared when the AST is built (cst-agg-clauses.ts):
   * the binder never sees `filter` or `withinGroup`; `written` keeps the call as the user wrote it, for its
   * output column name only.
   */
  | {
    readonly kind: 'function'; readonly name: string; readonly args: readonly Expr[]; readonly distinct: boolean; readonly star: boolean;
    readonly orderBy?: readonly OrderItem[]; readonly over?: WindowSpec; readonly pos: Pos;
    readonly filter?: Expr; readonly withinGroup?: readonly OrderItem[]; readonly written?: Expr;
  };

/** One end of a window frame as written; `offset` for `n PRECEDING` / `n FOLLOWING`. */
export interface FrameBoundSpec {
  readonly kind: 'unboundedPreceding' | 'preceding' | 'currentRow' | 'following' | 'unboundedFollowing';
  readonly offset?: Expr;
  readonly pos: Pos;
}

/** `OVER ([base] [PARTITION BY ...] [ORDER BY ...] [ROWS | RANGE ...])`; `OVER w` is a spec with only `base`. */
export interface WindowSpec {
  /** A named window (WINDOW clause) this one starts from. */
  readonly base?: string;
  readonly partitionBy?: readonly Expr[];
  readonly orderBy?: readonly OrderItem[];
  /** The frame; `end` absent for the short form `ROWS n PRECEDING` (ends at CURRENT ROW). */
  readonly frame?: { readonly mode: 'rows' | 'range'; readonly start: FrameBoundSpec; readonly end?: FrameBoundSpec; readonly pos: Pos };
  readonly pos: Pos;
}

// ---------------------------------------------------------------- queries

export interface OrderItem {
  readonly expr: Expr;
  readonly desc: boolean;
  /** Explicit NULLS FIRST/LAST, or undefined for the default (NULLS LAST). */
  readonly nullsFirst?: boolean;
}

export type SelectItem =
  /**
   * `*` / `t.*`, with DuckDB's `EXCLUDE (a, ...)` (columns left out) and `REPLACE (expr AS a, ...)` (a column's
   * value replaced in place, keeping its name).
   */
  | {
    readonly kind: 'star'; readonly qualifier?: string; readonly pos: Pos;
    readonly exclude?: readonly { readonly name: string; readonly qualifier?: string; readonly pos: Pos }[];
    readonly replace?: readonly { readonly expr: Expr; readonly name: string; readonly pos: Pos }[];
  }
  | { readonly kind: 'expr'; readonly expr: Expr; readonly alias?: string; readonly pos: Pos };

export type JoinKind = 'inner' | 'left' | 'right' | 'full' | 'cross';

export type FromItem =
  /** `sample`: `t TABLESAMPLE ...`, a sample of this item before joins (binder/sample.ts). */
  | { readonly kind: 'table'; readonly name: string; readonly alias?: string; readonly columnAliases?: readonly string[]; readonly sample?: SampleClause; readonly pos: Pos }
  /** `lateral`: written LATERAL, so it may read the FROM items before it (src/sql/binder/lateral.ts). */
  | { readonly kind: 'subquery'; readonly query: Query; readonly alias?: string; readonly columnAliases?: readonly string[]; readonly lateral?: boolean; readonly sample?: SampleClause; readonly pos: Pos }
  /** A table function: read_csv('path', ...), read_parquet('path'), read_arrow('path'). Named options as `name := value` or `name = value`. */
  | { readonly kind: 'tableFunction'; readonly name: string; readonly args: readonly Expr[]; readonly options: readonly { readonly name: string; readonly value: Expr }[]; readonly alias?: string; readonly columnAliases?: readonly string[]; readonly lateral?: boolean; readonly sample?: SampleClause; readonly pos: Pos }
  | { readonly kind: 'join'; readonly join: JoinKind; readonly left: FromItem; readonly right: FromItem; readonly on?: Expr; readonly using?: readonly string[]; readonly natural?: boolean; readonly pos: Pos }
  /** `PIVOT source ON ... USING ... GROUP BY ...` or `source PIVOT (... FOR ...)` (binder/pivot.ts). */
  | PivotItem
  /** `UNPIVOT source ON ... INTO NAME n VALUE v` or `source UNPIVOT (v FOR n IN (...))` (binder/unpivot.ts). */
  | UnpivotItem;

/** One ON (or FOR) item of a PIVOT: the pivoted expression and, when written, its IN list. */
export interface PivotOn {
  readonly expr: Expr;
  /** The values that become columns, each with its `AS` name; absent: every distinct value of `expr`. */
  readonly values?: readonly { readonly value: Expr; readonly alias?: string; readonly pos: Pos }[];
  readonly pos: Pos;
}

/** A PIVOT: rows of `source` grouped by `groupBy` (default: the columns ON and USING do not name), a column per ON value. */
export interface PivotItem {
  readonly kind: 'pivot';
  readonly source: FromItem;
  readonly on: readonly PivotOn[];
  /** The aggregates (`count(*)` when USING is absent). */
  readonly using: readonly { readonly expr: Expr; readonly alias?: string; readonly pos: Pos }[];
  readonly groupBy?: readonly { readonly name: string; readonly pos: Pos }[];
  readonly alias?: string;
  readonly pos: Pos;
}

/** One stacked entry of an UNPIVOT: its columns (one per value column) and the name it gets in the name column. */
export interface UnpivotEntry {
  readonly exprs: readonly Expr[];
  readonly alias?: string;
  readonly pos: Pos;
}

/** An UNPIVOT: each row of `source` becomes one row per entry, the entry's name in `nameColumn` and its values in `valueColumns`. */
export interface UnpivotItem {
  readonly kind: 'unpivot';
  readonly source: FromItem;
  readonly entries: readonly UnpivotEntry[];
  readonly nameColumn: string;
  readonly valueColumns: readonly string[];
  /** Keep rows whose values are NULL (dropped by default). */
  readonly includeNulls: boolean;
  readonly alias?: string;
  readonly pos: Pos;
}

/** Modifiers any query body may carry. */
interface QueryTail {
  readonly orderBy?: readonly OrderItem[];
  readonly limit?: Expr;
  readonly offset?: Expr;
  readonly pos: Pos;
}

export interface SelectQuery extends QueryTail {
  readonly kind: 'select';
  readonly distinct: boolean;
  /** `DISTINCT ON (a, b)`: keep the first row of each (a, b) in ORDER BY order (`distinct` is then false). */
  readonly distinctOn?: readonly Expr[];
  readonly items: readonly SelectItem[];
  /** Comma-separated FROM items (a cross product), possibly empty. */
  readonly from: readonly FromItem[];
  readonly where?: Expr;
  readonly groupBy?: readonly Expr[];
  /**
   * ROLLUP / CUBE / GROUPING SETS, expanded (cst-grouping-sets.ts): each set lists the expressions it groups
   * by; `groupBy` then holds every expression of every set once. Undefined for a plain GROUP BY.
   */
  readonly groupingSets?: readonly (readonly Expr[])[];
  /** GROUP BY ALL: group by every select item that contains no aggregate (the binder expands it). */
  readonly groupByAll?: boolean;
  readonly having?: Expr;
  /** `WINDOW w AS (...), ...`: named windows for OVER clauses. */
  readonly windows?: readonly { readonly name: string; readonly spec: WindowSpec }[];
  /** `QUALIFY cond`: a filter over window function results. */
  readonly qualify?: Expr;
  /** `USING SAMPLE ...`: a random part of the FROM clause's rows, taken before WHERE. */
  readonly sample?: SampleClause;
}

/** A USING SAMPLE clause (cst-sample.ts): a row count or a percentage, a method, an optional seed. */
export interface SampleClause {
  readonly method: 'reservoir' | 'bernoulli' | 'system';
  readonly size: { readonly rows: number } | { readonly percent: number };
  readonly seed?: number;
  readonly pos: Pos;
}

export interface SetOpQuery extends QueryTail {
  readonly kind: 'setop';
  readonly op: 'union' | 'intersect' | 'except';
  readonly all: boolean;
  readonly left: Query;
  readonly right: Query;
}

export interface ValuesQuery extends QueryTail {
  readonly kind: 'values';
  readonly rows: readonly (readonly Expr[])[];
}

export interface Cte {
  readonly name: string;
  readonly columns?: readonly string[];
  /** DuckDB's `USING KEY (cols)` of a recursive CTE: the accumulated result is keyed by these columns. */
  readonly usingKey?: { readonly columns: readonly string[]; readonly pos: Pos };
  readonly query: Query;
  readonly pos: Pos;
}

/** Materialize's `(RETURN | ERROR) AT RECURSION LIMIT n` after WITH RECURSIVE: at most n rounds of each recursive term. */
export interface RecursionLimit {
  readonly rounds: number;
  readonly action: 'return' | 'error';
  readonly pos: Pos;
}

export interface WithQuery extends QueryTail {
  readonly kind: 'with';
  readonly recursive: boolean;
  readonly recursionLimit?: RecursionLimit;
  readonly ctes: readonly Cte[];
  readonly body: Query;
}

export type Query = SelectQuery | SetOpQuery | ValuesQuery | WithQuery;

// ---------------------------------------------------------------- statements

export interface ColumnDef {
  readonly name: string;
  /** As written, e.g. `INTEGER`, `VARCHAR(25)`, `DECIMAL(15,2)`. */
  readonly type: string;
  readonly notNull: boolean;
  readonly pos: Pos;
}

/** `column = value` of UPDATE ... SET. */
export interface Assignment {
  readonly column: string;
  readonly value: Expr;
  readonly pos: Pos;
}

/** One COPY option: its name as written and its value (true for a bare name). */
export interface CopyOption {
  readonly name: string;
  readonly value: string | number | boolean;
  readonly pos: Pos;
}

export type Statement =
  | { readonly kind: 'query'; readonly query: Query; readonly pos: Pos }
  | { readonly kind: 'createTable'; readonly name: string; readonly columns: readonly ColumnDef[]; readonly orReplace: boolean; readonly ifNotExists: boolean; readonly pos: Pos }
  | { readonly kind: 'createTableAs'; readonly name: string; readonly query: Query; readonly orReplace: boolean; readonly ifNotExists: boolean; readonly pos: Pos }
  | { readonly kind: 'createView'; readonly name: string; readonly columns?: readonly string[]; readonly query: Query; readonly orReplace: boolean; readonly ifNotExists: boolean; readonly pos: Pos }
  | { readonly kind: 'insert'; readonly table: string; readonly columns?: readonly string[]; readonly source: Query; readonly pos: Pos }
  | { readonly kind: 'drop'; readonly object: 'table' | 'view' | 'index'; readonly name: string; readonly ifExists: boolean; readonly pos: Pos }
  /** CREATE [UNIQUE] INDEX: accepted, no effect. */
  | { readonly kind: 'createIndex'; readonly name: string; readonly table: string; readonly pos: Pos }
  | { readonly kind: 'showTables'; readonly pos: Pos }
  /** DESCRIBE t, or DESCRIBE query (`name` is then empty). */
  | { readonly kind: 'describe'; readonly name: string; readonly query?: Query; readonly pos: Pos }
  /** SUMMARIZE t, or SUMMARIZE query (`name` is then empty). */
  | { readonly kind: 'summarize'; readonly name: string; readonly query?: Query; readonly pos: Pos }
  /** UPDATE t SET c = e, ... [WHERE cond] */
  | { readonly kind: 'update'; readonly table: string; readonly sets: readonly Assignment[]; readonly where?: Expr; readonly pos: Pos }
  /** DELETE FROM t [WHERE cond] */
  | { readonly kind: 'delete'; readonly table: string; readonly where?: Expr; readonly pos: Pos }
  /** COPY (query) | t [(cols)] TO | FROM 'path' [(options)]; exactly one of table and query is set. */
  | { readonly kind: 'copy'; readonly direction: 'to' | 'from'; readonly table?: string; readonly columns?: readonly string[]; readonly query?: Query; readonly path: string; readonly options: readonly CopyOption[]; readonly pos: Pos }
  | { readonly kind: 'explain'; readonly analyze: boolean; readonly statement: Statement; readonly pos: Pos }
  /** SET name = value (value is a literal or a bare word such as `true`). */
  | { readonly kind: 'set'; readonly name: string; readonly value: string | number | boolean; readonly pos: Pos }
  /** CACHE [LAZY] TABLE name [OPTIONS ('k' = 'v', ...)] [AS query] */
  | { readonly kind: 'cache'; readonly lazy: boolean; readonly name: string; readonly options: Readonly<Record<string, string>>; readonly query?: Query; readonly pos: Pos }
  | { readonly kind: 'uncache'; readonly name: string; readonly ifExists: boolean; readonly pos: Pos }
  | { readonly kind: 'clearCache'; readonly pos: Pos }
  | { readonly kind: 'showCaches'; readonly pos: Pos }
  /** `PREPARE name AS query` (docs/prepared-statements.md). */
  | { readonly kind: 'prepare'; readonly name: string; readonly query: Query; readonly pos: Pos }
  /** `EXECUTE name(value, ...)`. */
  | { readonly kind: 'execute'; readonly name: string; readonly args: readonly Expr[]; readonly pos: Pos }
  /** `DEALLOCATE [PREPARE] name`. */
  | { readonly kind: 'deallocate'; readonly name: string; readonly pos: Pos };
