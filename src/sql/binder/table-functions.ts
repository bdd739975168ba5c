/**
 * Table functions in FROM: read_csv(path, header=, delim=, quote=, nullstr=, skip=, ignore_errors=,
 * columns = {'name': 'TYPE', ...} (every column), types = {...} (some)),
 * read_parquet(path), read_arrow(path), read_json(path). Opening a file is
 * asynchronous, so the statement executor opens every table function of a
 * statement before binding it (`openTableFunctions`); the binder then finds
 * each one by its AST node. The binder validates the arguments; the catalog
 * (the API) opens the file. `env.sql()` is synchronous and so rejects them
 * with advice to use `env.executeSql()`. Functions that open nothing —
 * range, generate_series, eddy_functions and the ML functions
 * (ml-functions.ts) — bind in place, so `env.sql()` takes them too.
 */
import { InternalError } from '../../relnode/errors.js';
import { functionList } from '../../relnode/function-list.js';
import { rangeRelation } from './range-function.js';
import type { RelNode } from '../../relnode/rel.js';
import { field, parseTypeName, schemaOf, SQL_TYPE_NAMES, type Schema } from '../../relnode/types.js';
import type { Expr, FromItem, Query } from '../ast.js';
import type { TableFunctionSpec } from '../catalog.js';
import { visitQueries } from './ast-walk.js';
import { sqlError, type SqlContext } from './context.js';
import { isMlFunction } from './ml-functions.js';
import { isComputedSeries } from './lateral-series.js';
import { closest } from './suggest.js';
import { PREDICT_FUNCTIONS, TRAINING_FUNCTIONS } from '../../ml/index.js';

type TableFunctionItem = Extract<FromItem, { kind: 'tableFunction' }>;

/** Every table function in FROM clauses anywhere in the query. */
export function tableFunctionsIn(q: Query): TableFunctionItem[] {
  const out: TableFunctionItem[] = [];
  const walk = (it: FromItem): void => {
    if (it.kind === 'tableFunction') out.push(it);
    else if (it.kind === 'join') { walk(it.left); walk(it.right); }
    else if (it.kind === 'pivot' || it.kind === 'unpivot') walk(it.source);
  };
  visitQueries(q, (x) => { if (x.kind === 'select') x.from.forEach(walk); });
  return out;
}

/** Opens the table functions of a query (reads file headers / schemas); the map goes into SqlContext.tableFunctions. */
export async function openTableFunctions(sql: SqlContext, q: Query): Promise<Map<FromItem, RelNode>> {
  const out = new Map<FromItem, RelNode>();
  // ML functions (src/ml) open nothing: the binder binds them, and their table arguments, in place.
  // Neither does a range() over computed arguments (lateral-series.ts).
  for (const it of tableFunctionsIn(q)) if (!isMlFunction(it.name.toLowerCase()) && !isComputedSeries(it)) out.set(it, await openOne(sql, it));
  return out;
}

/** The table functions that open no file (range, generate_series, eddy_functions) bound on the spot, else undefined. */
export function syncTableFunction(sql: SqlContext, it: TableFunctionItem): RelNode | undefined {
  const name = it.name.toLowerCase();
  if (name !== 'eddy_functions' && name !== 'range' && name !== 'generate_series') return undefined;
  if (name === 'eddy_functions') {
    if (it.args.length > 0 || it.options.length > 0) throw sqlError(sql, it.pos, 'eddy_functions() takes no arguments');
    return functionList();
  }
  return rangeRelation(sql, it);
}

/** The file readers, by every name SQL accepts (DuckDB's aliases included). */
const FILE_READERS = ['read_csv', 'read_csv_auto', 'read_parquet', 'parquet_scan', 'read_arrow', 'read_json', 'read_ndjson', 'read_json_auto'];

/** Every table function FROM accepts, sorted: what an unknown name's message lists. */
export const TABLE_FUNCTION_NAMES: readonly string[] = [...FILE_READERS, 'range', 'generate_series', 'eddy_functions', ...TRAINING_FUNCTIONS, ...PREDICT_FUNCTIONS].sort();

/**
 * Rejects a name that is no table function with the closest one or, when none is close, the list of
 * those that exist (as an unknown table names the tables) — before anything reads its arguments, so `duckdb_tables()` is not taken for a file reader.
 */
export function checkTableFunctionName(sql: SqlContext, it: TableFunctionItem): void {
  if (TABLE_FUNCTION_NAMES.includes(it.name.toLowerCase())) return;
  const hint = closest(it.name, TABLE_FUNCTION_NAMES);
  throw sqlError(sql, it.pos, `unknown table function "${it.name}"; ${hint === undefined ? `table functions: ${TABLE_FUNCTION_NAMES.join(', ')}` : `did you mean "${hint}"?`}`);
}

const CSV_OPTIONS = ['header', 'delim', 'delimiter', 'sep', 'quote', 'nullstr', 'columns', 'types', 'dtypes', 'skip', 'ignore_errors'];

