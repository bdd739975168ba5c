/**
 * Hash tables over row keys of several columns: each distinct key gets a
 * dense group id 0, 1, 2, ... in first-seen order. Used by hash aggregate,
 * distinct, set operations (NULL keys group together) and hash join (NULL
 * keys never match).
 *
 * Keys are encoded into int32 words (hash-encode.ts) and stored in an
 * open-addressing table: one Int32Array of slots (gid + 1, then W words),
 * linear probing, load ≤ 1/2. The loops are specialized for W = 1 (one
 * INTEGER/DATE/VARCHAR key), W = 2 (two int keys, or one BIGINT/DOUBLE key)
 * and a general W (composite keys serialized into words). One dictionary
 * VARCHAR key maps codes to group ids through a per-dictionary table
 * (hash-dictionary.ts), so a row costs one array read; so do one or two VARCHAR keys whose strings are
 * all one byte (hash-byte-keys.ts: TPC-H Q1's flags as plain Utf8). Keys
 * containing a NULL (group-by only) are rare and go to a Map keyed by their
 * words and null mask (hash-null-keys.ts); a frozen join table over one dense
 * 32-bit key is read through a direct-mapped array (hash-direct.ts). A big table grows
 * incrementally (hash-slots.ts), so no call does more than O(its rows) work.
 */
import { Type, type Data } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import type { SqlType } from '../../relnode/types.js';
import { FLAG_NULL, KeyEncoder, keyKindOf, type KeyKind } from './hash-encode.js';
import { ByteKeys, type KeyRows } from './hash-byte-keys.js';
import { CodePairs } from './hash-code-pairs.js';
import { DictionaryGids, type DictGids } from './hash-dictionary.js';
import { directFromGroups, directRangeFits, findDirect, type DirectMap } from './hash-direct.js';
import { StringInterner } from './hash-interner.js';
import { NullKeyGroups } from './hash-null-keys.js';
import { materializeKey } from './hash-output.js';
import { MOVE_MIN, SlotTable, hashWords } from './hash-slots.js';

export { joinKeyKind, keyKindOf, type KeyKind } from './hash-encode.js';


const MODE_GROUP = 0;
const MODE_BUILD = 1;
const MODE_FIND = 2;


/** A growable table from row keys to dense group ids. */
export class KeyTable {
  /** Words per key. */
  readonly W: number;
  /** Number of groups (distinct keys). */
  size = 0;
  private readonly encoder: KeyEncoder;
  private readonly interner = new StringInterner();
  /** The open-addressing slots and their incremental growth (hash-slots.ts). */
  private readonly t: SlotTable;
  /** Words of each group, W per gid (group-ordered: for output and rehashing). */
  private groupWords: Int32Array;
  /** Per gid: 1 when the key contains a NULL (the key lives in `nulls`, not in `slots`). */
  private groupHasNull: Uint8Array;
  private readonly nulls = new NullKeyGroups();
  /** After freeze: the direct-mapped lookup of one dense 32-bit key (hash-direct.ts), or null. */
  private direct: DirectMap | null = null;
  private frozen = false;
  /** Groups re-inserted into grown slots during the last call (bounded work per call; tests, metrics). */
  get lastMoved(): number { return this.t.lastMoved; }
  /** One dictionary VARCHAR key: code → gid per dictionary (hash-dictionary.ts). */
  private readonly dicts = new DictionaryGids();
  /** One-byte VARCHAR keys → gid (hash-byte-keys.ts); null unless every key column is VARCHAR. */
  private readonly byteKeys: ByteKeys | null;
  private readonly codePairs: CodePairs | null;

  /**
   * @param types the key columns' SQL types (decide how groups are output)
   * @param kinds how keys are encoded (defaults from types; joins pass a common kind per key pair)
   */
  constructor(readonly types: readonly SqlType[], kinds?: readonly KeyKind[]) {
    this.encoder = new KeyEncoder(kinds ?? types.map(keyKindOf), this.interner);
    this.W = this.encoder.W;
    this.byteKeys = this.encoder.kinds.every((k) => k === 'str') && this.encoder.kinds.length <= 2 ? new ByteKeys() : null;
    this.codePairs = this.encoder.kinds.length === 2 && this.byteKeys !== null ? new CodePairs() : null;
    this.t = new SlotTable(this.W);
    this.groupWords = new Int32Array(16 * Math.max(1, this.W));
    this.groupHasNull = new Uint8Array(16);
  }

