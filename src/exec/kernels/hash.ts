/**
 * Hash tables over row keys of several columns: each distinct key gets a
 * dense group id 0, 1, 2, ... in first-seen order. Used by hash aggregate,
 * distinct, set operations (NULL keys group together) and hash join (NULL
 * keys never match).
 *
 * Keys are encoded into int32 words (hash-encode.ts) and looked up by the
 * probing core (hash-probe.ts: open-addressing slots, hash-slots.ts, linear
 * probing, load ≤ 1/2, or ≤ 3/4 in a join build sized by `reserve`; keys arriving in ascending order are kept as sorted
 * runs without hashing, hash-sorted.ts). This file adds the key shapes read
 * without encoding: one dictionary VARCHAR key maps codes to group ids
 * through a per-dictionary table (hash-dictionary.ts), so a row costs one
 * array read; so do one or two VARCHAR keys whose strings are all one byte
 * (hash-byte-keys.ts: TPC-H Q1's flags as plain Utf8) and two dictionary keys
 * (hash-code-pairs.ts). In a GROUP BY a NULL key column is its column's NULL
 * word (hash-null-words.ts), hashed like any value; a join's NULL keys are
 * flagged and never match. A frozen join table over one dense 32-bit key is
 * read through a direct-mapped array (hash-direct.ts).
 */
import { anchorMaps } from '../map-anchors.js';
import { Type, type Data } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import type { SqlType } from '../../relnode/types.js';
import { KeyEncoder, keyKindOf, type KeyKind } from './hash-encode.js';
import { ByteKeys, type KeyRows } from './hash-byte-keys.js';
import { CodePairs } from './hash-code-pairs.js';
import { IntKeys } from './hash-int-keys.js';
import { DictionaryGids, type DictGids } from './hash-dictionary.js';
import { directFromGroups, directRangeFits, findDirect, type DirectMap } from './hash-direct.js';
import { StringInterner } from './hash-interner.js';
import { materializeKey } from './hash-output.js';
import { HashGroups, MODE_BUILD, MODE_FIND, MODE_GROUP } from './hash-probe.js';
import { MOVE_MIN } from './hash-slots.js';
import { giveArray, takeArray } from './buffer-pool.js';

export { joinKeyKind, keyKindOf, type KeyKind } from './hash-encode.js';


/** A growable table from row keys to dense group ids. */
export class KeyTable extends HashGroups {
  private readonly interner: StringInterner;
  /** After freeze: the direct-mapped lookup of one dense 32-bit key (hash-direct.ts), or null. */
  private direct: DirectMap | null = null;
  private frozen = false;
  /** One dictionary VARCHAR key: code → gid per dictionary (hash-dictionary.ts). */
  private readonly dicts = new DictionaryGids();
  /** One-byte VARCHAR keys → gid (hash-byte-keys.ts); null unless every key column is VARCHAR. */
  private readonly byteKeys: ByteKeys | null;
  private readonly codePairs: CodePairs | null;
  /** One INTEGER/DATE key of a small domain → gid (hash-int-keys.ts); null for other keys. */
  private readonly intKeys: IntKeys | null;

  /**
   * @param types the key columns' SQL types (decide how groups are output)
   * @param kinds how keys are encoded (defaults from types; joins pass a common kind per key pair)
   */
  constructor(readonly types: readonly SqlType[], kinds?: readonly KeyKind[]) {
    const interner = new StringInterner();
    super(new KeyEncoder(kinds ?? types.map(keyKindOf), interner));
    this.interner = interner;
    this.byteKeys = this.encoder.kinds.every((k) => k === 'str') && this.encoder.kinds.length <= 2 ? new ByteKeys() : null;
    this.codePairs = this.encoder.kinds.length === 2 && this.byteKeys !== null ? new CodePairs() : null;
    this.intKeys = this.encoder.kinds.length === 1 && this.encoder.kinds[0] === 'i32' ? new IntKeys() : null;
  }

