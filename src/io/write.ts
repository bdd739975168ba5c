/**
 * File writers for tests and benchmarks: CSV, Parquet and Arrow IPC from an
 * Arrow table or batches (any column types; they are normalized first).
 *
 * `writeParquet` imports hyparquet-writer (a devDependency) dynamically, so
 * production code that never writes Parquet does not need it installed.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import * as arrow from 'apache-arrow';
import { ExecutionError } from '../relnode/errors.js';
import type { SqlType } from '../relnode/types.js';
import { canonicalBatch, canonicalSchema } from './canonical.js';
import { formatDate, formatTimestamp } from '../exec/kernels/datetime.js';

/** An Arrow table or a list of batches sharing one schema. */
export type TableLike = arrow.Table | readonly arrow.RecordBatch[];

/** Options of `writeCsv`. */
export interface WriteCsvOptions {
  /** Write a header line (default true). */
  readonly header?: boolean;
  /** Field delimiter (default ','). */
  readonly delimiter?: string;
}

interface Canonical { readonly names: string[]; readonly types: SqlType[]; readonly batches: arrow.RecordBatch[]; readonly arrowSchema: arrow.Schema }

function canonical(data: TableLike, what: string): Canonical {
  const batches = Array.isArray(data) ? (data as readonly arrow.RecordBatch[]) : (data as arrow.Table).batches;
  const schema = Array.isArray(data) ? batches[0]?.schema : (data as arrow.Table).schema;
  if (schema === undefined) throw new ExecutionError(`${what}: no batches and no schema to write`);
  const c = canonicalSchema(schema, what);
  return {
    names: c.schema.fields.map((f) => f.name),
    types: c.schema.fields.map((f) => f.type),
    batches: batches.map((b) => canonicalBatch(b, c.arrowSchema, what)),
    arrowSchema: c.arrowSchema,
  };
}

/** Reads row i of a canonical column (Arrow slice semantics: values pre-sliced, bits at offset + i) as a JS value (null for NULL; bigint for BIGINT/TIMESTAMP ms; days for DATE). */
export function valueReader(d: arrow.Data): (i: number) => unknown {
  const off = d.offset;
  const bm = d.nullCount > 0 ? d.nullBitmap : undefined;
  const valid = (i: number): boolean => bm === undefined || (bm[(off + i) >> 3]! & (1 << ((off + i) & 7))) !== 0;
  const t = d.type;
  if (arrow.DataType.isDictionary(t)) {
    const dict = d.dictionary!;
    const codes = d.values as Int32Array;
    return (i) => (valid(i) ? dict.get(codes[i]!) : null);
  }
  if (t.typeId === arrow.Type.Utf8) {
    const offsets = d.valueOffsets as Int32Array, bytes = d.values as Uint8Array;
    const dec = new TextDecoder();
    return (i) => (valid(i) ? dec.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!)) : null);
  }
  if (t.typeId === arrow.Type.Bool) {
    const bits = d.values as Uint8Array;
    return (i) => (valid(i) ? (bits[(off + i) >> 3]! & (1 << ((off + i) & 7))) !== 0 : null);
  }
  if (t.typeId === arrow.Type.Null) return () => null;
  const vals = d.values as ArrayLike<number | bigint>;
  return (i) => (valid(i) ? vals[i]! : null);
}

/** A DATE as DuckDB writes it (and eddy's readers read it back): `YYYY-MM-DD`, a 5+ digit year in full, ` (BC)` after years before 1. */
export function dateText(days: number): string {
  return formatDate(days);
}

/** A TIMESTAMP as DuckDB writes it: `YYYY-MM-DD[ (BC)] HH:MM:SS[.f]` (UTC; the fraction without trailing zeros). */
export function timestampText(ms: number): string {
  return formatTimestamp(ms);
}

/** Formats one non-NULL value of a canonical column for CSV (ISO dates, quoting when needed). */
export function csvFormatter(type: SqlType, delimiter: string): (v: unknown) => string {
  switch (type) {
    case 'DATE': return (v) => dateText(v as number);
    case 'TIMESTAMP': return (v) => timestampText(Number(v));
    case 'DOUBLE': return (v) => String(v);
    case 'VARCHAR': {
      const special = new RegExp(`["\\r\\n${delimiter.replace(/[\\^\]-]/g, '\\$&')}]`);
      return (v) => {
        const s = v as string;
        return s === '' || special.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
      };
    }
    default: return (v) => String(v);
  }
}

