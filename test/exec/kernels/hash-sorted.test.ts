/**
 * Sorted runs (kernels/hash-sorted.ts, hash-probe.ts): a group-by table whose keys arrive in
 * ascending order keeps them without hashing; the first key out of order moves the groups into the
 * slots incrementally. Every sequence must give the gids of a first-seen Map, whatever the order,
 * the batch cuts, NULLs, selections and later `find`s; repeated keys (runs) in hashed tables too.
 */
import { describe, expect, it } from 'vitest';
import { Int32, Int64, Utf8, makeData, vectorFromArray, type Data } from 'apache-arrow';
import { KeyTable } from '../../../src/exec/kernels/hash.js';
import { compareKey, findSorted } from '../../../src/exec/kernels/hash-sorted.js';

type Key = number | bigint | null;

function int32(vals: readonly (number | null)[]): Data {
  const nulls = vals.some((v) => v === null);
  const data = Int32Array.from(vals, (v) => v ?? 0);
  if (!nulls) return makeData({ type: new Int32(), length: vals.length, nullCount: 0, data });
  const bm = new Uint8Array((vals.length + 7) >> 3);
  vals.forEach((v, i) => { if (v !== null) bm[i >> 3]! |= 1 << (i & 7); });
  return makeData({ type: new Int32(), length: vals.length, nullCount: vals.filter((v) => v === null).length, nullBitmap: bm, data });
}

function int64(vals: readonly bigint[]): Data {
  return makeData({ type: new Int64(), length: vals.length, nullCount: 0, data: BigInt64Array.from(vals) });
}

/** First-seen gids of `keys` (NULLs group together). */
function reference(keys: readonly Key[]): number[] {
  const m = new Map<string, number>();
  return keys.map((k) => { const s = String(k); let g = m.get(s); if (g === undefined) { g = m.size; m.set(s, g); } return g; });
}

/** groupIds over `keys` cut into batches of `step` rows. */
function groupAll(t: KeyTable, keys: readonly Key[], step: number, col: (ks: readonly Key[]) => Data): number[] {
  const out: number[] = [];
  for (let off = 0; off < keys.length; off += step) {
    const part = keys.slice(off, off + step);
    out.push(...t.groupIds([col(part)], part.length));
  }
  return out;
}

const asInt = (ks: readonly Key[]): Data => int32(ks as (number | null)[]);
const asBig = (ks: readonly Key[]): Data => int64(ks as bigint[]);

/** Ascending keys with runs of 1–`run` equal keys (a table clustered by its key). */
function clustered(groups: number, start = 1, stride = 4, run = 7): number[] {
  const out: number[] = [];
  for (let g = 0; g < groups; g++) for (let r = 1 + ((g * 7919) % run); r > 0; r--) out.push(start + g * stride);
  return out;
}

