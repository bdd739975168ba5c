/**
 * COPY, DuckDB's syntax: `COPY (query) | t [(cols)] TO 'file' (options)`
 * streams the rows batch by batch into an atomic file writer (io/file-writers:
 * a temporary file renamed into place when complete, removed on failure or
 * cancellation); `COPY t [(cols)] FROM 'file' (options)` reads a file with the
 * table's column types and appends it as INSERT does (new table version,
 * dependent caches released). The format comes from FORMAT or else from the
 * file extension (.parquet, .json/.ndjson/.jsonl, otherwise CSV), as in
 * DuckDB. Relative paths are relative to the working directory, where the
 * user started eddy.
 */
import { extname, resolve } from 'node:path';
import { openBatchWriter, type WriteFormat, type WriterOptions } from '../io/file-writers.js';
import { parseParquetCodec } from '../io/parquet-compress.js';
import { ValidationError } from '../relnode/errors.js';
import { schemaOf } from '../relnode/types.js';
import type { CopyOption, Statement } from '../sql/ast.js';
import { sqlError } from '../sql/binder/context.js';
import type { SqlContext } from '../sql/binder/index.js';
import { suggest } from '../sql/binder/scope.js';
import { missingTable } from './missing-table.js';
import type { TableEnvironment } from './environment.js';
import { col } from './expr.js';
import { bindQueryAsync } from './bind-query.js';
import type { Table } from './table.js';

type Copy = Extract<Statement, { kind: 'copy' }>;

/** The options each format accepts (lower case; FORMAT is accepted by all). */
const KNOWN: Readonly<Record<WriteFormat, { readonly to: readonly string[]; readonly from: readonly string[] }>> = {
  csv: { to: ['header', 'delimiter', 'delim', 'sep'], from: ['header', 'delimiter', 'delim', 'sep', 'quote', 'nullstr', 'null'] },
  json: { to: ['array'], from: [] },
  parquet: { to: ['compression', 'codec', 'row_group_size'], from: [] },
};

/** Runs COPY; returns the number of rows written or read. */
export async function copyStatement(env: TableEnvironment, text: string, st: Copy, signal?: AbortSignal): Promise<number> {
  const sql: SqlContext = { catalog: env.sqlCatalog, text };
  const format = formatOf(sql, st);
  const options = new Map<string, CopyOption>();
  for (const o of st.options) {
    const key = o.name.toLowerCase();
    if (key === 'format') continue;
    const known = KNOWN[format][st.direction];
    if (!known.includes(key)) {
      const hint = suggest(key, known);
      throw sqlError(sql, o.pos, `unknown COPY ${st.direction.toUpperCase()} option "${o.name}" for ${format}${hint ? `; did you mean "${hint}"?` : ''} (options: ${['format', ...known].join(', ')})`);
    }
    options.set(key, o);
  }
  return st.direction === 'to' ? copyTo(env, text, sql, st, format, options, signal) : copyFrom(env, sql, st, format, options, signal);
}

function formatOf(sql: SqlContext, st: Copy): WriteFormat {
  const given = st.options.find((o) => o.name.toLowerCase() === 'format');
  const name = given ? String(given.value).toLowerCase() : extensionFormat(st.path);
  if (name === 'csv' || name === 'json' || name === 'parquet') return name;
  if (name === 'ndjson' || name === 'jsonl') return 'json';
  throw sqlError(sql, given?.pos ?? st.pos, `COPY FORMAT ${String(given?.value)} is not supported; use csv, json or parquet`);
}

function extensionFormat(path: string): WriteFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.parquet' || ext === '.pq') return 'parquet';
  if (ext === '.json' || ext === '.ndjson' || ext === '.jsonl') return 'json';
  return 'csv';
}

async function copyTo(env: TableEnvironment, text: string, sql: SqlContext, st: Copy, format: WriteFormat, options: ReadonlyMap<string, CopyOption>, signal?: AbortSignal): Promise<number> {
  let source: Table;
  if (st.query) source = await bindQueryAsync(env, text, st.query);
  else {
    source = tableOf(sql, env, st);
    if (st.columns) source = source.select(...st.columns.map((c) => col(c)));
  }
  const writerOptions = writerOptionsOf(sql, options);
  const writer = await openBatchWriter(resolve(st.path), format, schemaOf(source.plan.schema.fields), writerOptions);
  let rows = 0;
  try {
    for await (const b of env.stream(source.plan, signal)) {
      await writer.write(b);
      rows += b.numRows;
    }
  } catch (err) {
    await writer.abort();
    throw err;
  }
  await writer.finish();
  return rows;
}

