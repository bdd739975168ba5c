/**
 * Newline-delimited JSON source: one object per line. Construction samples
 * the first lines for column names (keys in first-seen order) and types;
 * scans stream the file in chunks, JSON.parse each line and fill typed-array
 * builders column by column.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import * as arrow from 'apache-arrow';
import { CancelledError, ExecutionError, ValidationError } from '../relnode/errors.js';
import { isPrototypeKey } from '../relnode/name-keys.js';
import { commonType, field, schemaOf, toArrowType, type Schema, type SqlType } from '../relnode/types.js';
import { BoolBuilder, Float64Builder, Int32Builder, Int64Builder, makeBatch, makeBuilder, Utf8Builder, type ColumnBuilder } from './columns.js';
import { asciiInto, expectedText, givenTypes, parseDate, parseTimestamp, TypeInference } from './infer.js';
import { parseJsonExact, stringifyExact } from './json-exact.js';
import type { ScanOptions, TableSource } from './source.js';

/** Options of `jsonSource`. */
export interface JsonOptions {
  /** A full Schema (keys and types), or types of some keys by name (others inferred). */
  readonly schema?: Schema | Readonly<Record<string, SqlType | string>>;
  /** Lines read to infer keys and types (default 10000). */
  readonly sampleRows?: number;
}

const CHUNK = 1 << 20;
const DEFAULT_SAMPLE_ROWS = 10_000;

type Row = Record<string, unknown>;

