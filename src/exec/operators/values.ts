/**
 * Values: a source of literal rows (SQL VALUES, fromRecords of small data,
 * empty relations). Subtask 0 emits the rows; other subtasks emit nothing.
 */
import { Bool, DateDay, Float64, Int32, Int64, Null, TimestampMillisecond, makeData, type Data, type RecordBatch } from 'apache-arrow';
import { batchFromColumns, utf8FromStrings } from '../batch.js';
import type { LiteralValue } from '../../relnode/rex.js';
import type { Schema, SqlType } from '../../relnode/types.js';
import type { SourceFactory } from '../operator.js';

/** Builds one column of canonical physical type from literal values (small data only). */
export function columnFromValues(vals: readonly LiteralValue[], type: SqlType): Data {
  const n = vals.length;
  let nulls = 0;
  const bitmap = new Uint8Array((n + 7) >> 3);
  vals.forEach((v, i) => { if (v === null) nulls++; else bitmap[i >> 3]! |= 1 << (i & 7); });
  const nullBitmap = nulls > 0 ? bitmap : undefined;
  const num = (v: LiteralValue): number => (v === null ? 0 : Number(v));
  const big = (v: LiteralValue): bigint => (v === null ? 0n : typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v))));
  switch (type) {
    case 'NULL': return makeData({ type: new Null(), length: n, nullCount: n });
    case 'BOOLEAN': {
      const bits = new Uint8Array((n + 7) >> 3);
      vals.forEach((v, i) => { if (v === true) bits[i >> 3]! |= 1 << (i & 7); });
      return makeData({ type: new Bool(), length: n, nullCount: nulls, nullBitmap, data: bits });
    }
    case 'INTEGER': return makeData({ type: new Int32(), length: n, nullCount: nulls, nullBitmap, data: Int32Array.from(vals, num) });
    case 'DATE': return makeData({ type: new DateDay(), length: n, nullCount: nulls, nullBitmap, data: Int32Array.from(vals, num) });
    case 'DOUBLE': return makeData({ type: new Float64(), length: n, nullCount: nulls, nullBitmap, data: Float64Array.from(vals, num) });
    case 'BIGINT': return makeData({ type: new Int64(), length: n, nullCount: nulls, nullBitmap, data: BigInt64Array.from(vals, big) });
    case 'TIMESTAMP': return makeData({ type: new TimestampMillisecond(), length: n, nullCount: nulls, nullBitmap, data: BigInt64Array.from(vals, big) as unknown as Int32Array });
    case 'VARCHAR': return utf8FromStrings(vals.map((v) => (v === null ? null : String(v))));
  }
}

/** Builds a record batch from literal rows. */
export function batchFromRows(rows: readonly (readonly LiteralValue[])[], schema: Schema): RecordBatch {
  const cols = schema.fields.map((f, c) => columnFromValues(rows.map((r) => r[c] ?? null), f.type));
  return batchFromColumns(schema, cols, rows.length);
}

/** A source factory that emits the rows once (from subtask 0), in batches of at most batchSize rows. */
export function valuesSource(rows: readonly (readonly LiteralValue[])[], schema: Schema): SourceFactory {
  return (ctx) => {
    let pos = ctx.subtaskIndex === 0 ? 0 : rows.length;
    return {
      next() {
        if (pos >= rows.length) return null;
        const end = Math.min(rows.length, pos + ctx.batchSize);
        const b = batchFromRows(rows.slice(pos, end), schema);
        pos = end;
        return b;
      },
      close() { pos = rows.length; },
    };
  };
}
