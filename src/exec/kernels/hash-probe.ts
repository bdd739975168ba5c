/**
 * The probing core of a KeyTable (hash.ts): encoded keys (hash-encode.ts, W int32 words per row)
 * → dense group ids in first-seen order, through the open-addressing slots (hash-slots.ts), the
 * groups' words (for output and rehashing), the few keys kept apart from the slots
 * (hash-null-keys.ts: a value equal to its column's NULL word) and sorted runs (hash-sorted.ts).
 * In a GROUP BY a NULL is its column's NULL word (hash-null-words.ts), a key like the others. KeyTable adds the key shapes read without encoding
 * (dictionaries, one-byte strings), the join build and the output.
 *
 * The loops are specialized for W = 1 (one INTEGER/DATE/VARCHAR key), W = 2 (two int keys, or
 * one BIGINT/DOUBLE key) and a general W (composite keys serialized into words). A row whose key
 * equals the previous row's takes that row's group without hashing (W ≤ 2): clustered input
 * (a table sorted by another column than the key, a hash partition of a clustered table) repeats
 * keys in runs. A big table grows incrementally, so no call does more than O(its rows) work.
 */
import type { Data } from 'apache-arrow';
import type { EncodedKeys, KeyEncoder } from './hash-encode.js';
import { FLAG_MISS, FLAG_NULL, kindWords } from './hash-encode.js';
import { NullKeyGroups } from './hash-null-keys.js';
import { freeNullWord, mayHoldNull, nullWordExact, nullWordTest } from './hash-null-words.js';
import { GroupArrays } from './hash-group-arrays.js';
import { SlotTable, hashWords } from './hash-slots.js';
import { SortedSegments, compareKey, findAscending } from './hash-sorted.js';
import { giveArray } from './buffer-pool.js';

/** Repositionings (probe keys descending) a table in sorted runs allows per find call before it hashes its groups. */
const FIND_SEARCHES = 64;

/** Group-by: insert absent keys, keys with NULLs group together. */
export const MODE_GROUP = 0;
/** Join build: insert absent keys, a key with a NULL gets -1. */
export const MODE_BUILD = 1;
/** Join probe: no inserts, -1 for an absent key or one with a NULL. */
export const MODE_FIND = 2;

/** Group storage and the probe loops of a KeyTable. */
export class HashGroups extends GroupArrays {
  /** The open-addressing slots and their incremental growth (hash-slots.ts). */
  protected readonly t: SlotTable;
  protected nulls = new NullKeyGroups();
  /**
   * Sorted runs (hash-sorted.ts): every group so far lives only in `groupWords`, in the ascending
   * segments of `segs` (the slots are empty). Starts true for W ≤ 2; once false, false for good.
   */
  protected sorted: boolean;
  /** The segments of sorted runs; after them, until their groups are all in the slots; then null. */
  private segs: SortedSegments | null;
  /**
   * A join build in sorted runs: the rows it announced (KeyTable.insertSteps), so the slots are sized
   * once for the rest if the keys stop arriving in order; 0 otherwise.
   */
  protected buildRows = 0;

  constructor(protected readonly encoder: KeyEncoder) {
    super(encoder.W);
    this.t = new SlotTable(this.W);
    this.sorted = this.W === 1 || this.W === 2;
    this.segs = this.sorted ? new SortedSegments() : null;
  }

  /** Groups re-inserted into grown slots during the last call (bounded work per call; tests, metrics). */
  get lastMoved(): number { return this.t.lastMoved; }

  /** Whether the groups so far are sorted runs, not hashed (tests). */
  get inSortedRuns(): boolean { return this.sorted; }

  /** Ends sorted runs: the groups so far move into the slots (incrementally, hash-slots.ts `startFromSorted`). */
  protected leaveSorted(final = false, more = 0): void {
    if (!this.sorted) return;
    this.sorted = false;
    this.t.startFromSorted(this.size, this.groupWords, this.groupApart, final, more);
    if (!this.t.pending) this.segs = null;
  }

  /** The gid of a key among the groups a grow in progress has not moved into the slots yet, or -1. */
  private findPending(words: Int32Array, base: number): number {
    if (this.t.old !== null) return this.t.findOld(words, base);
    return this.segs!.find(words, base, this.W, this.groupWords);
  }

  /** Moves up to `count` groups of a grow in progress into the slots. */
  protected moveSome(count: number): void {
    this.t.moveSome(count, this.groupWords, this.groupApart);
    if (!this.t.pending && !this.sorted) this.segs = null;
  }