/** The first index where `a` and `b` differ, or -1 (toEqual on 10^5-element arrays takes seconds). */
function firstDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe('sorted runs', () => {
  it('ascending keys with runs across batch boundaries stay sorted runs and give first-seen gids', () => {
    const keys = clustered(5000);
    const ref = reference(keys);
    for (const step of [1, 3, 64, 1000, 65536]) {
      const t = new KeyTable(['INTEGER']);
      expect(firstDiff(groupAll(t, keys, step, asInt), ref)).toBe(-1);
      expect(t.inSortedRuns).toBe(true);
      expect(t.slotCapacity).toBe(8);
      expect(t.size).toBe(5000);
    }
  });

  it('a key out of order leaves sorted runs; earlier keys are still found while they move (incremental)', () => {
    // 100K groups (> the size that moves at once), then earlier keys again, new keys between them, and more.
    const first = clustered(100_000, 1, 4, 2);
    const later: number[] = [];
    for (let i = 0; i < 50_000; i++) later.push(first[(i * 7919) % first.length]!, 2 + 4 * ((i * 104729) % 100_000), 1_000_000 - i);
    const keys = [...first, ...later];
    const ref = reference(keys);
    const gidOf = new Map(keys.map((k, i) => [k, ref[i]!]));
    const t = new KeyTable(['INTEGER']);
    let maxMoved = 0;
    const out: number[] = [];
    for (let off = 0; off < keys.length; off += 4096) {
      const part = keys.slice(off, off + 4096);
      out.push(...t.groupIds([asInt(part)], part.length));
      maxMoved = Math.max(maxMoved, t.lastMoved);
      // `find` of earlier keys in the middle of the move.
      if (off > first.length && off < first.length + 20_000) {
        const probe = [first[off % first.length]!, 3, first[(off * 13) % first.length]!];
        expect(Array.from(t.find([asInt(probe)], 3))).toEqual([gidOf.get(probe[0]!), -1, gidOf.get(probe[2]!)]);
      }
    }
    expect(firstDiff(out, ref)).toBe(-1);
    expect(t.inSortedRuns).toBe(false);
    // Bounded work per call: 2 × 4096 rows' worth of groups, or MOVE_MIN.
    expect(maxMoved).toBeLessThanOrEqual(16_384);
    expect(maxMoved).toBeGreaterThan(0);
  });

  it('sorted batches read in another order (a memory table\'s partitions) stay sorted runs, in segments', () => {
    // 40 batches of ascending keys, groups spanning batch cuts, read 0, 8, 16, ..., 1, 9, ... (8 partitions).
    const keys = clustered(40_000, 1, 3);
    const B = Math.ceil(keys.length / 40);
    const order: number[] = [];
    for (let p = 0; p < 8; p++) for (let b = p; b < 40; b += 8) order.push(b);
    const read = order.flatMap((b) => keys.slice(b * B, (b + 1) * B));
    const ref = reference(read);
    const t = new KeyTable(['INTEGER']);
    const out: number[] = [];
    for (const b of order) {
      const part = keys.slice(b * B, (b + 1) * B);
      out.push(...t.groupIds([asInt(part)], part.length));
    }
    expect(firstDiff(out, ref)).toBe(-1);
    expect(t.inSortedRuns).toBe(true);
    expect(t.slotCapacity).toBe(8);
    // Every key is found (segments searched), absent ones between and around them are not.
    const probe = [read[5]!, read[read.length - 1]!, 0, 2, 1_000_000];
    const gidOf = new Map(read.map((k, i) => [k, ref[i]!]));
    expect(Array.from(t.find([asInt(probe)], probe.length))).toEqual([gidOf.get(probe[0]!), gidOf.get(probe[1]!), -1, -1, -1]);
  });

  it('unsorted keys end sorted runs within a few rows', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => (i * 7919) % 5003);
    const t = new KeyTable(['INTEGER']);
    expect(firstDiff(groupAll(t, keys.slice(0, 40), 40, asInt), reference(keys.slice(0, 40)))).toBe(-1);
    expect(t.inSortedRuns).toBe(false);
    expect(firstDiff(groupAll(new KeyTable(['INTEGER']), keys, 1000, asInt), reference(keys))).toBe(-1);
  });

  it('input revisiting old keys (a sorted table read twice) ends sorted runs after a bounded number of searches', () => {
    // Keys spread over 600K values: wider than an INTEGER key's value → gid table (hash-int-keys.ts), which
    // would answer the revisits without the sorted runs.
    const once = clustered(20_000, 1, 30, 1);
    const twice = [...once, ...once];
    const t = new KeyTable(['INTEGER']);
    expect(firstDiff(groupAll(t, twice, 4096, asInt), reference(twice))).toBe(-1);
    expect(t.inSortedRuns).toBe(false);
    // Keys revisited in runs search once per run: a few revisits stay sorted runs.
    const u = new KeyTable(['INTEGER']);
    const runs = [...once, ...Array.from({ length: 500 }, () => once[123]!), once[5]!, once[5]!];
    expect(firstDiff(groupAll(u, runs, 4096, asInt), reference(runs))).toBe(-1);
    expect(u.inSortedRuns).toBe(true);
  });

  it('NULL keys group together; after a NULL, the value INT_MIN (the NULL word, kept apart) ends sorted runs', () => {
    const keys: Key[] = [...clustered(300), null, 5, null, ...clustered(300, 2000), 1, null];
    const withMin: Key[] = [...keys, -2147483648, null, -2147483648, 7];
    for (const step of [7, 1000]) {
      expect(groupAll(new KeyTable(['INTEGER']), keys, step, asInt)).toEqual(reference(keys));
      const t = new KeyTable(['INTEGER']);
      expect(groupAll(t, withMin, step, asInt)).toEqual(reference(withMin));
      expect(t.inSortedRuns).toBe(false);
    }
  });

  it('BIGINT keys: ascending across the 32-bit boundary and negatives stay sorted runs; then out of order', () => {
    const asc: bigint[] = [];
    for (let i = -3000; i < 3000; i++) { const k = BigInt(i) * 1_000_003n + (i > 0 ? 4_294_967_000n : 0n); asc.push(k, k); }
    for (let i = 1; i < asc.length; i++) expect(asc[i]! >= asc[i - 1]!).toBe(true);
    const t = new KeyTable(['BIGINT']);
    expect(groupAll(t, asc, 1000, asBig)).toEqual(reference(asc));
    expect(t.inSortedRuns).toBe(true);
    // A few keys out of order: found, or new segments; then unsorted keys: the mode ends.
    const more = [asc[17]!, 5n, asc[9000]!, -1n, 5n];
    const u = new KeyTable(['BIGINT']);
    expect(groupAll(u, [...asc, ...more], 1000, asBig)).toEqual(reference([...asc, ...more]));
    expect(u.inSortedRuns).toBe(true);
    const scattered = Array.from({ length: 3000 }, (_, i) => BigInt((i * 7919) % 3001) * 4_294_967_311n);
    const all = [...asc, ...more, ...scattered];
    const v = new KeyTable(['BIGINT']);
    expect(groupAll(v, all, 1000, asBig)).toEqual(reference(all));
    expect(v.inSortedRuns).toBe(false);
  });

  it('two INTEGER keys (W = 2) and a selection give first-seen gids', () => {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 3000; i++) { a.push(i >> 3); b.push(i % 5); }
    const ref = reference(a.map((x, i) => x * 10 + b[i]!));
    const t = new KeyTable(['INTEGER', 'INTEGER']);
    expect(Array.from(t.groupIds([int32(a), int32(b)], a.length))).toEqual(ref);
    // Sorted keys read through a selection (every other row, then a jump back).
    const keys = clustered(2000);
    const sel = Int32Array.from({ length: keys.length >> 1 }, (_, j) => 2 * j);
    const picked = Array.from(sel, (r) => keys[r]!);
    const u = new KeyTable(['INTEGER']);
    expect(Array.from(u.groupIds([asInt(keys)], sel.length, new Int32Array(sel.length), sel))).toEqual(reference(picked));
    expect(u.inSortedRuns).toBe(true);
    const back = Int32Array.from([sel.length - 1, 3, 0]);
    expect(Array.from(u.groupIds([asInt(picked)], 3, new Int32Array(3), back))).toEqual([picked[sel.length - 1], picked[3], picked[0]].map((k) => reference(picked)[picked.indexOf(k!)]));
  });

  it('VARCHAR keys (interned ids) and dictionary keys give first-seen gids', () => {
    const words = ['apple', 'pear', 'apple', 'fig', 'kiwi', 'kiwi', 'pear', 'plum', 'apple'];
    const t = new KeyTable(['VARCHAR']);
    const d = vectorFromArray(words, new Utf8()).data[0]!;
    expect(Array.from(t.groupIds([d], words.length))).toEqual(reference(words as never));
    const distinct = Array.from({ length: 200 }, (_, i) => `name#${(i * 37) % 1000}`);
    const u = new KeyTable(['VARCHAR']);
    expect(Array.from(u.groupIds([vectorFromArray(distinct, new Utf8()).data[0]!], distinct.length))).toEqual(reference(distinct as never));
    expect(u.inSortedRuns).toBe(true);
  });

  it('runs of equal keys in a hashed table hash once and keep their gids (clustered, not sorted)', () => {
    const keys: number[] = [];
    for (let g = 0; g < 20_000; g++) for (let r = 0; r < 1 + (g % 4); r++) keys.push((g * 7919) % 20_011);
    for (const step of [5, 4096]) {
      const t = new KeyTable(['INTEGER']);
      expect(firstDiff(groupAll(t, keys, step, asInt), reference(keys))).toBe(-1);
      expect(t.inSortedRuns).toBe(false);
      const b = new KeyTable(['BIGINT']);
      const big = keys.map((k) => BigInt(k) << 33n);
      expect(firstDiff(groupAll(b, big, step, asBig), reference(big))).toBe(-1);
    }
  });

  it('join tables: insertKeys and find over ascending keys stay sorted runs (find merges)', () => {
    const keys = clustered(1000);
    const t = new KeyTable(['INTEGER']);
    t.groupIds([asInt(keys.slice(0, 100))], 100);
    expect(t.inSortedRuns).toBe(true);
    expect(Array.from(t.find([asInt([keys[0]!, 2, keys[99]!])], 3))).toEqual([0, -1, reference(keys)[99]]);
    expect(t.inSortedRuns).toBe(true);
    const j = new KeyTable(['INTEGER']);
    expect(Array.from(j.insertKeys([asInt([1, 2, null, 2, 3])], 5))).toEqual([0, 1, -1, 1, 2]);
    expect(j.inSortedRuns).toBe(true);
    expect(Array.from(j.find([asInt([0, 1, 3, null, 3, 4, 2])], 7))).toEqual([-1, 0, 2, -1, 2, -1, 1]);
    // BIGINT keys (two words) leave the runs for the slots on their first find.
    const b = new KeyTable(['BIGINT']);
    expect(Array.from(b.insertKeys([int64([1n, 5n])], 2))).toEqual([0, 1]);
    expect(Array.from(b.find([int64([5n, 1n, 2n])], 3))).toEqual([1, 0, -1]);
    expect(b.inSortedRuns).toBe(false);
  });

  it('a released table starts empty in sorted runs again', () => {
    const t = new KeyTable(['INTEGER']);
    expect(Array.from(t.groupIds([asInt([1, 2, 3])], 3))).toEqual([0, 1, 2]);
    t.release();
    expect(t.inSortedRuns).toBe(true);
    expect(Array.from(t.groupIds([asInt([5, 3, 5, 9])], 4))).toEqual([0, 1, 0, 2]);
    expect(Array.from(t.find([asInt([1, 3, 5, 9])], 4))).toEqual([-1, 1, 0, 2]);
  });

  it('join builds in sorted runs answer every probe order like a Map (merge, repositioning, leaving for the slots)', () => {
    // Build: batches each ascending but read interleaved (a memory table's partitions), or one ascending
    // run; probes: ascending, interleaved ascending batches, random (leaves the runs after its budget).
    let seed = 7;
    const rand = (m: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % m; };
    for (const build of ['ascending', 'interleaved'] as const) {
      for (const probeOrder of ['ascending', 'interleaved', 'random'] as const) {
        const keys: number[] = [];
        // Keys too sparse for the direct-mapped array (hash-direct.ts), which would answer instead.
        for (let k = 0; k < 20_000; k++) if (rand(3) === 0) keys.push(k * 61);
        const half = keys.length >> 1;
        const parts = build === 'ascending' ? [keys] : [keys.slice(half), keys.slice(0, half)];
        const t = new KeyTable(['INTEGER']);
        const order = parts.flat();
        const gids = t.build([asInt(order)], order.length);
        const m = new Map(order.map((k, i) => [k, gids[i]!]));
        expect(t.inSortedRuns).toBe(true);
        const probe = Array.from({ length: 30_000 }, () => (rand(2) === 0 ? keys[rand(keys.length)]! : rand(20_000 * 61 + 100)));
        if (probeOrder !== 'random') probe.sort((a, b) => a - b);
        const batches = probeOrder === 'interleaved' ? [probe.slice(15_000), probe.slice(0, 15_000)] : [probe];
        for (const batch of batches) {
          const got = t.find([asInt(batch)], batch.length);
          expect(firstDiff(got, batch.map((k) => m.get(k) ?? -1))).toBe(-1);
        }
        expect(t.inSortedRuns).toBe(probeOrder !== 'random');
      }
    }
  });

  it('compareKey and findSorted: int32 order for one word, little-endian int64 order for two', () => {
    const w = (...xs: number[]): Int32Array => Int32Array.from(xs);
    expect(compareKey(w(-5), 0, w(3), 0, 1)).toBe(-1);
    // [lo, hi]: 2^32 (lo 0, hi 1) > 2^32 - 1 (lo -1 as unsigned, hi 0) > -1 (lo -1, hi -1).
    expect(compareKey(w(0, 1), 0, w(-1, 0), 0, 2)).toBe(1);
    expect(compareKey(w(-1, 0), 0, w(-1, -1), 0, 2)).toBe(1);
    expect(compareKey(w(7, 2), 0, w(7, 2), 0, 2)).toBe(0);
    const groups = w(-9, -2, 0, 4, 100);
    expect(findSorted(w(4), 0, 1, groups, 0, 5)).toBe(3);
    expect(findSorted(w(4), 0, 1, groups, 0, 3)).toBe(-1);
    expect(findSorted(w(5), 0, 1, groups, 0, 5)).toBe(-1);
  });
});
