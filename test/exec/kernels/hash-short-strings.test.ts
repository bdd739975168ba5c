/**
 * VARCHAR keys of at most 8 bytes through KeyEncoder's packed-bytes cache (hash-short-strings.ts): the
 * group ids must be those of the strings themselves — strings that differ only in length with NUL
 * bytes (same packed words), multi-byte UTF-8, more distinct strings than the cache has slots
 * (collisions replace slots), lookups of absent strings, and batches too small for the cache.
 */
import { describe, expect, it } from 'vitest';
import { KeyTable } from '../../../src/exec/kernels/hash.js';
import { ShortStringIds } from '../../../src/exec/kernels/hash-short-strings.js';
import { column } from '../helpers/fake-context.js';

/** First-seen group number of each string (what KeyTable.groupIds must give). */
function expected(rows: readonly string[]): number[] {
  const ids = new Map<string, number>();
  return rows.map((s) => ids.get(s) ?? ids.set(s, ids.size).get(s)!);
}

let seed = 3;
const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 4) % k; };

describe('KeyTable over VARCHAR keys of at most 8 bytes', () => {
  const tricky = ['', '\0', 'AB\0', 'AIR', 'AB\0\0', 'AB\0\0\0', 'AB\0\0\0\0\0\0', 'ABCD', 'ABCDE', 'ABCDEFGH', 'ABCDEFGHI', 'AB', 'Ünïcödé', 'ÜnïcödX', 'TRUCK', 'REG AIR', 'MAIL', 'A'];

  it('groups strings that pack alike (NUL padding, lengths) and UTF-8 apart, across batches', () => {
    const t = new KeyTable(['VARCHAR']);
    const all: string[] = [];
    const got: number[] = [];
    for (const n of [500, 30, 700]) { // 30 rows: below the cache's batch size
      const rows = Array.from({ length: n }, () => tricky[rnd(tricky.length)]!);
      all.push(...rows);
      got.push(...t.groupIds([column('VARCHAR', rows)], n));
    }
    expect(got).toEqual(expected(all));
    expect(t.size).toBe(tricky.length);
  });

  it('reads strings near the end of the byte buffer (fewer than 8 bytes after them) exactly', () => {
    const t = new KeyTable(['VARCHAR']);
    // Both batches end with short strings whose 8-byte window would run past the buffer.
    const a = [...Array.from({ length: 100 }, (_, i) => `k${i % 7}xyz`), 'AB', 'ABC'];
    const b = [...Array.from({ length: 100 }, (_, i) => `k${i % 5}xyz`), 'ABC', 'AB'];
    const got = [...t.groupIds([column('VARCHAR', a)], a.length), ...t.groupIds([column('VARCHAR', b)], b.length)];
    expect(got).toEqual(expected([...a, ...b]));
  });

  it('more distinct strings than cache slots: colliding slots are replaced, never confused', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36).padStart(3 + (i % 5), '0')}`);
    const rows = Array.from({ length: 20_000 }, () => words[rnd(words.length)]!);
    const t = new KeyTable(['VARCHAR']);
    expect([...t.groupIds([column('VARCHAR', rows)], rows.length)]).toEqual(expected(rows));
    // Lookups (join probe): present strings find their group, absent ones -1.
    const probe = [...rows.slice(0, 100), 'zz-none', 'w0000000', 'absent!!'];
    const found = t.find([column('VARCHAR', probe)], probe.length);
    const ref = expected(rows);
    const first = new Map<string, number>();
    rows.forEach((s, i) => { if (!first.has(s)) first.set(s, ref[i]!); });
    expect([...found]).toEqual(probe.map((s) => first.get(s) ?? -1));
  });
});

describe('ShortStringIds', () => {
  const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

  it('finds only what was put, by bytes and length', () => {
    const c = new ShortStringIds();
    const a = bytes('xxAB\0\0\0yyyyyy');
    expect(c.find(a, 2, 4)).toBe(-1);
    c.put(4, 7);
    expect(c.find(a, 2, 4)).toBe(7);
    expect(c.find(a, 2, 5)).toBe(-1); // 'AB\0\0\0': same packed words, other length
    const b = bytes('AB\0\0');
    expect(c.find(b, 0, 4)).toBe(7);
  });

  it('never answers for the same packed bytes at another length, also when both land in one slot', () => {
    // Strings 'xy' + NULs pack to the same words at lengths 4–8; over 4,096 of them some lengths share a slot.
    const buf = new Uint8Array(8);
    let wrong = 0;
    const c = new ShortStringIds();
    for (let x = 0; x < 64; x++) {
      for (let y = 0; y < 64; y++) {
        buf[0] = 65 + x; buf[1] = 65 + y;
        c.find(buf, 0, 4);
        c.put(4, 1);
        for (let len = 5; len <= 8; len++) if (c.find(buf, 0, len) !== -1) wrong++;
      }
    }
    expect(wrong).toBe(0);
  });
});
