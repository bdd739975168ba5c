/**
 * Opening the sources TableEnvironment's `from*` methods read: files (CSV,
 * Arrow IPC, Parquet, newline-delimited JSON; a glob reads every matching
 * file as one table, io/multi-file.ts), Arrow tables and plain records.
 * Each returns a TableSource; the environment wraps it in an anonymous
 * catalog reference. Kept out of environment.ts so that file is about
 * registration and queries, not formats.
 */
import type { Table as ArrowTable } from 'apache-arrow';
import { toSchema, type SchemaSpec } from '../relnode/schema-spec.js';
import { ownValue } from '../relnode/name-keys.js';
import { batchFromRows } from '../exec/operators/values.js';
import type { TableSource } from '../io/source.js';
import { memorySource } from '../io/memory.js';
import { adoptArrowTable, type ArrowTableLike } from '../io/foreign-arrow.js';
import { csvSource, type CsvOptions } from '../io/csv.js';
import { jsonSource } from '../io/json.js';
import { parquetSource } from '../io/parquet.js';
import { arrowFileSource } from '../io/arrow-file.js';
import { HEAP_MEMORY, type ColumnMemory } from '../io/column-memory.js';
import { globSource, isGlob } from '../io/multi-file.js';
import { inferRecordSchema, toLiteral } from './records.js';

/** One file, or every file a glob (`data/*.parquet`) matches read as one table (io/multi-file.ts). */
function maybeGlob(path: string, open: (path: string) => Promise<TableSource>): Promise<TableSource> {
  return isGlob(path) ? globSource(path, open) : open(path);
}

/** An Arrow Table (zero-copy), also one made by another copy of apache-arrow. */
export function arrowTableSource(table: ArrowTable | ArrowTableLike, name: string): TableSource {
  return memorySource(adoptArrowTable(table, `fromArrow(${name})`), name);
}

/** Plain objects; types inferred unless a schema is given. Own properties only. */
export function recordsSource(rows: readonly Readonly<Record<string, unknown>>[], schema?: SchemaSpec): TableSource {
  const s = schema ? toSchema(schema) : inferRecordSchema(rows);
  // Own properties only: a record without a `constructor` column value is NULL there, not Object.
  const values = rows.map((r) => s.fields.map((f) => toLiteral(ownValue(r, f.name), f.type, f.name)));
  return memorySource([batchFromRows(values, s)], 'records');
}

export function openCsv(path: string, options?: CsvOptions): Promise<TableSource> {
  return maybeGlob(path, (p) => csvSource(p, options));
}

/** `memory`: where the batches' bodies go (SharedArrayBuffers for an environment at parallelism > 1: io/column-memory.ts). */
export function openArrowFile(path: string, memory: ColumnMemory = HEAP_MEMORY): Promise<TableSource> {
  return maybeGlob(path, (p) => arrowFileSource(p, memory));
}

export function openParquet(path: string): Promise<TableSource> {
  return maybeGlob(path, parquetSource);
}

export function openJson(path: string, options?: { schema?: SchemaSpec; sampleRows?: number }): Promise<TableSource> {
  const opts = options?.schema ? { ...options, schema: toSchema(options.schema) } : options;
  return maybeGlob(path, (p) => jsonSource(p, opts as Parameters<typeof jsonSource>[1]));
}
