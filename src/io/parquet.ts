/**
 * Parquet source on hyparquet. The footer gives the schema and row groups;
 * each partition is one row group, read column chunk by column chunk (only the
 * requested columns), converted to canonical Arrow columns and emitted as
 * zero-copy slices of `batchSize` rows. Flat columns of the common types are
 * decoded page by page into their Arrow buffers by parquet-pages.ts (their
 * chunks fetched with one read per run of nearby chunks); hyparquet's generic
 * reader (`parquetScan`, which assembles a JS array per column, ~10x slower on
 * OPTIONAL columns) keeps the rest: nested, INT96, FIXED_LEN_BYTE_ARRAY, ...
 * A partition whose row-group statistics prove a pushed-down filter false
 * for every row is not read at all (io/prune.ts).
 * Pages may be compressed with any codec DuckDB, Spark or pyarrow write
 * (Snappy, ZSTD, GZIP, Brotli, LZ4, LZ4_RAW: hyparquet-compressors).
 */
import { open, type FileHandle } from 'node:fs/promises';
import * as arrow from 'apache-arrow';
import { compressors } from 'hyparquet-compressors';
import { parquetMetadataAsync, parquetScan, parquetSchema, type AsyncBuffer, type DecodedArray, type FileMetaData, type RowGroup, type SchemaElement, type SchemaTree } from 'hyparquet';
import { CancelledError, ExecutionError } from '../relnode/errors.js';
import { field, schemaOf, toArrowType, type Schema, type SqlType } from '../relnode/types.js';
import { floorDiv, sliceBatch } from './canonical.js';
import { checkTimestampRange } from './timestamp-range.js';
import { BoolBuilder, Float64Builder, Int32Builder, Int64Builder, makeBatch, makeBuilder, Utf8Builder, type ColumnBuilder } from './columns.js';
import type { FilePartitions, ScanOptions, TableSource } from './source.js';
import type { RexNode } from '../relnode/rex.js';
import { nanFreeBounds, parquetStatistics, rowGroupStats } from './parquet-stats.js';
import { canSkipBlock } from './prune.js';
import { flatPlan, type SinkFactory } from './parquet-convert.js';
import { decodeFlatChunk, PageScratch, type ColumnDecoder } from './parquet-pages.js';
import type { TableStatistics } from './stats.js';

