/**
 * The string interner keeps every id through its growth (grow re-places ids
 * by their stored hashes): ids are dense in first-seen order, every string is
 * found again after many doublings, absent strings are not.
 */
import { describe, expect, it } from 'vitest';
import { StringInterner } from '../../../src/exec/kernels/hash-interner.js';

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
});
