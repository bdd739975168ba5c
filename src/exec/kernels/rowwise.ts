/**
 * A generic row-at-a-time kernel for the function library (string, math,
 * date functions of string-lib.ts, math-lib.ts, date-lib.ts): argument
 * values are read in literal convention (value-at.ts), a JS function computes
 * each row, and the result is built in the column type of the call. Decision:
 * the long tail of functions is written once, simply and obviously right;
 * the hot paths (arithmetic, comparisons, LIKE, substring) keep their
 * vectorized kernels. A constant argument is read once per batch, and a
 * dictionary-encoded string argument once per distinct entry is left for
 * later (readValue decodes per row).
 */
import * as arrow from 'apache-arrow';
import type { LiteralValue } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import { byteLength } from './bitmap.js';
import { makeColumn, newValues } from './column.js';
import type { Kernel } from './context.js';
import { Utf8Builder } from './utf8.js';
import { readValue } from './value-at.js';

/** Computes one row from its argument values (literal convention); null is SQL NULL. */
export type RowFn = (args: LiteralValue[]) => LiteralValue;

/**
 * A kernel applying `fn` per row. `strict`: a NULL argument gives NULL
 * without calling `fn` (most functions); otherwise `fn` sees the nulls.
 */
export function rowKernel(args: readonly Kernel[], type: SqlType, fn: RowFn, strict = true): Kernel {
  return (batch) => {
    const n = batch.numRows;
    const cols = args.map((k) => k(batch));
    const out = new OutputColumn(type, n);
    const vals: LiteralValue[] = new Array<LiteralValue>(cols.length);
    for (let i = 0; i < n; i++) {
      let anyNull = false;
      for (let j = 0; j < cols.length; j++) {
        const v = readValue(cols[j]!, i);
        vals[j] = v;
        if (v === null) anyNull = true;
      }
      out.push(strict && anyNull ? null : fn(vals));
    }
    return out.finish();
  };
}

/** Builds one result column of a SqlType from literal-convention values, in row order. */
export class OutputColumn {
  private readonly strings: Utf8Builder | null;
  private readonly values: Int32Array | Float64Array | BigInt64Array | Uint8Array | null;
  private readonly valid: Uint8Array;
  private nulls = 0;
  private row = 0;

  constructor(private readonly type: SqlType, private readonly n: number) {
    this.strings = type === 'VARCHAR' ? new Utf8Builder(n) : null;
    this.values = type === 'VARCHAR' || type === 'NULL' ? null : type === 'BOOLEAN' ? new Uint8Array(byteLength(n)) : newValues(type, n);
    this.valid = new Uint8Array(byteLength(n)).fill(0xff);
  }

  push(v: LiteralValue): void {
    const i = this.row++;
    if (v === null) {
      this.nulls++;
      this.valid[i >> 3]! &= ~(1 << (i & 7));
      if (this.strings !== null) this.strings.appendNull();
      return;
    }
    if (this.strings !== null) { this.strings.appendString(String(v)); return; }
    const a = this.values;
    if (a instanceof BigInt64Array) a[i] = typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v)));
    else if (this.type === 'BOOLEAN') { if (v === true) a![i >> 3]! |= 1 << (i & 7); }
    else if (a !== null) a[i] = Number(v);
  }

  finish(): arrow.Data {
    if (this.strings !== null) return this.strings.finish();
    if (this.type === 'NULL') return arrow.makeData({ type: new arrow.Null(), length: this.n });
    return makeColumn(this.type, this.values!, this.nulls === 0 ? null : this.valid, this.n);
  }
}