/** Streams the parsed objects of an NDJSON file with their 1-based line numbers. */
async function* jsonLines(path: string, signal?: AbortSignal): AsyncGenerator<[Row, number]> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new ExecutionError(`cannot open json file ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    // Fatal: invalid UTF-8 is an error naming the line (DuckDB's choice), not silently replaced by U+FFFD.
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry = '', line = 0, eof = false;
    while (!eof) {
      if (signal?.aborted) throw new CancelledError(`scan of json ${path} cancelled`);
      const { bytesRead } = await handle.read(buf, 0, CHUNK, null);
      let text: string;
      try {
        if (bytesRead === 0) { eof = true; text = carry + decoder.decode(); } else text = carry + decoder.decode(buf.subarray(0, bytesRead), { stream: true });
      } catch {
        const shown = carry + new StringDecoder('utf8').write(buf.subarray(0, bytesRead));
        const at = shown.indexOf('\ufffd');
        const bad = line + 1 + (at < 0 ? 0 : shown.slice(0, at).split('\n').length - 1);
        throw new ExecutionError(`json ${path}: line ${bad}: invalid UTF-8; the file must be UTF-8 encoded (convert it, e.g. with iconv)`);
      }
      let s = 0;
      for (;;) {
        let e = text.indexOf('\n', s);
        if (e < 0) {
          if (!eof) break;
          e = text.length;
          if (s >= e) break;
        }
        line++;
        const body = text.slice(s, e).trim();
        s = e + 1;
        if (body === '') continue;
        let v: unknown;
        try {
          v = parseJsonExact(body);
        } catch (err) {
          throw new ExecutionError(`json ${path}: line ${line}: malformed JSON (${(err as Error).message}); expected one JSON object per line`);
        }
        if (v === null || typeof v !== 'object' || Array.isArray(v)) {
          throw new ExecutionError(`json ${path}: line ${line}: expected a JSON object, found ${Array.isArray(v) ? 'an array' : JSON.stringify(v)}; each line must be one object`);
        }
        yield [v as Row, line];
      }
      carry = s < text.length ? text.slice(s) : '';
    }
  } finally {
    await handle.close();
  }
}

/** A newline-delimited JSON file as a table source (one partition). */
export async function jsonSource(path: string, options: JsonOptions = {}): Promise<TableSource> {
  const what = `json ${path}`;
  const sampleRows = Math.max(1, options.sampleRows ?? DEFAULT_SAMPLE_ROWS);
  const given = options.schema;
  if (given !== undefined && Array.isArray((given as Schema).fields)) {
    const fields = (given as Schema).fields.map((f) => (f.type === 'NULL' ? { ...f, type: 'VARCHAR' as const } : f));
    return new JsonSource(path, schemaOf(fields), fields.map(() => undefined));
  }
  const names: string[] = [];
  const index = new Map<string, number>();
  const inf: TypeInference[] = [];
  let seen = 0;
  for await (const [row] of jsonLines(path)) {
    for (const k in row) {
      let c = index.get(k);
      if (c === undefined) { c = names.length; index.set(k, c); names.push(k); inf.push(new TypeInference()); }
      inf[c]!.observeJson(row[k]);
    }
    if (++seen >= sampleRows) break;
  }
  if (names.length === 0) throw new ValidationError(`${what}: found no JSON objects with keys in the first ${sampleRows} lines; pass a schema`);
  const types = givenTypes(what, names, given);
  const fields = names.map((n, c) => field(n, types[c] ?? inf[c]!.type, true));
  return new JsonSource(path, schemaOf(fields), types.map((t) => (t === undefined ? sampleRows : undefined)), sampleRows);
}

class JsonSource implements TableSource {
  readonly description: string;
  readonly partitions = 1;
  private readonly arrowFields: arrow.Field[];

  /**
   * `keysFrom`: the columns are the keys of the first `keysFrom` lines, and a
   * later line with another key fails (as DuckDB's read_json does) instead of
   * losing it; undefined when a full schema was given (other keys are ignored).
   */
  constructor(
    private readonly path: string,
    readonly schema: Schema,
    private readonly inferredFrom: readonly (number | undefined)[],
    private readonly keysFrom?: number,
  ) {
    this.description = `json ${path}`;
    this.arrowFields = schema.fields.map((f) => new arrow.Field(f.name, toArrowType(f.type === 'NULL' ? 'VARCHAR' : f.type), f.nullable));
  }

  async *scan(options: ScanOptions): AsyncIterable<arrow.RecordBatch> {
    const cols = options.columns ?? this.schema.fields.map((_, i) => i);
    const batchSize = Math.max(1, options.batchSize | 0);
    const outSchema = new arrow.Schema(cols.map((c) => this.arrowFields[c]!));
    const builders = cols.map((c) => makeBuilder(this.schema.fields[c]!.type, batchSize));
    const rows: Row[] = [];
    const lines: number[] = [];
    const flush = (): arrow.RecordBatch => {
      if (options.signal?.aborted) throw new CancelledError(`scan of ${this.description} cancelled`);
      cols.forEach((c, k) => this.fillColumn(rows, lines, c, builders[k]!));
      const batch = makeBatch(outSchema, builders.map((b) => b.finish()), rows.length);
      rows.length = 0;
      lines.length = 0;
      return batch;
    };
    const known = new Set(this.schema.fields.map((f) => f.name));
    for await (const [row, line] of jsonLines(this.path, options.signal)) {
      if (this.keysFrom !== undefined) {
        for (const k in row) if (!known.has(k)) this.unknownKey(k, line);
      }
      rows.push(row);
      lines.push(line);
      if (rows.length >= batchSize) yield flush();
    }
    if (rows.length > 0) yield flush();
  }

  /** Column c of every row into b: one loop per type. */
  private fillColumn(rows: readonly Row[], lines: readonly number[], c: number, b: ColumnBuilder): void {
    const f = this.schema.fields[c]!;
    const name = f.name;
    // A column named like an Object.prototype member reads the row's own property only (name-keys.ts).
    if (isPrototypeKey(name)) rows = rows.map((r) => (Object.hasOwn(r, name) ? r : { ...r, [name]: undefined }));
    const bad = (i: number): never => this.badValue(rows[i]![name], lines[i]!, c);
    const n = rows.length;
    if (b instanceof Utf8Builder) {
      for (let i = 0; i < n; i++) {
        const v = rows[i]![name];
        if (v === null || v === undefined) b.appendNull();
        else b.appendString(typeof v === 'string' ? v : stringifyExact(v));
      }
    } else if (b instanceof Float64Builder) {
      for (let i = 0; i < n; i++) {
        const v = rows[i]![name];
        if (v === null || v === undefined) b.appendNull();
        else if (typeof v === 'number') b.append(v);
        else if (typeof v === 'bigint') b.append(Number(v));
        else bad(i);
      }
    } else if (b instanceof BoolBuilder) {
      for (let i = 0; i < n; i++) {
        const v = rows[i]![name];
        if (v === null || v === undefined) b.appendNull();
        else if (typeof v === 'boolean') b.append(v);
        else bad(i);
      }
    } else if (b instanceof Int32Builder) {
      const date = f.type === 'DATE';
      for (let i = 0; i < n; i++) {
        const v = rows[i]![name];
        if (v === null || v === undefined) { b.appendNull(); continue; }
        const x = date ? textValue(v, parseDate) : typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 ? v : NaN;
        if (x !== x) bad(i);
        b.append(x);
      }
    } else {
      const ts = f.type === 'TIMESTAMP';
      for (let i = 0; i < n; i++) {
        const v = rows[i]![name];
        if (v === null || v === undefined) { b.appendNull(); continue; }
        if (!ts && typeof v === 'bigint') {
          if (v < -(2n ** 63n) || v >= 2n ** 63n) bad(i);
          b.appendBigInt(v);
          continue;
        }
        const x = ts ? textValue(v, parseTimestamp) : typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? v : NaN;
        if (x !== x) bad(i);
        if (Number.isSafeInteger(x)) b.appendNumber(x); else b.appendBigInt(BigInt(x));
      }
    }
  }

  private unknownKey(key: string, line: number): never {
    throw new ExecutionError(`json ${this.path}: line ${line}: key ${JSON.stringify(key)} is not a column; the columns are the keys found in the first ${this.keysFrom} lines. Pass a larger sampleRows, or a schema that lists every column (keys not in a given schema are ignored).`);
  }

  private badValue(v: unknown, line: number, c: number): never {
    const f = this.schema.fields[c]!;
    const shown = stringifyExact(v);
    const text = shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
    const from = this.inferredFrom[c];
    const inf = new TypeInference();
    inf.observeJson(v);
    const common = commonType(f.type, inf.type);
    const better = common === undefined || common === f.type ? 'VARCHAR' : common;
    const advice = from !== undefined
      ? `The type ${f.type} was inferred from the first ${from} lines; pass a schema or a larger sampleRows (e.g. schema: { ${JSON.stringify(f.name)}: '${better}' }).`
      : `The type ${f.type} comes from the given schema; fix the value or give the column a type that accepts it (e.g. ${better}).`;
    throw new ExecutionError(`json ${this.path}: line ${line}, column ${c + 1} (${JSON.stringify(f.name)}): cannot read ${text} as ${f.type}; expected ${expectedText(f.type)}. ${advice}`);
  }
}

const scratch = new Uint8Array(64);

/** A DATE/TIMESTAMP from a JSON string; NaN for anything else. */
function textValue(v: unknown, parse: (b: Uint8Array, s: number, e: number) => number): number {
  if (typeof v !== 'string') return NaN;
  const n = asciiInto(v, scratch);
  return n < 0 ? NaN : parse(scratch, 0, n);
}

