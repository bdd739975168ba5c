/**
 * Opening data as Tables: the `from...` methods of TableEnvironment (Arrow
 * tables, records, CSV, Arrow IPC, Parquet, JSON files), each an anonymous
 * scan registered in the catalog under a fresh id, plus the catalog and the
 * closed check they share with the rest of the environment.
 *
 * Why a base class: these methods are public surface of TableEnvironment
 * (`env.fromCsv(...)`), but they share nothing with planning, running or
 * caching; the opening itself lives in file-tables.ts. The environment
 * (environment.ts) extends this class and says how a scan becomes a Table.
 */
import type { Table as ArrowTable } from 'apache-arrow';
import { EddyError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import type { SchemaSpec } from '../relnode/schema-spec.js';
import type { TableSource } from '../io/source.js';
import type { ArrowTableLike } from '../io/foreign-arrow.js';
import type { CsvOptions } from '../io/csv.js';
import type { ColumnMemory } from '../io/column-memory.js';
import { Catalog } from './catalog.js';
import type { Table } from './table.js';
import { arrowTableSource, openArrowFile, openCsv, openJson, openParquet, recordsSource } from './file-tables.js';

/** The `from...` methods of an environment (see the header). */
export abstract class SourceTables {
  /** @internal */ readonly catalog = new Catalog();
  /** Set by close(): every later call fails. */
  protected closed = false;

  /** Fails when the environment was closed. */
  protected checkOpen(): void {
    if (this.closed) throw new EddyError('this TableEnvironment is closed; create a new one');
  }

  private tableOf(source: TableSource, label: string): Table {
    this.checkOpen();
    return this.wrap(rel.scan(this.catalog.anonymousRef(label, source)));
  }

  /** A Table of the environment over `plan`. */
  protected abstract wrap(plan: rel.RelNode): Table;

  /** Where loaders put the column buffers of the tables they read (io/column-memory.ts: shared when worker threads read them). */
  protected abstract get loadMemory(): ColumnMemory;

  /**
   * A table over an Arrow Table (zero-copy), also one made by another copy of apache-arrow
   * (a CommonJS `require`, a library bundling its own): it is read by its type ids and buffers.
   * A column of a type eddy cannot read fails here, naming the column and its type.
   * At parallelism > 1 the columns worker threads read are copied once into shared memory
   * (see `registerTable`): a table the caller keeps then exists twice for those columns.
   */
  fromArrow(table: ArrowTable | ArrowTableLike, name = 'arrow'): Table {
    return this.tableOf(arrowTableSource(table, name), name);
  }

  /** A table from plain objects. Types are inferred (number → INTEGER or DOUBLE, bigint → BIGINT, Date → TIMESTAMP) unless a schema is given. */
  fromRecords(rows: readonly Readonly<Record<string, unknown>>[], schema?: SchemaSpec): Table {
    return this.tableOf(recordsSource(rows, schema), 'records');
  }

  /** A table over a CSV file (streamed; types inferred from a sample unless given); a glob (`logs/*.csv`) reads every matching file. */
  async fromCsv(path: string, options?: CsvOptions): Promise<Table> {
    return this.tableOf(await openCsv(path, options), path);
  }

  /**
   * A table over an Arrow IPC file or stream. At parallelism > 1 its batches are read into
   * SharedArrayBuffers, so a table collected from it and registered ships to worker threads
   * without a copy.
   */
  async fromArrowFile(path: string): Promise<Table> {
    return this.tableOf(await openArrowFile(path, this.loadMemory), path);
  }

  /** A table over a Parquet file, or every file a glob (`data/*.parquet`) matches (row groups are read as needed, only the columns a query uses). */
  async fromParquet(path: string): Promise<Table> {
    return this.tableOf(await openParquet(path), path);
  }

  /** A table over a newline-delimited JSON file. */
  async fromJson(path: string, options?: { schema?: SchemaSpec; sampleRows?: number }): Promise<Table> {
    return this.tableOf(await openJson(path, options), path);
  }
}
