/**
 * CSV file source. Construction reads the first record and a sample of rows
 * to infer column types; every scan re-opens the file and streams it through
 * the tokenizer (csv-tokenizer.ts), decoding only the requested columns
 * straight into typed-array builders (csv-columns.ts).
 *
 * Header detection (no `header` option), as DuckDB's sniffer: the types are
 * inferred from the rows after the first; the first row is a header when
 * every column is VARCHAR, or when one of its values does not fit its
 * column's type (`a,b` over numbers). A file of one row is a header only when
 * all its values are text. `skip` drops raw lines first; `ignoreErrors` drops
 * records with the wrong field count or an unreadable value
 * (csv-ignore-errors.ts) instead of failing.
 */
import * as arrow from 'apache-arrow';
import { ValidationError } from '../relnode/errors.js';
import { commonType, field, schemaOf, toArrowType, type Field, type Schema, type SqlType } from '../relnode/types.js';
import { makeBatch, makeBuilder } from './columns.js';
import { decodeCsvColumn, fieldText, type CsvColumnContext } from './csv-columns.js';
import { dropBadRecords } from './csv-ignore-errors.js';
import { sniffDelimiter } from './csv-sniff.js';
import { CsvTokenizer, type CsvRound } from './csv-tokenizer.js';
import { givenTypes, TypeInference, uniqueNames } from './infer.js';
import type { ScanOptions, TableSource } from './source.js';

/** Options of `csvSource`. */
export interface CsvOptions {
  /**
   * The first line holds column names. Default: detected (see the file comment; DuckDB's rule). Without a
   * header, columns are named column0, column1, ...
   */
  readonly header?: boolean;
  /** Raw lines to skip before the header or the first record (default 0). */
  readonly skip?: number;
  /** Drop records with the wrong number of fields or a value their column's type cannot read, instead of failing (default false). */
  readonly ignoreErrors?: boolean;
  /** One-byte field delimiter (default: sniffed from the first lines among `,` `;` `|` and tab, else `,`). */
  readonly delimiter?: string;
  /** One-byte quote character (default '"'); a quote inside a quoted field is doubled. */
  readonly quote?: string;
  /** Unquoted text that means NULL (default '': an empty field is NULL). */
  readonly nullValue?: string;
  /**
   * Column types. A Schema gives every column (names and types, in file order;
   * a header line is then skipped). A record `{ name: type }` gives the types of
   * some columns by name (type names like 'int' are accepted); the others are inferred.
   */
  readonly schema?: Schema | Readonly<Record<string, SqlType | string>>;
  /** Rows read to infer types (default 10000). */
  readonly sampleRows?: number;
  /** Date format: only ISO (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS[.fff]`) is supported. */
  readonly dateFormat?: 'iso';
}

const DEFAULT_SAMPLE_ROWS = 10_000;
/** Records tokenized per round at most (bounds the field-offset arrays). */
const ROUND_ROWS = 16_384;

interface CsvDialect {
  readonly delimiter: number;
  readonly quote: number;
  readonly nullBytes: Uint8Array | null;
  readonly skip: number;
  readonly ignoreErrors: boolean;
}

function oneByte(name: string, value: string): number {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length !== 1 || value === '\n' || value === '\r') {
    throw new ValidationError(`csv option ${name} must be a single ASCII character other than a line break, got ${JSON.stringify(value)}`);
  }
  return bytes[0]!;
}

function dialectOf(options: CsvOptions): CsvDialect {
  const delimiter = oneByte('delimiter', options.delimiter ?? ',');
  const quote = oneByte('quote', options.quote ?? '"');
  if (delimiter === quote) throw new ValidationError('csv options delimiter and quote must differ');
  if (options.dateFormat !== undefined && options.dateFormat !== 'iso') {
    throw new ValidationError(`csv option dateFormat ${JSON.stringify(options.dateFormat)} is not supported; only 'iso' (YYYY-MM-DD) is`);
  }
  const nv = options.nullValue ?? '';
  return { delimiter, quote, nullBytes: nv === '' ? null : Buffer.from(nv, 'utf8'), skip: skipOf(options.skip), ignoreErrors: options.ignoreErrors === true };
}

function skipOf(skip: number | undefined): number {
  if (skip === undefined) return 0;
  if (!Number.isSafeInteger(skip) || skip < 0) throw new ValidationError(`csv option skip must be a whole number of lines >= 0, got ${skip}`);
  return skip;
}

function isSchema(s: CsvOptions['schema']): s is Schema {
  return s !== undefined && Array.isArray((s as Schema).fields);
}

/**
 * A CSV file as a table source (one partition). Reads the first row and up to
 * `sampleRows` rows now to detect the header and infer types; scans stream the file.
 */
