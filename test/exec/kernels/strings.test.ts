import { describe, expect, it } from 'vitest';
import { likeMatcher } from '../../../src/exec/kernels/like.js';
import { substringRange } from '../../../src/exec/kernels/string-fns.js';
import { evalExpr, fn, lit, ref, type ColSpec } from './kernel-helpers.js';

const S = (values: (string | null)[], dict = false): ColSpec => ({ type: 'VARCHAR', values, dict });
const s0 = ref(0, 'VARCHAR');

function like(s: string, p: string): boolean {
  const b = Buffer.from(s, 'utf8');
  return likeMatcher(p)(b, 0, b.length);
}

describe('LIKE', () => {
  it.each([
    ['abc', 'abc', true], ['abc', 'ab', false], ['abc', 'a%', true], ['abc', 'A%', false], ['abc', '%c', true],
    ['abc', '%b%', true], ['abc', '%d%', false], ['', '%', true], ['', '', true], ['x', '', false], ['', '_', false],
    ['abc', 'a_c', true], ['abbc', 'a_c', false], ['é', '_', true], ['😀', '_', true], ['😀x', '__', true],
    ['a.c', 'a.c', true], ['abc', 'a.c', false], ['a(b', 'a(_', true], ['a+b*', '%+_*', true], ['a\\b', 'a\\b', true],
    ['a_c', 'a\\_c', false], ['[x]', '[_]', true], ['^$', '^$', true], ['a\nb', 'a%', true], ['a\nb', 'a_b', true],
    ['abcabc', 'a%c%c', true], ['abc', 'a%b%c', true], ['ac', 'a%b%c', false], ['aXbYc', '%X%Y%', true], ['aYbXc', '%X%Y%', false],
    ['aa', 'a%a', true], ['a', 'a%a', false], ['ab', '%%b', true], ['abab', '%ab', true], ['ab', '%_%', true],
  ])('%j LIKE %j = %s', (s, p, want) => {
    expect(like(s, p)).toBe(want);
  });
  it.each([false, true])('as a kernel with NULLs and slices (dictionary=%s)', (dict) => {
    const cols = [S(['apple', null, 'banana', 'grape', 'apple'], dict)];
    expect(evalExpr(fn('like', [s0, lit('%ap%', 'VARCHAR')], 'BOOLEAN'), cols)).toEqual([true, null, false, true, true]);
    expect(evalExpr(fn('like', [s0, lit('_a%', 'VARCHAR')], 'BOOLEAN'), cols, 3)).toEqual([false, null, true, false, false]);
    expect(evalExpr(fn('not', [fn('like', [s0, lit('a%', 'VARCHAR')], 'BOOLEAN')], 'BOOLEAN'), cols)).toEqual([false, null, true, true, false]);
  });
  it('pattern from a column', () => {
    expect(evalExpr(fn('like', [s0, ref(1, 'VARCHAR')], 'BOOLEAN'), [S(['abc', 'abc', 'x', null]), S(['a%', '%d', null, '%'])])).toEqual([true, false, null, null]);
  });
});

describe('IN', () => {
  it('numbers: TRUE on match, else NULL if a NULL is involved', () => {
    const c = [{ type: 'INTEGER' as const, values: [1, 3, null, 2] }];
    const x = ref(0, 'INTEGER');
    expect(evalExpr(fn('in', [x, lit(1, 'INTEGER'), lit(2, 'INTEGER')], 'BOOLEAN'), c)).toEqual([true, false, null, true]);
    expect(evalExpr(fn('in', [x, lit(1, 'INTEGER'), lit(null, 'INTEGER')], 'BOOLEAN'), c, 2)).toEqual([true, null, null, null]);
    const many = Array.from({ length: 20 }, (_, k) => lit(k * 3, 'INTEGER'));
    expect(evalExpr(fn('in', [x, ...many], 'BOOLEAN'), c)).toEqual([false, true, null, false]);
  });
  it('items that are expressions', () => {
    const c = [{ type: 'INTEGER' as const, values: [1, 3, 4] }, { type: 'INTEGER' as const, values: [3, 3, null] }];
    const e = fn('in', [ref(0, 'INTEGER'), lit(1, 'INTEGER'), ref(1, 'INTEGER')], 'BOOLEAN');
    expect(evalExpr(e, c)).toEqual([true, true, null]);
  });
  it.each([false, true])('strings (dictionary=%s), short and long lists', (dict) => {
    const c = [S(['a', 'b', null, 'é', 'zz'], dict)];
    expect(evalExpr(fn('in', [s0, lit('a', 'VARCHAR'), lit('é', 'VARCHAR')], 'BOOLEAN'), c, 2)).toEqual([true, false, null, true, false]);
    const many = Array.from({ length: 12 }, (_, k) => lit(`k${k}`, 'VARCHAR'));
    expect(evalExpr(fn('in', [s0, ...many, lit('zz', 'VARCHAR')], 'BOOLEAN'), c)).toEqual([false, false, null, false, true]);
  });
  it('BIGINT beyond 2^53, BOOLEAN, DATE', () => {
    const big = 2n ** 53n + 1n;
    expect(evalExpr(fn('in', [ref(0, 'BIGINT'), lit(big, 'BIGINT')], 'BOOLEAN'), [{ type: 'BIGINT', values: [big, big - 1n] }])).toEqual([true, false]);
    expect(evalExpr(fn('in', [ref(0, 'BIGINT'), lit(5n, 'BIGINT')], 'BOOLEAN'), [{ type: 'BIGINT', values: [5n, 6n] }])).toEqual([true, false]);
    expect(evalExpr(fn('in', [ref(0, 'BOOLEAN'), lit(true, 'BOOLEAN')], 'BOOLEAN'), [{ type: 'BOOLEAN', values: [true, false, null] }])).toEqual([true, false, null]);
    expect(evalExpr(fn('in', [ref(0, 'DATE'), lit(10, 'DATE')], 'BOOLEAN'), [{ type: 'DATE', values: [10, 11] }])).toEqual([true, false]);
  });
});

