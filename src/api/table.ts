/**
 * Table: an immutable, lazily evaluated relation. Every transformation
 * returns a new Table wrapping a bigger RelNode tree; nothing runs until an
 * action (collect, toArray, stream, count, ...).
 */
import type { RecordBatch, Table as ArrowTable } from 'apache-arrow';
import { CancelledError, ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import { andAll, inputRef, literal, type RexNode } from '../relnode/rex.js';
import { formatRex } from '../relnode/explain.js';
import { commonType, field, schemaOf, type Field, type Schema } from '../relnode/types.js';
import { bindCall, bindExpr, resolveColumn, type Scope } from './bind.js';
import { columnNode, Expr, type ColumnLike, type ExprNode } from './expr.js';
import { planAggregate } from './aggregate.js';
import { bindItem, dslItem, isAliased, itemHasAggregate, itemHasWindow, itemName, itemsOf, withAlias, type Item } from './items.js';
import { planWindowSelect } from './window.js';
import type { QueryRunner } from './runner.js';
import { rowsOf, type Row, type ScalarValue } from './result.js';
import type { CacheOptions } from '../cache/storage.js';
import { sampleNode } from '../planner/sample.js';
import { pivotPlan, unpivotPlan, type PivotOptions, type UnpivotOptions } from './pivot.js';

/** Options of every action: `signal` cancels the running query (the action rejects with CancelledError). */
/** Options of `Table.sample` (SQL's USING SAMPLE): exactly one of `rows` and `percent`. */
export interface SampleOptions {
  /** Exactly min(rows, input rows) rows, by reservoir sampling. */
  readonly rows?: number;
  /** A percentage (0–100) of the rows. */
  readonly percent?: number;
  /** How a percentage is taken: `system` (default: blocks of 2,048 rows), `bernoulli` (per row), `reservoir` (exact count). */
  readonly method?: 'reservoir' | 'bernoulli' | 'system';
  /** A whole number ≥ 0: the same sample for the same input order. */
  readonly seed?: number;
}

export interface ActionOptions {
  readonly signal?: AbortSignal;
}

/** Options of `explain`. */
export interface ExplainOptions extends ActionOptions {
  /** Run the query and annotate the physical plan with per-operator rows, batches and time. */
  readonly analyze?: boolean;
}

/** A join's `on` argument: a boolean expression, or column names present on both sides (USING). */
export type JoinOn = Expr | string | readonly string[];

/**
 * A lazily evaluated table. Build queries with the transformation methods and
 * run them with an action. Tables are immutable and can be reused: running
 * the same Table twice plans it twice (and, with caching, may reuse results).
 */
export class Table {
  /** @internal */
  constructor(readonly runner: QueryRunner, readonly plan: rel.RelNode, readonly scope: Scope) {}

  /** The output columns: names and SQL types. */
  get schema(): Schema {
    return this.plan.schema;
  }

  /** Column names, in order. */
  get columns(): string[] {
    return this.plan.schema.fields.map((f) => f.name);
  }

  private derive(plan: rel.RelNode, scope?: Scope): Table {
    return new Table(this.runner, plan, scope ?? plan.schema.fields);
  }

  private bind(e: Item, where: string): RexNode {
    return bindItem(e, { catalog: this.runner.sqlCatalog, scope: this.scope, where });
  }

  /**
   * A new table with the given columns or expressions. A string is a column
   * name, `'*'`, or a SQL select list (`"a, b * 2 AS c"`, bound by the SQL
   * binder with the session's settings). Aggregate expressions make it a
   * global aggregation.
   */
  select(...exprs: ColumnLike[]): Table {
    if (exprs.length === 0) throw new ValidationError('select() needs at least one column or expression');
    const items = exprs.flatMap((e) => (e === '*' ? this.scope.map((f) => dslItem(f.qualifier ? { k: 'col', name: f.name, qualifier: f.qualifier } : { k: 'col', name: f.name })) : itemsOf(e)));
    if (items.some(itemHasAggregate)) return this.aggregateOver([], items);
    if (items.some(itemHasWindow)) {
      const dsl = items.map((it) => {
        if (it.k !== 'dsl') throw new ValidationError('select() with window functions takes expressions and column names, not SQL text; write the window call as rowNumber().over(window()...)');
        return it.node;
      });
      return this.derive(planWindowSelect(this.plan, this.scope, dsl));
    }
    return this.projectItems(items, 'select');
  }

  /** @internal A grouped (or, without keys, global) aggregation of this table. */
  aggregateOver(keys: readonly Item[], items: readonly Item[]): Table {
    return this.derive(planAggregate({ plan: this.plan, scope: this.scope, catalog: this.runner.sqlCatalog }, keys, items));
  }

  /** Projects items, keeping qualifiers of plain column references. */
  private projectItems(items: readonly Item[], where: string): Table {
    const exprs = items.map((n) => this.bind(n, where));
    const names = items.map((n, i) => itemName(n, exprs[i]!, this.scope));
    const plan = rel.project(this.plan, exprs, names);
    const scope = plan.schema.fields.map((f, i) => {
      const e = exprs[i]!;
      const q = e.kind === 'InputRef' && !isAliased(items[i]!) ? this.scope[e.index]!.qualifier : undefined;
      return q ? { ...f, qualifier: q } : f;
    });
    return this.derive(plan, scope);
  }

  /** Adds computed columns (a column with an existing name is replaced in place); strings are SQL select lists. */
  addColumns(...exprs: (Expr | string)[]): Table {
    const keep: Item[] = this.scope.map((f) => dslItem({ k: 'col', name: f.name, ...(f.qualifier ? { qualifier: f.qualifier } : {}) } as ExprNode));
    for (const item of exprs.flatMap((e) => (typeof e === 'string' ? itemsOf(e) : [dslItem(e.node)]))) {
      const b = this.bind(item, 'addColumns');
      const name = itemName(item, b, this.scope);
      const at = this.scope.findIndex((f) => f.name === name);
      const named = withAlias(item, name);
      if (at >= 0) keep[at] = named; else keep.push(named);
    }
    return this.projectItems(keep, 'addColumns');
  }

  /** Removes columns by name. */
  dropColumns(...names: string[]): Table {
    const drop = new Set(names.map((n) => resolveColumn(this.scope, ...splitName(n))));
    const keep = this.scope.map((_, i) => i).filter((i) => !drop.has(i));
    if (keep.length === 0) throw new ValidationError('dropColumns would remove every column');
    return this.pick(keep, this.scope.map((f) => f.name));
  }

  /** Renames columns: `renameColumns({ old: 'new' })`. */
  renameColumns(mapping: Readonly<Record<string, string>>): Table {
    const names = this.scope.map((f) => f.name);
    for (const [from, to] of Object.entries(mapping)) names[resolveColumn(this.scope, ...splitName(from))] = to;
    return this.pick(this.scope.map((_, i) => i), names);
  }

  /** @internal */
  pick(ordinals: readonly number[], names: readonly string[]): Table {
    const exprs = ordinals.map((i) => inputRef(i, this.scope[i]!.type, this.scope[i]!.name));
    const plan = rel.project(this.plan, exprs, ordinals.map((i) => names[i]!));
    return this.derive(plan, plan.schema.fields.map((f, j) => ({ ...f, ...(this.scope[ordinals[j]!]!.qualifier && f.name === this.scope[ordinals[j]!]!.name ? { qualifier: this.scope[ordinals[j]!]!.qualifier } : {}) })));
  }

  /** Keeps the rows for which the condition is TRUE: an expression, or SQL text (`"l_quantity > 24 AND l_discount BETWEEN 0.05 AND 0.07"`). */
  filter(condition: Expr | string): Table {
    const item = typeof condition === 'string' ? itemsOf(condition, false)[0]! : dslItem(condition.node);
    const c = this.bind(item, 'filter');
    if (c.type !== 'BOOLEAN' && c.type !== 'NULL') throw new ValidationError(`filter condition must be BOOLEAN, got ${c.type}`);
    return this.derive(rel.filter(this.plan, c), this.scope);
  }

  /** Alias of filter. */
  where(condition: Expr | string): Table {
    return this.filter(condition);
  }

  /** Groups rows by keys; follow with `.select(...)` or `.aggregate(...)`. */
  groupBy(...keys: ColumnLike[]): GroupedTable {
    if (keys.length === 0) throw new ValidationError('groupBy() needs at least one key; use select(...) with aggregates for a global aggregation');
    return new GroupedTable(this, keys.flatMap((k) => itemsOf(k)));
  }

  /** Removes duplicate rows. */
  distinct(): Table {
    return this.derive(rel.distinct(this.plan), this.scope);
  }

  private joinWith(other: Table, type: rel.JoinType, on: JoinOn | undefined): Table {
    if (other.runner !== this.runner) throw new ValidationError('cannot join tables from different TableEnvironments');
    const scope: Field[] = [...this.scope, ...other.scope];
    let cond: RexNode;
    if (on === undefined) {
      if (type !== 'cross') throw new ValidationError(`${type} join needs an on condition (an expression, or the names of columns both sides share)`);
      cond = literal(true, 'BOOLEAN');
    } else if (on instanceof Expr) {
      cond = bindExpr(on.node, scope, { where: 'a join condition' });
      if (cond.type !== 'BOOLEAN') throw new ValidationError(`join condition must be BOOLEAN, got ${cond.type}`);
    } else {
      const names = typeof on === 'string' ? [on] : on;
      const lw = this.scope.length;
      cond = andAll(names.map((nm) => {
        const l = resolveColumn(this.scope, ...splitName(nm));
        const r = resolveColumn(other.scope, ...splitName(nm));
        const lt = this.scope[l]!.type;
        const rt = other.scope[r]!.type;
        return bindCall('eq', [inputRef(l, lt, this.scope[l]!.name), inputRef(lw + r, rt, other.scope[r]!.name)], (e) => formatRex(e, schemaOf(scope)));
      }));
    }
    const plan = rel.join(this.plan, other.plan, type, cond);
    const outScope = type === 'semi' || type === 'anti' ? this.scope : plan.schema.fields.map((f, i) => ({ ...f, ...(scope[i]!.qualifier ? { qualifier: scope[i]!.qualifier } : {}) }));
    return this.derive(plan, outScope);
  }

  /** Inner join. */ join(other: Table, on: JoinOn): Table { return this.joinWith(other, 'inner', on); }
  /** Left outer join. */ leftJoin(other: Table, on: JoinOn): Table { return this.joinWith(other, 'left', on); }
  /** Right outer join. */ rightJoin(other: Table, on: JoinOn): Table { return this.joinWith(other, 'right', on); }
  /** Full outer join. */ fullJoin(other: Table, on: JoinOn): Table { return this.joinWith(other, 'full', on); }
  /** Left rows with at least one match (left columns only). */ semiJoin(other: Table, on: JoinOn): Table { return this.joinWith(other, 'semi', on); }
  /** Left rows with no match (left columns only). */ antiJoin(other: Table, on: JoinOn): Table { return this.joinWith(other, 'anti', on); }
  /** Cartesian product (an optional condition makes it an inner join). */
  crossJoin(other: Table, on?: Expr): Table { return this.joinWith(other, on ? 'inner' : 'cross', on); }

  /** Sorts by keys: column names, expressions, or `desc(x)` / `col(x).desc().nullsFirst()`. Default ASC NULLS LAST. */
  orderBy(...keys: ColumnLike[]): Table {
    if (keys.length === 0) throw new ValidationError('orderBy() needs at least one key');
    const width = this.scope.length;
    const extra: RexNode[] = [];
    const sortKeys = keys.map((k) => {
      const node = columnNode(k);
      const inner = node.k === 'sort' ? node.arg : node;
      const e = this.bind(dslItem(inner), 'orderBy');
      let index: number;
      if (e.kind === 'InputRef') index = e.index;
      else { index = width + extra.length; extra.push(e); }
      const desc = node.k === 'sort' ? node.desc : false;
      const nullsFirst = node.k === 'sort' && node.nullsFirst !== undefined ? node.nullsFirst : false;
      return { index, desc, nullsFirst };
    });
    if (extra.length === 0) return this.derive(rel.sort(this.plan, sortKeys), this.scope);
    const all = [...this.scope.map((f, i) => inputRef(i, f.type, f.name)), ...extra];
    const widened = rel.project(this.plan, all, [...this.scope.map((f) => f.name), ...extra.map((_, i) => `__sort${i}`)]);
    const sorted = rel.sort(widened, sortKeys);
    const back = rel.project(sorted, this.scope.map((f, i) => inputRef(i, f.type, f.name)), this.scope.map((f) => f.name));
    return this.derive(back, this.scope);
  }

  /** The first `n` rows after skipping `offset`. */
  limit(n: number, offset = 0): Table {
    return this.derive(rel.limit(this.plan, n, offset), this.scope);
  }

  /**
   * A random part of the rows (SQL's `USING SAMPLE`): `{ rows: 100 }` exactly min(100, rows) by reservoir
   * sampling; `{ percent: 10 }` by `system` sampling (whole blocks of 2,048 rows) unless `method` says
   * `bernoulli` (each row on its own) or `reservoir` (exactly round(10% of the rows)). With `seed` the same
   * rows every run for the same input order; without, a new sample per run.
   */
  sample(options: SampleOptions): Table {
    const seed = options.seed === undefined ? {} : { seed: options.seed };
    if ((options.rows === undefined) === (options.percent === undefined)) throw new ValidationError('sample() takes either rows or percent');
    if (options.rows !== undefined) {
      if (options.method !== undefined && options.method !== 'reservoir') throw new ValidationError(`${options.method} sampling takes a percent; a number of rows needs reservoir`);
      return this.derive(sampleNode(this.plan, { method: 'reservoir', rows: options.rows, ...seed }), this.scope);
    }
    return this.derive(sampleNode(this.plan, { method: options.method ?? 'system', percent: options.percent!, ...seed }), this.scope);
  }

  /** PIVOT: a row per `groupBy` group and a column per value of `on` (per aggregate of `using`); docs/table-api.md. */
  pivot(options: PivotOptions): Table { return this.derive(pivotPlan(this.runner.sqlCatalog, this.plan, this.scope, options)); }

  /** UNPIVOT: a row per `on` column of each row, its name in `name` and its value in `value`; docs/table-api.md. */
  unpivot(options: UnpivotOptions): Table { return this.derive(unpivotPlan(this.runner.sqlCatalog, this.plan, this.scope, options)); }

  /** Union without duplicates. */ union(other: Table): Table { return this.setOperation(other, (a, b) => rel.union([a, b], false)); }
  /** Union keeping duplicates. */ unionAll(other: Table): Table { return this.setOperation(other, (a, b) => rel.union([a, b], true)); }
  /** Rows in both (distinct). */ intersect(other: Table): Table { return this.setOperation(other, (a, b) => rel.setOp('intersect', a, b, false)); }
  /** Rows in both, with multiplicities. */ intersectAll(other: Table): Table { return this.setOperation(other, (a, b) => rel.setOp('intersect', a, b, true)); }
  /** Rows of this table not in the other (distinct). */ except(other: Table): Table { return this.setOperation(other, (a, b) => rel.setOp('except', a, b, false)); }
  /** Rows of this table not in the other, with multiplicities. */ exceptAll(other: Table): Table { return this.setOperation(other, (a, b) => rel.setOp('except', a, b, true)); }

  private setOperation(other: Table, make: (a: rel.RelNode, b: rel.RelNode) => rel.RelNode): Table {
    const a = this.plan.schema.fields;
    const b = other.plan.schema.fields;
    if (a.length !== b.length) throw new ValidationError(`set operation needs the same number of columns on both sides, got ${a.length} and ${b.length}`);
    const types = a.map((f, i) => {
      const t = commonType(f.type, b[i]!.type);
      if (t === undefined) throw new ValidationError(`set operation column ${i + 1} ("${f.name}") is ${f.type} on one side and ${b[i]!.type} on the other; cast one side`);
      return t;
    });
    const coerce = (p: rel.RelNode): rel.RelNode => (p.schema.fields.every((f, i) => f.type === types[i]) ? p : rel.project(p, p.schema.fields.map((f, i) => ({ kind: 'Cast', arg: inputRef(i, f.type, f.name), type: types[i]! }) as RexNode).map((e, i) => (e.kind === 'Cast' && e.arg.type === types[i] ? e.arg : e)), a.map((f) => f.name)));
    const plan = make(coerce(this.plan), coerce(other.plan));
    return this.derive(plan, plan.schema.fields.map((f, i) => field(a[i]!.name, f.type, f.nullable)));
  }

  /** Qualifies every column with `alias` (for joins: `col('o.o_orderkey')`); optionally renames the columns too. */
  as(alias: string, ...columnNames: string[]): Table {
    if (columnNames.length > 0 && columnNames.length !== this.scope.length) throw new ValidationError(`as('${alias}', ...) got ${columnNames.length} column names for ${this.scope.length} columns`);
    const base = columnNames.length > 0 ? this.pick(this.scope.map((_, i) => i), columnNames) : this;
    return new Table(this.runner, base.plan, base.scope.map((f) => ({ ...f, qualifier: alias })));
  }

  // ---------------------------------------------------------------- actions
  // Every action takes `{ signal }` and is async (explain too, so it has one return type).

  /** Runs the query and returns the result as an Arrow Table; `onProgress` gets the rows read so far (about every 100 ms). */
  async collect(options?: ActionOptions & { onProgress?: (rowsRead: number) => void }): Promise<ArrowTable> {
    return this.runner.collect(this.plan, options?.signal, options?.onProgress);
  }

  /**
   * Runs the query and returns plain objects (DATE/TIMESTAMP → Date, BIGINT → bigint).
   * Keys are the column names; columns sharing a name are all kept, the later
   * ones under `name_1`, `name_2`, ... (a suffix that is not itself a column's
   * name: see `uniqueRowKeys`). `collect()` keeps the names as they are.
   */
  async toArray(options?: ActionOptions): Promise<Row[]> {
    return rowsOf(await this.collect(options));
  }

  /** Runs the query, streaming result batches as they are produced. */
  stream(options?: ActionOptions): AsyncIterable<RecordBatch> {
    return this.runner.stream(this.plan, options?.signal);
  }

  /** The number of rows. */
  async count(options?: ActionOptions): Promise<number> {
    return Number(await this.scalar(new Expr({ k: 'agg', fn: 'count_star', distinct: false }), options));
  }
  /**
   * The minimum of a column or expression, null for no rows (or only NULLs). The JS type follows the
   * column's SQL type: INTEGER/DOUBLE → number, BIGINT → bigint, VARCHAR → string, DATE/TIMESTAMP → Date, BOOLEAN → boolean.
   */
  async min(c: ColumnLike, options?: ActionOptions): Promise<ScalarValue | null> { return this.scalar(this.aggOf('min', c), options); }
  /** The maximum of a column or expression, null for no rows; JS types as for `min`. */
  async max(c: ColumnLike, options?: ActionOptions): Promise<ScalarValue | null> { return this.scalar(this.aggOf('max', c), options); }
  /** The sum of a column or expression, null for no rows: a bigint for integer columns (SQL BIGINT), a number for DOUBLE. */
  async sum(c: ColumnLike, options?: ActionOptions): Promise<number | bigint | null> { return this.scalar(this.aggOf('sum', c), options) as Promise<number | bigint | null>; }
  /** The average of a column or expression as a number (SQL DOUBLE), null for no rows. */
  async avg(c: ColumnLike, options?: ActionOptions): Promise<number | null> { return this.scalar(this.aggOf('avg', c), options) as Promise<number | null>; }

  private aggOf(fn: 'min' | 'max' | 'sum' | 'avg', c: ColumnLike): Expr {
    return new Expr({ k: 'agg', fn, arg: columnNode(c), distinct: false });
  }

  private async scalar(e: Expr, options?: ActionOptions): Promise<ScalarValue | null> {
    const rows = await this.select(e.as('v')).toArray(options);
    return (rows[0]?.['v'] ?? null) as ScalarValue | null;
  }

  /**
   * The logical, optimized and physical plans as text. With `analyze`, runs the query and adds
   * per-operator rows, batches and time. Always a Promise (one return type whatever the options).
   */
  async explain(options?: ExplainOptions): Promise<string> {
    if (options?.analyze) return this.runner.explainAnalyze(this.plan, options.signal);
    if (options?.signal?.aborted) throw new CancelledError('explain cancelled');
    return this.runner.explain(this.plan);
  }

  // ---------------------------------------------------------------- caching (FLIP-36, docs/caching.md)

  /**
   * Marks this table's result to be cached and returns a handle to it (the same plan). Lazy: nothing
   * runs now; the first query containing this subtree computes it once and keeps it. Any later query
   * whose plan contains an equal subtree — built by the Table API or SQL — reads the cache. Caching
   * twice, or caching the handle, is one entry. Subtrees calling random() or now() are not cached.
   */
  cache(options?: CacheOptions): Table {
    this.runner.markCache(this.plan, options);
    return new Table(this.runner, this.plan, this.scope);
  }

  /**
   * Drops this table's cached result, freeing memory and spill files (the Promise settles when they
   * are released). Safe on a table never cached. The table stays marked: the next query recomputes it
   * from the sources and caches it again.
   */
  invalidateCache(): Promise<void> {
    return this.runner.invalidateCache(this.plan);
  }

}

function splitName(n: string): [string, string?] {
  const dot = n.indexOf('.');
  return dot > 0 ? [n.slice(dot + 1), n.slice(0, dot)] : [n];
}

/** The result of `groupBy(keys)`: select the keys and aggregates. */
export class GroupedTable {
  /** @internal */
  constructor(private readonly table: Table, private readonly keys: readonly Item[]) {}

  /** Group keys and aggregate expressions, e.g. `select('s', sum('v').as('total'))` or SQL text `select('s, sum(v) AS total')`. */
  select(...exprs: ColumnLike[]): Table {
    return this.table.aggregateOver(this.keys, exprs.flatMap((e) => itemsOf(e)));
  }

  /** Alias of select. */
  aggregate(...exprs: ColumnLike[]): Table {
    return this.select(...exprs);
  }
}

