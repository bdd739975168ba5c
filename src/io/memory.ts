/**
 * In-memory table source over Arrow record batches. Zero-copy: scans hand out
 * the stored batches (projected by selecting children, oversized ones split
 * into typed-array views with `sliceBatch`; every emitted column has offset 0).
 * Non-canonical column types (and sliced columns) are converted once, here.
 * A table from another copy of apache-arrow is first rebuilt over its buffers
 * (foreign-arrow.ts), so operators only ever see this module's Arrow classes.
 *
 * Decision: a column that worker threads read (planner/ship-tables.ts) is copied once into
 * SharedArrayBuffers, and the source then reads that copy too (`adopt`): identical bytes,
 * one copy in memory instead of two, and the original buffers are freed when nothing else
 * holds them. An Arrow table the caller still holds (`registerTable(name, arrowTable)`,
 * `fromArrow`) keeps its own buffers: its shipped columns then exist twice. The source's
 * batches are replaced, never changed, so a batch handed out before stays valid.
 */
import * as arrow from 'apache-arrow';
import { CancelledError, InternalError } from '../relnode/errors.js';
import { schemaOf, toArrowSchema, type Schema } from '../relnode/types.js';
import { batchesOfSize, canonicalBatch, canonicalSchema } from './canonical.js';
import { makeBatch } from './columns.js';
import { adoptArrowTable, type ArrowTableLike } from './foreign-arrow.js';
import type { ScanOptions, TableSource } from './source.js';
import { batchStatistics, type TableStatistics } from './stats.js';
import { partitionRange } from './partition-range.js';

/** At most this many partitions. */
const MAX_PARTITIONS = 64;

/**
 * Wraps an Arrow table (or batches sharing one schema) as a table source.
 * Partitions = number of non-empty batches (1..64); each reads a contiguous
 * range of them (partition-range.ts), so a scan at parallelism 1 returns the
 * rows in the table's order. `schema` names the columns of an empty table (no batches),
 * and its NOT NULL columns stay NOT NULL over batches (a table appended to).
 */
export function memorySource(input: arrow.Table | ArrowTableLike | readonly arrow.RecordBatch[], name = 'memory', schema?: Schema): TableSource {
  const table = Array.isArray(input) ? input as readonly arrow.RecordBatch[] : adoptArrowTable(input as arrow.Table | ArrowTableLike, `memory ${name}`);
  const batches = Array.isArray(table) ? (table as readonly arrow.RecordBatch[]) : (table as arrow.Table).batches;
  const srcSchema = Array.isArray(table) ? batches[0]?.schema ?? (schema ? toArrowSchema(schema) : undefined) : (table as arrow.Table).schema;
  return new MemorySource(schema && srcSchema ? keepNotNull(srcSchema, schema) : srcSchema, batches, name);
}

/** The Arrow schema with the fields that `schema` declares NOT NULL marked non-nullable. */
function keepNotNull(s: arrow.Schema, schema: Schema): arrow.Schema {
  if (schema.fields.every((f) => f.nullable)) return s;
  return new arrow.Schema(s.fields.map((f, i) => (schema.fields[i]?.nullable === false && f.nullable ? new arrow.Field(f.name, f.type, false, f.metadata) : f)), s.metadata);
}

class MemorySource implements TableSource, StoredBatches {
  readonly schema: Schema;
  readonly description: string;
  readonly partitions: number;
  readonly numRows: number;
  private readonly arrowSchema: arrow.Schema;
  /** Entries replaced by `adopt` (statistics read the same array). */
  private readonly batches: arrow.RecordBatch[];
  private stats: TableStatistics | undefined;

  constructor(srcSchema: arrow.Schema | undefined, batches: readonly arrow.RecordBatch[], name: string) {
    this.description = `memory ${name}`;
    if (srcSchema === undefined) {
      this.schema = schemaOf([]);
      this.arrowSchema = new arrow.Schema([]);
    } else {
      const c = canonicalSchema(srcSchema, this.description);
      this.schema = c.schema;
      this.arrowSchema = c.arrowSchema;
    }
    this.batches = batches.filter((b) => b.numRows > 0).map((b) => canonicalBatch(b, this.arrowSchema, this.description));
    this.partitions = Math.max(1, Math.min(this.batches.length, MAX_PARTITIONS));
    this.numRows = this.batches.reduce((n, b) => n + b.numRows, 0);
  }