  /**
   * Group id per row, inserting new keys; keys with NULLs group together (NULL = NULL). With `sel`,
   * out[i] is the group of column row sel[i] (i < n): the columns are read in place, not gathered.
   */
  groupIds(cols: readonly Data[], n: number, out: Int32Array = new Int32Array(n), sel: Int32Array | null = null): Int32Array {
    return this.run(cols, n, MODE_GROUP, out, sel);
  }

  /** Group id per row, inserting new keys; -1 for a row with a NULL key (join build: NULL never matches). */
  insertKeys(cols: readonly Data[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    return this.run(cols, n, MODE_BUILD, out);
  }

  /** Group id per row, or -1 when the key is absent or has a NULL (join probe). */
  find(cols: readonly Data[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    return this.run(cols, n, MODE_FIND, out);
  }

  private run(cols: readonly Data[], n: number, mode: number, out: Int32Array, sel: Int32Array | null = null): Int32Array {
    if (this.frozen && mode !== MODE_FIND) throw new InternalError('KeyTable: insert after freeze');
    if (cols.length !== this.types.length) throw new InternalError(`KeyTable: ${cols.length} key columns, expected ${this.types.length}`);
    if (n === 0) return out;
    this.t.lastMoved = 0;
    if (this.t.old !== null) this.t.moveSome(Math.max(2 * n, MOVE_MIN), this.groupWords, this.groupHasNull);
    if (cols.length === 1 && cols[0]!.typeId === Type.Dictionary && this.encoder.kinds[0] === 'str') return this.runDictionary(cols, n, mode, out, sel);
    if (mode === MODE_GROUP && this.byteKeys !== null && this.byteKeys.run(cols, n, sel, out, (_, r) => this.resolveRow(cols, r, mode))) return out;
    const enc = this.encoder.encode(cols, n, mode !== MODE_FIND, sel);
    if (this.direct !== null && mode === MODE_FIND) findDirect(this.direct, enc.words, enc.flags, n, out);
    else if (this.W === 1) this.run1(enc.words, enc.flags, cols, sel, n, mode, out);
    else if (this.W === 2) this.run2(enc.words, enc.flags, cols, sel, n, mode, out);
    else this.runW(enc.words, enc.flags, cols, sel, n, mode, out);
    return out;
  }

  /**
   * Inserts all rows of a join's build side (a NULL key gives -1) and
   * freezes the table: only `find` may follow. One dense 32-bit key is
   * inserted straight into the direct-mapped array (see `freeze`).
   */
  build(cols: readonly Data[], n: number): Int32Array {
    const g = this.buildSteps(cols, n, Infinity);
    for (;;) { const r = g.next(); if (r.done) return r.value; }
  }

  /**
   * `build` in bounded pieces (a join's build phase, operators/hash-join-build.ts):
   * yields after about every `step` rows of hashing, so no piece runs long.
   */
  *buildSteps(cols: readonly Data[], n: number, step: number): Generator<void, Int32Array, void> {
    if (this.size > 0 || this.W !== 1 || this.encoder.kinds[0] === 'str' || n === 0) return yield* this.insertSteps(cols, n, step);
    const enc = this.encoder.encode(cols, n, true);
    const words = enc.words;
    const flags = enc.flags;
    let min = 0x7fffffff;
    let max = -0x80000000;
    for (let i0 = 0; i0 < n; i0 += 4 * step) {
      const i1 = Math.min(n, i0 + 4 * step);
      for (let i = i0; i < i1; i++) {
        if (flags !== null && flags[i] !== 0) continue;
        const k = words[i]!;
        if (k < min) min = k;
        if (k > max) max = k;
      }
      if (i1 < n) yield;
    }
    const range = max - min + 1;
    if (!directRangeFits(range, n)) return yield* this.insertSteps(cols, n, step);
    if (n > step) yield;
    const direct = new Int32Array(range);
    const out = new Int32Array(n);
    for (let i0 = 0; i0 < n; i0 += step) {
      const i1 = Math.min(n, i0 + step);
      for (let i = i0; i < i1; i++) {
        if (flags !== null && flags[i] !== 0) { out[i] = -1; continue; }
        const k = words[i]!;
        let g = direct[k - min]! - 1;
        if (g < 0) { g = this.newGroup(words, i, 1); direct[k - min] = g + 1; }
        out[i] = g;
      }
      if (i1 < n) yield;
    }
    this.direct = { direct, min };
    this.frozen = true;
    return out;
  }

  /** The hashed build: reserve once, insert `step` rows per piece (zero-copy slices), freeze. */
  private *insertSteps(cols: readonly Data[], n: number, step: number): Generator<void, Int32Array, void> {
    this.reserve(n);
    let out: Int32Array;
    if (n <= step) out = this.insertKeys(cols, n);
    else {
      out = new Int32Array(n);
      for (let off = 0; off < n; off += step) {
        const len = Math.min(step, n - off);
        this.insertKeys(cols.map((c) => c.slice(off, len)), len, out.subarray(off, off + len));
        yield;
      }
    }
    this.freeze();
    return out;
  }

  /**
   * Makes room for `n` more distinct keys up front (a join's build side
   * knows its row count), so the table does not rehash while it fills.
   */
  reserve(n: number): void {
    if (this.frozen) throw new InternalError('KeyTable.reserve after freeze');
    this.t.reserve(n, this.size, this.groupWords, this.groupHasNull);
  }

  /**
   * Expects about `n` distinct keys in all (a planner estimate, maybe far off): once the table holds
   * EXPECT_AFTER groups (hash-slots.ts) its next grow jumps to room for `n`, so a big table does not
   * rehash at every doubling, and a small one never pays for a wrong guess.
   */
  expectKeys(n: number): void {
    if (this.frozen) throw new InternalError('KeyTable.expectKeys after freeze');
    this.t.expected = n;
  }

  /** Slots of the open-addressing table (tests: what an estimate allocated). */
  get slotCapacity(): number { return this.t.mask + 1; }

  /** Ends inserting (a join's build side is complete); one 32-bit key over a small range gets a direct-mapped lookup (hash-direct.ts). */
  freeze(): void {
    if (this.t.old !== null) this.t.moveSome(Infinity, this.groupWords, this.groupHasNull);
    this.frozen = true;
    if (this.W !== 1 || this.encoder.kinds[0] === 'str' || this.size === 0 || this.nulls.count > 0) return;
    this.direct = directFromGroups(this.groupWords, this.size);
  }

  /** The code → gid table of dictionary key column `d` for `mode`. */
  private dictEntry(d: Data, mode: number): DictGids {
    return this.dicts.entry(d, mode === MODE_FIND, this.size, () => this.encoder.dictionaryIds(d, mode !== MODE_FIND).length);
  }

  /**
   * Group-by keys a caller reads in place (hash-byte-keys.ts KeyRows): one NULL-free dictionary
   * VARCHAR key (its code → gid table, `perm` once complete), two NULL-free dictionary keys
   * (hash-code-pairs.ts) or one or two one-byte VARCHAR keys. A negative entry is not resolved yet:
   * call `resolveKeyRow` for that row, in row order, so groups keep their first-seen order. Null when
   * the batch's keys are none of these (the caller takes `groupIds`).
   */
  keyRows(cols: readonly Data[], n: number): KeyRows | null {
    if (this.frozen || this.t.old !== null) return null;
    const d = cols[0]!;
    if (cols.length === 1 && d.typeId === Type.Dictionary && this.encoder.kinds[0] === 'str') {
      if (d.nullCount !== 0) return null;
      const entry = this.dictEntry(d, MODE_GROUP);
      return { shape: 'code', a: d.values as Int32Array, ao: 0, b: null, bo: 0, map: entry.gids, perm: DictionaryGids.complete(entry) };
    }
    return this.byteKeys?.rows(cols, n) ?? this.codePairs?.rows(cols) ?? null;
  }

  /** The gid of column row `r` of a `keyRows` view (inserting it), recorded in its table. */
  resolveKeyRow(cols: readonly Data[], rows: KeyRows, r: number): number {
    if (rows.shape !== 'code') {
      const g = this.resolveRow(cols, r, MODE_GROUP);
      if (rows.shape === 'codes') CodePairs.record(rows, r, g);
      else ByteKeys.record(rows, r, g);
      return g;
    }
    const d = cols[0]!;
    const entry = this.dictEntry(d, MODE_GROUP);
    const g = this.resolveCode(cols, r, MODE_GROUP);
    DictionaryGids.set(entry, (d.values as Int32Array)[r]!, g);
    entry.size = this.size;
    return g;
  }

  /** One dictionary key: code → gid through a per-dictionary table (hash-dictionary.ts). */
  private runDictionary(cols: readonly Data[], n: number, mode: number, out: Int32Array, sel: Int32Array | null): Int32Array {
    const d = cols[0]!;
    const entry = this.dictEntry(d, mode);
    DictionaryGids.run(d, entry, n, sel, out, (r) => this.resolveCode(cols, r, mode), (i, r) => (mode === MODE_GROUP ? this.nullGroup(cols, null, i, r) : -1));
    entry.size = this.size;
    return out;
  }

  private readonly word1 = new Int32Array(1);
  private readonly gid1 = new Int32Array(1);

  /**
   * The gid of row i's dictionary entry: its interned id (cached per dictionary) looked up as one
   * word, no slice and encode of the row (a GROUP BY over 70k dictionary strings spent most of its
   * time collecting those per-group objects); a NULL or absent entry takes the generic path.
   */
  private resolveCode(cols: readonly Data[], i: number, mode: number): number {
    const d = cols[0]!;
    const id = this.encoder.dictionaryIds(d, mode !== MODE_FIND)[(d.values as Int32Array)[i]!]!;
    if (id < 0) return this.resolveRow(cols, i, mode);
    this.word1[0] = id;
    this.run1(this.word1, null, cols, null, 1, mode, this.gid1);
    return this.gid1[0]!;
  }

  /** The gid of the key at column row `r` through the generic path (one row: cold). */
  private resolveRow(cols: readonly Data[], r: number, mode: number): number {
    const ds = cols.map((d) => d.slice(r, 1));
    const one = new Int32Array(1);
    const enc = this.encoder.encode(ds, 1, mode !== MODE_FIND);
    if (this.W === 1) this.run1(enc.words, enc.flags, ds, null, 1, mode, one);
    else if (this.W === 2) this.run2(enc.words, enc.flags, ds, null, 1, mode, one);
    else this.runW(enc.words, enc.flags, ds, null, 1, mode, one);
    return one[0]!;
  }

  private run1(words: Int32Array, flags: Uint8Array | null, cols: readonly Data[], sel: Int32Array | null, n: number, mode: number, out: Int32Array): void {
    const t = this.t;
    let slots = t.slots;
    let shift = t.shift;
    let mask = t.mask;
    for (let i = 0; i < n; i++) {
      if (flags !== null && flags[i] !== 0) {
        out[i] = mode === MODE_GROUP && (flags[i]! & ~FLAG_NULL) === 0 ? this.nullGroup(cols, words, i, sel === null ? i : sel[i]!) : -1;
        continue;
      }
      const k = words[i]!;
      let s = Math.imul(k ^ (k >>> 16), 0x9e3779b1) >>> shift;
      for (;;) {
        const g1 = slots[2 * s]!;
        if (g1 === 0) {
          if (t.old !== null) { const og = t.findOld(words, i); if (og >= 0) { out[i] = og; break; } }
          if (mode === MODE_FIND) { out[i] = -1; break; }
          const gid = this.newGroup(words, i, 1);
          slots[2 * s] = gid + 1;
          slots[2 * s + 1] = k;
          out[i] = gid;
          if (++t.used * 2 > mask + 1) { t.grow(this.size, this.groupWords, this.groupHasNull); slots = t.slots; shift = t.shift; mask = t.mask; }
          break;
        }
        if (slots[2 * s + 1] === k) { out[i] = g1 - 1; break; }
        s = (s + 1) & mask;
      }
    }
  }

  private run2(words: Int32Array, flags: Uint8Array | null, cols: readonly Data[], sel: Int32Array | null, n: number, mode: number, out: Int32Array): void {
    const t = this.t;
    let slots = t.slots;
    let shift = t.shift;
    let mask = t.mask;
    for (let i = 0; i < n; i++) {
      if (flags !== null && flags[i] !== 0) {
        out[i] = mode === MODE_GROUP && (flags[i]! & ~FLAG_NULL) === 0 ? this.nullGroup(cols, words, i, sel === null ? i : sel[i]!) : -1;
        continue;
      }
      const a = words[2 * i]!;
      const b = words[2 * i + 1]!;
      let s = Math.imul(a ^ Math.imul(b ^ (b >>> 15), 0x85ebca6b) ^ (a >>> 16), 0x9e3779b1) >>> shift;
      for (;;) {
        const base = 3 * s;
        const g1 = slots[base]!;
        if (g1 === 0) {
          if (t.old !== null) { const og = t.findOld(words, 2 * i); if (og >= 0) { out[i] = og; break; } }
          if (mode === MODE_FIND) { out[i] = -1; break; }
          const gid = this.newGroup(words, 2 * i, 2);
          slots[base] = gid + 1;
          slots[base + 1] = a;
          slots[base + 2] = b;
          out[i] = gid;
          if (++t.used * 2 > mask + 1) { t.grow(this.size, this.groupWords, this.groupHasNull); slots = t.slots; shift = t.shift; mask = t.mask; }
          break;
        }
        if (slots[base + 1] === a && slots[base + 2] === b) { out[i] = g1 - 1; break; }
        s = (s + 1) & mask;
      }
    }
  }

  private runW(words: Int32Array, flags: Uint8Array | null, cols: readonly Data[], sel: Int32Array | null, n: number, mode: number, out: Int32Array): void {
    const W = this.W;
    const S = W + 1;
    const t = this.t;
    let slots = t.slots;
    let shift = t.shift;
    let mask = t.mask;
    for (let i = 0; i < n; i++) {
      if (flags !== null && flags[i] !== 0) {
        out[i] = mode === MODE_GROUP && (flags[i]! & ~FLAG_NULL) === 0 ? this.nullGroup(cols, words, i, sel === null ? i : sel[i]!) : -1;
        continue;
      }
      const rb = i * W;
      let s = Math.imul(hashWords(words, rb, W), 0x9e3779b1) >>> shift;
      for (;;) {
        const base = S * s;
        const g1 = slots[base]!;
        if (g1 === 0) {
          if (t.old !== null) { const og = t.findOld(words, rb); if (og >= 0) { out[i] = og; break; } }
          if (mode === MODE_FIND) { out[i] = -1; break; }
          const gid = this.newGroup(words, rb, W);
          slots[base] = gid + 1;
          for (let w = 0; w < W; w++) slots[base + 1 + w] = words[rb + w]!;
          out[i] = gid;
          if (++t.used * 2 > mask + 1) { t.grow(this.size, this.groupWords, this.groupHasNull); slots = t.slots; shift = t.shift; mask = t.mask; }
          break;
        }
        let w = 0;
        while (w < W && slots[base + 1 + w] === words[rb + w]) w++;
        if (w === W) { out[i] = g1 - 1; break; }
        s = (s + 1) & mask;
      }
    }
  }

  /** Appends a group with the words at `words[base..base+W)`; returns its gid. */
  private newGroup(words: Int32Array | null, base: number, W: number): number {
    const gid = this.size++;
    if ((gid + 1) * this.W > this.groupWords.length) {
      const next = new Int32Array(Math.max(this.groupWords.length * 2, (gid + 1) * this.W));
      next.set(this.groupWords);
      this.groupWords = next;
    }
    if (gid + 1 > this.groupHasNull.length) {
      const next = new Uint8Array(this.groupHasNull.length * 2);
      next.set(this.groupHasNull);
      this.groupHasNull = next;
    }
    if (words !== null) for (let w = 0; w < W; w++) this.groupWords[gid * W + w] = words[base + w]!;
    return gid;
  }

  /** The gid of encoded row i's key containing NULLs (column row `row`; group-by): NULL columns compare equal. */
  private nullGroup(cols: readonly Data[], words: Int32Array | null, i: number, row: number): number {
    const W = this.W;
    const hit = this.nulls.lookup(this.encoder, cols, words, W, i, row);
    if (typeof hit === 'number') return hit;
    const gid = this.newGroup(words, i * W, words === null ? 0 : W);
    if (words === null) this.groupWords.fill(0, gid * W, gid * W + W);
    this.groupHasNull[gid] = 1;
    this.nulls.add(hit, gid);
    return gid;
  }

  /** Key column `c` of the groups `gids[0..n)` (repeats allowed), typed by its SqlType; VARCHAR comes out as Utf8. */
  keyColumn(c: number, gids: Int32Array, n: number = gids.length): Data {
    const kind = this.encoder.kinds[c]!;
    if (kind !== keyKindOf(this.types[c]!)) throw new InternalError(`keyColumn of a ${this.types[c]} key encoded as ${kind}`);
    const isNull = this.nulls.nullTest(c, this.groupHasNull);
    return materializeKey(this.types[c]!, this.groupWords, this.W, this.encoder.positions[c]!, this.interner, isNull, gids, n);
  }

  /** Key columns of groups [start, end), in gid order. */
  keyColumns(start: number, end: number): Data[] {
    const gids = new Int32Array(end - start);
    for (let i = 0; i < gids.length; i++) gids[i] = start + i;
    return this.types.map((_, c) => this.keyColumn(c, gids));
  }
}