describe('string functions', () => {
  it.each([[false, 0], [true, 0], [false, 3], [true, 3]])('upper, lower, trim, length (dictionary=%s, slice %i)', (dict, slice) => {
    const c = [S(['Hello', null, ' straße ', 'ÀÉ x', '', 'Hello'], dict as boolean)];
    expect(evalExpr(fn('upper', [s0], 'VARCHAR'), c, slice as number)).toEqual(['HELLO', null, ' STRAẞE ', 'ÀÉ X', '', 'HELLO']);
    expect(evalExpr(fn('lower', [s0], 'VARCHAR'), c, slice as number)).toEqual(['hello', null, ' straße ', 'àé x', '', 'hello']);
    expect(evalExpr(fn('trim', [s0], 'VARCHAR'), c, slice as number)).toEqual(['Hello', null, 'straße', 'ÀÉ x', '', 'Hello']);
    expect(evalExpr(fn('length', [s0], 'INTEGER'), c, slice as number)).toEqual([5, null, 8, 4, 0, 5]);
  });
  it('trim removes spaces only; length counts code points', () => {
    expect(evalExpr(fn('trim', [s0], 'VARCHAR'), [S(['\t a \n', '   '])])).toEqual(['\t a \n', '']);
    expect(evalExpr(fn('length', [s0], 'INTEGER'), [S(['héllo😀'])])).toEqual([6]);
    expect(evalExpr(fn('lower', [s0], 'VARCHAR'), [S(['İ', 'ẞ'])])).toEqual(['i', 'ß']);
    expect(evalExpr(fn('upper', [s0], 'VARCHAR'), [S(['ﬁ', 'ǆ'])])).toEqual(['ﬁ', 'Ǆ']);
  });
  it.each([
    [1, null, 'hello'], [0, 2, 'h'], [-2, null, 'lo'], [-2, 1, 'l'], [2, null, 'ello'], [2, -1, 'h'], [10, null, ''],
    [5, 100, 'o'], [-10, 3, ''], [-10, 8, 'hel'], [0, null, 'hello'], [1, 0, ''], [0, 1, ''], [-2, -1, 'l'], [3, -5, 'he'], [9, -5, 'lo'],
  ])('substring(hello, %i, %s) = %j (DuckDB)', (start, len, want) => {
    const args = [s0, lit(start, 'INTEGER'), ...(len === null ? [] : [lit(len, 'INTEGER')])];
    expect(evalExpr(fn('substring', args, 'VARCHAR'), [S(['hello'])])).toEqual([want]);
    const [a, b] = substringRange(5, start, len);
    expect('hello'.slice(a, b)).toBe(want);
  });
  it('substring on code points, dictionaries, per-row arguments', () => {
    expect(evalExpr(fn('substring', [s0, lit(2, 'INTEGER'), lit(2, 'INTEGER')], 'VARCHAR'), [S(['héllo', null, '😀ab'], true)], 2)).toEqual(['él', null, 'ab']);
    const cols: ColSpec[] = [S(['abcdef', 'abcdef', 'xyz', 'q']), { type: 'INTEGER', values: [2, -3, null, 1] }, { type: 'INTEGER', values: [3, 2, 1, null] }];
    expect(evalExpr(fn('substring', [s0, ref(1, 'INTEGER'), ref(2, 'INTEGER')], 'VARCHAR'), cols)).toEqual(['bcd', 'de', null, null]);
    expect(evalExpr(fn('substring', [s0, ref(1, 'INTEGER')], 'VARCHAR'), cols)).toEqual(['bcdef', 'def', null, 'q']);
  });
  it('concat treats NULL as empty; || is NULL if any argument is NULL', () => {
    const cols = [S(['a', null, 'c', null]), S(['x', 'y', null, null], true)];
    expect(evalExpr(fn('concat', [s0, ref(1, 'VARCHAR'), lit('!', 'VARCHAR')], 'VARCHAR'), cols)).toEqual(['ax!', 'y!', 'c!', '!']);
    expect(evalExpr(fn('concat_op', [s0, ref(1, 'VARCHAR')], 'VARCHAR'), cols, 3)).toEqual(['ax', null, null, null]);
    expect(evalExpr(fn('concat', [lit(null, 'VARCHAR')], 'VARCHAR'), cols)).toEqual(['', '', '', '']);
    expect(evalExpr(fn('upper', [lit(null, 'NULL')], 'VARCHAR'), cols)).toEqual([null, null, null, null]);
  });
});
