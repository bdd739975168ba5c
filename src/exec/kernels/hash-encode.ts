/**
 * Encodes the key columns of a batch into fixed-width int32 words per row, the
 * form `hash.ts` hashes and compares: INTEGER/DATE/BOOLEAN → 1 word,
 * BIGINT/TIMESTAMP/DOUBLE → 2 words (the 64-bit pattern; DOUBLE normalizes
 * -0 and NaN), VARCHAR → 1 word (an interned string id; Dictionary columns map
 * codes through a per-dictionary remap table, built once per dictionary).
 *
 * Arrow JS slices pre-slice `values` and `valueOffsets`: they are indexed
 * from 0; only bit-packed buffers (validity, Bool values) add `data.offset`.
 *
 * Words are row-major (W per row). One Int32 column without conversion, or one
 * Int64 column, is encoded without copying (a view of the Arrow buffer).
 *
 * NULLs: a GROUP BY's encode (`fold`) writes a NULL as its column's NULL word (hash-null-words.ts),
 * so keys with NULLs take the same loops as the others; a join's flags its NULL rows (FLAG_NULL).
 *
 * Selection (late materialization): with `sel`, output row i encodes column
 * row sel[i], read in place. A filtered aggregate used to gather its key
 * columns first: for TPC-H Q1's two VARCHAR keys that copy (takeUtf8) cost
 * more than interning them.
 */
import { Type, type Data } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import type { SqlType } from '../../relnode/types.js';
import { canonicalDouble } from './float-order.js';
import type { StringInterner } from './hash-interner.js';
import { ShortStringIds } from './hash-short-strings.js';
import { DictionaryIds } from './hash-dictionary-ids.js';
import { foldInt32, initialNullWords, markApart, mayHoldNull, nullWordExact, writeNullWords, STR_NULL } from './hash-null-words.js';

/** How one key column is encoded. */
export type KeyKind = 'i32' | 'i64' | 'f64' | 'str';

/** Words per row for each kind. */
export function kindWords(k: KeyKind): number {
  return k === 'i64' || k === 'f64' ? 2 : 1;
}

/** The key kind of a SqlType (GROUP BY, DISTINCT, set operations: both sides have the same type). */
export function keyKindOf(t: SqlType): KeyKind {
  switch (t) {
    case 'BOOLEAN': case 'INTEGER': case 'DATE': case 'NULL': return 'i32';
    case 'BIGINT': case 'TIMESTAMP': return 'i64';
    case 'DOUBLE': return 'f64';
    case 'VARCHAR': return 'str';
  }
}

/** The key kind both sides of an equi-join key encode to (INTEGER = BIGINT compares as 64-bit, numbers = DOUBLE as doubles, DATE = TIMESTAMP as ms). */
export function joinKeyKind(a: SqlType, b: SqlType): KeyKind {
  const ka = keyKindOf(a === 'NULL' ? b : a);
  const kb = keyKindOf(b === 'NULL' ? a : b);
  if (ka === kb) return (a === 'DATE') !== (b === 'DATE') && (a === 'TIMESTAMP' || b === 'TIMESTAMP') ? 'i64' : ka;
  if (ka === 'str' || kb === 'str') throw new InternalError(`join key types ${a} and ${b} do not compare`);
  if (ka === 'f64' || kb === 'f64') return 'f64';
  return 'i64';
}

/**
 * Row flags: FLAG_NULL = some key column is NULL (join encodes only: a GROUP BY's encode folds NULLs
 * into words); FLAG_MISS = a string is absent from the interner (lookup only: cannot match);
 * FLAG_APART = a value equals its column's NULL word (hash-null-words.ts: the per-row path).
 */
export const FLAG_NULL = 1;
export const FLAG_MISS = 2;
export const FLAG_APART = 4;

/** Encoded keys of `n` rows. */
export interface EncodedKeys {
  /** Row-major words, W per row; a NULL key column's words are its NULL word when folded, else undefined (the row is flagged). */
  readonly words: Int32Array;
  /** Per-row flags (FLAG_NULL | FLAG_MISS | FLAG_APART), or null when no row has any. */
  readonly flags: Uint8Array | null;
}

/**
 * Writes the ids of rows rows[i0..n) while each is a one-byte string already in `one` (id + 1 by
 * byte) or the empty string once in it (id + 1 at EMPTY: a NULL row's string is empty, so a column
 * of flags with NULLs stays in this loop); returns the first row index that is not (n when all were).
 */
