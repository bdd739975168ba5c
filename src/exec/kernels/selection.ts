/**
 * Selections (Int32Array of row indexes) and guarded evaluation.
 *
 * Kernels evaluate whole batches. A sub-expression that only matters on some
 * rows (a CASE branch, a later conjunct of a predicate) is first evaluated on
 * the whole batch, which is fastest; only if that throws an ExecutionError
 * (overflow, bad cast) on a row that did not matter is it re-run on a compacted
 * batch of the rows that do, so errors come only from rows SQL evaluates.
 */
import * as arrow from 'apache-arrow';
import { ExecutionError } from '../../relnode/errors.js';
import type { Schema, SqlType } from '../../relnode/types.js';
import { batchOf } from '../arrow-build.js';
import { nullColumn } from './column.js';
import type { Kernel } from './context.js';
import { gather } from './gather.js';

/**
 * One step of a predicate: refines `sel` (null = all rows of the batch) to the rows
 * where its condition is TRUE. It may overwrite `sel` and return a prefix view of it.
 * With `sel` null it may write into `scratch` (≥ batch.numRows entries) instead of
 * allocating, and return a prefix view of that.
 */
export type RefineStep = (batch: arrow.RecordBatch, sel: Int32Array | null, scratch?: Int32Array) => Int32Array;

const NULL_TYPE = new arrow.Null();

/** A batch of the given rows, gathering only the columns in `cols` (other columns become Null placeholders). */
export function compactBatch(batch: arrow.RecordBatch, rows: Int32Array, schema: Schema, cols: ReadonlySet<number>): arrow.RecordBatch {
  const m = rows.length;
  const fields: arrow.Field[] = [];
  const children: arrow.Data[] = [];
  const width = batch.data.children.length;
  for (let c = 0; c < width; c++) {
    const f = schema.fields[c];
    if (cols.has(c) && f !== undefined) {
      const d = gather(f.type, [batch.data.children[c]!], null, rows, m);
      fields.push(new arrow.Field(`c${c}`, d.type, true));
      children.push(d);
    } else {
      fields.push(new arrow.Field(`c${c}`, NULL_TYPE, true));
      children.push(nullColumn(m));
    }
  }
  return batchOf(new arrow.Schema(fields), children, m);
}

/** Wraps a step so an ExecutionError raised for rows outside `sel` is retried on the selected rows only. */
export function guardStep(step: RefineStep, schema: Schema, cols: ReadonlySet<number>): RefineStep {
  return (batch, sel) => {
    if (sel === null || sel.length === batch.numRows) return step(batch, sel);
    const saved = sel.slice();
    try {
      return step(batch, sel);
    } catch (e) {
      if (!(e instanceof ExecutionError)) throw e;
      const sub = compactBatch(batch, saved, schema, cols);
      const r = step(sub, null);
      const out = new Int32Array(r.length);
      for (let j = 0; j < r.length; j++) out[j] = saved[r[j]!]!;
      return out;
    }
  };
}

/**
 * Evaluates `kernel` where only `rows` matter (null = all): the result has batch.numRows rows;
 * rows outside `rows` may be NULL when the whole-batch attempt failed and was retried.
 */
export function evalGuarded(kernel: Kernel, type: SqlType, batch: arrow.RecordBatch, rows: Int32Array | null, schema: Schema, cols: ReadonlySet<number>): arrow.Data {
  if (rows === null || rows.length === batch.numRows) return kernel(batch);
  try {
    return kernel(batch);
  } catch (e) {
    if (!(e instanceof ExecutionError)) throw e;
    return evalOnRows(kernel, type, batch, rows, schema, cols);
  }
}

/** Evaluates `kernel` on the given rows only; the result has batch.numRows rows, NULL outside `rows`. */
export function evalOnRows(kernel: Kernel, type: SqlType, batch: arrow.RecordBatch, rows: Int32Array, schema: Schema, cols: ReadonlySet<number>): arrow.Data {
  const n = batch.numRows;
  if (rows.length === 0) return gather(type, [nullColumn(n)], null, null, n);
  const d = kernel(compactBatch(batch, rows, schema, cols));
  const srcIdx = new Uint8Array(n).fill(1);
  const srcRow = new Int32Array(n);
  for (let j = 0; j < rows.length; j++) { srcIdx[rows[j]!] = 0; srcRow[rows[j]!] = j; }
  return gather(type, [d, nullColumn(n)], srcIdx, srcRow, n);
}

/** The rows 0..n-1 (an identity selection). */
export function allRows(n: number): Int32Array {
  const s = new Int32Array(n);
  for (let i = 0; i < n; i++) s[i] = i;
  return s;
}
