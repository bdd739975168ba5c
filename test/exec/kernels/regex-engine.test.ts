/**
 * The linear-time regex engine (regex-engine.ts): leftmost-first matches
 * and captures equal to JS RegExp's (a backtracking engine with the same
 * priority rules) over a seeded random corpus of patterns and texts (except
 * the captures of repeated groups, where JS's empty-iteration rule differs
 * from RE2's);
 * patterns that take a backtracking engine exponential time finish in
 * milliseconds; backreferences and lookaround are rejected.
 */
import { describe, expect, it } from 'vitest';
import { compileRegex } from '../../../src/exec/kernels/regex-engine.js';
import { execRegex, RegexMatcher } from '../../../src/exec/kernels/regex-exec.js';
import { RegexTester, testRegex } from '../../../src/exec/kernels/regex-test.js';

const cps = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0)!);

/** The match of `pattern` in `text` as [start, end, group 1 start, group 1 end, ...] in code units (texts here are ASCII). */
function ours(pattern: string, text: string): number[] | null {
  const re = compileRegex(pattern);
  const m = execRegex(re, cps(text));
  return m === null ? null : [...m];
}

function theirs(pattern: string, text: string): number[] | null {
  const m = new RegExp(pattern, 'd').exec(text);
  if (m === null) return null;
  const out: number[] = [];
  for (const r of m.indices!) out.push(r === undefined ? -1 : r[0], r === undefined ? -1 : r[1]);
  return out;
}

/** A seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomPattern(r: () => number, depth = 0): string {
  const atoms = ['a', 'b', 'c', '.', '[ab]', '[^a]', '\\d', '1'];
  let p = '';
  const n = 1 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) {
    let atom = depth < 2 && r() < 0.25 ? `(${randomPattern(r, depth + 1)}${r() < 0.4 ? `|${randomPattern(r, depth + 1)}` : ''})` : atoms[Math.floor(r() * atoms.length)]!;
    const q = r();
    if (q < 0.15) atom += '*'; else if (q < 0.25) atom += '+'; else if (q < 0.32) atom += '?'; else if (q < 0.37) atom += '{1,2}';
    if (q < 0.37 && r() < 0.3) atom += '?';
    p += atom;
  }
  return (r() < 0.15 ? '^' : '') + p + (r() < 0.15 ? '$' : '');
}

describe('regex engine', () => {
  it('agrees with JS RegExp on matches and captures over a random corpus', () => {
    const r = rng(12);
    let compared = 0;
    for (let k = 0; k < 1500; k++) {
      const pattern = randomPattern(r);
      const text = Array.from({ length: Math.floor(r() * 12) }, () => 'abc1 '[Math.floor(r() * 5)]).join('');
      // A repeated group's capture differs by design: JS rejects an empty iteration of a quantified group,
      // RE2 (DuckDB's engine, and this one) does not; compare the whole match there, every capture elsewhere.
      const repeatedGroup = /\)[*+?{]/.test(pattern);
      const a = ours(pattern, text), b = theirs(pattern, text);
      expect(repeatedGroup ? a?.slice(0, 2) : a, `/${pattern}/ on '${text}'`).toEqual(repeatedGroup ? b?.slice(0, 2) : b);
      expect(testRegex(compileRegex(pattern), cps(text)), `test /${pattern}/ on '${text}'`).toBe(b !== null);
      compared++;
    }
    expect(compared).toBe(1500);
  });

  it('one reused tester and matcher per pattern (prefix skip, anchored starts, ASCII bytes as text) agrees with JS RegExp', () => {
    const r = rng(99);
    const bytes = (t: string): Uint8Array => Uint8Array.from(Buffer.from(t, 'latin1'));
    for (let k = 0; k < 400; k++) {
      const lit = ['ab', 'a1', 'ca', 'b'][k % 4]!;
      const pattern = (k % 5 === 0 ? '^' : '') + lit + (k % 3 === 0 ? randomPattern(r) : '');
      const tester = new RegexTester(compileRegex(pattern));
      const matcher = new RegexMatcher(compileRegex(pattern));
      for (let j = 0; j < 6; j++) {
        const text = Array.from({ length: Math.floor(r() * 16) }, () => 'abc1 '[Math.floor(r() * 5)]).join('');
        const want = new RegExp(pattern).test(text);
        expect(tester.test(cps(text)), `/${pattern}/ on '${text}'`).toBe(want);
        expect(tester.test(bytes(text)), `/${pattern}/ on bytes '${text}'`).toBe(want);
        const m = new RegExp(pattern, 'd').exec(text);
        const got = matcher.exec(bytes(text));
        expect(got === null ? null : [got[0], got[1]], `exec /${pattern}/ on '${text}'`).toEqual(m === null ? null : [m.indices![0]![0], m.indices![0]![1]]);
      }
    }
  });

  it('runs patterns that are exponential for a backtracking engine in linear time', () => {
    const text = cps('a'.repeat(20_000) + 'b');
    for (const p of ['(a+)+$', '(a|a)*c', '(a*)*c', '(a|aa)+$', '^(a?){25}a{25}$']) {
      const t0 = performance.now();
      execRegex(compileRegex(p), text);
      testRegex(compileRegex(p), text);
      expect(performance.now() - t0, p).toBeLessThan(5000);
    }
  });

  it('rejects backreferences and lookaround, saying why', () => {
    expect(() => compileRegex('(a)\\1')).toThrow(/backreferences .* linear time/);
    for (const p of ['a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) expect(() => compileRegex(p)).toThrow(/lookahead and lookbehind/);
    expect(() => compileRegex('a{2000}')).toThrow(/at most 1000/);
    expect(() => compileRegex('(a')).toThrow(/missing \)/);
  });

  it('supports flags, classes, anchors and lazy quantifiers', () => {
    expect(ours('(?i)HeLLo', 'say hello')).toEqual([4, 9]);
    expect(execRegex(compileRegex('x', { caseInsensitive: true }), cps('aXb'))).not.toBeNull();
    expect(ours('[[:digit:]]+', 'ab123c')).toEqual([2, 5]);
    expect(ours('\\bfoo\\b', 'a foo b')).toEqual([2, 5]);
    expect(ours('a+?', 'aaa')).toEqual([0, 1]);
    expect(execRegex(compileRegex('(?m)^b$'), cps('a\nb'))).not.toBeNull();
    expect(execRegex(compileRegex('^b$'), cps('a\nb'))).toBeNull();
    expect(ours('é+', 'caféé')).toEqual([3, 5]);
  });
});