function fillOneByte(offs: Int32Array, bytes: Uint8Array, rows: Int32Array, one: Int32Array, words: Int32Array, W: number, pos: number, i0: number, n: number): number {
  for (let i = i0; i < n; i++) {
    const r = rows[i]!;
    const s = offs[r]!;
    const len = offs[r + 1]! - s;
    if (len !== 1) {
      if (len !== 0 || one[EMPTY] === 0) return i;
      words[i * W + pos] = one[EMPTY]! - 1;
      continue;
    }
    const id1 = one[bytes[s]!]!;
    if (id1 === 0) return i;
    words[i * W + pos] = id1 - 1;
  }
  return n;
}

/** The short-string caches before a Utf8 column needs them (never written: fillStr allocates first). */
const NO_CACHE = new Int32Array(0);
/** The entry of the empty string in a one-byte table (after the 256 bytes). */
const EMPTY = 256;
/**
 * The one-byte table of an encoder that has seen only small batches: all zeros (every lookup misses
 * and falls back to the short-string cache), never written. A real table is 1 kB, off the JS heap
 * (0.5–3 µs to create): worth it from SMALL_BATCH rows on, not for a 10-row GROUP BY.
 */
const NO_ONE_BYTE = new Int32Array(EMPTY + 1);
/** Batches below this many rows do not allocate the one-byte table. */
const SMALL_BATCH = 64;

/** Encodes key columns of one fixed kind list; owns scratch buffers reused across batches. */
export class KeyEncoder {
  /** Words per row. */
  readonly W: number;
  /** Word position of each column within a row. */
  readonly positions: readonly number[];
  /** The NULL word(s) of each column at its word positions (hash-null-words.ts); a KeyTable may move one (`setNullWord`) before the column's first NULL. */
  readonly nullWords: Int32Array;
  /** Per column: 1 once a folded encode may have written its NULL word (KeyTable sets it before that encode). */
  readonly nullSeen: Uint8Array;
  private scratch = new Int32Array(0);
  private f64 = new Float64Array(0);
  /** Interned ids of dictionary entries, per dictionary (hash-dictionary-ids.ts). */
  private readonly dicts: DictionaryIds;
  /**
   * Short-string id cache (fillStr): packed bytes + 1 per slot (0 = empty), and the id. Allocated by
   * the first Utf8 column (`shortCaches`) with 16 slots (64 bytes each: V8 keeps them on the JS heap;
   * an off-heap typed array costs 0.5–3 µs, and a 10-row GROUP BY makes one encoder), grown to 1024
   * slots once the interner holds more than 8 strings (the cache only loses entries then).
   */
  private shortKeys = NO_CACHE;
  private shortIds = NO_CACHE;
  private shortShift = 28;
  /** Id + 1 of each one-byte string seen, and of the empty string at EMPTY (0 = not yet); NO_ONE_BYTE until a batch of SMALL_BATCH rows. */
  private oneByte = NO_ONE_BYTE;
  /** Ids of strings of ≤ 8 bytes in batches of SMALL_BATCH rows (hash-short-strings.ts); made on first use. */
  private midStrings: ShortStringIds | null = null;

  constructor(readonly kinds: readonly KeyKind[], readonly interner: StringInterner) {
    let w = 0;
    const pos: number[] = [];
    for (const k of kinds) { pos.push(w); w += kindWords(k); }
    this.W = w;
    this.positions = pos;
    this.dicts = new DictionaryIds(interner);
    this.nullWords = initialNullWords(kinds, w);
    this.nullSeen = new Uint8Array(kinds.length);
  }

  /** Moves column `c`'s NULL word (low word; before its first NULL: hash-null-words.ts `freeNullWord`). */
  setNullWord(c: number, lo: number): void {
    this.nullWords[this.positions[c]!] = lo;
  }

