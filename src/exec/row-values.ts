/**
 * Arrow values as plain JavaScript values, the one conversion every row
 * reader uses (the Table API's `toArray`, the stream API's rows).
 *
 * Decision: BOOLEAN → boolean, INTEGER/DOUBLE → number, BIGINT → bigint,
 * VARCHAR (plain or dictionary) → string, DATE/TIMESTAMP → Date, NULL →
 * null. A reader is made once per column and batch, and reads the common
 * fixed-width types straight from their typed arrays; the rest go through
 * Arrow's own getters.
 */
import { Type, makeVector, type Data } from 'apache-arrow';
import { ExecutionError } from '../relnode/errors.js';

/**
 * A Date of `ms` since the epoch. DATE reaches year 5881580, a JS Date only
 * 275760: beyond it a clear error (as DuckDB's node client gives), never an
 * Invalid Date that prints as null.
 */
export function jsDate(ms: number, column: string): Date {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) {
    throw new ExecutionError(`column ${JSON.stringify(column)}: the date ${Math.floor(ms / 86_400_000)} days from 1970-01-01 is outside the range of a JavaScript Date (years -271821 to 275760); read it as text with CAST(... AS VARCHAR), or use toArrow()`);
  }
  return d;
}

/** Reads row `i` of a column as a plain value (null for NULL). */
export type ValueReader = (i: number) => unknown;

/** A reader for the values of `data` (one column of one batch), named `column` in errors. */
export function valueReader(data: Data, column: string): ValueReader {
  const bm = data.nullCount > 0 ? data.nullBitmap : undefined;
  const off = data.offset;
  const valid = (i: number): boolean => bm === undefined || bm.length === 0 || ((bm[(off + i) >> 3]! >> ((off + i) & 7)) & 1) === 1;
  if (data.typeId === Type.Null) return () => null;
  if (data.nullCount > 0 && (bm === undefined || bm.length === 0)) return () => null;
  const values = data.values as unknown;
  if ((data.typeId === Type.Int || data.typeId === Type.Float) && (values instanceof Int32Array || values instanceof Float64Array || values instanceof BigInt64Array)) {
    const v = values;
    return bm === undefined ? (i) => v[i] : (i) => (valid(i) ? v[i] : null);
  }
  if (data.typeId === Type.Date && values instanceof Int32Array) {
    return (i) => (valid(i) ? jsDate(values[i]! * 86_400_000, column) : null);
  }
  const vec = makeVector(data);
  if (data.typeId === Type.Date || data.typeId === Type.Timestamp) {
    return (i) => { const v = vec.get(i) as unknown; return v === null || v === undefined ? null : jsDate(Number(v), column); };
  }
  return (i) => { const v = vec.get(i) as unknown; return v === undefined ? null : v; };
}
