/**
 * any_value over VARCHAR: the first non-NULL string each group meets, kept as its own bytes.
 *
 * Why a state of its own: the generic pick (agg-library.ts PickState) reads every row as a JS
 * string, and min over strings compares every row's bytes (and ranks each new dictionary), while
 * reduce-group-keys.ts carries the string columns a GROUP BY key determines (TPC-H Q10's c_name,
 * c_address, c_comment: 114K rows, 38K groups) through an aggregate: here a row whose group has its
 * value costs one byte test, and each group copies its string once into one growing byte arena
 * (a typed array per group cost ~150 ns and GC work per string). Plain Utf8 and dictionary
 * columns (a join's build-side strings arrive as codes) alike.
 */
import { Type, makeData, type Data, type Dictionary, type Utf8, type Vector } from 'apache-arrow';
import { dictionaryData } from '../arrow-build.js';
import { toArrowType } from '../../relnode/types.js';
import { dictionaryStrings, dictionaryValues } from '../batch-concat.js';
import { growI32, growU8, isNullAt, validityOf, type AggState } from './agg-arrays.js';

export class AnyStringState implements AggState {
  /** The kept strings' bytes, back to back; group g's string is arena[at[g], at[g] + len[g]). */
  private arena = new Uint8Array(256);
  private used = 0;
  private at = new Int32Array(16);
  private len = new Int32Array(16);
  private seen = new Uint8Array(16);
  /** Codes mode: the one dictionary every batch so far carried (its type too), and each group's code in `at`. */
  private dict: Vector | undefined;
  private dictType: Dictionary | undefined;
  /** False once a batch was plain or had another dictionary: strings are kept as bytes. */
  private codesMode = true;
  resize(groups: number): void {
    this.seen = growU8(this.seen, groups);
    this.at = growI32(this.at, groups);
    this.len = growI32(this.len, groups);
  }
  /** Keeps bytes[s, e) as group g's string. */
  private keep(g: number, bytes: Uint8Array, s: number, e: number): void {
    const n = e - s;
    const a = (this.arena = growU8(this.arena, this.used + n));
    const o = this.used;
    if (n > 24) a.set(bytes.subarray(s, e), o); // memcpy beats a byte loop past a few words
    else for (let k = 0; k < n; k++) a[o + k] = bytes[s + k]!;
    this.seen[g] = 1;
    this.at[g] = o;
    this.len[g] = n;
    this.used = o + n;
  }
  add(args: readonly Data[], gids: Int32Array, n: number): void {
    this.pick(args[0]!, gids, null, n);
  }
  /** Reads rows sel[j] in place (hash-aggregate.ts late materialization: no gather of the strings first). */
  addSelected(args: readonly Data[], gids: Int32Array, sel: Int32Array, m: number): void {
    this.pick(args[0]!, gids, sel, m);
  }
  /** Keeps, for each group not yet seen, the string of its first non-NULL row (row sel[j], or j). */
  private pick(d: Data, gids: Int32Array, sel: Int32Array | null, n: number): void {
    if (d.typeId === Type.Null) return;
    const masked = d.nullCount > 0;
    const seen = this.seen;
    const dictionary = d.typeId !== Type.Utf8;
    if (this.codesMode && dictionary) {
      const v = d.dictionary as Vector;
      if (this.dict === undefined) { this.dict = v; this.dictType = d.type as Dictionary; }
      if (this.dict === v) {
        const codes = d.values as Int32Array;
        const at = this.at;
        for (let j = 0; j < n; j++) {
          const g = gids[j]!;
          if (seen[g] !== 0) continue;
          const i = sel === null ? j : sel[j]!;
          if (masked && isNullAt(d, i)) continue;
          seen[g] = 1;
          at[g] = codes[i]!;
        }
        return;
      }
    }
    if (this.codesMode) this.toBytes();
    const strings = dictionary ? dictionaryValues(d) as Data<Utf8> : d as Data<Utf8>;
    const bytes = strings.values;
    const offs = strings.valueOffsets;
    const codes = dictionary ? d.values as Int32Array : null;
    for (let j = 0; j < n; j++) {
      const g = gids[j]!;
      if (seen[g] !== 0) continue;
      const i = sel === null ? j : sel[j]!;
      if (masked && isNullAt(d, i)) continue;
      const k = codes === null ? i : codes[i]!;
      this.keep(g, bytes, offs[k]!, offs[k + 1]!);
    }
  }
  /** Leaves codes mode: every kept code becomes its string's bytes. */
  private toBytes(): void {
    this.codesMode = false;
    if (this.dict === undefined) return;
    const strings = dictionaryStrings(this.dict);
    const bytes = strings.values;
    const offs = strings.valueOffsets;
    this.dict = undefined;
    const seen = this.seen;
    for (let g = 0; g < seen.length; g++) {
      if (seen[g] === 0) continue;
      const k = this.at[g]!;
      seen[g] = 0;
      this.keep(g, bytes, offs[k]!, offs[k + 1]!);
    }
  }
  merge(other: AggState, map: Int32Array): void {
    const o = other as AnyStringState;
    if (this.codesMode) this.toBytes();
    if (o.codesMode) o.toBytes();
    for (let j = 0; j < map.length; j++) {
      const g = map[j]!;
      if (o.seen[j] === 1 && this.seen[g] === 0) this.keep(g, o.arena, o.at[j]!, o.at[j]! + o.len[j]!);
    }
  }
  value(start: number, end: number): Data {
    const n = end - start;
    if (this.codesMode && this.dict !== undefined) {
      const { bitmap, nulls } = validityOf(this.seen, start, end);
      return dictionaryData(this.dictType!, n, nulls, bitmap, this.at.slice(start, end), this.dict);
    }
    const offs = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) offs[i + 1] = offs[i]! + (this.seen[start + i] ? this.len[start + i]! : 0);
    const bytes = new Uint8Array(offs[n]!);
    for (let i = 0; i < n; i++) {
      const g = start + i;
      if (this.seen[g]) bytes.set(this.arena.subarray(this.at[g]!, this.at[g]! + this.len[g]!), offs[i]!);
    }
    const { bitmap, nulls } = validityOf(this.seen, start, end);
    return makeData({ type: toArrowType('VARCHAR') as never, length: n, nullCount: nulls, nullBitmap: bitmap, valueOffsets: offs, data: bytes });
  }
}