  /**
   * Encodes rows [0, n) of the columns — rows sel[0..n) when `sel` is given; `insert` adds unseen
   * strings to the interner; `fold` writes NULLs as NULL words (GROUP BY; the caller has set
   * `nullSeen` of each column that may hold one), else flags them. The result is valid until the next call.
   */
  encode(cols: readonly Data[], n: number, insert: boolean, sel: Int32Array | null = null, fold = false): EncodedKeys {
    let flags: Uint8Array | null = null;
    // Zero-copy paths: one column already in word form (a folded column with NULLs needs its NULL words written: a copy).
    if (this.kinds.length === 1 && sel === null && !(fold && mayHoldNull(cols[0]!))) {
      const d = cols[0]!;
      const k = this.kinds[0]!;
      if (k === 'i32' && (d.typeId === Type.Int || d.typeId === Type.Date) && d.values instanceof Int32Array) {
        if (!fold) flags = this.markNulls(d, n, sel, flags);
        const words = d.values.subarray(0, n);
        return { words, flags: this.markApartOf(0, d, words, n, null, flags) };
      }
      if (k === 'i64' && d.values instanceof BigInt64Array) {
        if (!fold) flags = this.markNulls(d, n, sel, flags);
        const v = d.values;
        const words = new Int32Array(v.buffer, v.byteOffset, 2 * n);
        return { words, flags: this.markApartOf(0, d, words, n, null, flags) };
      }
    }
    // The identity selection only where a column is gathered (the zero-copy paths above need none:
    // a join build's key column of n rows made an n-row identity array).
    const rows = sel ?? this.identity(n);
    if (insert) this.dicts.reserve(cols, this.kinds);
    const W = this.W;
    if (this.scratch.length < W * n) this.scratch = new Int32Array(Math.max(W * n, this.scratch.length * 2));
    const words = this.scratch.subarray(0, W * n);
    for (let c = 0; c < this.kinds.length; c++) {
      const d = cols[c]!;
      if (!fold) flags = this.markNulls(d, n, sel, flags);
      const pos = this.positions[c]!;
      const kind = this.kinds[c]!;
      const two = kindWords(kind) === 2;
      // A column of NULLs only (CAST(NULL AS ...), an outer join's missing side): NULL words, nothing to read.
      const allNull = d.typeId === Type.Null || (d.nullCount === d.length && d.length > 0);
      if (fold && kind === 'i32' && !allNull && d.nullCount > 0 && d.values instanceof Int32Array && d.typeId !== Type.Dictionary) {
        // Values and NULL words in one pass (hash-null-words.ts foldInt32).
        if (foldInt32(d, d.values, words, W, pos, this.nullWords[pos]!, n, rows, this.nullSeen[c] === 1)) flags = this.markApartOf(c, d, words, n, sel, flags);
        continue;
      }
      if (!(fold && allNull)) {
        switch (kind) {
          case 'i32': this.fillI32(d, words, W, pos, n, rows); break;
          case 'i64': this.fillI64(d, words, W, pos, n, rows); break;
          case 'f64': this.fillF64(d, words, W, pos, n, rows); break;
          case 'str': flags = this.fillStr(d, words, W, pos, n, insert, flags, rows, fold); break;
        }
      }
      if (!fold || !mayHoldNull(d)) flags = this.markApartOf(c, d, words, n, sel, flags);
      else if (writeNullWords(d, words, W, pos, two, this.nullWords[pos]!, two ? this.nullWords[pos + 1]! : 0, n, rows, this.nullSeen[c] === 1 && !nullWordExact(kind))) flags = this.markApartOf(c, d, words, n, sel, flags);
    }
    return { words, flags };
  }

  /** Sets FLAG_APART for rows whose column `c` value equals its NULL word, once the column has held a NULL (hash-null-words.ts). */
  private markApartOf(c: number, d: Data, words: Int32Array, n: number, sel: Int32Array | null, flags: Uint8Array | null): Uint8Array | null {
    const kind = this.kinds[c]!;
    if (this.nullSeen[c] === 0 || nullWordExact(kind)) return flags;
    const pos = this.positions[c]!;
    const two = kindWords(kind) === 2;
    return markApart(d, words, this.W, pos, two, this.nullWords[pos]!, two ? this.nullWords[pos + 1]! : 0, n, sel, flags, FLAG_APART);
  }

  /** Sets FLAG_NULL in `flags` (made when first needed) for `d`'s NULL rows among [0, n) or sel[0..n); a method, not a closure per encode (#10). */
  private markNulls(d: Data, n: number, sel: Int32Array | null, flags: Uint8Array | null): Uint8Array | null {
    if (d.typeId === Type.Null) {
      const f = flags ?? new Uint8Array(n);
      for (let i = 0; i < n; i++) f[i]! |= FLAG_NULL;
      return f;
    }
    if (d.nullCount === 0) return flags;
    const f = flags ?? new Uint8Array(n);
    const bm = d.nullBitmap!;
    const off = d.offset;
    const rows = sel ?? this.identity(n);
    for (let i = 0; i < n; i++) { const b = off + rows[i]!; if (((bm[b >> 3]! >> (b & 7)) & 1) === 0) f[i]! |= FLAG_NULL; }
    return f;
  }

