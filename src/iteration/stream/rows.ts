/**
 * Rows ↔ record batches for the stream API.
 *
 * Decision: a stream's rows are null-prototype objects keyed by column name
 * (so `__proto__` or `constructor` are ordinary columns), with the values
 * `Table.toArray()` gives (exec/row-values.ts). Rows going into a batch are
 * checked against the schema, every row: a missing column, a column the
 * schema does not have, or a value of the wrong type is a ValidationError
 * saying which column and what would work — inside an operator the runtime
 * adds the operator's name. Columns are built straight into typed arrays.
 */
import { Bool, DateDay, Float64, Int32, Int64, Null, TimestampMillisecond, Type, makeData, type Data, type DataType, type RecordBatch } from 'apache-arrow';
import { ValidationError } from '../../relnode/errors.js';
import { field, schemaOf, toArrowType, type Schema, type SqlType } from '../../relnode/types.js';
import { batchFromColumns, utf8FromStrings } from '../../exec/batch.js';
import { valueReader } from '../../exec/row-values.js';
import type { Row } from './process.js';

/** A value shown in an error message. */
function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Date) return `Date(${Number.isNaN(v.getTime()) ? 'invalid' : v.toISOString()})`;
  if (typeof v === 'function') return 'a function';
  try { return JSON.stringify(v) ?? String(v); } catch { return String(v); }
}

function jsType(v: unknown, name: string, where: string): SqlType {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 ? 'INTEGER' : 'DOUBLE';
  if (typeof v === 'bigint') return 'BIGINT';
  if (typeof v === 'string') return 'VARCHAR';
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (v instanceof Date) return 'TIMESTAMP';
  throw new ValidationError(`${where}: column "${name}" has a value of unsupported type (${show(v)}); pass a schema, or use number, bigint, string, boolean or Date`);
}

/**
 * The schema of plain rows, as fromRecords infers it: number → INTEGER (or
 * DOUBLE when some value is not a 32-bit integer), bigint → BIGINT, Date →
 * TIMESTAMP; an all-NULL column is VARCHAR.
 */
export function inferRowSchema(rows: readonly Readonly<Record<string, unknown>>[], where: string): Schema {
  const names: string[] = [];
  const types = new Map<string, SqlType>();
  for (const r of rows) {
    for (const k of Object.keys(r)) {
      if (!types.has(k)) { names.push(k); types.set(k, 'NULL'); }
      const t = jsType((r as Record<string, unknown>)[k], k, where);
      const cur = types.get(k)!;
      if (t === 'NULL' || t === cur) continue;
      if (cur === 'NULL') types.set(k, t);
      else if ((cur === 'INTEGER' && t === 'DOUBLE') || (cur === 'DOUBLE' && t === 'INTEGER')) types.set(k, 'DOUBLE');
      else throw new ValidationError(`${where}: column "${k}" mixes ${cur} and ${t} values; pass a schema`);
    }
  }
  if (names.length === 0) throw new ValidationError(`${where}: cannot infer a schema from no rows (or rows without columns); pass a schema`);
  return schemaOf(names.map((n) => field(n, types.get(n) === 'NULL' ? 'VARCHAR' : types.get(n)!, true)));
}

/** The rows of a batch as null-prototype objects keyed by `names` (default: the batch's column names). */
export function rowsOfBatch(batch: RecordBatch, names: readonly string[] = batch.schema.fields.map((f) => f.name)): Row[] {
  const n = batch.numRows;
  const width = names.length;
  const readers = names.map((name, c) => valueReader(batch.data.children[c]!, name));
  const out = new Array<Row>(n);
  for (let r = 0; r < n; r++) {
    const row = Object.create(null) as Row;
    for (let c = 0; c < width; c++) row[names[c]!] = readers[c]!(r);
    out[r] = row;
  }
  return out;
}

/** Why a value does not fit a column of type `t`, or undefined when it fits. */
function typeError(t: SqlType, name: string, v: unknown): string {
  const want: Record<SqlType, string> = {
    INTEGER: 'a 32-bit integer number', BIGINT: 'a bigint or an integer number', DOUBLE: 'a number or bigint', VARCHAR: 'a string',
    BOOLEAN: 'a boolean', DATE: "a Date or a 'YYYY-MM-DD' string", TIMESTAMP: 'a Date or milliseconds since 1970', NULL: 'null',
  };
  return `column "${name}" is ${t} and needs ${want[t]}, but got ${show(v)}`;
}

/**
 * Builds a batch of `schema` from rows. `where` prefixes errors (e.g.
 * `fromRows: row 3`); the row's position is added.
 */
export function batchOfRows(rows: readonly Row[], schema: Schema, where: string): RecordBatch {
  const n = rows.length;
  const fields = schema.fields;
  const width = fields.length;
  const fail = (r: number, msg: string): never => { throw new ValidationError(`${where}: row ${r}: ${msg}`); };
  // Shape: every column present, no extra ones.
  for (let r = 0; r < n; r++) {
    const row = rows[r]!;
    if (row === null || typeof row !== 'object') fail(r, `expected a row object, got ${show(row)}`);
    let own = 0;
    for (const k in row) if (Object.hasOwn(row, k)) own++;
    for (let c = 0; c < width; c++) if (!Object.hasOwn(row, fields[c]!.name)) fail(r, `the row ${show(row)} has no column "${fields[c]!.name}" (columns: ${fields.map((f) => f.name).join(', ')}); set it to null for NULL`);
    if (own > width) {
      const extra = Object.keys(row).find((k) => !fields.some((f) => f.name === k));
      fail(r, `the row has a column "${extra}" that is not in the schema (${fields.map((f) => f.name).join(', ')}); pass { schema } for a different output`);
    }
  }
  const cols: Data[] = fields.map((f) => buildColumn(rows, f.name, f.type, (r, v) => fail(r, typeError(f.type, f.name, v))));
  return batchFromColumns(schema, cols, n);
}

