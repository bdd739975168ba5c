/**
 * Constant columns: n rows of one literal value of a SqlType (literals,
 * all-NULL columns, now()).
 */
import * as arrow from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import type { LiteralValue } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import { allOnes, byteLength, newBits } from './bitmap.js';
import { arrowTypeOf, makeColumn, makeUtf8, newValues, nullColumn } from './column.js';
import { parseText } from './text.js';
import { encodeUtf8 } from './utf8.js';

/** Builds a constant column of n rows (value in literal convention; a string for DATE/TIMESTAMP is parsed). */
export function constantData(value: LiteralValue, type: SqlType, n: number): arrow.Data {
  if (type === 'NULL') return nullColumn(n);
  if (value === null) return allNull(type, n);
  switch (type) {
    case 'BOOLEAN': return makeColumn(type, value === true ? allOnes(n) : newBits(n), null, n);
    case 'VARCHAR': {
      const bytes = encodeUtf8(String(value));
      const len = bytes.length;
      const data = new Uint8Array(len * n);
      const offsets = new Int32Array(n + 1);
      for (let i = 0; i < n; i++) { data.set(bytes, i * len); offsets[i + 1] = (i + 1) * len; }
      return makeUtf8(offsets, data, null, n);
    }
    case 'BIGINT': case 'TIMESTAMP': {
      const v = typeof value === 'string' ? parseText(value, type) : value;
      if (typeof v !== 'number' && typeof v !== 'bigint') throw new InternalError(`bad ${type} literal ${String(value)}`);
      return makeColumn(type, new BigInt64Array(n).fill(typeof v === 'bigint' ? v : BigInt(Math.round(v))), null, n);
    }
    default: {
      const v = typeof value === 'string' ? parseText(value, type) : value;
      if (typeof v !== 'number' && typeof v !== 'bigint' && typeof v !== 'boolean') throw new InternalError(`bad ${type} literal ${String(value)}`);
      const out = newValues(type, n) as Int32Array | Float64Array;
      out.fill(Number(v));
      return makeColumn(type, out, null, n);
    }
  }
}

function allNull(type: SqlType, n: number): arrow.Data {
  const valid = newBits(n);
  if (type === 'VARCHAR') return arrow.makeData({ type: arrowTypeOf(type) as arrow.Utf8, length: n, nullCount: n, nullBitmap: valid, valueOffsets: new Int32Array(n + 1), data: new Uint8Array(0) });
  const values = type === 'BOOLEAN' ? new Uint8Array(byteLength(n)) : newValues(type, n);
  return arrow.makeData({ type: arrowTypeOf(type) as arrow.Int32, length: n, nullCount: n, nullBitmap: valid, data: values as Int32Array });
}