  private ids = new Int32Array(0);
  /** 0, 1, ..., n - 1 (rows without a selection). */
  private identity(n: number): Int32Array {
    if (this.ids.length < n) {
      this.ids = new Int32Array(Math.max(n, 2 * this.ids.length));
      for (let i = 0; i < this.ids.length; i++) this.ids[i] = i;
    }
    return this.ids;
  }

  private fillI32(d: Data, words: Int32Array, W: number, pos: number, n: number, rows: Int32Array): void {
    const off = d.offset;
    if (d.typeId === Type.Null) return;
    if (d.typeId === Type.Bool) {
      const bits = d.values as Uint8Array;
      for (let i = 0; i < n; i++) { const b = off + rows[i]!; words[i * W + pos] = (bits[b >> 3]! >> (b & 7)) & 1; }
      return;
    }
    const v = d.values as ArrayLike<number>;
    if (v instanceof BigInt64Array) throw new InternalError('a 64-bit column encoded as a 32-bit key');
    for (let i = 0; i < n; i++) words[i * W + pos] = v[rows[i]!]! | 0;
  }

  private fillI64(d: Data, words: Int32Array, W: number, pos: number, n: number, rows: Int32Array): void {
    if (d.typeId === Type.Null) return;
    const v = d.values as unknown;
    if (v instanceof BigInt64Array) {
      const w32 = new Int32Array(v.buffer, v.byteOffset, 2 * v.length);
      for (let i = 0; i < n; i++) { const r = rows[i]!; words[i * W + pos] = w32[2 * r]!; words[i * W + pos + 1] = w32[2 * r + 1]!; }
      return;
    }
    const nums = v as ArrayLike<number>;
    // DATE compared with TIMESTAMP: days → ms.
    const scale = d.typeId === Type.Date ? 86_400_000 : 1;
    for (let i = 0; i < n; i++) {
      const x = nums[rows[i]!]! * scale;
      const hi = Math.floor(x / 4294967296);
      words[i * W + pos] = (x - hi * 4294967296) | 0;
      words[i * W + pos + 1] = hi | 0;
    }
  }

  private fillF64(d: Data, words: Int32Array, W: number, pos: number, n: number, rows: Int32Array): void {
    if (d.typeId === Type.Null) return;
    if (this.f64.length < n) this.f64 = new Float64Array(Math.max(n, this.f64.length * 2));
    const f = this.f64;
    const v = d.values as unknown;
    if (v instanceof BigInt64Array) for (let i = 0; i < n; i++) f[i] = Number(v[rows[i]!]!);
    else {
      const nums = v as ArrayLike<number>;
      // Normalize: -0 → 0 and every NaN → the canonical NaN, so equal doubles have equal bits (float-order.ts).
      for (let i = 0; i < n; i++) f[i] = canonicalDouble(nums[rows[i]!]!);
    }
    const w32 = new Int32Array(f.buffer, 0, 2 * n);
    for (let i = 0; i < n; i++) { words[i * W + pos] = w32[2 * i]!; words[i * W + pos + 1] = w32[2 * i + 1]!; }
  }

  private fillStr(d: Data, words: Int32Array, W: number, pos: number, n: number, insert: boolean, flags: Uint8Array | null, rows: Int32Array, fold: boolean): Uint8Array | null {
    if (d.typeId === Type.Null) return flags;
    if (d.typeId === Type.Dictionary) {
      const ids = this.dictionaryIds(d, insert);
      const codes = d.values as Int32Array;
      const hasNulls = d.nullCount > 0;
      for (let i = 0; i < n; i++) {
        const code = codes[rows[i]!]!;
        const id = hasNulls && (code < 0 || code >= ids.length) ? 0 : ids[code]!;
        if (id >= 0) words[i * W + pos] = id;
        else if (id === -2 && fold) words[i * W + pos] = STR_NULL;
        else { flags ??= new Uint8Array(n); flags[i]! |= id === -1 ? FLAG_MISS : FLAG_NULL; words[i * W + pos] = 0; }
      }
      return flags;
    }
    if (d.typeId !== Type.Utf8) throw new InternalError(`string key of Arrow type ${String(d.type)}`);
    const offs = d.valueOffsets as Int32Array;
    const bytes = d.values as Uint8Array;
    // One-byte strings (flags: TPC-H Q1's l_returnflag / l_linestatus) read their id from a 256-entry
    // table: one load per row, no hashing (bench/agg-kernels.ts "Q1 keys").
    if (this.shortKeys === NO_CACHE) this.shortCaches();
    if (this.oneByte === NO_ONE_BYTE && n >= SMALL_BATCH) this.oneByte = new Int32Array(EMPTY + 1);
    const one = this.oneByte;
    const big = n >= SMALL_BATCH;
    for (let i = fillOneByte(offs, bytes, rows, one, words, W, pos, 0, n); i < n; i = fillOneByte(offs, bytes, rows, one, words, W, pos, i + 1, n)) {
      const r = rows[i]!;
      const s = offs[r]!;
      const len = offs[r + 1]! - s;
      // One-byte and empty strings keep stringId: it fills the one-byte table that fillOneByte reads.
      const id = len > 1 && len <= 8 && big ? this.midStringId(bytes, s, len, insert) : this.stringId(bytes, s, len, insert);
      if (id < 0) { flags ??= new Uint8Array(n); flags[i]! |= FLAG_MISS; words[i * W + pos] = 0; }
      else words[i * W + pos] = id;
    }
    return flags;
  }