  /**
   * The owner has read its last output from this table (key columns are copies) and will not probe
   * it again: its big arrays (group words, slots, a join's direct map) go back to the thread's pool
   * (buffer-pool.ts) for the next table or state. The table is empty after. The gids that `build`
   * returned are the caller's own.
   */
  release(): void {
    this.releaseArrays();
    this.nullStringGid = -1;
    this.byteKeys?.release();
    this.intKeys?.release();
    if (this.direct !== null) giveArray(this.direct.direct);
    this.direct = null;
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
    if (this.t.pending) this.moveSome(Math.max(2 * n, MOVE_MIN));
    if (cols.length === 1 && cols[0]!.typeId === Type.Dictionary && this.encoder.kinds[0] === 'str') return this.runDictionary(cols, n, mode, out, sel);
    if (mode === MODE_GROUP && this.byteKeys !== null && this.byteKeys.run(cols, n, sel, out, (_, r) => this.resolveRow(cols, r, mode))) return out;
    if (mode === MODE_GROUP && this.intKeys !== null && this.intKeys.run(cols, n, sel, out, (_, r) => this.resolveInt(cols, r))) return out;
    const enc = this.encodeKeys(cols, n, mode, sel);
    if (this.direct !== null && mode === MODE_FIND) findDirect(this.direct, enc.words, enc.flags, n, out);
    else this.probe(enc.words, enc.flags, cols, sel, n, mode, out);
    return out;
  }

  /**
   * Inserts all rows of a join's build side (a NULL key gives -1) and
   * freezes the table: only `find` may follow. One dense 32-bit key is
   * inserted straight into the direct-mapped array (see `freeze`).
   */
  build(cols: readonly Data[], n: number): Int32Array {
    const g = this.buildSteps([cols], n, Infinity);
    for (;;) { const r = g.next(); if (r.done) return r.value; }
  }

  /**
   * `build` in bounded pieces (a join's build phase, operators/hash-join-build.ts):
   * yields after about every `step` rows of hashing, so no piece runs long. The
   * build side comes as parts (the key columns of each buffered batch, `n` rows in
   * all): its keys are hashed where they are, not from a concatenated copy.
   */
  *buildSteps(parts: readonly (readonly Data[])[], n: number, step: number): Generator<void, Int32Array, void> {
    if (this.size > 0 || this.W !== 1 || this.encoder.kinds[0] === 'str' || n === 0) return yield* this.insertSteps(parts, n, step);
    let min = 0x7fffffff;
    let max = -0x80000000;
    let done = 0;
    for (const cols of parts) {
      const len = cols[0]!.length;
      const enc = this.encoder.encode(cols, len, true);
      const words = enc.words;
      const flags = enc.flags;
      for (let i0 = 0; i0 < len; i0 += 4 * step) {
        const i1 = Math.min(len, i0 + 4 * step);
        for (let i = i0; i < i1; i++) {
          if (flags !== null && flags[i] !== 0) continue;
          const k = words[i]!;
          if (k < min) min = k;
          if (k > max) max = k;
        }
        if ((done += i1 - i0) >= 4 * step) { done = 0; yield; }
      }
    }
    const range = max - min + 1;
    if (!directRangeFits(range, n)) return yield* this.insertSteps(parts, n, step);
    // The direct build adds groups itself, not as sorted runs (the table is empty: nothing to move).
    this.leaveSorted();
    if (n > step) yield;
    // The groups are at most min(rows, key range): one allocation of the group arrays, not doublings up to them.
    this.reserveGroups(Math.min(n, range));
    const direct = takeArray(Int32Array, range) ?? new Int32Array(range);
    const out = new Int32Array(n);
    let at = 0;
    done = 0;
    for (const cols of parts) {
      const len = cols[0]!.length;
      // Encoded words are valid until the next encode: each part is encoded again (for one INTEGER key, a view).
      const enc = this.encoder.encode(cols, len, true);
      const words = enc.words;
      const flags = enc.flags;
      for (let i0 = 0; i0 < len; i0 += step) {
        const i1 = Math.min(len, i0 + step);
        for (let i = i0; i < i1; i++) {
          if (flags !== null && flags[i] !== 0) { out[at + i] = -1; continue; }
          const k = words[i]!;
          let g = direct[k - min]! - 1;
          if (g < 0) { g = this.newGroup(words, i, 1); direct[k - min] = g + 1; }
          out[at + i] = g;
        }
        if ((done += i1 - i0) >= step && at + i1 < n) { done = 0; yield; }
      }
      at += len;
    }
    this.direct = { direct, min };
    this.frozen = true;
    return out;
  }