  /** Computed lazily, per column, and kept: the batches never change (a new version is a new source). */
  statistics(): TableStatistics {
    return (this.stats ??= batchStatistics(this.batches));
  }

  /** Stored batches (StoredBatches). */
  get count(): number {
    return this.batches.length;
  }

  batch(i: number): arrow.RecordBatch {
    return this.batches[i]!;
  }

  adopt(i: number, columns: ReadonlyMap<number, arrow.Data>): void {
    const b = this.batches[i]!;
    const children = b.data.children;
    for (const [c, r] of columns) {
      const d = children[c];
      if (d === undefined || r.length !== d.length || r.type.typeId !== d.type.typeId) throw new InternalError(`${this.description}: column ${c}'s replacement does not match it`);
    }
    this.batches[i] = makeBatch(b.schema, children.map((d, c) => columns.get(c) ?? d), b.numRows);
  }

  *scan(options: ScanOptions): Iterable<arrow.RecordBatch> {
    const P = this.partitions;
    const cols = options.columns;
    const outSchema = cols === undefined ? this.arrowSchema : projectSchema(this.arrowSchema, cols);
    const batchSize = Math.max(1, options.batchSize | 0);
    const { start: first, end: last } = partitionRange(options.partition, P, this.batches.length);
    for (let i = first; i < last; i++) {
      if (options.signal?.aborted) throw new CancelledError(`scan of ${this.description} cancelled`);
      const b = this.batches[i]!;
      const projected = cols === undefined ? b : projectBatch(b, cols, outSchema);
      for (const part of batchesOfSize(projected, batchSize)) {
        if (options.signal?.aborted) throw new CancelledError(`scan of ${this.description} cancelled`);
        yield part;
      }
    }
  }
}

/*
 * The projections are module functions with plain loops, not `cols.map((c) => ...)` in scan: a closure
 * made per scan is a new function whose optimized code V8 drops and compiles again, and `map` inlined
 * into optimized code returns a HOLEY array where the interpreter's is PACKED, so apache-arrow's Schema
 * constructor, inlined into scan, deoptimized on its `fields.length` ("wrong map": TPC-H Q1 and Q3 in
 * bench/deopt-runs.ts; exec/packed.ts).
 */

/** The fields `cols` of `schema`, as a schema. */
function projectSchema(schema: arrow.Schema, cols: readonly number[]): arrow.Schema {
  const fields: arrow.Field[] = [];
  for (let i = 0; i < cols.length; i++) fields.push(schema.fields[cols[i]!]!);
  return new arrow.Schema(fields);
}

/** The columns `cols` of `b`, as a batch of `schema` (projectSchema's). */
function projectBatch(b: arrow.RecordBatch, cols: readonly number[], schema: arrow.Schema): arrow.RecordBatch {
  const children = b.data.children;
  const out: arrow.Data[] = [];
  for (let i = 0; i < cols.length; i++) out.push(children[cols[i]!]!);
  return makeBatch(schema, out, b.numRows);
}

/** The stored batches of an in-memory table by index (in storage order), for putting shared copies in place. */
export interface StoredBatches {
  readonly count: number;
  batch(i: number): arrow.RecordBatch;
  /**
   * Puts `columns.get(c)` in place of column `c` of stored batch `i` (the same values in other
   * buffers: planner/ship-tables.ts's shared-memory copy). The batch is replaced, not changed.
   */
  adopt(i: number, columns: ReadonlyMap<number, arrow.Data>): void;
}

/** An in-memory table's stored batches (throws for any other source). */
export function storedBatches(source: TableSource): StoredBatches {
  if (!(source instanceof MemorySource)) throw new InternalError(`${source.description} is not an in-memory table`);
  return source;
}

/** True if `source` is an in-memory table (UPDATE and DELETE change only those). */
export function isMemorySource(source: TableSource): boolean {
  return source instanceof MemorySource;
}