/** An AsyncBuffer reading byte ranges of an open file. */
function fileBuffer(handle: FileHandle, size: number): AsyncBuffer {
  return {
    byteLength: size,
    async slice(start: number, end?: number): Promise<ArrayBuffer> {
      const stop = Math.min(end ?? size, size);
      const out = new Uint8Array(Math.max(0, stop - start));
      let done = 0;
      while (done < out.length) {
        const { bytesRead } = await handle.read(out, done, out.length - done, start + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return out.buffer;
    },
  };
}

/** hyparquet value parsers returning raw values: days, ms as bigint, bytes. */
const PARSERS = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => floorDiv(v, 1000n),
  timestampFromNanoseconds: (v: bigint) => floorDiv(v, 1_000_000n),
  dateFromDays: (d: number) => d,
  stringFromBytes: (b: Uint8Array) => b,
  jsonFromBytes: (b: Uint8Array) => b,
};

/** How a parquet column converts: its SqlType and, for DECIMAL, the scale. */
interface ParquetColumn {
  readonly name: string;
  readonly type: SqlType;
  readonly nullable: boolean;
  readonly decimalScale: number;
  /** TIME columns: ms per unit, rendered as text. */
  readonly timeUnitMs: number;
}

function columnOf(node: SchemaTree): ParquetColumn {
  const e: SchemaElement = node.element;
  const name = e.name;
  const lt = e.logical_type, ct = e.converted_type;
  const base = { name, nullable: e.repetition_type !== 'REQUIRED', decimalScale: -1, timeUnitMs: 0 };
  if (node.children.length > 0 || e.repetition_type === 'REPEATED') return { ...base, type: 'VARCHAR' };
  if (ct === 'DECIMAL' || lt?.type === 'DECIMAL') return { ...base, type: 'DOUBLE', decimalScale: e.scale ?? 0 };
  if (lt?.type === 'TIME' || ct === 'TIME_MILLIS' || ct === 'TIME_MICROS') {
    const unit = lt?.type === 'TIME' ? lt.unit : ct === 'TIME_MILLIS' ? 'MILLIS' : 'MICROS';
    return { ...base, type: 'VARCHAR', timeUnitMs: unit === 'MILLIS' ? 1 : unit === 'MICROS' ? 1e-3 : 1e-6 };
  }
  switch (e.type) {
    case 'BOOLEAN': return { ...base, type: 'BOOLEAN' };
    case 'INT32':
      if (ct === 'DATE' || lt?.type === 'DATE') return { ...base, type: 'DATE' };
      if (ct === 'UINT_32' || (lt?.type === 'INTEGER' && !lt.isSigned && lt.bitWidth === 32)) return { ...base, type: 'BIGINT' };
      return { ...base, type: 'INTEGER' };
    case 'INT64':
      if (ct === 'TIMESTAMP_MILLIS' || ct === 'TIMESTAMP_MICROS' || lt?.type === 'TIMESTAMP') return { ...base, type: 'TIMESTAMP' };
      return { ...base, type: 'BIGINT' };
    case 'INT96': return { ...base, type: 'TIMESTAMP' };
    case 'FLOAT': case 'DOUBLE': return { ...base, type: 'DOUBLE' };
    case 'FIXED_LEN_BYTE_ARRAY': return { ...base, type: lt?.type === 'FLOAT16' ? 'DOUBLE' : 'VARCHAR' };
    default: return { ...base, type: 'VARCHAR' };
  }
}

async function openFile(path: string): Promise<{ handle: FileHandle; file: AsyncBuffer; mtimeMs: number }> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new ExecutionError(`cannot open parquet file ${path}: ${(err as Error).message}`, { cause: err });
  }
  const { size, mtimeMs } = await handle.stat();
  return { handle, file: fileBuffer(handle, size), mtimeMs };
}

/** A Parquet file as a table source: one partition per row group. */
export async function parquetSource(path: string): Promise<TableSource> {
  const { handle, file, mtimeMs } = await openFile(path);
  try {
    let metadata: FileMetaData;
    try {
      metadata = await parquetMetadataAsync(file);
    } catch (err) {
      throw new ExecutionError(`parquet ${path}: cannot read the footer (${(err as Error).message}); is this a parquet file?`, { cause: err });
    }
    const columns = parquetSchema(metadata).children.map(columnOf);
    return new ParquetSource(path, metadata, columns, { bytes: file.byteLength, mtimeMs });
  } finally {
    await handle.close();
  }
}

class ParquetSource implements TableSource {
  readonly schema: Schema;
  readonly description: string;
  readonly partitions: number;
  readonly numRows: number;
  private readonly arrowFields: arrow.Field[];
  private readonly groupStarts: number[] = [];
  private stats: TableStatistics | undefined;
  private readonly tree: SchemaTree;
  /** Per column: the sink of parquet-pages.ts's flat decoder, or undefined (hyparquet's generic path). */
  private readonly plans: (SinkFactory | undefined)[];

  /** This file, for worker stages that read its row groups on other threads (source.ts `files`). */
  readonly files: readonly FilePartitions[];

  constructor(private readonly path: string, private readonly metadata: FileMetaData, private readonly columns: readonly ParquetColumn[], opened: { readonly bytes: number; readonly mtimeMs: number }) {
    this.tree = parquetSchema(metadata);
    this.plans = this.tree.children.map((node, i) => (isFlat(node) && columns[i] !== undefined ? flatPlan(columns[i]!, node.element) : undefined));
    this.schema = schemaOf(columns.map((c) => field(c.name, c.type, c.nullable)));
    this.arrowFields = columns.map((c) => new arrow.Field(c.name, toArrowType(c.type), c.nullable));
    this.description = `parquet ${path}`;
    this.partitions = Math.max(1, metadata.row_groups.length);
    this.numRows = Number(metadata.num_rows);
    let start = 0;
    for (const g of metadata.row_groups) { this.groupStarts.push(start); start += Number(g.num_rows); }
    this.files = [{
      format: 'parquet', path, ...opened, partitions: metadata.row_groups.length, partitionRows: metadata.row_groups.map((g) => Number(g.num_rows)),
      source: this, canSkip: (partition, filters) => this.canSkip(partition, filters),
    }];
  }