export async function csvSource(path: string, options: CsvOptions = {}): Promise<TableSource> {
  const skip = skipOf(options.skip);
  const dialect = dialectOf(options.delimiter === undefined ? { ...options, delimiter: await sniffDelimiter(path, options.quote, skip) } : options);
  const sampleRows = Math.max(1, options.sampleRows ?? DEFAULT_SAMPLE_ROWS);
  const what = `csv ${path}`;
  const tok = await CsvTokenizer.open({ path, delimiter: dialect.delimiter, quote: dialect.quote, stride: 0, skipLines: skip, ignoreErrors: dialect.ignoreErrors });
  let fields: Field[];
  let inferred: boolean[];
  let header: boolean;
  try {
    const next = await tok.next(1);
    // The first record's bytes must outlive the sampling reads below (a round is valid until the next call).
    const first = next === null ? null : detached(next);
    const width = tok.fieldCount;
    const given = options.schema;
    if (first === null && !isSchema(given)) {
      const skipped = skip > 0 ? ` after skipping ${skip} line${skip === 1 ? '' : 's'}` : '';
      throw new ValidationError(`${what}: the file is empty${skipped}; pass a schema to read an empty CSV file`);
    }
    if (isSchema(given)) {
      if (first !== null && given.fields.length !== width) {
        throw new ValidationError(`${what}: the schema has ${given.fields.length} columns but line ${first.lines[0]} has ${width} fields; give one schema field per column`);
      }
      fields = given.fields.map((f) => (f.type === 'NULL' ? { ...f, type: 'VARCHAR' } : f));
      inferred = fields.map(() => false);
      header = options.header ?? (first !== null && firstRowIsHeader(first, fields.map((f) => f.type), dialect));
    } else {
      const row = first!;
      // Types from the rows after the first decide whether the first is a header (unless the option says).
      const rest = options.header === undefined || givenTypesIncomplete(what, row, width, dialect, options) ? await sampleTypes(tok, dialect, null, width, sampleRows) : null;
      header = options.header ?? firstRowIsHeader(row, rest!.seen === 0 ? typesOfRow(row, dialect) : rest!.inf.map((t) => t.type), dialect);
      const raw = header ? Array.from({ length: width }, (_, c) => fieldText(row, 0, c, dialect.quote)) : [];
      const names = header ? uniqueNames(raw) : Array.from({ length: width }, (_, c) => `column${c}`);
      const types = givenTypes(what, names, given);
      inferred = types.map((t) => t === undefined);
      if (rest !== null) {
        if (!header) observeRow(rest.inf, row, dialect);
        types.forEach((t, c) => { if (t === undefined) types[c] = rest.inf[c]!.type; });
      }
      fields = names.map((n, c) => field(n, types[c]!, true));
    }
  } finally {
    await tok.close();
  }
  return new CsvSource(path, dialect, header, schemaOf(fields), inferred.map((x) => (x ? sampleRows : undefined)));
}

/** A copy of record 0 of a round that owns its bytes. */
function detached(r: CsvRound): CsvRound {
  const w = r.stride;
  let lo = Infinity, hi = 0;
  for (let c = 0; c < w; c++) { lo = Math.min(lo, r.starts[c]!); hi = Math.max(hi, r.ends[c]!); }
  if (lo > hi) lo = hi;
  const starts = new Int32Array(w), ends = new Int32Array(w);
  for (let c = 0; c < w; c++) { starts[c] = r.starts[c]! - lo; ends[c] = r.ends[c]! - lo; }
  return { buf: Buffer.from(r.buf.subarray(lo, hi)), n: 1, stride: w, starts, ends, flags: r.flags.slice(0, w), lines: r.lines.slice(0, 1) };
}

/** With an explicit header: does some column still need its type inferred? */
function givenTypesIncomplete(what: string, first: CsvRound, width: number, d: CsvDialect, options: CsvOptions): boolean {
  const names = options.header === true ? uniqueNames(Array.from({ length: width }, (_, c) => fieldText(first, 0, c, d.quote))) : Array.from({ length: width }, (_, c) => `column${c}`);
  return givenTypes(what, names, options.schema).some((t) => t === undefined);
}

/** DuckDB's rule: a header when every column is text, or when a first-row value does not fit its column's type. */
function firstRowIsHeader(first: CsvRound, types: readonly SqlType[], d: CsvDialect): boolean {
  if (types.every((t) => t === 'VARCHAR' || t === 'NULL')) return true;
  const own = typesOfRow(first, d);
  return types.some((t, c) => t !== 'VARCHAR' && t !== 'NULL' && own[c] !== 'NULL' && commonType(t, own[c]!) === undefined);
}