  /** Group id per encoded row (W words each; `flags`: NULL / absent rows) for `mode`. */
  protected probe(words: Int32Array, flags: Uint8Array | null, cols: readonly Data[], sel: Int32Array | null, n: number, mode: number, out: Int32Array): void {
    let i0 = 0;
    if (this.sorted) {
      if (mode !== MODE_FIND) {
        i0 = this.appendSorted(words, flags, n, out, mode);
        if (i0 === n) return;
      } else if (this.W === 1) {
        // A probe that keeps descending (unsorted keys) leaves for the slots after a budget of searches.
        i0 = findAscending(this.segs!, this.groupWords, words, flags, n, out, FIND_SEARCHES);
        if (i0 === n) return;
      }
      // A join build that announced its rows sizes the slots once for the rest of them.
      const building = mode === MODE_BUILD && this.buildRows > 0;
      this.leaveSorted(mode === MODE_FIND || building, building ? Math.max(0, this.buildRows - this.size) : 0);
    }
    if (this.W === 1) this.run1(words, flags, cols, sel, i0, n, mode, out);
    else if (this.W === 2) this.run2(words, flags, cols, sel, i0, n, mode, out);
    else this.runW(words, flags, cols, sel, i0, n, mode, out);
  }

  /**
   * appendSorted for one-word keys. Room for a group per row is made once per call, so a key above the newest
   * group's (and below the next segment's first key) is appended with one store, and the newest segment's end
   * and the group count are written back only before the segments are searched and at the end — not per
   * group (TPC-H Q18's GROUP BY l_orderkey makes 1.5M groups of 6M rows; Q3's orders build 145K).
   */
  private appendSorted1(words: Int32Array, flags: Uint8Array | null, n: number, out: Int32Array, mode: number): number {
    const segs = this.segs!;
    this.ensureGroups(this.size + n);
    const gw = this.groupWords;
    let size = this.size;
    let last = size - 1;
    let k0 = last >= 0 ? gw[last]! : 0;
    let lim = segs.limit();
    // The next segment's first key: a key at or above it is searched for.
    let limKey = lim < 0 ? Infinity : gw[lim]!;
    let pk = 0;
    let pg = -1;
    let i = 0;
    for (; i < n; i++) {
      if (flags !== null && flags[i] !== 0) {
        // A join build's NULL key never matches: -1, and the runs go on.
        if (mode === MODE_BUILD && (flags[i]! & (FLAG_NULL | FLAG_MISS)) !== 0) { out[i] = -1; continue; }
        break;
      }
      const k = words[i]!;
      if (last >= 0 && k === k0) { out[i] = last; continue; }
      if (k === pk && pg >= 0) { out[i] = pg; continue; }
      if (last >= 0 && k > k0 && k < limKey) {
        gw[size] = k;
        last = size++;
        k0 = k;
        out[i] = last;
        continue;
      }
      // The segments are searched: they and the group count must be current.
      this.size = size;
      if (last >= 0) segs.extend(last);
      const g = segs.place(words, i, 1, gw, size);
      if (g === -2) return i;
      if (g >= 0) { out[i] = g; pk = k; pg = g; continue; }
      last = this.newGroup(words, i, 1);
      size = this.size;
      k0 = k;
      lim = segs.limit();
      limKey = lim < 0 ? Infinity : gw[lim]!;
      out[i] = last;
    }
    this.size = size;
    if (last >= 0) segs.extend(last);
    return i;
  }

  /**
   * Sorted runs: group ids of rows 0, 1, ... while the groups stay in segments (hash-sorted.ts): a
   * key equal to the newest group's or the previous row's → that group; above the newest group's
   * and below the next segment's first key → a new group appended; else looked up in the segments
   * (found, or a new segment). Returns the first row not taken (too many segments, or a flagged
   * row), n when every row was.
   */
  private appendSorted(words: Int32Array, flags: Uint8Array | null, n: number, out: Int32Array, mode: number): number {
    if (this.W === 1) return this.appendSorted1(words, flags, n, out, mode);
    // Two-word keys.
    const segs = this.segs!;
    let last = this.size - 1;
    let lim = segs.limit();
    // The previous row's index and gid: a run of an older group's key searches once.
    let pk = 0;
    let pg = -1;
    for (let i = 0; i < n; i++) {
      if (flags !== null && flags[i] !== 0) {
        if (mode === MODE_BUILD && (flags[i]! & (FLAG_NULL | FLAG_MISS)) !== 0) { out[i] = -1; continue; }
        return i;
      }
      const b = 2 * i;
      const c = last >= 0 ? compareKey(words, b, this.groupWords, 2 * last, 2) : 1;
      if (c === 0) { out[i] = last; continue; }
      if (pg >= 0 && words[b] === words[2 * pk] && words[b + 1] === words[2 * pk + 1]) { out[i] = pg; continue; }
      if (c > 0 && last >= 0 && (lim < 0 || compareKey(words, b, this.groupWords, 2 * lim, 2) < 0)) {
        last = this.newGroup(words, b, 2);
        segs.extend(last);
        out[i] = last;
        continue;
      }
      const g = segs.place(words, b, 2, this.groupWords, this.size);
      if (g === -2) return i;
      // pk: the previous row's index (its words are the key).
      if (g >= 0) { out[i] = g; pk = i; pg = g; continue; }
      last = this.newGroup(words, b, 2);
      lim = segs.limit();
      out[i] = last;
    }
    return n;
  }