  /** The hashed build: reserve once, insert `step` rows per piece (zero-copy slices of each part), freeze. */
  private *insertSteps(parts: readonly (readonly Data[])[], n: number, step: number): Generator<void, Int32Array, void> {
    // Keys arriving in order stay sorted runs (hash-sorted.ts findAscending: probed by merging); the
    // slots are sized only if they stop arriving in order (hash-probe.ts `buildRows`).
    if (this.sortedBuild()) { this.reserveGroups(this.size + n); this.buildRows = n; } else this.reserve(n);
    if (parts.length === 1 && n <= step) {
      const out = this.insertKeys(parts[0]!, n);
      this.freeze();
      return out;
    }
    const out = new Int32Array(n);
    let at = 0;
    let done = 0;
    for (const cols of parts) {
      const len = cols[0]!.length;
      for (let off = 0; off < len; off += step) {
        const l = Math.min(step, len - off);
        this.insertKeys(off === 0 && l === len ? cols : cols.map((c) => c.slice(off, l)), l, out.subarray(at + off, at + off + l));
        if ((done += l) >= step && at + off + l < n) { done = 0; yield; }
      }
      at += len;
    }
    this.freeze();
    return out;
  }

  /**
   * Makes room for `n` more distinct keys up front (a join's build side
   * knows its row count), so neither the slots nor the group arrays grow
   * while it fills.
   */
  reserve(n: number): void {
    if (this.frozen) throw new InternalError('KeyTable.reserve after freeze');
    this.leaveSorted();
    this.t.reserve(n, this.size, this.groupWords, this.groupApart);
    this.reserveGroups(this.size + n);
  }

  /**
   * Expects about `n` distinct keys in all (a planner estimate, maybe far off): once the table holds
   * EXPECT_AFTER groups (hash-slots.ts) its next grow jumps to room for `n`, so a big table does not
   * rehash at every doubling, and a small one never pays for a wrong guess.
   */
  expectKeys(n: number): void {
    if (this.frozen) throw new InternalError('KeyTable.expectKeys after freeze');
    this.t.expected = n;
    this.expectedGroups = n;
  }

  /** Slots of the open-addressing table (tests: what an estimate allocated). */
  get slotCapacity(): number { return this.t.mask + 1; }

  /** Ends inserting (a join's build side is complete); one 32-bit key over a small range gets a direct-mapped lookup (hash-direct.ts). */
  freeze(): void {
    this.buildRows = 0;
    if (!this.sortedBuild()) this.leaveSorted();
    if (this.t.pending) this.moveSome(Infinity);
    this.frozen = true;
    if (this.W !== 1 || this.encoder.kinds[0] === 'str' || this.size === 0 || this.mayHaveNullGroups()) return;
    // A direct map answers every find (`run`); the sorted runs, if any, are then never read.
    this.direct = directFromGroups(this.groupWords, this.size);
  }

  /** Whether a join build (or its frozen table) may stay in sorted runs: one 32-bit integer key, probed by findAscending. */
  private sortedBuild(): boolean {
    return this.sorted && this.W === 1 && this.encoder.kinds[0] !== 'str';
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
    if (this.frozen || this.t.pending) return null;
    const d = cols[0]!;
    if (cols.length === 1 && d.typeId === Type.Dictionary && this.encoder.kinds[0] === 'str') {
      if (d.nullCount !== 0) return null;
      const entry = this.dictEntry(d, MODE_GROUP);
      return { shape: 'code', a: d.values as Int32Array, ao: 0, b: null, bo: 0, map: entry.gids, perm: DictionaryGids.complete(entry) };
    }
    return this.byteKeys?.rows(cols, n) ?? this.codePairs?.rows(cols) ?? this.intKeys?.rows(cols, n) ?? null;
  }

