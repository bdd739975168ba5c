/**
 * Row gathering for kernels: builds a column whose row i is row `srcRow[i]` of
 * source `srcIdx[i]`. It merges CASE/COALESCE branches and compacts the rows a
 * guarded sub-expression must be evaluated on (see selection.ts).
 */
import type * as arrow from 'apache-arrow';
import type { SqlType } from '../../relnode/types.js';
import { allOnes, boolBitsOf, newBits, validityOf } from './bitmap.js';
import { isNullType, makeColumn, newValues, nullColumn } from './column.js';
import { pairs } from './int64.js';
import { strView, Utf8Builder } from './utf8.js';

/**
 * A Data of type t and n rows; row i is row srcRow[i] (i when srcRow is null) of
 * sources[srcIdx[i]] (source 0 when srcIdx is null). Sources are Data of type t or Null.
 */
export function gather(t: SqlType, sources: readonly arrow.Data[], srcIdx: Uint8Array | Uint16Array | null, srcRow: Int32Array | null, n: number): arrow.Data {
  if (t === 'NULL') return nullColumn(n);
  const valids = sources.map((d) => validityOf(d));
  const valid = allOnes(n);
  let anyNull = false;
  const isValid = (i: number): boolean => {
    const s = srcIdx === null ? 0 : srcIdx[i]!;
    const r = srcRow === null ? i : srcRow[i]!;
    const vd = valids[s]!;
    if (vd === null || ((vd[r >> 3]! >> (r & 7)) & 1) !== 0) return true;
    valid[i >> 3]! &= ~(1 << (i & 7));
    anyNull = true;
    return false;
  };
  if (t === 'VARCHAR') {
    const views = sources.map((d) => strView(d));
    const b = new Utf8Builder(n);
    for (let i = 0; i < n; i++) {
      if (!isValid(i)) { b.appendNull(); continue; }
      const v = views[srcIdx === null ? 0 : srcIdx[i]!]!;
      const r = srcRow === null ? i : srcRow[i]!;
      const k = v.codes === null ? r : v.codes[r]!;
      b.appendBytes(v.entries.bytes, v.entries.offsets[k]!, v.entries.offsets[k + 1]!);
    }
    return b.finish();
  }
  if (t === 'BOOLEAN') {
    const bits = sources.map((d) => (isNullType(d) ? newBits(d.length) : boolBitsOf(d)));
    const out = newBits(n);
    for (let i = 0; i < n; i++) {
      if (!isValid(i)) continue;
      const r = srcRow === null ? i : srcRow[i]!;
      if ((bits[srcIdx === null ? 0 : srcIdx[i]!]![r >> 3]! >> (r & 7)) & 1) out[i >> 3]! |= 1 << (i & 7);
    }
    return makeColumn(t, out, anyNull ? valid : null, n);
  }
  const out = newValues(t, n);
  if (out instanceof BigInt64Array) {
    const o = pairs(out, n);
    const src = sources.map((d) => (isNullType(d) ? new Int32Array(2 * d.length) : pairs(d.values as BigInt64Array, d.length)));
    for (let i = 0; i < n; i++) {
      if (!isValid(i)) continue;
      const r = srcRow === null ? i : srcRow[i]!;
      const v = src[srcIdx === null ? 0 : srcIdx[i]!]!;
      o[2 * i] = v[2 * r]!;
      o[2 * i + 1] = v[2 * r + 1]!;
    }
  } else {
    const src = sources.map((d) => (isNullType(d) ? new Float64Array(d.length) : (d.values as Int32Array | Float64Array)));
    for (let i = 0; i < n; i++) {
      if (!isValid(i)) continue;
      out[i] = src[srcIdx === null ? 0 : srcIdx[i]!]![srcRow === null ? i : srcRow[i]!]!;
    }
  }
  return makeColumn(t, out, anyNull ? valid : null, n);
}