function writerOptionsOf(sql: SqlContext, options: ReadonlyMap<string, CopyOption>): WriterOptions {
  const out: { -readonly [K in keyof WriterOptions]: WriterOptions[K] } = {};
  for (const [key, o] of options) {
    if (key === 'header') out.header = booleanOf(sql, o);
    else if (key === 'array') out.array = booleanOf(sql, o);
    else if (key === 'delimiter' || key === 'delim' || key === 'sep') out.delimiter = String(o.value);
    else if (key === 'row_group_size') {
      if (typeof o.value !== 'number' || !Number.isInteger(o.value) || o.value < 1) throw sqlError(sql, o.pos, `ROW_GROUP_SIZE takes a positive whole number, got ${String(o.value)}`);
      out.rowGroupSize = o.value;
    } else if (key === 'compression' || key === 'codec') {
      try {
        out.compression = parseParquetCodec(String(o.value));
      } catch (err) {
        throw sqlError(sql, o.pos, (err as Error).message);
      }
    }
  }
  return out;
}

function booleanOf(sql: SqlContext, o: CopyOption): boolean {
  const v = o.value;
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v === 'string' && /^(true|false|on|off)$/i.test(v)) return /^(true|on)$/i.test(v);
  throw sqlError(sql, o.pos, `COPY option ${o.name} takes true or false, got ${String(v)}`);
}

function tableOf(sql: SqlContext, env: TableEnvironment, st: Copy): Table {
  const name = st.table!;
  if (!env.hasTable(name)) throw missingTable(sql, env.listTables(), st.pos, name, 'table');
  return env.from(name);
}

async function copyFrom(env: TableEnvironment, sql: SqlContext, st: Copy, format: WriteFormat, options: ReadonlyMap<string, CopyOption>, signal?: AbortSignal): Promise<number> {
  if (st.query) throw sqlError(sql, st.pos, 'COPY (query) FROM is not possible: copy FROM a file into a table');
  const target = tableOf(sql, env, st);
  if (env.isView(st.table!)) throw sqlError(sql, st.pos, `cannot copy into view "${st.table}"; copy into its tables instead`);
  const fields = target.schema.fields;
  const chosen = st.columns
    ? st.columns.map((c) => {
      const f = fields.find((x) => x.name.toLowerCase() === c.toLowerCase());
      if (!f) throw sqlError(sql, st.pos, `table "${st.table}" has no column "${c}" (columns: ${fields.map((x) => x.name).join(', ')})`);
      return f;
    })
    : fields;
  const twice = chosen.find((f, k) => chosen.indexOf(f) !== k);
  if (twice !== undefined) throw sqlError(sql, st.pos, `column "${twice.name}" is named twice in the column list of COPY ${st.table} FROM`);
  const path = resolve(st.path);
  let rows: Table;
  try {
    if (format === 'csv') {
      const o = (k: string): CopyOption | undefined => options.get(k);
      const delim = o('delimiter') ?? o('delim') ?? o('sep');
      const nul = o('nullstr') ?? o('null');
      rows = await env.fromCsv(path, {
        header: o('header') ? booleanOf(sql, o('header')!) : true,
        schema: schemaOf(chosen.map((f) => ({ ...f, nullable: true }))),
        ...(delim ? { delimiter: String(delim.value) } : {}),
        ...(o('quote') ? { quote: String(o('quote')!.value) } : {}),
        ...(nul ? { nullValue: String(nul.value) } : {}),
      });
    } else if (format === 'parquet') rows = await env.fromParquet(path);
    else rows = await env.fromJson(path);
  } catch (err) {
    if (err instanceof ValidationError) throw sqlError(sql, st.pos, `COPY ${st.table} FROM '${st.path}': ${err.message}`);
    throw err;
  }
  try {
    return await env.insertInto(st.table!, rows, st.columns, signal ? { signal } : {});
  } catch (err) {
    if (err instanceof ValidationError && err.location === undefined) throw sqlError(sql, st.pos, err.message);
    throw err;
  }
}
