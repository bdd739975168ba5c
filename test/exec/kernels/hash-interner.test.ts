/**
 * The string interner keeps every id through its growth (grow re-places ids
 * by their stored hashes): ids are dense in first-seen order, every string is
 * found again after many doublings, absent strings are not;
 * its hash is MurmurHash3 (published test vectors); copies are byte-exact.
 */
import { describe, expect, it } from 'vitest';
import { hashUtf8, StringInterner } from '../../../src/exec/kernels/hash-interner.js';

const enc = new TextEncoder();

function intern(t: StringInterner, s: string, insert = true): number {
  const b = enc.encode(`..${s}`);
  return t.intern(b, 2, b.length, insert);
}

describe('StringInterner', () => {
  it('keeps ids through many grows, finds every string, and misses absent ones', () => {
    const t = new StringInterner();
    const words = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? `Customer#${String(i).padStart(9, '0')}` : `${i * 7919}`));
    words.push('', 'é', 'ab');
    words.forEach((w, i) => expect(intern(t, w)).toBe(i));
    expect(t.size).toBe(words.length);
    // Every string again (lookup and insert): the same id, nothing added.
    words.forEach((w, i) => { expect(intern(t, w, false)).toBe(i); expect(intern(t, w)).toBe(i); });
    expect(t.size).toBe(words.length);
    expect(intern(t, 'absent', false)).toBe(-1);
    expect(intern(t, 'Customer#000000001', false)).toBe(-1);
    expect(new TextDecoder().decode(t.bytesOf(3))).toBe(words[3]);
  });

  it('copies exact bytes of short and long strings', () => {
    const t = new StringInterner();
    const words = Array.from({ length: 5_000 }, (_, i) => `${i % 7 === 0 ? 'a long comment that is longer than twenty-four bytes ' : ''}w${i}`);
    words.forEach((w, i) => expect(intern(t, w)).toBe(i));
    words.forEach((w, i) => expect(intern(t, w, false)).toBe(i));
    const dst = new Uint8Array(200);
    for (const id of [0, 1, 7, 4999]) {
      const end = t.copyTo(id, dst, 3);
      expect(new TextDecoder().decode(dst.subarray(3, end))).toBe(words[id]);
      expect(t.lengthOf(id)).toBe(end - 3);
    }
  });

  it('hashes with MurmurHash3 (seed 0) over any byte range', () => {
    const h = (s: string): number => { const b = enc.encode(`xy${s}z`); return hashUtf8(b, 2, b.length - 1) >>> 0; };
    expect(h('')).toBe(0);
    expect(h('a')).toBe(0x3c2569b2);
    expect(h('hello')).toBe(0x248bfa47);
    expect(h('The quick brown fox jumps over the lazy dog')).toBe(0x2e4ff723);
    // Strings differing only in their tail bytes hash apart.
    expect(new Set(['abcd', 'abcde', 'abcdf', 'abcdef', 'abcdeg'].map(h)).size).toBe(5);
  });
});
