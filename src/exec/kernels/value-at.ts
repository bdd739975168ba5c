/**
 * Reading single values of a Data in eddy's literal convention (number for
 * INTEGER/DOUBLE/DATE days/TIMESTAMP ms, bigint for BIGINT, string, boolean,
 * null). For tests, small results, the planner and per-row text casts; never
 * in a numeric hot loop.
 */
import * as arrow from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import type { LiteralValue } from '../../relnode/rex.js';
import { MS_PER_DAY } from '../../relnode/types.js';
import { dictionaryEntries, decodeUtf8 } from './utf8.js';

const MS_PER_UNIT: Record<number, number> = {
  [arrow.TimeUnit.SECOND]: 1000,
  [arrow.TimeUnit.MILLISECOND]: 1,
  [arrow.TimeUnit.MICROSECOND]: 1e-3,
  [arrow.TimeUnit.NANOSECOND]: 1e-6,
};

/** True when row i of d is not NULL. */
export function isValidAt(d: arrow.Data, i: number): boolean {
  if (d.typeId === arrow.Type.Null) return false;
  if (d.nullCount === 0) return true;
  const bm = d.nullBitmap;
  if (bm === undefined || bm.length === 0) return false;
  const j = d.offset + i;
  return ((bm[j >> 3]! >> (j & 7)) & 1) !== 0;
}

/** Reads one value of a Data at row i in literal convention. */
export function readValue(d: arrow.Data, i: number): LiteralValue {
  if (i < 0 || i >= d.length) throw new InternalError(`row ${i} out of range for a column of ${d.length} rows`);
  if (!isValidAt(d, i)) return null;
  const t = d.type as arrow.DataType;
  switch (d.typeId) {
    case arrow.Type.Bool: {
      const j = d.offset + i;
      return (((d.values as Uint8Array)[j >> 3]! >> (j & 7)) & 1) !== 0;
    }
    case arrow.Type.Int: {
      const v = (d.values as ArrayLike<number | bigint>)[i]!;
      return (t as arrow.Int).bitWidth === 64 ? BigInt(v) : Number(v);
    }
    case arrow.Type.Float: return Number((d.values as Float64Array)[i]);
    case arrow.Type.Utf8: {
      const o = d.valueOffsets;
      return decodeUtf8(d.values as Uint8Array, o[i]!, o[i + 1]!);
    }
    case arrow.Type.Dictionary: {
      const e = dictionaryEntries(d.dictionary as arrow.Vector);
      const k = (d.values as Int32Array)[i]!;
      if (e.valid !== null && ((e.valid[k >> 3]! >> (k & 7)) & 1) === 0) return null;
      return decodeUtf8(e.bytes, e.offsets[k]!, e.offsets[k + 1]!);
    }
    case arrow.Type.Date: {
      const v = (d.values as Int32Array | BigInt64Array)[i]!;
      return (t as arrow.Date_).unit === arrow.DateUnit.DAY ? Number(v) : Math.floor(Number(v) / MS_PER_DAY);
    }
    case arrow.Type.Timestamp:
      return Number((d.values as BigInt64Array)[i]!) * MS_PER_UNIT[(t as arrow.Timestamp).unit]!;
    default:
      throw new InternalError(`cannot read a value of Arrow type ${String(t)}`);
  }
}
