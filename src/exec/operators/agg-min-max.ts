/**
 * min and max as aggregate states (see agg-states.ts), one class per physical
 * representation: 32-bit ints (INTEGER, DATE), doubles (under the total
 * order of float-order.ts: NaN is larger than every number, as in DuckDB),
 * 64-bit ints compared as (hi, lo) words without BigInt (BIGINT, TIMESTAMP),
 * booleans, and strings in UTF-8 byte order
 * (= code point order). Dictionary strings compare by dictionary rank within a
 * batch; only each group's batch winner is compared as bytes.
 */
import { Type, makeData, type Data, type Utf8 } from 'apache-arrow';
import type { SqlType } from '../../relnode/types.js';
import { toArrowType } from '../../relnode/types.js';
import { nullData } from '../batch.js';
import { dictionaryValues } from '../batch-concat.js';
import { doubleGt, doubleLt } from '../kernels/float-order.js';
import { maxOfDoubles, minOfDoubles } from './double-extremes.js';
import { growF64, growI32, growU8, isNullAt, validityOf, type AggState } from './agg-arrays.js';

class MinMaxI32 implements AggState {
  private best = new Int32Array(16);
  private seen = new Uint8Array(16);
  constructor(private readonly max: boolean, private readonly type: SqlType) {}
  resize(groups: number): void { this.best = growI32(this.best, groups); this.seen = growU8(this.seen, groups); }
  reserve(groups: number): void { this.resize(groups); }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    if (d.typeId === Type.Null) return;
    const v = d.values as Int32Array;
    const best = this.best;
    const seen = this.seen;
    const masked = d.nullCount > 0;
    const max = this.max;
    for (let i = 0; i < n; i++) {
      if (masked && isNullAt(d, i)) continue;
      const g = gids[i]!;
      const x = v[i]!;
      if (seen[g] === 0) { seen[g] = 1; best[g] = x; } else if (max ? x > best[g]! : x < best[g]!) best[g] = x;
    }
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as MinMaxI32;
    for (let j = 0; j < map.length; j++) {
      if (!o.seen[j]) continue;
      const g = map[j]!;
      const x = o.best[j]!;
      if (!this.seen[g] || (this.max ? x > this.best[g]! : x < this.best[g]!)) { this.best[g] = x; this.seen[g] = 1; }
    }
  }
  value(start: number, end: number): Data {
    const { bitmap, nulls } = validityOf(this.seen, start, end);
    return makeData({ type: toArrowType(this.type) as never, length: end - start, nullCount: nulls, nullBitmap: bitmap, data: this.best.slice(start, end) });
  }
}

class MinMaxF64 implements AggState {
  /** 8 groups to start: 64 bytes stay on the JS heap (small queries; growF64 doubles it). */
  private best = new Float64Array(8);
  private seen = new Uint8Array(16);
  constructor(private readonly max: boolean) {}
  resize(groups: number): void { this.best = growF64(this.best, groups); this.seen = growU8(this.seen, groups); }
  reserve(groups: number): void { this.resize(groups); }
  private better(x: number, b: number): boolean {
    // NaN is the largest double (float-order.ts).
    return this.max ? doubleGt(x, b) : doubleLt(x, b);
  }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    if (d.typeId === Type.Null) return;
    const v = d.values as Float64Array;
    const best = this.best;
    const seen = this.seen;
    const masked = d.nullCount > 0;
    for (let i = 0; i < n; i++) {
      if (masked && isNullAt(d, i)) continue;
      const g = gids[i]!;
      const x = v[i]!;
      if (seen[g] === 0) { seen[g] = 1; best[g] = x; } else if (this.better(x, best[g]!)) best[g] = x;
    }
  }
  addGlobal(args: readonly Data[], n: number): void {
    const d = args[0]!;
    if (d.typeId === Type.Null || n === 0) return;
    const v = d.values as Float64Array;
    let has = true;
    let b = 0;
    if (d.nullCount === 0) b = this.max ? maxOfDoubles(v, n) : minOfDoubles(v, n);
    else {
      // `better` without the direction test, one loop per direction.
      has = false;
      if (this.max) {
        for (let i = 0; i < n; i++) {
          if (isNullAt(d, i)) continue;
          const x = v[i]!;
          if (!has) { has = true; b = x; } else if (doubleGt(x, b)) b = x;
        }
      } else {
        for (let i = 0; i < n; i++) {
          if (isNullAt(d, i)) continue;
          const x = v[i]!;
          if (!has) { has = true; b = x; } else if (doubleLt(x, b)) b = x;
        }
      }
    }
    if (!has) return;
    if (this.seen[0] === 0) { this.seen[0] = 1; this.best[0] = b; } else if (this.better(b, this.best[0]!)) this.best[0] = b;
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as MinMaxF64;
    for (let j = 0; j < map.length; j++) {
      if (!o.seen[j]) continue;
      const g = map[j]!;
      if (!this.seen[g] || this.better(o.best[j]!, this.best[g]!)) { this.best[g] = o.best[j]!; this.seen[g] = 1; }
    }
  }
  value(start: number, end: number): Data {
    const { bitmap, nulls } = validityOf(this.seen, start, end);
    return makeData({ type: toArrowType('DOUBLE') as never, length: end - start, nullCount: nulls, nullBitmap: bitmap, data: this.best.slice(start, end) });
  }
}

