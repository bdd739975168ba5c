/**
 * `%lit%lit%...%` patterns (like-match.ts containsAll / Boyer-Moore-Horspool
 * for literals of 3+ bytes) against a reference: strings over a small
 * alphabet, so partial matches, overlaps and matches at the very end are
 * frequent; multibyte literals; ILIKE folding.
 */
import { describe, expect, it } from 'vitest';
import { likeMatcher } from '../../../src/exec/kernels/like-match.js';
import { encodeUtf8 } from '../../../src/exec/kernels/utf8.js';
import { rng } from '../../helpers/rng.js';

/** The reference: the literals in order, each at or after the end of the previous one (String.indexOf). */
function reference(s: string, lits: readonly string[]): boolean {
  let p = 0;
  for (const l of lits) { const at = s.indexOf(l, p); if (at < 0) return false; p = at + l.length; }
  return true;
}

describe('LIKE contains patterns', () => {
  it('match the reference on random strings (overlaps, repeats, matches at the end)', () => {
    const r = rng(42);
    const alphabet = ['a', 'b', 'a', 'b', 'c', '日', 'é'];
    const word = (n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]!).join('');
    const patterns = [['aab'], ['abab'], ['aaaa'], ['abc', 'cba'], ['ab', 'bab', 'aab'], ['日日a'], ['é日'], ['special', 'requests'], ['aba', 'aba']];
    const matchers = patterns.map((lits) => likeMatcher(`%${lits.join('%')}%`));
    const bad: string[] = [];
    for (let t = 0; t < 4000; t++) {
      const s = word(Math.floor(r() * 24));
      const bytes = encodeUtf8(`xy${s}z`); // the string sits inside a larger buffer
      patterns.forEach((lits, k) => { if (matchers[k]!(bytes, 2, bytes.length - 1) !== reference(s, lits)) bad.push(`${s} LIKE %${lits.join('%')}%`); });
    }
    expect(bad).toEqual([]);
  });

  it('finds literals at the start, the end, and in TPC-H comments; ILIKE folds', () => {
    const m = likeMatcher('%special%requests%');
    const b = (s: string): Uint8Array => encodeUtf8(s);
    const t = (s: string): boolean => { const x = b(s); return m(x, 0, x.length); };
    expect(t('specialrequests')).toBe(true);
    expect(t('ly special packages. requests')).toBe(true);
    expect(t('requests special')).toBe(false);
    expect(t('specia lrequests')).toBe(false);
    expect(t('special requestz')).toBe(false);
    const i = likeMatcher('%SPECIAL%requests%', { caseInsensitive: true });
    const x = b('Quickly Special REQUESTS');
    expect(i(x, 0, x.length)).toBe(true);
  });
});