  private run1(words: Int32Array, flags: Uint8Array | null, cols: readonly Data[], sel: Int32Array | null, i0: number, n: number, mode: number, out: Int32Array): void {
    const t = this.t;
    let slots = t.slots;
    let shift = t.shift;
    let mask = t.mask;
    // The previous row's key and gid (-1: none, or absent): a run of equal keys hashes once.
    let pk = 0;
    let pg = -1;
    for (let i = i0; i < n; i++) {
      if (flags !== null && flags[i] !== 0) { out[i] = this.flagged(flags[i]!, words, cols, sel, i, mode); continue; }
      const k = words[i]!;
      if (k === pk && pg >= 0) { out[i] = pg; continue; }
      let s = Math.imul(k ^ (k >>> 16), 0x9e3779b1) >>> shift;
      for (;;) {
        const g1 = slots[2 * s]!;
        if (g1 === 0) {
          if (t.pending) { const og = this.findPending(words, i); if (og >= 0) { out[i] = og; break; } }
          if (mode === MODE_FIND) { out[i] = -1; break; }
          const gid = this.newGroup(words, i, 1);
          slots[2 * s] = gid + 1;
          slots[2 * s + 1] = k;
          out[i] = gid;
          if (++t.used > t.limit) { t.grow(this.size, this.groupWords, this.groupApart); slots = t.slots; shift = t.shift; mask = t.mask; }
          break;
        }
        if (slots[2 * s + 1] === k) { out[i] = g1 - 1; break; }
        s = (s + 1) & mask;
      }
      pk = k;
      pg = out[i]!;
    }
  }

  private run2(words: Int32Array, flags: Uint8Array | null, cols: readonly Data[], sel: Int32Array | null, i0: number, n: number, mode: number, out: Int32Array): void {
    const t = this.t;
    let slots = t.slots;
    let shift = t.shift;
    let mask = t.mask;
    let pa = 0;
    let pb = 0;
    let pg = -1;
    for (let i = i0; i < n; i++) {
      if (flags !== null && flags[i] !== 0) { out[i] = this.flagged(flags[i]!, words, cols, sel, i, mode); continue; }
      const a = words[2 * i]!;
      const b = words[2 * i + 1]!;
      if (a === pa && b === pb && pg >= 0) { out[i] = pg; continue; }
      let s = Math.imul(a ^ Math.imul(b ^ (b >>> 15), 0x85ebca6b) ^ (a >>> 16), 0x9e3779b1) >>> shift;
      for (;;) {
        const base = 3 * s;
        const g1 = slots[base]!;
        if (g1 === 0) {
          if (t.pending) { const og = this.findPending(words, 2 * i); if (og >= 0) { out[i] = og; break; } }
          if (mode === MODE_FIND) { out[i] = -1; break; }
          const gid = this.newGroup(words, 2 * i, 2);
          slots[base] = gid + 1;
          slots[base + 1] = a;
          slots[base + 2] = b;
          out[i] = gid;
          if (++t.used > t.limit) { t.grow(this.size, this.groupWords, this.groupApart); slots = t.slots; shift = t.shift; mask = t.mask; }
          break;
        }
        if (slots[base + 1] === a && slots[base + 2] === b) { out[i] = g1 - 1; break; }
        s = (s + 1) & mask;
      }
      pa = a;
      pb = b;
      pg = out[i]!;
    }
  }

  private runW(words: Int32Array, flags: Uint8Array | null, cols: readonly Data[], sel: Int32Array | null, i0: number, n: number, mode: number, out: Int32Array): void {
    const W = this.W;
    const S = W + 1;
    const t = this.t;
    let slots = t.slots;
    let shift = t.shift;
    let mask = t.mask;
    for (let i = i0; i < n; i++) {
      if (flags !== null && flags[i] !== 0) { out[i] = this.flagged(flags[i]!, words, cols, sel, i, mode); continue; }
      const rb = i * W;
      let s = Math.imul(hashWords(words, rb, W), 0x9e3779b1) >>> shift;
      for (;;) {
        const base = S * s;
        const g1 = slots[base]!;
        if (g1 === 0) {
          if (t.pending) { const og = this.findPending(words, rb); if (og >= 0) { out[i] = og; break; } }
          if (mode === MODE_FIND) { out[i] = -1; break; }
          const gid = this.newGroup(words, rb, W);
          slots[base] = gid + 1;
          for (let w = 0; w < W; w++) slots[base + 1 + w] = words[rb + w]!;
          out[i] = gid;
          if (++t.used > t.limit) { t.grow(this.size, this.groupWords, this.groupApart); slots = t.slots; shift = t.shift; mask = t.mask; }
          break;
        }
        let w = 0;
        while (w < W && slots[base + 1 + w] === words[rb + w]) w++;
        if (w === W) { out[i] = g1 - 1; break; }
        s = (s + 1) & mask;
      }
    }
  }