  /** Whether the row group's footer statistics prove no row of it passes `filters` (row-group pruning). */
  private canSkip(partition: number, filters: readonly RexNode[] | undefined): boolean {
    const group = this.metadata.row_groups[partition];
    if (group === undefined || Number(group.num_rows) === 0) return true;
    return filters !== undefined && filters.length > 0 && canSkipBlock(rowGroupStats(group, this.columns, nanFreeBounds(this.metadata)), filters);
  }

  /** From the footer's column chunk statistics (read once, kept). */
  statistics(): TableStatistics {
    return (this.stats ??= parquetStatistics(this.metadata, this.columns));
  }

  async *scan(options: ScanOptions): AsyncIterable<arrow.RecordBatch> {
    // Row-group pruning: the footer's statistics prove no row of this group passes a pushed-down filter.
    if (this.canSkip(options.partition, options.filters)) return;
    const group = this.metadata.row_groups[options.partition]!;
    const cols = options.columns ?? this.columns.map((_, i) => i);
    const outSchema = new arrow.Schema(cols.map((c) => this.arrowFields[c]!));
    const batchSize = Math.max(1, options.batchSize | 0);
    const rowStart = this.groupStarts[options.partition]!, rows = Number(group.num_rows);
    const { handle, file } = await openFile(this.path);
    try {
      this.checkAborted(options.signal);
      const names = [...new Set(cols.map((c) => this.columns[c]!.name))];
      let data: arrow.Data[] = [];
      if (names.length > 0) {
        const decoded = new Map<string, arrow.Data>();
        // Flat columns of a known type: decoded page by page into Arrow buffers (parquet-pages.ts).
        const flat = names.map((name) => this.flatChunk(group, name)).filter((c) => c !== undefined);
        const bytes = await readChunks(handle, flat.map((c) => c.range));
        const scratch = new PageScratch();
        for (let i = 0; i < flat.length; i++) {
          this.checkAborted(options.signal);
          const c = flat[i]!;
          try {
            const chunk = { bytes: bytes[i]!, rows, optional: c.col.nullable, decoder: c.decoder };
            decoded.set(c.col.name, decodeFlatChunk(chunk, c.plan(rows, c.uncompressed), scratch));
          } catch (err) {
            throw new ExecutionError(`parquet ${this.path}: cannot read column ${JSON.stringify(c.col.name)} of row group ${options.partition}: ${(err as Error).message}`, { cause: err });
          }
        }
        // The others through hyparquet's generic reader.
        const rest = names.filter((n) => !decoded.has(n));
        const scan = rest.length > 0 ? await parquetScan({ file, metadata: this.metadata, columns: rest, parsers: PARSERS, compressors }) : undefined;
        for (const name of rest) {
          this.checkAborted(options.signal);
          const col = this.columns.find((c) => c.name === name)!;
          let values: DecodedArray;
          try {
            values = await scan!.readColumn({ column: name, rowStart, rowEnd: rowStart + rows });
          } catch (err) {
            throw new ExecutionError(`parquet ${this.path}: cannot read column ${JSON.stringify(name)} of row group ${options.partition}: ${(err as Error).message}`, { cause: err });
          }
          decoded.set(name, toArrow(values, col, rows, this.path));
        }
        data = cols.map((c) => decoded.get(this.columns[c]!.name)!);
        // TIMESTAMP values past eddy's range are an error naming the file, column and row (timestamp-range.ts).
        for (let i = 0; i < cols.length; i++) {
          const col = this.columns[cols[i]!]!;
          if (col.type === 'TIMESTAMP') checkTimestampRange(data[i]!, `parquet ${this.path}, column ${JSON.stringify(col.name)}`, rowStart);
        }
      }
      // A VARCHAR chunk whose pages were all dictionary-encoded arrives as Dictionary<Utf8> (parquet-sinks.ts Utf8Sink).
      const schema = data.some((d, i) => d.type.typeId !== outSchema.fields[i]!.typeId)
        ? new arrow.Schema(outSchema.fields.map((f, i) => (data[i]!.type.typeId === f.typeId ? f : new arrow.Field(f.name, data[i]!.type, f.nullable))))
        : outSchema;
      const whole = makeBatch(schema, data, rows);
      for (let s = 0; s < rows; s += batchSize) {
        this.checkAborted(options.signal);
        yield rows <= batchSize ? whole : sliceBatch(whole, s, Math.min(s + batchSize, rows));
      }
    } finally {
      await handle.close();
    }
  }

