/**
 * Test helpers for kernels: columns from JS values (optionally dictionary-encoded
 * or sliced so offset > 0), batches, and evaluating an expression to JS values.
 */
import * as arrow from 'apache-arrow';
import { call, inputRef, literal, type LiteralValue, type RexNode } from '../../../src/relnode/rex.js';
import { field, schemaOf, type Schema, type SqlType } from '../../../src/relnode/types.js';
import { compileExpr, compilePredicate, valueAt } from '../../../src/exec/kernels/index.js';

export interface ColSpec {
  readonly type: SqlType;
  readonly values: readonly LiteralValue[];
  /** Dictionary-encode a VARCHAR column. */
  readonly dict?: boolean;
}

function bits(values: readonly boolean[]): Uint8Array {
  const b = new Uint8Array(Math.max(1, (values.length + 7) >> 3));
  values.forEach((v, i) => { if (v) b[i >> 3]! |= 1 << (i & 7); });
  return b;
}

/** A Data of the canonical physical type holding `values` (null = NULL). */
export function makeCol(spec: ColSpec): arrow.Data {
  const { type, values } = spec;
  const n = values.length;
  const validity = values.map((v) => v !== null);
  const nullCount = validity.filter((v) => !v).length;
  const nb = nullCount > 0 ? bits(validity) : undefined;
  switch (type) {
    case 'BOOLEAN':
      return arrow.makeData({ type: new arrow.Bool(), length: n, nullCount, nullBitmap: nb, data: bits(values.map((v) => v === true)) });
    case 'INTEGER': return arrow.makeData({ type: new arrow.Int32(), length: n, nullCount, nullBitmap: nb, data: Int32Array.from(values, (v) => Number(v ?? 0)) });
    case 'DATE': return arrow.makeData({ type: new arrow.DateDay(), length: n, nullCount, nullBitmap: nb, data: Int32Array.from(values, (v) => Number(v ?? 0)) });
    case 'DOUBLE': return arrow.makeData({ type: new arrow.Float64(), length: n, nullCount, nullBitmap: nb, data: Float64Array.from(values, (v) => Number(v ?? 0)) });
    case 'BIGINT': return arrow.makeData({ type: new arrow.Int64(), length: n, nullCount, nullBitmap: nb, data: BigInt64Array.from(values, (v) => BigInt(v ?? 0)) });
    case 'TIMESTAMP': return arrow.makeData({ type: new arrow.TimestampMillisecond(), length: n, nullCount, nullBitmap: nb, data: BigInt64Array.from(values, (v) => BigInt(v ?? 0)) });
    case 'VARCHAR': {
      if (spec.dict) {
        const v = arrow.vectorFromArray(values as (string | null)[], new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()));
        return v.data[0]!;
      }
      return arrow.vectorFromArray(values as (string | null)[], new arrow.Utf8()).data[0]!;
    }
    case 'NULL': return arrow.makeData({ type: new arrow.Null(), length: n });
  }
}

/** A batch of columns; with `slice`, every column is built with `slice` extra leading rows and sliced (offset > 0). */
export function makeBatch(cols: readonly ColSpec[], slice = 0): { batch: arrow.RecordBatch; schema: Schema } {
  const n = cols.length > 0 ? cols[0]!.values.length : 1;
  const pad = (c: ColSpec): ColSpec => {
    if (slice === 0) return c;
    const filler: LiteralValue[] = [];
    for (let k = 0; k < slice; k++) filler.push(k % 3 === 0 ? null : (c.values.find((v) => v !== null) ?? null));
    return { ...c, values: [...filler, ...c.values] };
  };
  const data = cols.map((c) => {
    const d = makeCol(pad(c));
    return slice === 0 ? d : d.slice(slice, n);
  });
  const fields = data.map((d, i) => new arrow.Field(`c${i}`, d.type, true));
  const batch = new arrow.RecordBatch(new arrow.Schema(fields), arrow.makeData({ type: new arrow.Struct(fields), length: n, children: data }));
  return { batch, schema: schemaOf(cols.map((c, i) => field(`c${i}`, c.type))) };
}

/** Values of a Data as JS values. */
export function valuesOf(d: arrow.Data): LiteralValue[] {
  return Array.from({ length: d.length }, (_, i) => valueAt(d, i));
}

/** Evaluates expr over the columns (also checks row count) and returns JS values. */
export function evalExpr(expr: RexNode, cols: readonly ColSpec[], slice = 0): LiteralValue[] {
  const { batch, schema } = makeBatch(cols, slice);
  const d = compileExpr(expr, schema)(batch);
  if (d.length !== batch.numRows) throw new Error(`kernel returned ${d.length} rows for ${batch.numRows}`);
  return valuesOf(d);
}

/** Runs a predicate and returns the selected row indexes (null = all). */
export function select(expr: RexNode, cols: readonly ColSpec[], slice = 0): number[] | null {
  const { batch, schema } = makeBatch(cols, slice);
  const r = compilePredicate(expr, schema)(batch);
  return r === null ? null : Array.from(r);
}

export const ref = (i: number, t: SqlType): RexNode => inputRef(i, t);
export const lit = (v: LiteralValue, t: SqlType): RexNode => literal(v, t);
export const fn = (op: string, args: readonly RexNode[], t: SqlType): RexNode => call(op, args, t);