  /**
   * Gives the group arrays and slots back to the thread's pool (buffer-pool.ts): the owner has read
   * the last output from this table (key columns are copies). The table holds no groups after.
   */
  protected releaseArrays(): void {
    giveArray(this.groupWords);
    giveArray(this.groupApart);
    this.groupWords = new Int32Array(0);
    this.groupApart = new Uint8Array(0);
    this.nulls = new NullKeyGroups();
    this.size = 0;
    this.t.release();
    // Empty again: sorted runs may start over (stale segments would name gids that are gone).
    this.sorted = this.W === 1 || this.W === 2;
    this.segs = this.sorted ? new SortedSegments() : null;
    this.buildRows = 0;
  }

  /**
   * Encodes rows of key columns for `mode` (hash-encode.ts): a GROUP BY folds NULLs into NULL words,
   * first admitting each column's first NULL (`admitNulls`).
   */
  protected encodeKeys(cols: readonly Data[], n: number, mode: number, sel: Int32Array | null): EncodedKeys {
    const fold = mode === MODE_GROUP;
    if (fold) for (let c = 0; c < cols.length; c++) if (this.encoder.nullSeen[c] === 0 && mayHoldNull(cols[c]!)) this.admitNulls(c);
    return this.encoder.encode(cols, n, mode !== MODE_FIND, sel, fold);
  }

  /**
   * Before key column `c`'s first folded NULL: a NULL word no group holds (hash-null-words.ts; only
   * 32- and 64-bit integer kinds can hold theirs), and the column's values equal to it go apart from now on.
   */
  protected admitNulls(c: number): void {
    const enc = this.encoder;
    const kind = enc.kinds[c]!;
    if (!nullWordExact(kind) && this.size > 0) {
      const pos = enc.positions[c]!;
      const two = kindWords(kind) === 2;
      enc.setNullWord(c, freeNullWord(this.groupWords, this.size, this.W, pos, two, enc.nullWords[pos]!, two ? enc.nullWords[pos + 1]! : 0));
    }
    enc.nullSeen[c] = 1;
  }

  /** Whether some group's key may hold a NULL (a folded NULL, or a key kept apart). */
  protected mayHaveNullGroups(): boolean {
    return this.nulls.count > 0 || this.encoder.nullSeen.includes(1);
  }

  /** The gid of a flagged row: -1 for a NULL (join) or an absent string, else (FLAG_APART) through the keys kept apart. */
  private flagged(f: number, words: Int32Array, cols: readonly Data[], sel: Int32Array | null, i: number, mode: number): number {
    if ((f & (FLAG_NULL | FLAG_MISS)) !== 0) return -1;
    return this.apartGroup(cols, words, i, sel === null ? i : sel[i]!, mode);
  }

  /**
   * The gid of encoded row i's key (column row `row`) that holds a value equal to its column's NULL
   * word (hash-null-words.ts), inserted unless `mode` is MODE_FIND (-1 then when absent).
   */
  protected apartGroup(cols: readonly Data[], words: Int32Array, i: number, row: number, mode: number): number {
    // Such a group has no place in the ascending words of sorted runs.
    this.leaveSorted();
    const W = this.W;
    const hit = this.nulls.lookup(this.encoder, cols, words, W, i, row);
    if (typeof hit === 'number') return hit;
    if (mode === MODE_FIND) return -1;
    const gid = this.newGroup(words, i * W, W);
    this.groupApart[gid] = 1;
    this.nulls.add(hit, gid);
    return gid;
  }

  /**
   * A test "is key column `c` NULL in group g", or null when no group's can be: a group in the slots
   * holds the column's NULL word, one kept apart has its own flags.
   */
  protected nullTest(c: number): ((g: number) => boolean) | null {
    const enc = this.encoder;
    const apart = this.nulls.nullTest(c);
    const hasApart = this.groupApart;
    if (enc.nullSeen[c] === 0) return apart === null ? null : (g) => hasApart[g] === 1 && apart(g);
    const pos = enc.positions[c]!;
    return nullWordTest(this.groupWords, this.W, pos, kindWords(enc.kinds[c]!) === 2, enc.nullWords, hasApart, apart);
  }
}