async function openOne(sql: SqlContext, it: TableFunctionItem): Promise<RelNode> {
  checkTableFunctionName(sql, it);
  const name = it.name.toLowerCase();
  const sync = syncTableFunction(sql, it);
  if (sync !== undefined) return sync;
  const path = it.args[0];
  if (it.args.length !== 1 || !path || path.kind !== 'literal' || path.literal !== 'string') {
    throw sqlError(sql, it.pos, `${it.name} takes one file path as a string literal, e.g. ${it.name}('data.csv')`);
  }
  const file = path.value ?? '';
  const opener = sql.catalog.openTableFunction?.bind(sql.catalog);
  if (opener === undefined) throw sqlError(sql, it.pos, `table function ${it.name}(...) cannot be used here: this catalog does not open files`);
  const open = async (spec: TableFunctionSpec): Promise<RelNode> => {
    try {
      return await opener(spec);
    } catch (err) {
      throw sqlError(sql, it.pos, `${it.name}('${file}'): ${(err as Error).message}`);
    }
  };
  switch (name) {
    case 'read_csv': case 'read_csv_auto': {
      const opts: Extract<TableFunctionSpec, { kind: 'csv' }>['options'] = {};
      for (const o of it.options) {
        const key = o.name.toLowerCase();
        if (!CSV_OPTIONS.includes(key)) throw sqlError(sql, o.value.pos, `unknown ${it.name} option "${o.name}"; known: ${CSV_OPTIONS.join(', ')}`);
        if (key === 'header') opts.header = booleanOption(sql, o.name, o.value);
        else if (key === 'quote') opts.quote = stringOption(sql, o.name, o.value);
        else if (key === 'nullstr') opts.nullValue = stringOption(sql, o.name, o.value);
        else if (key === 'columns') opts.schema = columnsOption(sql, o.name, o.value);
        else if (key === 'types' || key === 'dtypes') opts.schema = typesOption(sql, o.name, o.value);
        else if (key === 'skip') opts.skip = countOption(sql, o.name, o.value);
        else if (key === 'ignore_errors') opts.ignoreErrors = booleanOption(sql, o.name, o.value);
        else opts.delimiter = stringOption(sql, o.name, o.value);
      }
      return open({ kind: 'csv', path: file, options: opts });
    }
    case 'read_parquet': case 'parquet_scan': noOptions(sql, it); return open({ kind: 'parquet', path: file });
    case 'read_arrow': noOptions(sql, it); return open({ kind: 'arrow', path: file });
    case 'read_json': case 'read_ndjson': case 'read_json_auto': noOptions(sql, it); return open({ kind: 'json', path: file });
    default: throw new InternalError(`table function ${it.name} is listed but has no reader`);
  }
}

/** The pairs of a struct literal `{'k': 'v', ...}` (cst-to-ast.ts encodes it as the call `{}`). */
function structPairs(sql: SqlContext, name: string, e: Expr): [string, string, Expr][] {
  if (e.kind !== 'function' || e.name !== '{}') throw sqlError(sql, e.pos, `option ${name} takes a struct of column names and types, e.g. ${name} = {'id': 'INTEGER', 'name': 'VARCHAR'}`);
  const out: [string, string, Expr][] = [];
  for (let i = 0; i + 1 < e.args.length; i += 2) {
    const k = e.args[i]!, v = e.args[i + 1]!;
    out.push([k.kind === 'literal' ? k.value ?? '' : '', v.kind === 'literal' ? v.value ?? '' : '', v]);
  }
  return out;
}

/** `columns = {'name': 'TYPE', ...}`: every column of the file, in order (DuckDB's option). */
function columnsOption(sql: SqlContext, name: string, e: Expr): Schema {
  const fields = structPairs(sql, name, e).map(([col, type, at]) => {
    const t = parseTypeName(type);
    if (t === undefined) throw sqlError(sql, at.pos, `unknown type "${type}" for column "${col}"; use one of ${SQL_TYPE_NAMES}`);
    return field(col, t, true);
  });
  if (fields.length === 0) throw sqlError(sql, e.pos, `option ${name} needs at least one column`);
  return schemaOf(fields);
}

/** `types = {'name': 'TYPE', ...}`: the types of some columns, the others inferred. */
function typesOption(sql: SqlContext, name: string, e: Expr): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [col, type] of structPairs(sql, name, e)) out[col] = type;
  return out;
}

function noOptions(sql: SqlContext, it: TableFunctionItem): void {
  const o = it.options[0];
  if (o) throw sqlError(sql, o.value.pos, `${it.name} takes no options (got "${o.name}")`);
}

function booleanOption(sql: SqlContext, name: string, e: Expr): boolean {
  if (e.kind === 'literal' && e.literal === 'boolean') return String(e.value).toLowerCase() === 'true';
  if (e.kind === 'literal' && e.literal === 'string' && /^(true|false)$/i.test(e.value ?? '')) return e.value!.toLowerCase() === 'true';
  if (e.kind === 'column' && /^(true|false)$/i.test(e.name)) return e.name.toLowerCase() === 'true';
  if (e.kind === 'literal' && e.literal === 'number' && (e.value === '0' || e.value === '1')) return e.value === '1';
  throw sqlError(sql, e.pos, `option ${name} must be true or false`);
}

/** A whole number >= 0 (read_csv's skip). */
function countOption(sql: SqlContext, name: string, e: Expr): number {
  const v = e.kind === 'literal' && e.literal === 'number' ? Number(e.value) : NaN;
  if (!Number.isSafeInteger(v) || v < 0) throw sqlError(sql, e.pos, `option ${name} must be a whole number >= 0, e.g. ${name} = 2`);
  return v;
}

function stringOption(sql: SqlContext, name: string, e: Expr): string {
  if (e.kind === 'literal' && e.literal === 'string') return e.value ?? '';
  throw sqlError(sql, e.pos, `option ${name} must be a string literal`);
}