async function writeChunks(out: WriteStream, chunks: AsyncIterable<string> | Iterable<string>): Promise<void> {
  async function* gen(): AsyncIterable<string> { yield* chunks; }
  await pipeline(gen, out);
}

/** Writes a CSV file (NULL as an empty field; empty strings as `""`; ISO dates and timestamps). */
export async function writeCsv(path: string, data: TableLike, options: WriteCsvOptions = {}): Promise<void> {
  const c = canonical(data, `writeCsv ${path}`);
  const delim = options.delimiter ?? ',';
  const formats = c.types.map((t) => csvFormatter(t, delim));
  function* lines(): Iterable<string> {
    if (options.header ?? true) yield c.names.map((n) => (n.includes(delim) || /["\r\n]/.test(n) ? `"${n.replace(/"/g, '""')}"` : n)).join(delim) + '\n';
    for (const b of c.batches) {
      const readers = b.data.children.map(valueReader);
      let chunk = '';
      for (let i = 0; i < b.numRows; i++) {
        let line = '';
        for (let k = 0; k < readers.length; k++) {
          const v = readers[k]!(i);
          if (k > 0) line += delim;
          if (v !== null) line += formats[k]!(v);
        }
        chunk += line + '\n';
        if (chunk.length > 1 << 16) { yield chunk; chunk = ''; }
      }
      if (chunk) yield chunk;
    }
  }
  await writeChunks(createWriteStream(path), lines());
}

/** Writes an Arrow IPC file (`format: 'file'`, the default) or stream (`'stream'`). */
export async function writeArrowFile(path: string, data: TableLike, options: { readonly format?: 'file' | 'stream' } = {}): Promise<void> {
  const batches = Array.isArray(data) ? (data as readonly arrow.RecordBatch[]) : (data as arrow.Table).batches;
  const schema = Array.isArray(data) ? batches[0]?.schema : (data as arrow.Table).schema;
  if (schema === undefined) throw new ExecutionError(`writeArrowFile ${path}: no batches and no schema to write`);
  const writer = options.format === 'stream' ? new arrow.RecordBatchStreamWriter() : new arrow.RecordBatchFileWriter();
  const done = pipeline(writer.toNodeStream(), createWriteStream(path));
  writer.reset(undefined, schema);
  for (const b of batches) writer.write(b);
  writer.finish();
  await done;
}

/** The Parquet schema element of each column type. */
export const PARQUET_ELEMENT: Record<SqlType, { type: 'BOOLEAN' | 'INT32' | 'INT64' | 'DOUBLE' | 'BYTE_ARRAY'; converted_type?: 'UTF8' | 'DATE' | 'TIMESTAMP_MILLIS' }> = {
  BOOLEAN: { type: 'BOOLEAN' },
  INTEGER: { type: 'INT32' },
  BIGINT: { type: 'INT64' },
  DOUBLE: { type: 'DOUBLE' },
  VARCHAR: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  DATE: { type: 'INT32', converted_type: 'DATE' },
  TIMESTAMP: { type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' },
  NULL: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
};

/**
 * Writes a Parquet file with hyparquet-writer (loaded on demand; a devDependency).
 * `rowGroupSize` sets the rows per row group (default 100000). Holds the data as JS arrays while writing.
 */
export async function writeParquet(path: string, data: TableLike, options: { readonly rowGroupSize?: number } = {}): Promise<void> {
  let mod: typeof import('hyparquet-writer');
  try {
    mod = await import('hyparquet-writer');
  } catch (err) {
    throw new ExecutionError(`writeParquet needs the hyparquet-writer package (a devDependency of eddy); install it to write parquet files`, { cause: err });
  }
  const c = canonical(data, `writeParquet ${path}`);
  const columns: unknown[][] = c.names.map(() => []);
  for (const b of c.batches) {
    b.data.children.forEach((d, k) => {
      const read = valueReader(d);
      const out = columns[k]!;
      for (let i = 0; i < b.numRows; i++) out.push(read(i));
    });
  }
  const schema = [
    { name: 'root', num_children: c.names.length },
    ...c.names.map((name, k) => ({ name, ...PARQUET_ELEMENT[c.types[k]!], repetition_type: 'OPTIONAL' as const })),
  ];
  mod.parquetWriteFile({
    filename: path,
    columnData: c.names.map((name, k) => ({ name, data: columns[k]! as unknown[] })),
    schema,
    rowGroupSize: options.rowGroupSize ?? 100_000,
  });
}
