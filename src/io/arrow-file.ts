/**
 * Arrow IPC source: the file format (magic `ARROW1`, random access through
 * the footer) or the stream format, read with apache-arrow's async
 * RecordBatchReader over a FileHandle, so only one record batch is in memory
 * at a time. Columns are normalized to canonical types and projected by
 * selecting children.
 *
 * Every file is validated as it is read (ipc-framing once per file, ipc-check
 * on each message): a damaged file fails with CorruptIpcError naming the file
 * and what is wrong instead of reading as different rows.
 *
 * Dictionaries: each scan opens its own reader (one per partition), and each reader builds its
 * own dictionary objects from the file's dictionary batch. Operators keep per-dictionary state
 * (interned ids, string-test results, sort ranks), so every partition's copy was interned and
 * tested again — 64 times for a 64-batch file, and again on every query. The source keeps the
 * first dictionary it meets per column and points the batches of later readers at it when their
 * dictionary holds the same strings (one pass over its bytes per reader and column, remembered per
 * dictionary object; exec/dictionary-unify.ts sameStrings); a dictionary that differs (a delta or
 * replaced dictionary batch) is left as it is.
 *
 * With shared column memory (an environment at parallelism > 1: io/column-memory.ts) the
 * message bodies are read into SharedArrayBuffers (ipc-shared-bodies.ts), so the batches'
 * columns — views into their bodies — are in shared memory: a table collected from the file
 * and registered ships to worker threads with no copy.
 */
import { open, type FileHandle } from 'node:fs/promises';
import * as arrow from 'apache-arrow';
import { CancelledError, EddyError, ExecutionError } from '../relnode/errors.js';
import type { Schema } from '../relnode/types.js';
import { canonicalBatch, canonicalSchema, sliceBatch } from './canonical.js';
import { makeBatch } from './columns.js';
import { guardIpcReader } from './ipc-check.js';
import { checkIpcFooter, checkIpcFraming, type FooterLike } from './ipc-framing.js';
import type { ScanOptions, TableSource } from './source.js';
import { partitionRange } from './partition-range.js';
import { HEAP_MEMORY, type ColumnMemory } from './column-memory.js';
import { readBodiesInto } from './ipc-shared-bodies.js';
import { sameStrings } from '../exec/dictionary-unify.js';
import { dictionaryData } from '../exec/arrow-build.js';
import { dictionaryStrings, dictionaryValues } from '../exec/batch-concat.js';

const MAX_PARTITIONS = 64;

/** Opens the file, naming it in the error. */
async function openFile(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (err) {
    throw new ExecutionError(`cannot open arrow file ${path}: ${(err as Error).message}`, { cause: err });
  }
}

