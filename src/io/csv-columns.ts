/**
 * Decodes one CSV column of a tokenized round into a column builder: one
 * type-specialised loop per SqlType over the field byte ranges (no strings
 * except for error messages and > 15-digit BIGINTs).
 *
 * NULL rules: an empty field is NULL for every type except VARCHAR, where
 * only an unquoted empty field is (`""` is the empty string). With a custom
 * `nullValue`, an unquoted field equal to it is NULL (and an empty VARCHAR
 * field is the empty string).
 */
import { ExecutionError } from '../relnode/errors.js';
import { commonType, type SqlType } from '../relnode/types.js';
import { BoolBuilder, Float64Builder, Int32Builder, Int64Builder, Utf8Builder, type ColumnBuilder } from './columns.js';
import { ESCAPED, type CsvRound } from './csv-tokenizer.js';
import {
  expectedText, isNanText, parseBigInt64, parseBool, parseDate, parseDouble, parseInt32, parseInt64Fast, parseTimestamp, TypeInference,
} from './infer.js';

/** What a column decoder needs besides the round. */
export interface CsvColumnContext {
  readonly path: string;
  /** 0-based ordinal in the file. */
  readonly index: number;
  readonly name: string;
  readonly type: SqlType;
  readonly quote: number;
  /** Bytes of the NULL token; null when the token is '' (empty field). */
  readonly nullBytes: Uint8Array | null;
  /** Rows the type was inferred from, or undefined when the schema gave it. */
  readonly inferredFrom: number | undefined;
}

/** Appends column `ctx.index` of every record of `round` to `b` (a builder for `ctx.type`). */
export function decodeCsvColumn(round: CsvRound, ctx: CsvColumnContext, b: ColumnBuilder): void {
  switch (ctx.type) {
    case 'INTEGER': return decodeInt32(round, ctx, b as Int32Builder, parseInt32);
    case 'DATE': return decodeInt32(round, ctx, b as Int32Builder, parseDate);
    case 'BIGINT': return decodeBigInt(round, ctx, b as Int64Builder);
    case 'TIMESTAMP': return decodeTimestamp(round, ctx, b as Int64Builder);
    case 'DOUBLE': return decodeDouble(round, ctx, b as Float64Builder);
    case 'BOOLEAN': return decodeBool(round, ctx, b as BoolBuilder);
    case 'VARCHAR': case 'NULL': return decodeUtf8(round, ctx, b as Utf8Builder);
  }
}

function isToken(buf: Uint8Array, s: number, e: number, flag: number, tok: Uint8Array): boolean {
  if (flag !== 0 || e - s !== tok.length) return false;
  for (let i = 0; i < tok.length; i++) if (buf[s + i] !== tok[i]) return false;
  return true;
}

function decodeInt32(r: CsvRound, ctx: CsvColumnContext, b: Int32Builder, parse: (b: Uint8Array, s: number, e: number) => number): void {
  const { buf, n, stride, starts, ends, flags } = r;
  const nb = ctx.nullBytes;
  for (let i = 0, k = ctx.index; i < n; i++, k += stride) {
    const s = starts[k]!, e = ends[k]!;
    if (s === e || (nb !== null && isToken(buf, s, e, flags[k]!, nb))) { b.appendNull(); continue; }
    const v = parse(buf, s, e);
    if (v !== v) badValue(r, ctx, i);
    b.append(v);
  }
}

function decodeBigInt(r: CsvRound, ctx: CsvColumnContext, b: Int64Builder): void {
  const { buf, n, stride, starts, ends, flags } = r;
  const nb = ctx.nullBytes;
  for (let i = 0, k = ctx.index; i < n; i++, k += stride) {
    const s = starts[k]!, e = ends[k]!;
    if (s === e || (nb !== null && isToken(buf, s, e, flags[k]!, nb))) { b.appendNull(); continue; }
    const v = parseInt64Fast(buf, s, e);
    if (v === Infinity) {
      const big = parseBigInt64(buf, s, e);
      if (big === undefined) badValue(r, ctx, i);
      b.appendBigInt(big);
    } else {
      if (v !== v) badValue(r, ctx, i);
      b.appendNumber(v);
    }
  }
}