/** 64-bit ints as (lo, hi) Int32 words: compare hi signed, then lo unsigned. */
class MinMaxI64 implements AggState {
  private best = new Int32Array(32);
  private seen = new Uint8Array(16);
  constructor(private readonly max: boolean, private readonly type: SqlType) {}
  resize(groups: number): void { this.best = growI32(this.best, 2 * groups); this.seen = growU8(this.seen, groups); }
  reserve(groups: number): void { this.resize(groups); }
  private take(g: number, lo: number, hi: number): void {
    const b = this.best;
    if (this.seen[g] === 0) { this.seen[g] = 1; b[2 * g] = lo; b[2 * g + 1] = hi; return; }
    const bh = b[2 * g + 1]!;
    const bl = b[2 * g]! >>> 0;
    const ul = lo >>> 0;
    const better = this.max ? hi > bh || (hi === bh && ul > bl) : hi < bh || (hi === bh && ul < bl);
    if (better) { b[2 * g] = lo; b[2 * g + 1] = hi; }
  }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    if (d.typeId === Type.Null) return;
    const v = d.values as BigInt64Array;
    const w = new Int32Array(v.buffer, v.byteOffset, 2 * n);
    const masked = d.nullCount > 0;
    for (let i = 0; i < n; i++) {
      if (masked && isNullAt(d, i)) continue;
      this.take(gids[i]!, w[2 * i]!, w[2 * i + 1]!);
    }
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as MinMaxI64;
    for (let j = 0; j < map.length; j++) if (o.seen[j]) this.take(map[j]!, o.best[2 * j]!, o.best[2 * j + 1]!);
  }
  value(start: number, end: number): Data {
    const { bitmap, nulls } = validityOf(this.seen, start, end);
    const data = new BigInt64Array(this.best.slice(2 * start, 2 * end).buffer);
    return makeData({ type: toArrowType(this.type) as never, length: end - start, nullCount: nulls, nullBitmap: bitmap, data: data as never });
  }
}

class MinMaxBool implements AggState {
  private best = new Uint8Array(16);
  private seen = new Uint8Array(16);
  constructor(private readonly max: boolean) {}
  resize(groups: number): void { this.best = growU8(this.best, groups); this.seen = growU8(this.seen, groups); }
  private take(g: number, x: number): void {
    if (this.seen[g] === 0) { this.seen[g] = 1; this.best[g] = x; } else this.best[g] = this.max ? this.best[g]! | x : this.best[g]! & x;
  }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    if (d.typeId === Type.Null) return;
    const bits = d.values as Uint8Array;
    const masked = d.nullCount > 0;
    for (let i = 0; i < n; i++) {
      if (masked && isNullAt(d, i)) continue;
      const b = d.offset + i;
      this.take(gids[i]!, (bits[b >> 3]! >> (b & 7)) & 1);
    }
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as MinMaxBool;
    for (let j = 0; j < map.length; j++) if (o.seen[j]) this.take(map[j]!, o.best[j]!);
  }
  value(start: number, end: number): Data {
    const { bitmap, nulls } = validityOf(this.seen, start, end);
    const n = end - start;
    const bits = new Uint8Array((n + 7) >> 3);
    for (let i = 0; i < n; i++) if (this.best[start + i]) bits[i >> 3]! |= 1 << (i & 7);
    return makeData({ type: toArrowType('BOOLEAN') as never, length: n, nullCount: nulls, nullBitmap: bitmap, data: bits });
  }
}

/** Compares bytes [s, e) of `a` with all of `b` in byte order. */
function compareBytes(a: Uint8Array, s: number, e: number, b: Uint8Array): number {
  const la = e - s;
  const m = la < b.length ? la : b.length;
  for (let k = 0; k < m; k++) {
    const d = a[s + k]! - b[k]!;
    if (d !== 0) return d;
  }
  return la - b.length;
}

