/**
 * CSV file source. Construction reads the first record (header) and a sample
 * of rows to infer column types; every scan re-opens the file and streams it
 * through the tokenizer (csv-tokenizer.ts), decoding only the requested columns
 * straight into typed-array builders (csv-columns.ts).
 */
import * as arrow from 'apache-arrow';
import { ValidationError } from '../relnode/errors.js';
import { field, schemaOf, toArrowType, type Field, type Schema, type SqlType } from '../relnode/types.js';
import { makeBatch, makeBuilder } from './columns.js';
import { decodeCsvColumn, fieldText, type CsvColumnContext } from './csv-columns.js';
import { sniffDelimiter } from './csv-sniff.js';
import { CsvTokenizer, type CsvRound } from './csv-tokenizer.js';
import { givenTypes, TypeInference, uniqueNames } from './infer.js';
import type { ScanOptions, TableSource } from './source.js';

/** Options of `csvSource`. */
export interface CsvOptions {
  /** The first line holds column names (default true). Without a header, columns are named column0, column1, ... */
  readonly header?: boolean;
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
  readonly header: boolean;
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
  return { delimiter, quote, nullBytes: nv === '' ? null : Buffer.from(nv, 'utf8'), header: options.header ?? true };
}

function isSchema(s: CsvOptions['schema']): s is Schema {
  return s !== undefined && Array.isArray((s as Schema).fields);
}

/**
 * A CSV file as a table source (one partition). Reads the header and up to
 * `sampleRows` rows now to infer types; scans stream the file.
 */
export async function csvSource(path: string, options: CsvOptions = {}): Promise<TableSource> {
  const dialect = dialectOf(options.delimiter === undefined ? { ...options, delimiter: await sniffDelimiter(path, options.quote) } : options);
  const sampleRows = Math.max(1, options.sampleRows ?? DEFAULT_SAMPLE_ROWS);
  const what = `csv ${path}`;
  const tok = await CsvTokenizer.open({ path, delimiter: dialect.delimiter, quote: dialect.quote, stride: 0 });
  let fields: Field[];
  let inferred: boolean[];
  try {
    const first = await tok.next(1);
    const width = tok.fieldCount;
    const given = options.schema;
    if (isSchema(given)) {
      if (first !== null && given.fields.length !== width) {
        throw new ValidationError(`${what}: the schema has ${given.fields.length} columns but line ${first.lines[0]} has ${width} fields; give one schema field per column`);
      }
      fields = given.fields.map((f) => (f.type === 'NULL' ? { ...f, type: 'VARCHAR' } : f));
      inferred = fields.map(() => false);
    } else {
      if (first === null) throw new ValidationError(`${what}: the file is empty; pass a schema to read an empty CSV file`);
      const raw = dialect.header ? Array.from({ length: width }, (_, c) => fieldText(first, 0, c, dialect.quote)) : [];
      const names = dialect.header ? uniqueNames(raw) : Array.from({ length: width }, (_, c) => `column${c}`);
      const types = givenTypes(what, names, given);
      inferred = types.map((t) => t === undefined);
      if (inferred.some((x) => x)) {
        const inf = await sampleTypes(tok, dialect, dialect.header ? null : first, inferred, sampleRows);
        types.forEach((t, c) => { if (t === undefined) types[c] = inf[c]!.type; });
      }
      fields = names.map((n, c) => field(n, types[c]!, true));
    }
  } finally {
    await tok.close();
  }
  return new CsvSource(path, dialect, schemaOf(fields), inferred.map((x) => (x ? sampleRows : undefined)));
}

/** Observes up to `sampleRows` data rows (starting with `first` when it is data, not a header). */
async function sampleTypes(tok: CsvTokenizer, d: CsvDialect, first: CsvRound | null, which: readonly boolean[], sampleRows: number): Promise<TypeInference[]> {
  const inf = which.map(() => new TypeInference());
  let seen = 0;
  const observe = (r: CsvRound): void => {
    const { buf, n, stride, starts, ends, flags } = r;
    for (let c = 0; c < stride; c++) {
      if (!which[c]) continue;
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
  return inf;
}

class CsvSource implements TableSource {
  readonly description: string;
  readonly partitions = 1;
  private readonly arrowFields: arrow.Field[];

  constructor(
    private readonly path: string,
    private readonly dialect: CsvDialect,
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
      strideSource: d.header ? 'the header' : 'the schema', signal: options.signal,
    });
    try {
      if (d.header) await tok.next(1);
      let count = 0;
      for (;;) {
        const round = await tok.next(Math.min(ROUND_ROWS, batchSize - count));
        if (round === null) break;
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