function decodeTimestamp(r: CsvRound, ctx: CsvColumnContext, b: Int64Builder): void {
  const { buf, n, stride, starts, ends, flags } = r;
  const nb = ctx.nullBytes;
  for (let i = 0, k = ctx.index; i < n; i++, k += stride) {
    const s = starts[k]!, e = ends[k]!;
    if (s === e || (nb !== null && isToken(buf, s, e, flags[k]!, nb))) { b.appendNull(); continue; }
    const v = parseTimestamp(buf, s, e);
    if (v !== v) badValue(r, ctx, i);
    b.appendNumber(v);
  }
}

function decodeDouble(r: CsvRound, ctx: CsvColumnContext, b: Float64Builder): void {
  const { buf, n, stride, starts, ends, flags } = r;
  const nb = ctx.nullBytes;
  for (let i = 0, k = ctx.index; i < n; i++, k += stride) {
    const s = starts[k]!, e = ends[k]!;
    if (s === e || (nb !== null && isToken(buf, s, e, flags[k]!, nb))) { b.appendNull(); continue; }
    const v = parseDouble(buf, s, e);
    if (v !== v && !isNanText(buf, s, e)) badValue(r, ctx, i);
    b.append(v);
  }
}

function decodeBool(r: CsvRound, ctx: CsvColumnContext, b: BoolBuilder): void {
  const { buf, n, stride, starts, ends, flags } = r;
  const nb = ctx.nullBytes;
  for (let i = 0, k = ctx.index; i < n; i++, k += stride) {
    const s = starts[k]!, e = ends[k]!;
    if (s === e || (nb !== null && isToken(buf, s, e, flags[k]!, nb))) { b.appendNull(); continue; }
    const v = parseBool(buf, s, e);
    if (v < 0) badValue(r, ctx, i);
    b.append(v === 1);
  }
}

function decodeUtf8(r: CsvRound, ctx: CsvColumnContext, b: Utf8Builder): void {
  const { buf, n, stride, starts, ends, flags } = r;
  const nb = ctx.nullBytes, q = ctx.quote;
  for (let i = 0, k = ctx.index; i < n; i++, k += stride) {
    const s = starts[k]!, e = ends[k]!, f = flags[k]!;
    if (nb === null ? s === e && f === 0 : isToken(buf, s, e, f, nb)) { b.appendNull(); continue; }
    if (f === ESCAPED) b.appendUnescaped(buf, s, e, q);
    else b.appendBytes(buf, s, e);
  }
}

/** The text of field (row, col) of a round, unescaped. */
export function fieldText(r: CsvRound, row: number, col: number, quote: number): string {
  const k = row * r.stride + col;
  const text = r.buf.toString('utf8', r.starts[k]!, r.ends[k]!);
  if (r.flags[k] !== ESCAPED) return text;
  const q = String.fromCharCode(quote);
  return text.split(q + q).join(q);
}

/** A type that would accept both the column's values so far and `text`. */
function suggestType(type: SqlType, text: string): SqlType {
  const inf = new TypeInference();
  const bytes = Buffer.from(text, 'utf8');
  inf.observeText(bytes, 0, bytes.length);
  const t = commonType(type, inf.type);
  return t === undefined || t === type ? 'VARCHAR' : t;
}

function badValue(r: CsvRound, ctx: CsvColumnContext, row: number): never {
  const full = fieldText(r, row, ctx.index, ctx.quote);
  const text = full.length > 60 ? `${full.slice(0, 57)}...` : full;
  const better = suggestType(ctx.type, full);
  const advice = ctx.inferredFrom !== undefined
    ? `The type ${ctx.type} was inferred from the first ${ctx.inferredFrom} rows; pass a schema or a larger sampleRows (e.g. schema: { ${JSON.stringify(ctx.name)}: '${better}' }).`
    : `The type ${ctx.type} comes from the given schema; fix the value or give the column a type that accepts it (e.g. ${better}).`;
  throw new ExecutionError(
    `csv ${ctx.path}: line ${r.lines[row]}, column ${ctx.index + 1} (${JSON.stringify(ctx.name)}): cannot read '${text}' as ${ctx.type}; expected ${expectedText(ctx.type)}. ${advice}`,
  );
}
