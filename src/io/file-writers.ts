/**
 * Streaming, atomic file writers for COPY ... TO: CSV, newline-delimited
 * JSON and Parquet, fed one record batch at a time (a Parquet writer holds at
 * most one row group). Every writer writes to a temporary file in the target's
 * directory (so the final rename stays on one file system), fsyncs it and
 * renames it over the target when `finish` is called; `abort` (or an error in
 * `finish`) removes the temporary file. A reader never sees a half-written
 * file, and a failed COPY leaves an existing target untouched.
 *
 * Parquet needs hyparquet-writer at run time (imported on first use).
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import { ExecutionError, ValidationError } from '../relnode/errors.js';
import type { Schema, SqlType } from '../relnode/types.js';
import { parquetCodec, type ParquetWriteCodec } from './parquet-compress.js';
import { csvFormatter, dateText, PARQUET_ELEMENT, timestampText, valueReader } from './write.js';

/** Writes batches to one file; `finish` makes the file appear, `abort` discards it. */
export interface BatchWriter {
  write(batch: RecordBatch): Promise<void>;
  /** Flushes, fsyncs and renames the temporary file onto the target. */
  finish(): Promise<void>;
  /** Removes the temporary file (safe to call after a failed write or finish). */
  abort(): Promise<void>;
}

/** File formats COPY writes. */
export type WriteFormat = 'csv' | 'json' | 'parquet';

/** Options of the writers; each format uses its own and ignores none silently (COPY validates them). */
export interface WriterOptions {
  /** CSV: write a header line (default true). */
  readonly header?: boolean;
  /** CSV: one-character field delimiter (default ','). */
  readonly delimiter?: string;
  /** JSON: write one JSON array instead of one object per line (default false). */
  readonly array?: boolean;
  /** Parquet: page compression (default snappy, as DuckDB; parquet-compress.ts says which codecs this runtime writes). */
  readonly compression?: ParquetWriteCodec;
  /** Parquet: rows per row group (default 122880, DuckDB's). */
  readonly rowGroupSize?: number;
}

/** A temporary file next to `path`, written through a FileHandle. */
class TempFile {
  private constructor(readonly target: string, readonly path: string, private handle: FileHandle | undefined) {}

  static async create(target: string): Promise<TempFile> {
    const path = join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    try {
      return new TempFile(target, path, await open(path, 'wx'));
    } catch (err) {
      throw new ExecutionError(`cannot write ${target}: ${(err as Error).message}`, { cause: err });
    }
  }

  async write(chunk: string | Uint8Array): Promise<void> {
    if (this.handle === undefined) throw new ExecutionError(`write to ${this.target} after it was closed`);
    await this.handle.writeFile(chunk); // writes all of it, from the current position
  }

  async commit(): Promise<void> {
    const h = this.handle;
    if (h === undefined) throw new ExecutionError(`${this.target} was already closed`);
    await h.sync();
    await h.close();
    this.handle = undefined;
    await rename(this.path, this.target);
  }

  async discard(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    await h?.close().catch(() => undefined);
    await rm(this.path, { force: true });
  }
}

/** Opens a writer of `format` for rows of `schema` at `path` (the file appears on finish). */
export async function openBatchWriter(path: string, format: WriteFormat, schema: Schema, options: WriterOptions = {}): Promise<BatchWriter> {
  if (format === 'parquet') return parquetWriter(path, schema, options);
  const file = await TempFile.create(path);
  const lines = format === 'csv' ? csvLines(schema, options) : jsonLines(schema, options);
  let first = true;
  return {
    async write(batch) {
      const head = first ? lines.head : '';
      first = false;
      await file.write(head + lines.body(batch));
    },
    async finish() {
      try {
        await file.write((first ? lines.head : '') + lines.tail);
        await file.commit();
      } catch (err) {
        await file.discard();
        throw err;
      }
    },
    abort: () => file.discard(),
  };
}

interface Lines { readonly head: string; body(b: RecordBatch): string; readonly tail: string }

