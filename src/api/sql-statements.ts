/**
 * The SQL statement runner (`env.executeSql`): runs `;`-separated statements
 * in order and returns each one's result (rows for queries, SHOW, DESCRIBE
 * and EXPLAIN; a status otherwise). It lives in the API because statements
 * act on the environment (CREATE, INSERT, DROP, CACHE, SET); queries are
 * bound by src/sql's binder against the environment's SqlCatalog. The first
 * error stops the run; with several statements its message names the
 * statement. Table functions are opened before a statement is bound (file
 * access is asynchronous).
 */
import { createHash } from 'node:crypto';
import { Int64, Table as ArrowTable, Utf8, vectorFromArray } from 'apache-arrow';
import { STORAGE_LEVELS, type StorageLevel } from '../cache/storage.js';
import { encodeTableForStorage } from '../io/dictionary-store.js';
import type { TableEnvironment } from './environment.js';
import { col } from './expr.js';
import { Table } from './table.js';
import { EddyError, ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import { inputRef } from '../relnode/rex.js';
import { field, parseTypeName, schemaOf, type Field, SQL_TYPE_NAMES } from '../relnode/types.js';
import type { Statement } from '../sql/ast.js';
import type { SqlContext } from '../sql/binder/index.js';
import { sqlError } from '../sql/binder/context.js';
import { suggest } from '../sql/binder/scope.js';
import { missingTable } from './missing-table.js';
import { parseStatements, statementText } from '../sql/parse.js';
import { parseByteSize } from '../exec/memory.js';
import { bindQueryAsync } from './bind-query.js';
import { deallocateNamed, executeNamed, prepareNamed } from './prepared-sql.js';
import { deleteFrom, updateTable } from './dml.js';
import { insertValueSpans } from './insert.js';
import { copyStatement } from './copy.js';
import { describeRows, summarize } from './summarize.js';
import { INFORMATION_SCHEMA, parseTableName } from '../sql/information-schema.js';

/** The result of one SQL statement. */
export type SqlResult =
  /** A query's rows (SELECT, VALUES, WITH, SHOW TABLES, DESCRIBE, EXPLAIN, SHOW CACHES). */
  | { readonly kind: 'rows'; readonly table: ArrowTable; readonly statement: string }
  /** A statement without rows: `message` says what happened (`CREATE TABLE`, `INSERT 3`). */
  | { readonly kind: 'status'; readonly message: string; readonly rowsAffected?: number; readonly statement: string };

/** Options for running SQL. */
export interface SqlOptions {
  /** Cancels the running statement. */
  readonly signal?: AbortSignal;
  /** Called with the rows read by sources so far while a query runs (about every 100 ms); pass it to `env.collect`. */
  readonly onProgress?: (rowsRead: number) => void;
}

/** Settings `SET name = value` accepts, with the type of their value (a Map: `SET constructor = 1` is an unknown setting). */
export const KNOWN_SETTINGS: ReadonlyMap<string, 'boolean' | 'size' | readonly string[]> = new Map<string, 'boolean' | 'size' | readonly string[]>([
  ['integer_division', 'boolean'],
  /** Bytes of operator state one query may hold (DuckDB's name; `'4GB'`, `'512MB'`); default 80% of memory. */
  ['memory_limit', 'size'],
  /** Where ORDER BY puts NULLs when the query does not say (DuckDB's names; default nulls_last). */
  ['default_null_order', ['nulls_last', 'nulls_first', 'nulls_first_on_asc_last_on_desc', 'nulls_last_on_asc_first_on_desc']],
]);

/** Runs the statements of `text` in order. */
export async function executeSql(env: TableEnvironment, text: string, options?: SqlOptions): Promise<SqlResult[]> {
  const stmts = parseStatements(text);
  if (stmts.length === 0) throw new ValidationError('no SQL statement to run');
  const results: SqlResult[] = [];
  for (const [i, st] of stmts.entries()) {
    try {
      results.push(await executeStatement(env, text, st, options));
    } catch (err) {
      if (stmts.length > 1 && err instanceof EddyError) {
        const head = statementText(text, st).replace(/\s+/g, ' ').trim();
        err.message = `statement ${i + 1} of ${stmts.length} (${head.length > 60 ? `${head.slice(0, 57)}...` : head}) failed: ${err.message}`;
      }
      throw err;
    }
  }
  return results;
}

export { bindQueryAsync } from './bind-query.js';

/** Runs one statement. */
export async function executeStatement(env: TableEnvironment, text: string, st: Statement, options?: SqlOptions): Promise<SqlResult> {
  const statement = statementText(text, st);
  const sql: SqlContext = { catalog: env.sqlCatalog, text };
  const status = (message: string, rowsAffected?: number): SqlResult => ({ kind: 'status', message, statement, ...(rowsAffected !== undefined ? { rowsAffected } : {}) });
  const rows = (table: ArrowTable): SqlResult => ({ kind: 'rows', table, statement });
  switch (st.kind) {
    case 'query': {
      const t = await bindQueryAsync(env, text, st.query, options?.signal ? { signal: options.signal } : {});
      return rows(await t.collect(options));
    }
    case 'createTable': {
      const seen = new Set<string>();
      const fields: Field[] = [];
      for (const c of st.columns) {
        const t = parseTypeName(c.type);
        if (t === undefined) throw sqlError(sql, c.pos, `unknown type "${c.type}" for column "${c.name}"; use one of ${SQL_TYPE_NAMES}`);
        if (seen.has(c.name.toLowerCase())) throw sqlError(sql, c.pos, `column "${c.name}" is defined twice`);
        seen.add(c.name.toLowerCase());
        fields.push(field(c.name, t, !c.notNull));
      }
      if (env.hasTable(st.name) && !st.orReplace) {
        if (st.ifNotExists) return status('CREATE TABLE');
        throw sqlError(sql, st.pos, `table "${st.name}" already exists; use CREATE OR REPLACE TABLE, or DROP TABLE first`);
      }
      env.createTable(st.name, schemaOf(fields), { orReplace: true });
      return status('CREATE TABLE');
    }
    case 'createTableAs': {
      if (env.hasTable(st.name) && !st.orReplace) {
        if (st.ifNotExists) return status('CREATE TABLE');
        throw sqlError(sql, st.pos, `table "${st.name}" already exists; use CREATE OR REPLACE TABLE, or DROP TABLE first`);
      }
      const t = withoutNullColumns(await bindQueryAsync(env, text, st.query));
      const data = await t.collect(options);
      const store = env.storeOptions;
      env.registerTable(st.name, store === undefined ? data : await encodeTableForStorage(data, store, options?.signal));
      return status('CREATE TABLE', data.numRows);
    }
    case 'createView': {
      if (env.hasTable(st.name)) {
        if (!env.isView(st.name)) throw sqlError(sql, st.pos, `"${st.name}" is a table, not a view; DROP TABLE ${st.name} first to replace it with a view`);
        if (!st.orReplace) {
          if (st.ifNotExists) return status('CREATE VIEW');
          throw sqlError(sql, st.pos, `view "${st.name}" already exists; use CREATE OR REPLACE VIEW, or DROP VIEW first`);
        }
      }
      let t = await bindQueryAsync(env, text, st.query, { findPivotValues: false });
      if (st.columns) t = renameColumns(sql, st, t, st.columns);
      env.registerTable(st.name, t, { sql: statement.replace(/^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?VIEW\s+(?:IF\s+NOT\s+EXISTS\s+)?/i, 'CREATE VIEW ') });
      return status('CREATE VIEW');
    }
    case 'insert': {
      if (!env.hasTable(st.table)) throw notFound(sql, env, st.pos, st.table, 'table');
      if (env.isView(st.table)) throw sqlError(sql, st.pos, `cannot insert into view "${st.table}"; insert into its tables instead`);
      const t = await checkNotNull(sql, env, st, await bindQueryAsync(env, text, st.source), options);
      try {
        const valueSpans = insertValueSpans(text, st.source);
        const n = await env.insertInto(st.table, t, st.columns, { ...(options?.signal ? { signal: options.signal } : {}), ...(valueSpans ? { valueSpans } : {}) });
        return status(`INSERT ${n}`, n);
      } catch (err) {
        if (err instanceof ValidationError && err.location === undefined) throw sqlError(sql, st.pos, err.message);
        throw err;
      }
    }
    case 'drop': {
      if (st.object === 'index') return status('DROP INDEX');
      const what = st.object === 'view' ? 'VIEW' : 'TABLE';
      if (!env.hasTable(st.name)) {
        // IF EXISTS skips a missing name, not a read-only one (an information_schema view exists).
        if (st.ifExists && parseTableName(st.name).schema !== INFORMATION_SCHEMA) return status(`DROP ${what}`);
        throw notFound(sql, env, st.pos, st.name, st.object);
      }
      const isView = env.isView(st.name);
      if (st.object === 'table' && isView) throw sqlError(sql, st.pos, `"${st.name}" is a view; use DROP VIEW ${st.name}`);
      if (st.object === 'view' && !isView) throw sqlError(sql, st.pos, `"${st.name}" is a table; use DROP TABLE ${st.name}`);
      env.dropTable(st.name);
      return status(`DROP ${what}`);
    }
    case 'createIndex':
      if (!env.hasTable(st.table)) throw notFound(sql, env, st.pos, st.table, 'table');
      return status('CREATE INDEX');
    case 'showTables': return rows(stringTable({ name: env.listTables() }));
    case 'describe':
    case 'summarize': {
      const t = st.query ? await bindQueryAsync(env, text, st.query) : await namedTable(env, text, sql, st.name, st.pos);
      return rows(st.kind === 'describe' ? describeRows(t, st.query !== undefined) : await summarize(t, options?.signal));
    }
    case 'update': {
      const n = await updateTable(env, text, st, options?.signal);
      return status(`UPDATE ${n}`, n);
    }
    case 'delete': {
      const n = await deleteFrom(env, text, st, options?.signal);
      return status(`DELETE ${n}`, n);
    }
    case 'copy': {
      const n = await copyStatement(env, text, st, options?.signal);
      return status(`COPY ${n}`, n);
    }
    case 'explain': {
      if (st.statement.kind !== 'query') throw sqlError(sql, st.pos, 'EXPLAIN supports queries (SELECT, VALUES, WITH) only');
      const t = await bindQueryAsync(env, text, st.statement.query);
      const plan = await t.explain(st.analyze ? { analyze: true } : undefined);
      return rows(stringTable({ explain: [plan] }));
    }
    case 'set': {
      const key = st.name.toLowerCase();
      const kind = KNOWN_SETTINGS.get(key);
      if (!kind && (key === 'parallelism' || key === 'threads' || key === 'worker_threads')) {
        throw sqlError(sql, st.pos, `"${st.name}" cannot change in a running environment: parallelism is set when it starts (the shell's --parallelism N, TableEnvironment.create({ parallelism: N }))`);
      }
      if (!kind) {
        const known = [...KNOWN_SETTINGS.keys()];
        const hint = suggest(st.name, known);
        throw sqlError(sql, st.pos, `unknown setting "${st.name}"${hint ? `; did you mean "${hint}"?` : ''} (known settings: ${known.join(', ')})`);
      }
      const v = st.value;
      if (kind === 'size') {
        const bytes = typeof v === 'number' ? v : typeof v === 'string' ? parseByteSize(v) : undefined;
        if (bytes === undefined || !Number.isFinite(bytes) || bytes <= 0) throw sqlError(sql, st.pos, `setting ${key} takes a size like '4GB' or '512MB', got ${String(v)}`);
        env.settings.set(key, bytes);
        return status('SET');
      }
      if (kind !== 'boolean') {
        const choice = String(v).toLowerCase();
        if (!kind.includes(choice)) throw sqlError(sql, st.pos, `setting ${key} takes one of ${kind.join(', ')}; got ${String(v)}`);
        env.settings.set(key, choice);
        return status('SET');
      }
      const b = typeof v === 'boolean' ? v : typeof v === 'string' && /^(true|false|on|off)$/i.test(v) ? /^(true|on)$/i.test(v) : typeof v === 'number' && (v === 0 || v === 1) ? v === 1 : undefined;
      if (b === undefined) throw sqlError(sql, st.pos, `setting ${key} takes true or false, got ${String(v)}`);
      env.settings.set(key, b);
      return status('SET');
    }
    case 'cache': {
      const storageLevel = cacheStorageLevel(sql, st);
      const table = st.query ? await bindQueryAsync(env, text, st.query) : undefined;
      if (!table && !env.hasTable(st.name)) throw sqlError(sql, st.pos, `table "${st.name}" not found; CACHE TABLE ${st.name} AS <query> creates it`);
      await env.cacheTable(st.name, table, { lazy: st.lazy, ...(storageLevel ? { storageLevel } : {}), ...(options?.signal ? { signal: options.signal } : {}) });
      return status(st.lazy ? 'CACHE LAZY TABLE' : 'CACHE TABLE');
    }
    case 'uncache': {
      if (!env.hasTable(st.name) && !st.ifExists) throw sqlError(sql, st.pos, `table "${st.name}" not found; use UNCACHE TABLE IF EXISTS to ignore a missing table`);
      await env.uncacheTable(st.name, { ifExists: st.ifExists });
      return status('UNCACHE TABLE');
    }
    case 'clearCache':
      await env.clearCache();
      return status('CLEAR CACHE');
    case 'showCaches': return rows(showCaches(env));
    case 'prepare':
      prepareNamed(env, text, st);
      return status('PREPARE');
    case 'execute': {
      const { statement: p, values } = executeNamed(env, sql, st);
      return rows(await p.bind(...values).collect(options));
    }
    case 'deallocate':
      if (!deallocateNamed(env, st)) throw sqlError(sql, st.pos, `prepared statement "${st.name}" does not exist`);
      return status('DEALLOCATE');
  }
}

const CACHE_OPTIONS = ['storagelevel'];

/** The storage level of `CACHE TABLE ... OPTIONS ('storageLevel' = '...')`, validated. */
function cacheStorageLevel(sql: SqlContext, st: Extract<Statement, { kind: 'cache' }>): StorageLevel | undefined {
  let level: StorageLevel | undefined;
  for (const [k, v] of Object.entries(st.options)) {
    if (!CACHE_OPTIONS.includes(k.toLowerCase())) throw sqlError(sql, st.pos, `unknown CACHE TABLE option "${k}" (options: storageLevel)`);
    const want = v.toUpperCase();
    if (!(STORAGE_LEVELS as readonly string[]).includes(want)) throw sqlError(sql, st.pos, `storageLevel must be one of ${STORAGE_LEVELS.join(', ')}; got '${v}'`);
    level = want as StorageLevel;
  }
  return level;
}

/** SHOW CACHES: one row per cache entry or mark. */
function showCaches(env: TableEnvironment): ArrowTable {
  const list = env.cacheManager.list();
  const str = (f: (e: (typeof list)[number]) => string) => vectorFromArray(list.map(f), new Utf8());
  const big = (f: (e: (typeof list)[number]) => number) => vectorFromArray(list.map((e) => BigInt(f(e))), new Int64());
  return new ArrowTable({
    id: str((e) => e.id),
    digest: str((e) => createHash('sha256').update(e.digest).digest('hex').slice(0, 16)),
    state: str((e) => e.state),
    rows: big((e) => e.rows),
    bytes: big((e) => e.bytes),
    memory_bytes: big((e) => e.memoryBytes),
    disk_bytes: big((e) => e.diskBytes),
    tier: str((e) => e.tier),
    hits: big((e) => e.hits),
    lost: big((e) => e.losses),
    tables: str((e) => e.tables.join(', ')),
    plan: str((e) => e.label),
    note: str((e) => e.reason ?? ''),
  });
}

/**
 * Enforces NOT NULL columns of the target: an omitted NOT NULL column, or a
 * NULL among the rows for one, fails the INSERT (the rows are computed once
 * here and inserted from memory).
 */
async function checkNotNull(sql: SqlContext, env: TableEnvironment, st: Extract<Statement, { kind: 'insert' }>, rows: Table, options?: SqlOptions): Promise<Table> {
  const target = env.from(st.table).schema.fields;
  if (target.every((f) => f.nullable)) return rows;
  const positions = st.columns ? st.columns.map((c) => target.findIndex((f) => f.name.toLowerCase() === c.toLowerCase())) : target.map((_, i) => i);
  const data = await rows.collect(options?.signal ? { signal: options.signal } : undefined);
  target.forEach((f, i) => {
    if (f.nullable) return;
    const at = positions.indexOf(i);
    const nulls = at < 0 ? data.numRows : (data.getChildAt(at)?.nullCount ?? 0);
    if (nulls > 0) throw sqlError(sql, st.pos, `NOT NULL constraint failed: ${st.table}.${f.name} ${at < 0 ? 'has no value (it is not in the column list)' : 'would get a NULL'}`);
  });
  return env.fromArrow(data);
}

/**
 * The table or view DESCRIBE / SUMMARIZE name: `t`, `main.t`, `memory.main.t`, or an
 * information_schema view (bound as `SELECT * FROM information_schema.v`, so an unknown view is
 * reported as in a query).
 */
async function namedTable(env: TableEnvironment, text: string, sql: SqlContext, name: string, pos: Statement['pos']): Promise<Table> {
  const parsed = parseTableName(name);
  if (parsed.schema === 'information_schema') {
    return bindQueryAsync(env, text, { kind: 'select', distinct: false, items: [{ kind: 'star', pos }], from: [{ kind: 'table', name, pos }], pos });
  }
  if (!env.hasTable(parsed.name)) throw notFound(sql, env, pos, name, 'table');
  return env.from(parsed.name);
}

function notFound(sql: SqlContext, env: TableEnvironment, pos: Statement['pos'], name: string, what: string): ValidationError {
  return missingTable(sql, env.listTables(), pos, name, what);
}

function renameColumns(sql: SqlContext, st: Extract<Statement, { kind: 'createView' }>, t: Table, names: readonly string[]): Table {
  const fields = t.plan.schema.fields;
  if (names.length > fields.length) throw sqlError(sql, st.pos, `view "${st.name}" names ${names.length} columns but its query returns ${fields.length}`);
  const plan = rel.project(t.plan, fields.map((f, i) => inputRef(i, f.type, f.name)), fields.map((f, i) => names[i] ?? f.name));
  return new Table(t.runner, plan, plan.schema.fields);
}

/** A small all-VARCHAR Arrow table (SHOW TABLES, DESCRIBE, EXPLAIN). */
function stringTable(columns: Readonly<Record<string, readonly string[]>>): ArrowTable {
  const vectors = Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, vectorFromArray([...v], new Utf8())]));
  return new ArrowTable(vectors);
}

/**
 * A stored table has no NULL-typed columns: like DuckDB, `CREATE TABLE t AS
 * SELECT NULL AS x` makes x an INTEGER, so later inserts cast to it.
 */
function withoutNullColumns(t: Table): Table {
  const fields = t.schema.fields;
  if (!fields.some((f) => f.type === 'NULL')) return t;
  if (new Set(fields.map((f) => f.name)).size !== fields.length) return t;
  return t.select(...fields.map((f) => (f.type === 'NULL' ? col(f.name).cast('INTEGER').as(f.name) : col(f.name))));
}