  private shortCaches(): void {
    this.shortKeys = new Int32Array(16);
    this.shortIds = new Int32Array(16);
    this.shortShift = 28;
  }

  /** The interned id of bytes [s, s + len), len ≤ 8, not 1 (-1: absent on lookup), through `midStrings`. */
  private midStringId(bytes: Uint8Array, s: number, len: number, insert: boolean): number {
    const cache = this.midStrings ??= new ShortStringIds();
    const hit = cache.find(bytes, s, len);
    if (hit >= 0) return hit;
    const id = this.interner.intern(bytes, s, s + len, insert);
    if (id >= 0) cache.put(len, id);
    return id;
  }

  /** The interned id of bytes [s, s + len) (-1: absent on lookup), through the short-string caches (allocated). */
  private stringId(bytes: Uint8Array, s: number, len: number, insert: boolean): number {
    if (len > 3) return this.interner.intern(bytes, s, s + len, insert);
    // Strings of at most 3 bytes (flags, codes) pack into one int: a direct-mapped cache of their ids
    // skips hashing and probing the interner. Only found ids are cached (ids never change).
    const packed = ((len === 0 ? 0 : bytes[s]! | (len > 1 ? bytes[s + 1]! << 8 : 0) | (len > 2 ? bytes[s + 2]! << 16 : 0)) << 2 | len) + 1;
    const slot = Math.imul(packed, 0x9e3779b1) >>> this.shortShift;
    if (this.shortKeys[slot] === packed) {
      const id = this.shortIds[slot]!;
      // Cached before the one-byte table existed (small batches first): add it now.
      if (len <= 1 && this.oneByte !== NO_ONE_BYTE) this.oneByte[len === 1 ? bytes[s]! : EMPTY] = id + 1;
      return id;
    }
    const id = this.interner.intern(bytes, s, s + len, insert);
    if (id >= 0) {
      if (this.shortShift !== 22 && this.interner.size > 8) {
        this.shortKeys = new Int32Array(1024);
        this.shortIds = new Int32Array(1024);
        this.shortShift = 22;
      }
      const at = Math.imul(packed, 0x9e3779b1) >>> this.shortShift;
      this.shortKeys[at] = packed;
      this.shortIds[at] = id;
      if (len <= 1 && this.oneByte !== NO_ONE_BYTE) this.oneByte[len === 1 ? bytes[s]! : EMPTY] = id + 1;
    }
    return id;
  }

  /** Is key column `c` NULL at `row` (a NULL value, or a NULL dictionary entry)? Cold path: NULL-key rows only. */
  isNullAt(cols: readonly Data[], c: number, row: number): boolean {
    const d = cols[c]!;
    if (d.typeId === Type.Null) return true;
    if (d.nullCount > 0) {
      const b = d.offset + row;
      if (((d.nullBitmap![b >> 3]! >> (b & 7)) & 1) === 0) return true;
    }
    if (d.typeId === Type.Dictionary && this.kinds[c] === 'str') {
      const ids = this.dictionaryIds(d, true);
      return ids[(d.values as Int32Array)[row]!] === -2;
    }
    return false;
  }


  /** Interned id per dictionary code of `d`: -1 for a string absent from the interner (lookup), -2 for a NULL entry (hash-dictionary-ids.ts). */
  dictionaryIds(d: Data, insert: boolean): Int32Array {
    return this.dicts.ids(d, insert);
  }
}