  /** The column chunk of `name` in a row group when parquet-pages.ts decodes it, else undefined. */
  private flatChunk(group: RowGroup, name: string): FlatColumnChunk | undefined {
    const i = this.columns.findIndex((c) => c.name === name);
    const plan = this.plans[i], node = this.tree.children[i];
    if (plan === undefined || node === undefined) return undefined;
    const chunk = group.columns.find((c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === name);
    const meta = chunk?.meta_data;
    if (chunk === undefined || meta === undefined || chunk.file_path !== undefined) return undefined;
    const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
    const decoder: ColumnDecoder = { pathInSchema: meta.path_in_schema, type: node.element.type!, element: node.element, schemaPath: [this.tree, node], codec: meta.codec, parsers: PARSERS as ColumnDecoder['parsers'], compressors };
    return { col: this.columns[i]!, plan, decoder, range: [start, start + Number(meta.total_compressed_size)], uncompressed: Number(meta.total_uncompressed_size) };
  }

  private checkAborted(signal: AbortSignal | undefined): void {
    if (signal?.aborted) throw new CancelledError(`scan of ${this.description} cancelled`);
  }
}

/** A column chunk parquet-pages.ts decodes: its column, sink, decoder and byte range in the file. */
interface FlatColumnChunk {
  readonly col: ParquetColumn;
  readonly plan: SinkFactory;
  readonly decoder: ColumnDecoder;
  readonly range: readonly [number, number];
  readonly uncompressed: number;
}

/** A top-level primitive column that is not repeated (no repetition levels, definition level ≤ 1). */
function isFlat(node: SchemaTree): boolean {
  return node.children.length === 0 && node.element.repetition_type !== 'REPEATED' && node.element.type !== undefined;
}

/** Byte ranges closer than this are read together (one read instead of two, the gap's bytes wasted). */
const READ_GAP = 64 * 1024;

/**
 * The bytes of each range, read with as few reads as possible: ranges sorted by offset and merged
 * when the gap between them is small, so reading every column of a row group is one read.
 */
async function readChunks(handle: FileHandle, ranges: readonly (readonly [number, number])[]): Promise<Uint8Array[]> {
  const order = ranges.map((_, i) => i).sort((a, b) => ranges[a]![0] - ranges[b]![0]);
  const out: Uint8Array[] = new Array(ranges.length);
  for (let k = 0; k < order.length;) {
    const start = ranges[order[k]!]![0];
    let end = ranges[order[k]!]![1], last = k + 1;
    while (last < order.length && ranges[order[last]!]![0] - end <= READ_GAP) { end = Math.max(end, ranges[order[last]!]![1]); last++; }
    const buf = new Uint8Array(end - start);
    let done = 0;
    while (done < buf.length) {
      const { bytesRead } = await handle.read(buf, done, buf.length - done, start + done);
      if (bytesRead === 0) throw new ExecutionError(`parquet: the file ends inside a column chunk (at byte ${start + done}); it may be truncated`);
      done += bytesRead;
    }
    for (; k < last; k++) { const [s, e] = ranges[order[k]!]!; out[order[k]!] = buf.subarray(s - start, e - start); }
  }
  return out;
}

/** Converts hyparquet's decoded values (typed array, or array with null) to a canonical column. */
function toArrow(values: DecodedArray, col: ParquetColumn, rows: number, path: string): arrow.Data {
  if (values.length !== rows) {
    throw new ExecutionError(`parquet ${path}: column ${JSON.stringify(col.name)} decoded ${values.length} values for ${rows} rows; the file may be corrupt`);
  }
  // Zero-copy when hyparquet already produced the canonical typed array (no NULLs possible).
  if (col.decimalScale < 0) {
    if (col.type === 'INTEGER' && values instanceof Int32Array) return arrow.makeData({ type: new arrow.Int32(), length: rows, data: values });
    if (col.type === 'BIGINT' && values instanceof BigInt64Array) return arrow.makeData({ type: new arrow.Int64(), length: rows, data: values });
    if (col.type === 'DOUBLE' && values instanceof Float64Array) return arrow.makeData({ type: new arrow.Float64(), length: rows, data: values });
  }
  const b = makeBuilder(col.type, rows);
  fill(b, values, col, path);
  return b.finish();
}

const INT64_MAX = 2n ** 63n - 1n;

function fill(b: ColumnBuilder, values: DecodedArray, col: ParquetColumn, path: string): void {
  const n = values.length;
  const v = values as ArrayLike<unknown>;
  if (b instanceof Int32Builder) {
    for (let i = 0; i < n; i++) { const x = v[i]; if (x === null || x === undefined) b.appendNull(); else b.append(x as number); }
  } else if (b instanceof Float64Builder) {
    if (col.decimalScale > 0) {
      // hyparquet multiplies by 10^-scale; recover the exact unscaled integer and divide once (correctly rounded).
      const p = 10 ** col.decimalScale;
      for (let i = 0; i < n; i++) { const x = v[i]; if (x === null || x === undefined) b.appendNull(); else { const u = Math.round((x as number) * p); b.append(Number.isSafeInteger(u) ? u / p : (x as number)); } }
    } else {
      for (let i = 0; i < n; i++) { const x = v[i]; if (x === null || x === undefined) b.appendNull(); else b.append(Number(x)); }
    }
  } else if (b instanceof Int64Builder) {
    for (let i = 0; i < n; i++) {
      const x = v[i];
      if (x === null || x === undefined) b.appendNull();
      else if (typeof x === 'bigint') {
        if (x > INT64_MAX) throw new ExecutionError(`parquet ${path}: column ${JSON.stringify(col.name)} has unsigned value ${x}, which does not fit BIGINT`);
        b.appendBigInt(x);
      } else b.appendNumber(x as number);
    }
  } else if (b instanceof BoolBuilder) {
    for (let i = 0; i < n; i++) { const x = v[i]; if (x === null || x === undefined) b.appendNull(); else b.append(x as boolean); }
  } else {
    fillText(b, v, col);
  }
}

function fillText(b: Utf8Builder, v: ArrayLike<unknown>, col: ParquetColumn): void {
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x === null || x === undefined) b.appendNull();
    else if (x instanceof Uint8Array) b.appendBytes(x, 0, x.length);
    else if (typeof x === 'string') b.appendString(x);
    else if (col.timeUnitMs > 0) b.appendString(timeText(Number(x) * col.timeUnitMs));
    else b.appendString(JSON.stringify(x, (_k, y: unknown) => (typeof y === 'bigint' ? y.toString() : y instanceof Uint8Array ? new TextDecoder().decode(y) : y)));
  }
}

/** `HH:MM:SS.fff` of milliseconds since midnight. */
function timeText(ms: number): string {
  const p = (n: number, w = 2): string => String(Math.floor(n)).padStart(w, '0');
  return `${p(ms / 3_600_000)}:${p((ms / 60_000) % 60)}:${p((ms / 1000) % 60)}.${p(ms % 1000, 3)}`;
}