/** The type each value of a one-row round reads as on its own ('NULL' for an empty or NULL field). */
function typesOfRow(r: CsvRound, d: CsvDialect): SqlType[] {
  const inf = Array.from({ length: r.stride }, () => new TypeInference());
  observeRow(inf, r, d);
  return inf.map((t, c) => (isNullField(r, c, d) ? 'NULL' : t.type));
}

function isNullField(r: CsvRound, c: number, d: CsvDialect): boolean {
  const s = r.starts[c]!, e = r.ends[c]!;
  if (s === e) return true;
  return d.nullBytes !== null && r.flags[c] === 0 && e - s === d.nullBytes.length && r.buf.compare(d.nullBytes, 0, d.nullBytes.length, s, e) === 0;
}

/** Observes the non-NULL values of row 0 of `r`. */
function observeRow(inf: readonly TypeInference[], r: CsvRound, d: CsvDialect): void {
  for (let c = 0; c < r.stride; c++) if (!isNullField(r, c, d)) inf[c]!.observeText(r.buf, r.starts[c]!, r.ends[c]!);
}

/** Observes up to `sampleRows` data rows (starting with `first` when it is data) in every column; `seen` counts them. */
async function sampleTypes(tok: CsvTokenizer, d: CsvDialect, first: CsvRound | null, width: number, sampleRows: number): Promise<{ inf: TypeInference[]; seen: number }> {
  const inf = Array.from({ length: width }, () => new TypeInference());
  let seen = 0;
  const observe = (r: CsvRound): void => {
    const { buf, n, stride, starts, ends, flags } = r;
    for (let c = 0; c < stride; c++) {
      const ti = inf[c]!;
      for (let i = 0, k = c; i < n; i++, k += stride) {
        const s = starts[k]!, e = ends[k]!;
        if (s === e) continue;
        if (d.nullBytes !== null && flags[k] === 0 && e - s === d.nullBytes.length && buf.compare(d.nullBytes, 0, d.nullBytes.length, s, e) === 0) continue;
        ti.observeText(buf, s, e);
      }
    }
    seen += n;
  };
  if (first !== null) observe(first);
  while (seen < sampleRows) {
    const r = await tok.next(Math.min(ROUND_ROWS, sampleRows - seen));
    if (r === null) break;
    observe(r);
  }
  return { inf, seen };
}

class CsvSource implements TableSource {
  readonly description: string;
  readonly partitions = 1;
  private readonly arrowFields: arrow.Field[];

  constructor(
    private readonly path: string,
    private readonly dialect: CsvDialect,
    private readonly header: boolean,
    readonly schema: Schema,
    private readonly inferredFrom: readonly (number | undefined)[],
  ) {
    this.description = `csv ${path}`;
    this.arrowFields = schema.fields.map((f) => new arrow.Field(f.name, toArrowType(f.type === 'NULL' ? 'VARCHAR' : f.type), f.nullable));
  }

  async *scan(options: ScanOptions): AsyncIterable<arrow.RecordBatch> {
    const cols = options.columns ?? this.schema.fields.map((_, i) => i);
    const batchSize = Math.max(1, options.batchSize | 0);
    const d = this.dialect;
    const outSchema = new arrow.Schema(cols.map((c) => this.arrowFields[c]!));
    const contexts: CsvColumnContext[] = cols.map((c) => {
      const f = this.schema.fields[c]!;
      return { path: this.path, index: c, name: f.name, type: f.type, quote: d.quote, nullBytes: d.nullBytes, inferredFrom: this.inferredFrom[c] };
    });
    const builders = contexts.map((c) => makeBuilder(c.type, batchSize));
    const width = this.schema.fields.length;
    const tok = await CsvTokenizer.open({
      path: this.path, delimiter: d.delimiter, quote: d.quote, stride: width,
      strideSource: this.header ? 'the header' : 'the schema', signal: options.signal, skipLines: d.skip, ignoreErrors: d.ignoreErrors,
    });
    // ignore_errors checks the columns the scan reads, as DuckDB (a bad value in an unread column keeps its row).
    const read = new Set(cols);
    const types = this.schema.fields.map((f, c): SqlType => (read.has(c) ? f.type : 'VARCHAR'));
    try {
      if (this.header) await tok.next(1);
      let count = 0;
      for (;;) {
        let round = await tok.next(Math.min(ROUND_ROWS, batchSize - count));
        if (round === null) break;
        if (d.ignoreErrors) round = dropBadRecords(round, types, d.nullBytes);
        for (let k = 0; k < contexts.length; k++) decodeCsvColumn(round, contexts[k]!, builders[k]!);
        count += round.n;
        if (count >= batchSize) {
          yield makeBatch(outSchema, builders.map((b) => b.finish()), count);
          count = 0;
        }
      }
      if (count > 0) yield makeBatch(outSchema, builders.map((b) => b.finish()), count);
    } finally {
      await tok.close();
    }
  }
}