function csvLines(schema: Schema, options: WriterOptions): Lines {
  const delim = options.delimiter ?? ',';
  if (delim.length !== 1 || delim === '"' || delim === '\n' || delim === '\r') throw new ValidationError(`csv delimiter must be one character other than a quote or line break, got ${JSON.stringify(delim)}`);
  const formats = schema.fields.map((f) => csvFormatter(f.type, delim));
  const quoteName = (n: string): string => (n.includes(delim) || /["\r\n]/.test(n) ? `"${n.replace(/"/g, '""')}"` : n);
  const head = options.header ?? true ? `${schema.fields.map((f) => quoteName(f.name)).join(delim)}\n` : '';
  return {
    head,
    tail: '',
    body(b) {
      const readers = b.data.children.map(valueReader);
      const out: string[] = [];
      for (let i = 0; i < b.numRows; i++) {
        let line = '';
        for (let k = 0; k < readers.length; k++) {
          const v = readers[k]!(i);
          if (k > 0) line += delim;
          if (v !== null) line += formats[k]!(v);
        }
        out.push(line, '\n');
      }
      return out.join('');
    },
  };
}

function jsonValue(type: SqlType): (v: unknown) => string {
  switch (type) {
    case 'DATE': return (v) => `"${dateText(v as number)}"`;
    case 'TIMESTAMP': return (v) => `"${timestampText(Number(v))}"`;
    case 'BIGINT': return (v) => String(v);
    default: return (v) => JSON.stringify(v) ?? 'null';
  }
}

function jsonLines(schema: Schema, options: WriterOptions): Lines {
  const keys = schema.fields.map((f) => `${JSON.stringify(f.name)}:`);
  const formats = schema.fields.map((f) => jsonValue(f.type));
  const array = options.array ?? false;
  let rowsSoFar = 0;
  return {
    head: array ? '[\n' : '',
    tail: array ? '\n]\n' : '',
    body(b) {
      const readers = b.data.children.map(valueReader);
      const out: string[] = [];
      for (let i = 0; i < b.numRows; i++) {
        let obj = '{';
        for (let k = 0; k < readers.length; k++) {
          const v = readers[k]!(i);
          obj += `${k > 0 ? ',' : ''}${keys[k]}${v === null ? 'null' : formats[k]!(v)}`;
        }
        if (array) out.push(rowsSoFar++ > 0 ? ',\n' : '', obj, '}');
        else out.push(obj, '}\n');
      }
      return out.join('');
    },
  };
}

/** The ByteWriter hyparquet-writer encodes into, flushed to the temporary file after each row group. */
async function parquetWriter(path: string, schema: Schema, options: WriterOptions): Promise<BatchWriter> {
  let mod: typeof import('hyparquet-writer');
  try {
    mod = await import('hyparquet-writer');
  } catch (err) {
    throw new ExecutionError('writing parquet needs the hyparquet-writer package; install it (npm install hyparquet-writer)', { cause: err });
  }
  const groupRows = options.rowGroupSize ?? 122_880;
  if (!Number.isInteger(groupRows) || groupRows < 1) throw new ValidationError(`ROW_GROUP_SIZE must be a positive whole number, got ${groupRows}`);
  const codec = parquetCodec(options.compression ?? 'snappy'); // before the temporary file: a codec this runtime cannot write leaves nothing behind
  const file = await TempFile.create(path);
  const bytes = new mod.ByteWriter();
  const flush = async (): Promise<void> => {
    if (bytes.index === 0) return;
    await file.write(new Uint8Array(bytes.buffer, 0, bytes.index).slice());
    bytes.index = 0;
  };
  const elements = [
    { name: 'root', num_children: schema.fields.length },
    ...schema.fields.map((f) => ({ name: f.name, ...PARQUET_ELEMENT[f.type], repetition_type: 'OPTIONAL' as const })),
  ];
  const writer = new mod.ParquetWriter({ writer: bytes, schema: elements, ...codec, createdBy: 'eddy' });
  let columns: unknown[][] = schema.fields.map(() => []);
  let pending = 0;
  const writeGroup = async (): Promise<void> => {
    if (pending === 0) return;
    await writer.write({ columnData: schema.fields.map((f, k) => ({ name: f.name, data: columns[k]! })), rowGroupSize: pending });
    columns = schema.fields.map(() => []);
    pending = 0;
    await flush();
  };
  return {
    async write(batch) {
      const readers = batch.data.children.map(valueReader);
      for (let i = 0; i < batch.numRows; i++) {
        for (let k = 0; k < readers.length; k++) columns[k]!.push(readers[k]!(i));
        if (++pending >= groupRows) await writeGroup();
      }
    },
    async finish() {
      try {
        await writeGroup();
        writer.finish();
        await flush();
        await file.commit();
      } catch (err) {
        await file.discard();
        throw err;
      }
    },
    abort: () => file.discard(),
  };
}