/** Rank of each dictionary entry in byte order, cached per dictionary. */
const RANKS = new WeakMap<object, Int32Array>();
function dictionaryRanks(d: Data): Int32Array {
  const key = d.dictionary as object;
  const hit = RANKS.get(key);
  if (hit) return hit;
  const dict = dictionaryValues(d);
  const offs = dict.valueOffsets;
  const bytes = dict.values;
  const codes = Array.from({ length: dict.length }, (_, k) => k);
  codes.sort((x, y) => compareBytes(bytes, offs[x]!, offs[x + 1]!, bytes.subarray(offs[y]!, offs[y + 1]!)));
  const rank = new Int32Array(dict.length);
  codes.forEach((c, r) => { rank[c] = r; });
  RANKS.set(key, rank);
  return rank;
}

class MinMaxStr implements AggState {
  private best: (Uint8Array | undefined)[] = [];
  /** Per group, the winning dictionary code of the current batch (-1 = none); reset after each batch. */
  private local = new Int32Array(16).fill(-1);
  constructor(private readonly max: boolean) {}
  resize(groups: number): void {
    if (groups > this.local.length) {
      const next = new Int32Array(Math.max(groups, this.local.length * 2)).fill(-1);
      next.set(this.local);
      this.local = next;
    }
  }
  private offer(g: number, bytes: Uint8Array, s: number, e: number): void {
    const cur = this.best[g];
    if (cur === undefined) { this.best[g] = bytes.slice(s, e); return; }
    const c = compareBytes(bytes, s, e, cur);
    if (this.max ? c > 0 : c < 0) this.best[g] = bytes.slice(s, e);
  }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    if (d.typeId === Type.Null) return;
    const masked = d.nullCount > 0;
    if (d.typeId === Type.Utf8) {
      const offs = d.valueOffsets as Int32Array;
      const bytes = d.values as Uint8Array;
      for (let i = 0; i < n; i++) {
        if (masked && isNullAt(d, i)) continue;
        this.offer(gids[i]!, bytes, offs[i]!, offs[i + 1]!);
      }
      return;
    }
    // Dictionary: reduce the batch by rank per group, then compare each touched group's winner once.
    const rank = dictionaryRanks(d);
    const codes = d.values as Int32Array;
    const local = this.local;
    const touched: number[] = [];
    for (let i = 0; i < n; i++) {
      if (masked && isNullAt(d, i)) continue;
      const g = gids[i]!;
      const code = codes[i]!;
      const cur = local[g]!;
      if (cur < 0) { local[g] = code; touched.push(g); } else if (this.max ? rank[code]! > rank[cur]! : rank[code]! < rank[cur]!) local[g] = code;
    }
    const dict = dictionaryValues(d) as Data<Utf8>;
    for (const g of touched) {
      const code = local[g]!;
      local[g] = -1;
      this.offer(g, dict.values, dict.valueOffsets[code]!, dict.valueOffsets[code + 1]!);
    }
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as MinMaxStr;
    for (let j = 0; j < map.length; j++) { const b = o.best[j]; if (b !== undefined) this.offer(map[j]!, b, 0, b.length); }
  }
  value(start: number, end: number): Data {
    const n = end - start;
    const offs = new Int32Array(n + 1);
    const seen = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const b = this.best[start + i];
      if (b !== undefined) seen[i] = 1;
      offs[i + 1] = offs[i]! + (b ? b.length : 0);
    }
    const bytes = new Uint8Array(offs[n]!);
    for (let i = 0; i < n; i++) { const b = this.best[start + i]; if (b) bytes.set(b, offs[i]!); }
    const { bitmap, nulls } = validityOf(seen, 0, n);
    return makeData({ type: toArrowType('VARCHAR') as never, length: n, nullCount: nulls, nullBitmap: bitmap, valueOffsets: offs, data: bytes });
  }
}

class AllNull implements AggState {
  resize(): void {}
  add(): void {}
  merge(): void {}
  value(start: number, end: number): Data { return nullData(toArrowType('NULL'), end - start); }
}

/** The min or max state for a value type. */
export function minMaxState(fn: 'min' | 'max', type: SqlType): AggState {
  const max = fn === 'max';
  switch (type) {
    case 'INTEGER': case 'DATE': return new MinMaxI32(max, type);
    case 'DOUBLE': return new MinMaxF64(max);
    case 'BIGINT': case 'TIMESTAMP': return new MinMaxI64(max, type);
    case 'BOOLEAN': return new MinMaxBool(max);
    case 'VARCHAR': return new MinMaxStr(max);
    case 'NULL': return new AllNull();
  }
}