async function openReader(path: string, memory: ColumnMemory = HEAP_MEMORY): Promise<{ handle: FileHandle; reader: arrow.AsyncRecordBatchFileReader | arrow.AsyncRecordBatchStreamReader }> {
  const handle = await openFile(path);
  try {
    const reader = await arrow.RecordBatchReader.from(handle);
    guardIpcReader(reader, `arrow ${path}`);
    readBodiesInto(reader, handle, memory);
    await reader.open({ autoDestroy: false });
    return { handle, reader };
  } catch (err) {
    await handle.close().catch(() => undefined);
    if (err instanceof EddyError) throw err;
    throw new ExecutionError(`arrow ${path}: not a readable Arrow IPC file or stream: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * An Arrow IPC file or stream as a table source. File format: one partition
 * per record batch (at most 64, each a contiguous range of them: partition-range.ts);
 * stream format: one partition. `memory` holds the batches' bodies (see the header).
 */
export async function arrowFileSource(path: string, memory: ColumnMemory = HEAP_MEMORY): Promise<TableSource> {
  const what = `arrow ${path}`;
  await checkFraming(path, what);
  const { handle, reader } = await openReader(path);
  try {
    const { schema, arrowSchema } = canonicalSchema(reader.schema, what);
    const batches = reader.isFile() ? reader.numRecordBatches : 0;
    return new ArrowFileSource(path, schema, arrowSchema, reader.isFile(), batches, memory);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Validates the file's framing (and footer) before the reader trusts any of it. */
async function checkFraming(path: string, what: string): Promise<void> {
  const handle = await openFile(path);
  try {
    const { size } = await handle.stat();
    const framing = await checkIpcFraming(handle, size, what);
    if (!framing.isFile) return;
    const reader = await arrow.RecordBatchReader.from(handle);
    guardIpcReader(reader, what);
    await reader.open({ autoDestroy: false });
    if (!reader.isFile()) throw new ExecutionError(`${what}: not read as an Arrow IPC file`);
    checkIpcFooter(framing, reader.footer as unknown as FooterLike, what);
  } catch (err) {
    if (err instanceof EddyError) throw err;
    throw new ExecutionError(`${what}: not a readable Arrow IPC file or stream: ${(err as Error).message}`, { cause: err });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

class ArrowFileSource implements TableSource {
  readonly description: string;
  readonly partitions: number;
  /** Per column of the file: the first dictionary met (see the header). */
  private readonly dictionaries = new Map<number, arrow.Vector>();
  /** A reader's dictionary → the column's shared one, or null when its strings differ. */
  private readonly sharedOf = new WeakMap<arrow.Vector, arrow.Vector | null>();

  constructor(
    private readonly path: string,
    readonly schema: Schema,
    private readonly arrowSchema: arrow.Schema,
    private readonly isFile: boolean,
    private readonly numBatches: number,
    private readonly memory: ColumnMemory,
  ) {
    this.description = `arrow ${path}`;
    this.partitions = isFile ? Math.max(1, Math.min(numBatches, MAX_PARTITIONS)) : 1;
  }

  async *scan(options: ScanOptions): AsyncIterable<arrow.RecordBatch> {
    const cols = options.columns;
    const outSchema = cols === undefined ? this.arrowSchema : new arrow.Schema(cols.map((c) => this.arrowSchema.fields[c]!));
    const batchSize = Math.max(1, options.batchSize | 0);
    const { handle, reader } = await openReader(this.path, this.memory);
    try {
      const batches = this.isFile && reader.isFile()
        ? this.fileBatches(reader as arrow.AsyncRecordBatchFileReader, options.partition)
        : reader;
      for await (const raw of batches) {
        this.checkAborted(options.signal);
        if (raw.numRows === 0) continue;
        const b = this.shareDictionaries(canonicalBatch(raw, this.arrowSchema, this.description));
        const projected = cols === undefined ? b : makeBatch(outSchema, cols.map((c) => b.data.children[c]!), b.numRows);
        if (projected.numRows <= 4 * batchSize) {
          yield projected;
          continue;
        }
        for (let start = 0; start < projected.numRows; start += batchSize) {
          yield sliceBatch(projected, start, Math.min(start + batchSize, projected.numRows));
          this.checkAborted(options.signal);
        }
      }
    } catch (err) {
      if (err instanceof EddyError) throw err;
      throw new ExecutionError(`${this.description}: cannot read a record batch (the file is damaged?): ${(err as Error).message}`, { cause: err });
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /** `b` with each dictionary column pointed at the column's shared dictionary (see the header). */
  private shareDictionaries(b: arrow.RecordBatch): arrow.RecordBatch {
    const children = b.data.children;
    let out: arrow.Data[] | undefined;
    for (let c = 0; c < children.length; c++) {
      const d = children[c]!;
      const v = d.dictionary as arrow.Vector | undefined;
      if (v === undefined || !arrow.DataType.isDictionary(d.type) || !arrow.DataType.isUtf8((d.type as arrow.Dictionary).dictionary)) continue;
      let shared = this.sharedOf.get(v);
      if (shared === undefined) {
        const first = this.dictionaries.get(c);
        if (first === undefined) { this.dictionaries.set(c, v); shared = v; }
        else shared = first === v || sameStrings(dictionaryValues(d), dictionaryStrings(first)) ? first : null;
        this.sharedOf.set(v, shared);
      }
      if (shared === null || shared === v) continue;
      out ??= [...children];
      out[c] = dictionaryData(d.type as arrow.Dictionary, d.length, d.nullCount, d.nullBitmap, d.values, shared, d.offset);
    }
    return out === undefined ? b : makeBatch(b.schema, out, b.numRows);
  }

  private async *fileBatches(reader: arrow.AsyncRecordBatchFileReader, partition: number): AsyncIterable<arrow.RecordBatch> {
    const { start, end } = partitionRange(partition, this.partitions, this.numBatches);
    for (let i = start; i < end; i++) {
      const b = await reader.readRecordBatch(i);
      if (b === null) throw new ExecutionError(`${this.description}: record batch ${i} listed in the footer cannot be read`);
      yield b;
    }
  }

  private checkAborted(signal: AbortSignal | undefined): void {
    if (signal?.aborted) throw new CancelledError(`scan of ${this.description} cancelled`);
  }
}
