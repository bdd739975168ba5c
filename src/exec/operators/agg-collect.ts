/**
 * Aggregates that keep their group's values: median, quantile_cont,
 * quantile_disc (sorted once, at the end) and string_agg (concatenated in
 * arrival order, or sorted by its ORDER BY keys). Merging appends the other
 * state's values, so they run at any parallelism; the quantiles do not
 * depend on the order at all. DuckDB's definitions: quantile_cont
 * interpolates at (n − 1)·q, quantile_disc takes the value at ⌈n·q⌉ − 1;
 * over DATE or TIMESTAMP the interpolation is in milliseconds and the result
 * a TIMESTAMP; median of strings is the lower middle value. NULLs are
 * skipped; no values gives NULL.
 */
import type { Data } from 'apache-arrow';
import type { AggCall } from '../../relnode/rel.js';
import type { LiteralValue } from '../../relnode/rex.js';
import { MS_PER_DAY, type SqlType } from '../../relnode/types.js';
import { compareCodePoints } from '../kernels/math-lib.js';
import { OutputColumn } from '../kernels/rowwise.js';
import { readValue } from '../kernels/value-at.js';
import type { AggState } from './agg-arrays.js';

/** Total order of non-NULL values of one SqlType (NaN after every number, strings by code point). */
export function compareValues(a: LiteralValue, b: LiteralValue): number {
  if (typeof a === 'string') return compareCodePoints(a, b as string);
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'bigint') return a < (b as bigint) ? -1 : a > (b as bigint) ? 1 : 0;
  const x = a as number, y = b as number;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Per-group lists, grown on demand. */
class GroupLists<T> {
  lists: (T[] | undefined)[] = [];
  resize(groups: number): void { if (this.lists.length < groups) this.lists.length = groups; }
  push(g: number, v: T): void { (this.lists[g] ??= []).push(v); }
  mergeFrom(other: GroupLists<T>, map: Int32Array): void {
    for (let j = 0; j < map.length; j++) {
      const o = other.lists[j];
      if (o === undefined) continue;
      const g = map[j]!;
      const mine = this.lists[g];
      if (mine === undefined) this.lists[g] = o.slice();
      else for (const v of o) mine.push(v);
    }
  }
}

/** median, quantile_cont, quantile_disc. */
export class QuantileState implements AggState {
  private readonly values = new GroupLists<LiteralValue>();
  private q = 0.5;
  constructor(private readonly call: AggCall, private readonly argType: SqlType) {}
  resize(groups: number): void { this.values.resize(groups); }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const d = args[0]!;
    if (args[1] !== undefined && n > 0) this.q = Number(readValue(args[1], 0));
    for (let i = 0; i < n; i++) {
      const v = readValue(d, i);
      if (v !== null) this.values.push(gids[i]!, this.argType === 'DATE' && this.call.type === 'TIMESTAMP' ? (v as number) * MS_PER_DAY : v);
    }
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as QuantileState;
    this.q = o.q;
    this.values.mergeFrom(o.values, map);
  }
  private result(list: LiteralValue[] | undefined): LiteralValue {
    if (list === undefined || list.length === 0) return null;
    list.sort(compareValues);
    const n = list.length;
    const disc = this.call.fn === 'quantile_disc' || this.call.type === 'VARCHAR';
    if (disc) {
      const q = this.call.fn === 'median' ? 0.5 : this.q;
      return list[this.call.fn === 'median' ? Math.floor((n - 1) / 2) : Math.max(0, Math.ceil(n * q) - 1)]!;
    }
    const pos = (n - 1) * this.q;
    const lo = Math.floor(pos), hi = Math.ceil(pos);
    const a = Number(list[lo]!), b = Number(list[hi]!);
    const r = lo === hi ? a : a + (pos - lo) * (b - a);
    return this.call.type === 'TIMESTAMP' ? Math.floor(r) : r;
  }
  value(start: number, end: number): Data {
    const out = new OutputColumn(this.call.type, end - start);
    for (let g = start; g < end; g++) out.push(this.result(this.values.lists[g]));
    return out.finish();
  }
}

interface Piece { readonly s: string; readonly sep: string | null; readonly keys: readonly LiteralValue[] }

/** string_agg(s[, sep] [ORDER BY ...]). */
export class StringAggState implements AggState {
  private readonly pieces = new GroupLists<Piece>();
  private readonly order: NonNullable<AggCall['order']>;
  constructor(private readonly call: AggCall) { this.order = call.order ?? []; }
  resize(groups: number): void { this.pieces.resize(groups); }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    const k = this.order.length;
    const sepCol = args.length - k > 1 ? args[1]! : null;
    const keyCols = args.slice(args.length - k);
    for (let i = 0; i < n; i++) {
      const v = readValue(args[0]!, i);
      if (v === null) continue;
      const sep = sepCol === null ? ',' : (readValue(sepCol, i) as string | null);
      this.pieces.push(gids[i]!, { s: String(v), sep, keys: keyCols.map((c) => readValue(c, i)) });
    }
  }
  merge(other: AggState, map: Int32Array): void { this.pieces.mergeFrom((other as StringAggState).pieces, map); }
  private compare = (a: Piece, b: Piece): number => {
    for (let k = 0; k < this.order.length; k++) {
      const o = this.order[k]!;
      const x = a.keys[k]!, y = b.keys[k]!;
      if (x === null || y === null) {
        if (x === y) continue;
        return (x === null) === o.nullsFirst ? -1 : 1;
      }
      const c = compareValues(x, y);
      if (c !== 0) return o.desc ? -c : c;
    }
    return 0;
  };
  private result(list: Piece[] | undefined): string | null {
    if (list === undefined || list.length === 0) return null;
    if (this.order.length > 0) list.sort(this.compare);
    let out = list[0]!.s;
    for (let i = 1; i < list.length; i++) {
      const p = list[i]!;
      if (p.sep === null) return null;
      out += p.sep + p.s;
    }
    return list[0]!.sep === null ? null : out;
  }
  value(start: number, end: number): Data {
    const out = new OutputColumn('VARCHAR', end - start);
    for (let g = start; g < end; g++) out.push(this.result(this.pieces.lists[g]));
    return out.finish();
  }
}
