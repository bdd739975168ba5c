/**
 * The open-addressing slots of a KeyTable (hash.ts) and their growth: one
 * Int32Array of slots (gid + 1, then W key words), linear probing, load ≤ 1/2
 * (≤ 3/4 after a `reserve` for a known key count: a join build, frozen after).
 *
 * Decision: a big table grows incrementally (issue 11: rehashing a million
 * groups in one call paused the event loop for a second). The new slots start
 * empty, every later call first moves `max(2n, MOVE_MIN)` groups over from
 * the old slots (in gid order, from the table's group words), and lookups that
 * miss in the new slots look in the old ones (`findOld`) until all are moved.
 * A key lives in exactly one of the two (only a key absent from both is
 * inserted, into the new slots), and the new table fills to its own limit
 * only after at least as many inserts as there are groups to move, so a move
 * normally ends long before the next grow; if not, the next grow finishes it
 * first. Small tables rehash at once. KeyTable's hot loops inline the slot
 * hash (`slotOf`) and read `slots`, `mask`, `shift` and `used` directly.
 *
 * A table that leaves sorted runs (hash-sorted.ts) starts its slots the same way
 * (`startFromSorted`): its groups have no old slots, only their group words in
 * ascending segments, so a lookup that misses searches those (hash-probe.ts).
 */
import { giveArray, takeArray } from './buffer-pool.js';

/** Tables with fewer groups rehash at once when they grow (a few milliseconds at most). */
const INCREMENTAL_GROW_MIN = 1 << 16;
/**
 * Groups a table must hold before an expected key count (`expected`, a planner estimate) sizes it:
 * below that the table grows by doubling, cheaply, so an overestimate (TPC-H Q3's aggregate: 450K
 * estimated groups, 11K real) does not allocate and zero-fill megabytes of slots for nothing.
 */
export const EXPECT_AFTER = 1 << 14;
/** Groups an incremental grow moves per call at least. */
export const MOVE_MIN = 1 << 14;
/**
 * The load a `reserve` for a known key count may fill the slots to (a join build: the table is frozen
 * after). Growing tables keep load ≤ 1/2. Mutable for benchmarks (bench/join-slots.ts); 1/2 restores
 * the old sizing.
 */
export const slotTuning = { reserveLoad: 0.75 };

/** Slots of `n` int32 words, zeroed (empty): from the thread's pool when one fits (buffer-pool.ts). */
function newSlots(n: number): Int32Array {
  return takeArray(Int32Array, n) ?? new Int32Array(n);
}

/** Hashes W words of a row (W ≥ 3) to 32 bits. */
export function hashWords(words: Int32Array, base: number, W: number): number {
  let h = 0x2545f491;
  for (let w = 0; w < W; w++) h = Math.imul(h ^ words[base + w]!, 0x9e3779b1) ^ (h >>> 15);
  return h;
}

/** The slot a key of W words at `words[base..)` hashes to, for a table of `32 - shift` bits. */
export function slotOf(words: Int32Array, base: number, W: number, shift: number): number {
  if (W === 1) { const k = words[base]!; return Math.imul(k ^ (k >>> 16), 0x9e3779b1) >>> shift; }
  if (W === 2) { const a = words[base]!; const b = words[base + 1]!; return Math.imul(a ^ Math.imul(b ^ (b >>> 15), 0x85ebca6b) ^ (a >>> 16), 0x9e3779b1) >>> shift; }
  return Math.imul(hashWords(words, base, W), 0x9e3779b1) >>> shift;
}

/** The slots of a table of W-word keys. */
export class SlotTable {
  slots: Int32Array;
  mask: number;
  shift: number;
  /** Occupied slots. */
  used = 0;
  /** Occupied slots past which an insert grows the table: half the slots, or more after a `reserve`. */
  limit: number;
  /**
   * While a grow is in progress: groups [moved, oldEnd) are not in `slots` yet; they live in `old`
   * or, after sorted runs, only in the (ascending) group words.
   */
  pending = false;
  /** The previous slots of a grow in progress (null after sorted runs: the group words hold the keys). */
  old: Int32Array | null = null;
  private oldMask = 0;
  private oldShift = 0;
  private moved = 0;
  private oldEnd = 0;
  /** Groups re-inserted into grown slots during the current call (bounded work per call; tests, metrics). */
  lastMoved = 0;
  /** Keys a planner estimate expects (0: none): applied by the first grow once EXPECT_AFTER groups exist. */
  expected = 0;

  /**
   * Starts with 8 slots for one-word keys, 4 for wider ones: 64 bytes or less, which V8 keeps on the
   * JS heap (~50 ns; a bigger typed array gets an off-heap backing store, 0.5–3 µs — a 3-group
   * GROUP BY of a 10-row query makes one table). A table that fills grows by doubling as before.
   */
  constructor(readonly W: number) {
    const bits = W <= 1 ? 3 : 2;
    const cap = 1 << bits;
    this.slots = new Int32Array(cap * (W + 1));
    this.mask = cap - 1;
    this.shift = 32 - bits;
    this.limit = cap >> 1;
  }

  /** The gid of a key in the previous slots of a grow in progress, or -1 (after sorted runs the table searches its segments). */
  findOld(words: Int32Array, base: number): number {
    const W = this.W;
    const S = W + 1;
    const slots = this.old!;
    const mask = this.oldMask;
    let s = slotOf(words, base, W, this.oldShift);
    for (;;) {
      const g1 = slots[S * s]!;
      if (g1 === 0) return -1;
      let w = 0;
      while (w < W && slots[S * s + 1 + w] === words[base + w]) w++;
      if (w === W) return g1 - 1;
      s = (s + 1) & mask;
    }
  }

