/**
 * TableEnvironment: the entry point. It owns the catalog, creates Tables from
 * sources, and plans and runs their queries. The class is the public surface;
 * each concept behind it lives in its own file: opening files and records
 * (the `from...` methods in the base class, source-tables.ts; the opening in
 * file-tables.ts), INSERT's append (insert.ts), tables cached by name and
 * marks (named-caches.ts), bound plans of SQL texts (bound-plans.ts),
 * prepared statements (prepared.ts), running queries through the cache with
 * reused plans (query-execution.ts, physical-plans.ts).
 */
import type { RecordBatch, Table as ArrowTable } from 'apache-arrow';
import { ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import type { SourceSpan } from '../relnode/source-span.js';
import { toSchema, type SchemaSpec } from '../relnode/schema-spec.js';
import { batchFromColumns } from '../exec/batch.js';
import type { TableSource } from '../io/source.js';
import { memorySource } from '../io/memory.js';
import type { DictionaryStoreOptions } from '../io/dictionary-store.js';
import { columnMemory, type ColumnMemory } from '../io/column-memory.js';
import type { ArrowTableLike } from '../io/foreign-arrow.js';
import { generateTpch, TPCH_TABLES } from '../io/tpch/index.js';
import { parseQuery } from '../sql/parse.js';
import { bindToRel } from '../sql/binder/index.js';
import type { SqlCatalog } from '../sql/catalog.js';
import { InformationSchema } from './information-schema.js';
import { sqlCatalogOf } from './sql-catalog.js';
import { executeSql, type SqlOptions, type SqlResult } from './sql-statements.js';
import { Views } from './views.js';
import { BoundPlans } from './bound-plans.js';
import type { PhysicalPlan } from '../planner/planner.js';
import { CacheServiceManager } from '../cache/manager.js';
import type { CacheOptions } from '../cache/storage.js';
import { QueryExecutor } from './query-execution.js';
import { resolveEnvironmentOptions, type EnvironmentOptions } from './environment-options.js';

export type { EnvironmentOptions } from './environment-options.js';
import { assembleTable } from './result.js';
import type { QueryRunner } from './runner.js';
import { Table } from './table.js';
import { StreamEnvironment } from './streams.js';
import { MlFunctions } from './ml.js';
import { appendRows } from './insert.js';
import { cachedListStateProvider } from '../iteration/list-state.js';
import { iterateTables, type IterateOptions, type IterateResult } from './iterate.js';
import { PreparedStatement, settingsKey } from './prepared.js';
import { NamedCaches } from './named-caches.js';
import { SourceTables } from './source-tables.js';

export type { SchemaSpec } from '../relnode/schema-spec.js';

/**
 * The entry point of eddy: registers tables and runs queries.
 *
 * ```ts
 * const env = TableEnvironment.create();
 * env.registerTpch(0.01);
 * const rows = await env.from('orders').filter(col('o_totalprice').gt(500000)).count();
 * await env.close();
 * ```
 */
export class TableEnvironment extends SourceTables implements QueryRunner {
  /** Effective options. */
  readonly options: Required<EnvironmentOptions>;

  private constructor(options: EnvironmentOptions) {
    super();
    const resolved = resolveEnvironmentOptions(options);
    this.options = resolved;
    const { cache, memoryLimit } = resolved;
    this.cacheManager = new CacheServiceManager(cache);
    this.namedCaches = new NamedCaches({ cacheManager: this.cacheManager, planOf: (name) => this.from(name).plan, hasTable: (name) => this.hasTable(name) });
    this.executor = new QueryExecutor(this.cacheManager, {
      ...this.options,
      memoryLimit: () => { const v = this.settings.get('memory_limit'); return typeof v === 'number' ? v : memoryLimit; },
      planStamp: () => this.bindingGeneration,
    });
    // A replaced, modified or dropped table releases the cache entries built on it (C9).
    this.catalog.onChange = (tableId) => {
      void this.cacheManager.releaseDependents(tableId);
      this.informationSchema.changed();
      this.namedCaches.remark();
    };
  }

  /** Tables cached by name, marks and invalidation (named-caches.ts). */
  private readonly namedCaches: NamedCaches;

  /** The cache service manager: entries (`list()`), totals (`stats()`), `clear()`, the `instances`. */
  readonly cacheManager: CacheServiceManager;
  private readonly executor: QueryExecutor;

  /** Creates an environment. */
  static create(options: EnvironmentOptions = {}): TableEnvironment {
    return new TableEnvironment(options);
  }

  /**
   * Cancels the running queries (they fail with a CancelledError saying the environment was
   * closed), waits for them to stop, then releases everything the environment holds: tables,
   * cache entries, spill files. Queries started later fail at once. Idempotent.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.streamEnv?.close();
    await this.executor.close();
    this.catalog.clear();
    await this.cacheManager.close();
  }

  /**
   * The DataStream API of this environment (docs/streams.md): sources
   * (`fromRows`, `fromAsyncIterable`, `fromTable`) whose streams run with this
   * environment's parallelism, batch size and memory limit.
   */
  get streams(): StreamEnvironment {
    return (this.streamEnv ??= new StreamEnvironment(this, {
      parallelism: this.options.parallelism,
      batchSize: this.options.batchSize,
      cache: this.cacheManager,
      // ctx.getListState works in every stream job, not only inside iterations: memory first, spilling like the cache.
      // Each subtask's list may keep its share of the cache's memory budget (min(1 GiB, heap/4) by default) before it
      // spills: a fixed 64 MiB made SGD over 136 MB of cached data read half of it back from disk every round (3× slower).
      listState: cachedListStateProvider(this.cacheManager.spillArea, {
        memoryBudgetBytes: Math.max(64 * 1024 * 1024, Math.floor(this.cacheManager.options.memoryBudgetBytes / Math.max(1, this.options.parallelism))),
      }),
      memoryLimit: () => { const v = this.settings.get('memory_limit'); return typeof v === 'number' ? v : Number(this.options.memoryLimit); },
    }));
  }
  private streamEnv: StreamEnvironment | undefined;

  /** The ML table functions (docs/ml.md): `env.ml.kmeans(table, { k: 2 })`, `env.ml.linearRegression(...)`, scoring. */
  get ml(): MlFunctions {
    return (this.mlFunctions ??= new MlFunctions(this));
  }
  private mlFunctions: MlFunctions | undefined;

  /** Queries running now (each collect, stream or statement being executed, and each stream job). */
  get runningQueries(): number {
    return this.executor.runningQueries + (this.streamEnv?.runningJobs ?? 0);
  }

  /** Shared memory when worker threads read the tables (parallelism > 1), else ordinary (io/column-memory.ts). */
  protected get loadMemory(): ColumnMemory {
    return columnMemory(this.options.parallelism);
  }

  /** @internal How stored tables dictionary-encode their VARCHAR columns (io/dictionary-store.ts); undefined when `dictionaryStore` is off. */
  get storeOptions(): DictionaryStoreOptions | undefined {
    return this.options.dictionaryStore ? { memory: this.loadMemory } : undefined;
  }

  /** Wraps a scan of data opened by a `from...` method (source-tables.ts) in a Table of this environment. */
  protected wrap(plan: rel.RelNode): Table {
    return new Table(this, plan, plan.schema.fields);
  }

  /**
   * Registers a table under a name (replacing any table of that name: the
   * replacement gets a new version, so plans over the old data never match it).
   * Registering a derived Table stores its plan, like a view; `options.sql` is
   * the `CREATE VIEW` text that defined it, if any (shown by `viewSql`).
   * At parallelism > 1, an Arrow table's columns that worker threads read are copied into
   * SharedArrayBuffers on the first query that ships them, and the table reads that copy from
   * then on; if the caller keeps its own Arrow table, its buffers stay alive too (two copies of
   * those columns). Pass a table you do not keep, or one already in SharedArrayBuffers (not copied).
   */
  registerTable(name: string, table: Table | ArrowTable | ArrowTableLike | TableSource, options: { readonly sql?: string } = {}): Table {
    this.checkOpen();
    if (table instanceof Table && table.plan.kind === 'Scan' && table.plan.table.id.startsWith('anon:') && !table.plan.projection && !table.plan.pushedFilters) {
      table = table.plan.table.handle as TableSource; // a plain unregistered source: register the data itself
    }
    if (table instanceof Table) {
      // A view: the name resolves to the Table's plan, re-resolved against the tables at every use (views.ts).
      this.views.set(name, table.plan, options.sql);
      this.catalog.drop(name);
      if (this.informationSchema.changed()) this.namedCaches.remark();
      return this.from(name);
    }
    const source = 'scan' in table && 'partitions' in table ? (table as TableSource) : memorySource(table as ArrowTable | ArrowTableLike, name);
    this.views.delete(name);
    this.catalog.register(name, source);
    return this.from(name);
  }

  private readonly views = new Views();
  /** information_schema's snapshots of the tables and views (information-schema.ts). */
  private readonly informationSchema = new InformationSchema(this.catalog, this.views, (id) => void this.cacheManager.releaseDependents(id));
  /** Bound plans of recent env.sql texts (bound-plans.ts). */
  private readonly boundPlans = new BoundPlans();

  /** The registered table (or view, over the tables as they are now) of that name, or an information_schema view (`information_schema.columns`). */
  from(name: string): Table {
    this.checkOpen();
    const system = this.informationSchema.named(name);
    if (system) return new Table(this, system, system.schema.fields.map((f) => ({ ...f, qualifier: name.slice(name.lastIndexOf('.') + 1) })));
    const v = this.views.resolve(name, this.catalog, (scan) => this.informationSchema.currentOf(scan));
    if (v) return new Table(this, v, v.schema.fields.map((f) => ({ ...f, qualifier: name })));
    const e = this.catalog.get(name);
    const plan = rel.scan(e.ref);
    return new Table(this, plan, plan.schema.fields.map((f) => ({ ...f, qualifier: e.ref.name })));
  }

  /** The `CREATE VIEW ... AS query` text of a view defined in SQL; undefined for tables and Table API views. */
  viewSql(name: string): string | undefined {
    return this.views.sql(name);
  }

  /** True if `name` is a view (a registered derived Table) rather than a table of data. */
  isView(name: string): boolean {
    return this.views.has(name);
  }

  /** True if a table or view of that name exists. */
  hasTable(name: string): boolean {
    return this.views.has(name) || this.catalog.has(name);
  }

  /**
   * Creates an empty table with the given columns (`CREATE TABLE`). Fails if
   * the name exists unless `orReplace`; does nothing with `ifNotExists`.
   */
  createTable(name: string, schema: SchemaSpec, options: { orReplace?: boolean; ifNotExists?: boolean } = {}): Table {
    this.checkOpen();
    if (this.hasTable(name)) {
      if (options.ifNotExists) return this.from(name);
      if (!options.orReplace) throw new ValidationError(`table "${name}" already exists; use CREATE OR REPLACE TABLE, or DROP TABLE first`);
    }
    const s = toSchema(schema);
    return this.registerTable(name, memorySource([], name, s));
  }

  /**
   * Appends the rows of `rows` to a registered table (`INSERT INTO`); columns
   * match by position (after optional `columns` naming the target columns;
   * the others get NULL) and are cast to the table's types. The table gets a
   * new version. Returns the number of rows inserted. A value that does not
   * convert to its column's type fails naming the column (`could not convert
   * string 'abc' to INTEGER for column "a" of table "t"`); `valueSpans` (SQL
   * INSERT) says where the text wrote each of `rows`' columns, for the caret.
   */
  async insertInto(name: string, rows: Table, columns?: readonly string[], options: { readonly signal?: AbortSignal; readonly valueSpans?: readonly (SourceSpan | undefined)[] } = {}): Promise<number> {
    this.checkOpen();
    if (this.isView(name)) throw new ValidationError(`cannot insert into view "${name}"`);
    return appendRows({ catalog: this.catalog, batchSize: this.options.batchSize, store: this.storeOptions, collect: (p, signal) => this.collect(p, signal) }, name, rows.plan, columns, options.signal, options.valueSpans);
  }

  /** Session settings (SQL `SET name = value`), e.g. `integer_division`. */
  readonly settings = new Map<string, string | number | boolean>();

  /** A lazy Table for a SQL query (SELECT, VALUES, WITH); composes with Table methods. */
  sql(query: string): Table {
    this.checkOpen();
    const generation = this.bindingGeneration;
    let plan = this.boundPlans.get(query, generation);
    if (plan === undefined) {
      plan = bindToRel({ catalog: this.sqlCatalog, text: query }, parseQuery(query));
      this.boundPlans.put(query, generation, plan);
    }
    return new Table(this, plan, plan.schema.fields);
  }

  /** A prepared query with parameters `$1`, `$2`, ... or `?`: parsed once, bound once, run with `execute(...values)` (docs/prepared-statements.md). */
  prepare(query: string): PreparedStatement {
    this.checkOpen();
    return new PreparedStatement(this, query);
  }

  /** @internal Changes with every table, view or setting change (prepared statements re-bind then). */
  get bindingGeneration(): string { return `${this.catalog.generation}.${this.views.generation}.${settingsKey(this.settings)}`; }

  /** An iteration over Tables, in replace (bulk) or accumulate (WITH RECURSIVE) mode: IterateOptions, docs/table-iteration.md. */
  iterate<V extends string, D extends string = never>(options: IterateOptions<V, D>): IterateResult<V> {
    this.checkOpen();
    return iterateTables(this, options);
  }

  /** @internal The environment as the SQL binder's catalog (tables, views, settings, table functions). */
  get sqlCatalog(): SqlCatalog {
    return (this.sqlCatalogCache ??= sqlCatalogOf(this, this.informationSchema));
  }
  private sqlCatalogCache: SqlCatalog | undefined;

  /**
   * Runs one or more `;`-separated SQL statements of any kind and returns the
   * last one's result: rows for queries, a status (with `rowsAffected` for
   * INSERT) otherwise.
   */
  async executeSql(text: string, options?: SqlOptions): Promise<SqlResult> {
    this.checkOpen();
    const results = await executeSql(this, text, options);
    const last = results[results.length - 1];
    if (!last) throw new ValidationError('no SQL statement to run');
    return last;
  }

  /** Names of registered tables and views, sorted. */
  listTables(): string[] {
    return [...new Set([...this.catalog.names(), ...this.views.names()])].sort();
  }

  /** Drops a table or view; returns false if none existed. */
  dropTable(name: string): boolean {
    const a = this.catalog.drop(name);
    const b = this.views.delete(name);
    if (b && this.informationSchema.changed()) this.namedCaches.remark();
    return a || b;
  }

  /**
   * Registers the eight TPC-H tables generated at a scale factor (deterministic). At parallelism > 1
   * their columns are built in SharedArrayBuffers (io/column-memory.ts), so worker threads read them
   * with no copy.
   */
  registerTpch(scaleFactor: number, options?: { seed?: number }): void {
    const tables = generateTpch(scaleFactor, { batchSize: this.options.batchSize, memory: this.loadMemory, ...(options?.seed !== undefined ? { seed: options.seed } : {}) });
    for (const name of TPCH_TABLES) this.registerTable(name, tables[name]);
  }

  // ---------------------------------------------------------------- caching (FLIP-36, docs/caching.md)

  /**
   * Caches a table under a name (SQL `CACHE [LAZY] TABLE name [AS query]`): registers `table` as
   * `name` when given, marks `name`'s plan, and unless `lazy` computes it now. Returns the handle.
   * The cache follows the name: after an INSERT or a replacement the new version is marked again.
   */
  async cacheTable(name: string, table?: Table, options: CacheOptions & { readonly lazy?: boolean; readonly signal?: AbortSignal } = {}): Promise<Table> {
    this.checkOpen();
    if (table !== undefined) this.registerTable(name, table);
    const cacheOptions: CacheOptions = options.storageLevel ? { storageLevel: options.storageLevel } : {};
    const t = this.from(name).cache(cacheOptions);
    this.namedCaches.add(name, cacheOptions);
    if (!options.lazy) await this.executor.materialize(t.plan, options.signal);
    return t;
  }

  /** Un-marks a named table and drops its cache (SQL `UNCACHE TABLE [IF EXISTS]`); false when it was not cached. */
  async uncacheTable(name: string, options: { readonly ifExists?: boolean } = {}): Promise<boolean> {
    this.checkOpen();
    return this.namedCaches.uncache(name, options.ifExists === true);
  }

  /** Drops every cached result and mark (SQL `CLEAR CACHE`); settles when storage is released. */
  clearCache(): Promise<void> {
    return this.namedCaches.clear();
  }

  /** @internal Marks a plan's result for caching (`Table.cache`); runs nothing. */
  markCache(plan: rel.RelNode, options?: CacheOptions): void {
    this.checkOpen();
    this.namedCaches.mark(plan, options);
  }

  /** @internal Drops a plan's cached result (`Table.invalidateCache`); the mark stays. */
  invalidateCache(plan: rel.RelNode): Promise<void> {
    return this.namedCaches.invalidate(plan);
  }

  // ---------------------------------------------------------------- QueryRunner

  /** @internal Plans a query with cache substitution (exposed for tests and EXPLAIN). */
  plan(plan: rel.RelNode): PhysicalPlan {
    this.checkOpen();
    this.catalog.checkNotDropped(plan);
    return this.executor.plan(plan);
  }

  /** @internal `onProgress` gets the rows read so far (SqlOptions.onProgress). */
  async collect(plan: rel.RelNode, signal?: AbortSignal, onProgress?: (rowsRead: number) => void): Promise<ArrowTable> {
    this.checkOpen();
    this.catalog.checkNotDropped(plan);
    const batches = await this.executor.collect(plan, { ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) });
    return assembleTable(batches, plan.schema); // names the columns itself: no batchFromColumns first
  }

  /** @internal */
  async *stream(plan: rel.RelNode, signal?: AbortSignal, onProgress?: (rowsRead: number) => void): AsyncGenerator<RecordBatch> {
    this.checkOpen();
    this.catalog.checkNotDropped(plan);
    const run = this.executor.stream(plan, { ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) });
    for await (const b of run) yield batchFromColumns(plan.schema, b.data.children, b.numRows);
  }

  /** @internal */
  explain(plan: rel.RelNode): string {
    this.checkOpen();
    this.catalog.checkNotDropped(plan);
    // At parallelism > 1: the graph this thread would run, and which aggregates would run as worker stages.
    return this.executor.explain(plan);
  }

  /** @internal */
  async explainAnalyze(plan: rel.RelNode, signal?: AbortSignal): Promise<string> {
    this.checkOpen();
    this.catalog.checkNotDropped(plan);
    return this.executor.explainAnalyze(plan, signal);
  }
}