  /** The gid of column row `r` of a `keyRows` view (inserting it), recorded in its table. */
  resolveKeyRow(cols: readonly Data[], rows: KeyRows, r: number): number {
    if (rows.shape === 'int') {
      const g = this.resolveInt(cols, r);
      IntKeys.record(rows, r, g);
      return g;
    }
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

  /**
   * The gid of row `r` of one NULL-free INTEGER/DATE key column (IntKeys' rows), inserting it. With no NULL
   * key seen the value is its own key word (the encoder's zero-copy view), so the row is probed as one
   * word, like resolveCode, not sliced and encoded (~1.5 µs a new group: GROUP BY o_custkey behind a
   * date filter made 100K of them, 150 ms of a 160 ms query).
   */
  private resolveInt(cols: readonly Data[], r: number): number {
    if (this.W !== 1 || this.encoder.kinds[0] !== 'i32' || this.encoder.nullSeen[0] !== 0) return this.resolveRow(cols, r, MODE_GROUP);
    this.word1[0] = (cols[0]!.values as Int32Array)[r]!;
    this.probe(this.word1, null, cols, null, 1, MODE_GROUP, this.gid1);
    return this.gid1[0]!;
  }

  /** One dictionary key: code → gid through a per-dictionary table (hash-dictionary.ts). */
  private runDictionary(cols: readonly Data[], n: number, mode: number, out: Int32Array, sel: Int32Array | null): Int32Array {
    const d = cols[0]!;
    const entry = this.dictEntry(d, mode);
    DictionaryGids.run(d, entry, n, sel, out, (r) => this.resolveCode(cols, r, mode), () => (mode === MODE_GROUP ? this.nullStringGroup() : -1));
    entry.size = this.size;
    return out;
  }

  private readonly word1 = new Int32Array(1);
  private readonly gid1 = new Int32Array(1);
  /** The gid of the NULL key of one VARCHAR key column (-1 until made): a dictionary column's NULL rows. */
  private nullStringGid = -1;

  /** The group of the NULL key of one VARCHAR key column (group-by: its NULL word, hash-null-words.ts). */
  private nullStringGroup(): number {
    if (this.nullStringGid >= 0) return this.nullStringGid;
    if (this.encoder.nullSeen[0] === 0) this.admitNulls(0);
    this.word1[0] = this.encoder.nullWords[0]!;
    this.probe(this.word1, null, [], null, 1, MODE_GROUP, this.gid1);
    return (this.nullStringGid = this.gid1[0]!);
  }

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
    this.probe(this.word1, null, cols, null, 1, mode, this.gid1);
    return this.gid1[0]!;
  }

  /** The gid of the key at column row `r` through the generic path (one row: cold). */
  private resolveRow(cols: readonly Data[], r: number, mode: number): number {
    const ds = cols.map((d) => d.slice(r, 1));
    const one = new Int32Array(1);
    const enc = this.encodeKeys(ds, 1, mode, null);
    this.probe(enc.words, enc.flags, ds, null, 1, mode, one);
    return one[0]!;
  }

  /** Key column `c` of the groups `gids[0..n)` (repeats allowed), typed by its SqlType; VARCHAR comes out as Utf8. */
  keyColumn(c: number, gids: Int32Array, n: number = gids.length): Data {
    const kind = this.encoder.kinds[c]!;
    if (kind !== keyKindOf(this.types[c]!)) throw new InternalError(`keyColumn of a ${this.types[c]} key encoded as ${kind}`);
    const isNull = this.nullTest(c);
    return materializeKey(this.types[c]!, this.groupWords, this.W, this.encoder.positions[c]!, this.interner, isNull, gids, n);
  }

  /** Key columns of groups [start, end), in gid order. */
  keyColumns(start: number, end: number): Data[] {
    const gids = gidRange(start, end);
    return this.types.map((_, c) => this.keyColumn(c, gids));
  }
}

/**
 * start, start + 1, ..., end − 1. A leaf of its own (issue #10): with this loop inside keyColumns,
 * V8 compiled keyColumns by on-stack replacement and again normally, each time with the key
 * columns' construction inlined, and apache-arrow's shape changes deoptimized it ("code
 * dependencies": TPC-H Q3's worker isolate, in timed runs).
 */
function gidRange(start: number, end: number): Int32Array {
  const gids = new Int32Array(end - start);
  for (let i = 0; i < gids.length; i++) gids[i] = start + i;
  return gids;
}

// Keep KeyTable's (and its SlotTable's) hidden classes across major GCs: exec/map-anchors.ts.
anchorMaps(new KeyTable(['INTEGER']), new KeyTable(['INTEGER', 'INTEGER']), new KeyTable(['VARCHAR', 'INTEGER', 'DATE']));