/** One column of `rows` of type `t`; `bad(row, value)` throws. */
function buildColumn(rows: readonly Row[], name: string, t: SqlType, bad: (r: number, v: unknown) => never): Data {
  const n = rows.length;
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  const get = (r: number): unknown => {
    const v = rows[r]![name];
    if (v === null || v === undefined) { nulls++; return null; }
    bitmap[r >> 3]! |= 1 << (r & 7);
    return v;
  };
  const validity = (): Uint8Array | undefined => (nulls > 0 ? bitmap : undefined);
  switch (t) {
    case 'INTEGER': {
      const out = new Int32Array(n);
      for (let r = 0; r < n; r++) { const v = get(r); if (v === null) continue; if (typeof v !== 'number' || (v | 0) !== v) bad(r, v); out[r] = v as number; }
      return makeData({ type: new Int32(), length: n, nullCount: nulls, nullBitmap: validity(), data: out });
    }
    case 'DOUBLE': {
      const out = new Float64Array(n);
      for (let r = 0; r < n; r++) { const v = get(r); if (v === null) continue; if (typeof v === 'number') out[r] = v; else if (typeof v === 'bigint') out[r] = Number(v); else bad(r, v); }
      return makeData({ type: new Float64(), length: n, nullCount: nulls, nullBitmap: validity(), data: out });
    }
    case 'BIGINT': {
      const out = new BigInt64Array(n);
      for (let r = 0; r < n; r++) { const v = get(r); if (v === null) continue; if (typeof v === 'bigint') out[r] = v; else if (typeof v === 'number' && Number.isInteger(v)) out[r] = BigInt(v); else bad(r, v); }
      return makeData({ type: new Int64(), length: n, nullCount: nulls, nullBitmap: validity(), data: out });
    }
    case 'BOOLEAN': {
      const out = new Uint8Array((n + 7) >> 3);
      for (let r = 0; r < n; r++) { const v = get(r); if (v === null) continue; if (typeof v !== 'boolean') bad(r, v); if (v) out[r >> 3]! |= 1 << (r & 7); }
      return makeData({ type: new Bool(), length: n, nullCount: nulls, nullBitmap: validity(), data: out });
    }
    case 'VARCHAR': {
      const vals: (string | null)[] = new Array(n);
      for (let r = 0; r < n; r++) { const v = get(r); if (v !== null && typeof v !== 'string') bad(r, v); vals[r] = v as string | null; }
      return utf8FromStrings(vals);
    }
    case 'DATE': {
      const out = new Int32Array(n);
      for (let r = 0; r < n; r++) {
        const v = get(r);
        if (v === null) continue;
        if (v instanceof Date && !Number.isNaN(v.getTime())) out[r] = Math.floor(v.getTime() / 86_400_000);
        else if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))) out[r] = Date.parse(`${v}T00:00:00Z`) / 86_400_000;
        else bad(r, v);
      }
      return makeData({ type: new DateDay(), length: n, nullCount: nulls, nullBitmap: validity(), data: out });
    }
    case 'TIMESTAMP': {
      const out = new BigInt64Array(n);
      for (let r = 0; r < n; r++) {
        const v = get(r);
        if (v === null) continue;
        if (v instanceof Date && !Number.isNaN(v.getTime())) out[r] = BigInt(v.getTime());
        else if (typeof v === 'number' && Number.isInteger(v)) out[r] = BigInt(v);
        else bad(r, v);
      }
      return makeData({ type: new TimestampMillisecond(), length: n, nullCount: nulls, nullBitmap: validity(), data: out as unknown as Int32Array });
    }
    case 'NULL': {
      for (let r = 0; r < n; r++) { const v = get(r); if (v !== null) bad(r, v); }
      return makeData({ type: new Null(), length: n, nullCount: n });
    }
  }
}

/** Checks that a batch a user emits has the columns of `schema` (count and types); throws a ValidationError saying what differs. */
export function checkBatch(batch: RecordBatch, schema: Schema, where: string): void {
  const cols = batch.data.children;
  if (cols.length !== schema.fields.length) {
    throw new ValidationError(`${where}: the batch has ${cols.length} columns but the stream has ${schema.fields.length} (${schema.fields.map((f) => f.name).join(', ')})`);
  }
  schema.fields.forEach((f, i) => {
    const t = cols[i]!.type as DataType;
    const want = toArrowType(f.type);
    const ok = t.typeId === Type.Null
      || (f.type === 'VARCHAR' ? t.typeId === Type.Utf8 || t.typeId === Type.Dictionary
        : t.typeId === want.typeId && (t.typeId !== Type.Int || (t as Int64).bitWidth === (want as Int64).bitWidth));
    if (!ok) throw new ValidationError(`${where}: column ${i} ("${f.name}") of the batch is of Arrow type ${String(t)}, but the stream's column is ${f.type}`);
  });
}