  /**
   * Doubles the slots, or grows them to `minCap` when that is more (see the header); `size` groups
   * exist, their words in `groupWords`. Once the table holds EXPECT_AFTER groups, a pending
   * `expected` count sizes this grow instead (one jump).
   */
  grow(size: number, groupWords: Int32Array, groupApart: Uint8Array, minCap = 0): void {
    if (this.pending) this.moveSome(Infinity, groupWords, groupApart);
    const S = this.W + 1;
    let cap = Math.max((this.mask + 1) * 2, minCap);
    if (this.expected > 0 && size >= EXPECT_AFTER) {
      while (this.expected * 2 > cap) cap *= 2;
      this.expected = 0;
    }
    const old = this.slots;
    this.old = old;
    this.oldMask = this.mask;
    this.oldShift = this.shift;
    this.slots = newSlots(cap * S);
    this.mask = cap - 1;
    this.shift = Math.clz32(cap) + 1;
    this.limit = cap >> 1;
    this.moved = 0;
    this.oldEnd = size;
    this.pending = true;
    if (size < INCREMENTAL_GROW_MIN) this.moveSome(Infinity, groupWords, groupApart);
  }

  /**
   * Slots for `size` groups kept so far only in ascending group words (sorted runs, hash-sorted.ts;
   * the slots are empty): room for four times as many (twice what a doubling table has at least), or
   * for a pending `expected` count, and the groups move in incrementally like a grow's.
   */
  startFromSorted(size: number, groupWords: Int32Array, groupApart: Uint8Array, final = false, more = 0): void {
    if (size === 0 && more === 0) return;
    let cap = this.mask + 1;
    // A table whose keys are known from now on (a frozen join build, or a build with `more` rows
    // still to insert) fills to reserveLoad, as `reserve` sizes one.
    const load = final ? slotTuning.reserveLoad : 0.25;
    while (size + more > load * cap) cap *= 2;
    if (this.expected > 0 && size >= EXPECT_AFTER) {
      while (this.expected * 2 > cap) cap *= 2;
      this.expected = 0;
    }
    this.old = null;
    giveArray(this.slots);
    this.slots = newSlots(cap * (this.W + 1));
    this.mask = cap - 1;
    this.shift = Math.clz32(cap) + 1;
    this.limit = final ? Math.floor(slotTuning.reserveLoad * cap) : cap >> 1;
    this.used = size;
    this.moved = 0;
    this.oldEnd = size;
    this.pending = true;
    if (size < INCREMENTAL_GROW_MIN) this.moveSome(Infinity, groupWords, groupApart);
  }

  /** Moves up to `count` groups of a grow in progress into the new slots (keys kept apart, hash-null-keys.ts, live elsewhere). */
  moveSome(count: number, groupWords: Int32Array, groupApart: Uint8Array): void {
    const W = this.W;
    const S = W + 1;
    const slots = this.slots;
    const mask = this.mask;
    const shift = this.shift;
    const end = Math.min(this.oldEnd, this.moved + count);
    for (let gid = this.moved; gid < end; gid++) {
      if (groupApart[gid] === 1) continue;
      const rb = gid * W;
      let s = slotOf(groupWords, rb, W, shift);
      while (slots[S * s] !== 0) s = (s + 1) & mask;
      slots[S * s] = gid + 1;
      for (let w = 0; w < W; w++) slots[S * s + 1 + w] = groupWords[rb + w]!;
    }
    this.lastMoved += end - this.moved;
    this.moved = end;
    if (end >= this.oldEnd) {
      // The previous slots are dead once every group has moved out (lookups read `old` only while pending).
      if (this.old !== null) giveArray(this.old);
      this.old = null;
      this.pending = false;
    }
  }

  /**
   * Makes room for `n` more keys up front, so the slots do not grow while they fill; they may fill to
   * `slotTuning.reserveLoad` (a join build knows its keys, at most n, and freezes the table after: the
   * half-empty power of two above 2n was up to four times the keys in slots — TPC-H Q3's 145K-key build
   * took 524,288 slots, 4.2 MB, where 262,144 hold them at load 0.55).
   */
  reserve(n: number, size: number, groupWords: Int32Array, groupApart: Uint8Array): void {
    if (this.pending) this.moveSome(Infinity, groupWords, groupApart);
    const need = this.used + n;
    const load = slotTuning.reserveLoad;
    let cap = this.mask + 1;
    while (need > load * cap) cap *= 2;
    if (cap > this.mask + 1) {
      // One grow to the final size: doubling up to it allocated (and zeroed) as much again in dead slots
      // (TPC-H Q3's 145K-key join build: 4.2 MB of them per query).
      this.grow(size, groupWords, groupApart, cap);
      if (this.pending) this.moveSome(Infinity, groupWords, groupApart);
    }
    this.limit = Math.max(this.limit, Math.floor(load * cap));
  }

  /** Gives the slots back to the thread's pool (the table is done: KeyTable.releaseArrays); empty after. */
  release(): void {
    if (this.pending) { this.pending = false; if (this.old !== null) giveArray(this.old); this.old = null; }
    giveArray(this.slots);
    this.slots = new Int32Array(8 * (this.W + 1));
    this.mask = 7;
    this.shift = 29;
    this.limit = 4;
    this.used = 0;
  }
}
