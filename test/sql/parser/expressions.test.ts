import { describe, expect, it } from 'vitest';
import type { Expr } from '../../../src/sql/ast.js';
import { parseExpression } from '../../../src/sql/parse.js';
import { stripPos } from './strip-pos.js';

const e = (sql: string) => stripPos(parseExpression(sql));
const col = (name: string, qualifier?: string) => (qualifier === undefined ? { kind: 'column', name } : { kind: 'column', name, qualifier });
const num = (value: string) => ({ kind: 'literal', literal: 'number', value });
const str = (value: string) => ({ kind: 'literal', literal: 'string', value });
const bin = (op: string, left: unknown, right: unknown) => ({ kind: 'binary', op, left, right });
const fn = (name: string, args: unknown[], extra: { distinct?: boolean; star?: boolean } = {}) => ({
  kind: 'function', name, args, distinct: extra.distinct ?? false, star: extra.star ?? false,
});

/** Renders an expression fully parenthesised, to check precedence compactly. */
function show(x: Expr): string {
  switch (x.kind) {
    case 'column': return x.qualifier ? `${x.qualifier}.${x.name}` : x.name;
    case 'literal': return x.literal === 'string' ? `'${x.value}'` : String(x.value);
    case 'binary': return `(${show(x.left)} ${x.op} ${show(x.right)})`;
    case 'unary': return `(${x.op} ${show(x.arg)})`;
    case 'isNull': return `(${show(x.arg)} IS ${x.negated ? 'NOT ' : ''}NULL)`;
    case 'between': return `(${show(x.arg)} ${x.negated ? 'NOT ' : ''}BETWEEN ${show(x.low)} AND ${show(x.high)})`;
    case 'like': return `(${show(x.arg)} ${x.negated ? 'NOT ' : ''}LIKE ${show(x.pattern)})`;
    case 'inList': return `(${show(x.arg)} ${x.negated ? 'NOT ' : ''}IN ${x.list.map(show).join(', ')})`;
    case 'cast': return `(${show(x.arg)}::${x.type})`;
    case 'function': return `${x.name}(${x.star ? '*' : x.args.map(show).join(', ')})`;
    default: return x.kind;
  }
}
const p = (sql: string) => show(parseExpression(sql));

describe('expression precedence', () => {
  it('OR < AND < NOT < comparison', () => {
    expect(p('a OR b AND c')).toBe('(a OR (b AND c))');
    expect(p('a AND b OR c AND d')).toBe('((a AND b) OR (c AND d))');
    expect(p('NOT a AND b')).toBe('((NOT a) AND b)');
    expect(p('NOT a = b')).toBe('(NOT (a = b))');
    expect(p('a = 1 OR NOT b < 2 AND c')).toBe('((a = 1) OR ((NOT (b < 2)) AND c))');
  });

  it('comparison / IS / BETWEEN / IN / LIKE < || < + - < * / % < unary < :: ', () => {
    expect(p('a = b || c')).toBe("(a = (b || c))");
    expect(p("a || b + c")).toBe('(a || (b + c))');
    expect(p('a + b * c - d / e % f')).toBe('((a + (b * c)) - ((d / e) % f))');
    expect(p('a - b - c')).toBe('((a - b) - c)');
    expect(p('a / b * c')).toBe('((a / b) * c)');
    expect(p('-a * b')).toBe('((- a) * b)');
    expect(p('-x::INTEGER')).toBe('(- (x::INTEGER))');
    expect(p('- - 5')).toBe('(- (- 5))');
    expect(p('+ 5')).toBe('(+ 5)');
    expect(p('a + 1 IS NULL')).toBe('((a + 1) IS NULL)');
    expect(p('a BETWEEN 1 AND 2 AND b')).toBe('((a BETWEEN 1 AND 2) AND b)');
    expect(p('a + 1 BETWEEN b - 1 AND b * 2')).toBe('((a + 1) BETWEEN (b - 1) AND (b * 2))');
    expect(p("a || 'x' LIKE '%x'")).toBe("((a || 'x') LIKE '%x')");
    expect(p('a + 1 IN (1, 2)')).toBe('((a + 1) IN 1, 2)');
    expect(p('(a OR b) AND c')).toBe('((a OR b) AND c)');
    expect(p('a < b = TRUE')).toBe('((a < b) = true)');
  });

  it('keeps -5 as unary minus over the number literal', () => {
    expect(e('-5')).toEqual({ kind: 'unary', op: '-', arg: num('5') });
  });
});

describe('expression forms', () => {
  it('literals: numbers as text, strings unescaped, booleans, NULL, DATE, TIMESTAMP', () => {
    expect(e('1e5')).toEqual(num('1e5'));
    expect(e('.5')).toEqual(num('.5'));
    expect(e("'it''s'")).toEqual(str("it's"));
    expect(e('TRUE')).toEqual({ kind: 'literal', literal: 'boolean', value: 'true' });
    expect(e('false')).toEqual({ kind: 'literal', literal: 'boolean', value: 'false' });
    expect(e('NULL')).toEqual({ kind: 'literal', literal: 'null', value: null });
    expect(e("DATE '1998-12-01'")).toEqual({ kind: 'literal', literal: 'date', value: '1998-12-01' });
    expect(e("timestamp '2020-01-01 10:00:00'")).toEqual({ kind: 'literal', literal: 'timestamp', value: '2020-01-01 10:00:00' });
  });

  it('intervals in days, months and years', () => {
    expect(e("INTERVAL '90' DAY")).toEqual({ kind: 'interval', value: 90, unit: 'day' });
    expect(e('INTERVAL 3 MONTH')).toEqual({ kind: 'interval', value: 3, unit: 'month' });
    expect(e("INTERVAL '1' YEAR")).toEqual({ kind: 'interval', value: 1, unit: 'year' });
    expect(e("interval '2 weeks'")).toEqual({ kind: 'interval', value: 14, unit: 'day' });
    expect(e("DATE '1998-12-01' - INTERVAL '90' DAY")).toEqual(bin('-', { kind: 'literal', literal: 'date', value: '1998-12-01' }, { kind: 'interval', value: 90, unit: 'day' }));
    expect(() => parseExpression("INTERVAL '1' FORTNIGHT")).toThrow('unsupported INTERVAL unit "FORTNIGHT"');
  });

  it('column references: plain, qualified, quoted, keywords as names', () => {
    expect(e('l_quantity')).toEqual(col('l_quantity'));
    expect(e('t.a')).toEqual(col('a', 't'));
    expect(e('"My Col"')).toEqual(col('My Col'));
    expect(e('"T"."A"')).toEqual(col('A', 'T'));
    expect(e('s.t.a')).toEqual(col('a', 's.t'));
    for (const name of ['name', 'value', 'date', 'year', 'day', 'month', 'key', 'count', 'sum', 'text', 'type', 'comment', 'first', 'last', 'index', 'view']) {
      expect(e(name)).toEqual(col(name));
    }
    expect(e('l.end')).toEqual(col('end', 'l'));
  });

  it('function calls: lower-cased names, count(*), DISTINCT, special argument syntax', () => {
    expect(e('SUM(x)')).toEqual(fn('sum', [col('x')]));
    expect(e('count(*)')).toEqual(fn('count', [], { star: true }));
    expect(e('count(DISTINCT x)')).toEqual(fn('count', [col('x')], { distinct: true }));
    expect(e('coalesce(a, b, 0)')).toEqual(fn('coalesce', [col('a'), col('b'), num('0')]));
    expect(e('NULLIF(a, 0)')).toEqual(fn('nullif', [col('a'), num('0')]));
    expect(e('now()')).toEqual(fn('now', []));
    expect(e('substring(s FROM 1 FOR 3)')).toEqual(fn('substring', [col('s'), num('1'), num('3')]));
    expect(e('substring(s, 1, 3)')).toEqual(fn('substring', [col('s'), num('1'), num('3')]));
    expect(e('substring(s FROM 2)')).toEqual(fn('substring', [col('s'), num('2')]));
    expect(e('trim(s)')).toEqual(fn('trim', [col('s')]));
    expect(e('extract(year FROM d)')).toEqual(fn('date_part', [str('year'), col('d')]));
    expect(e('EXTRACT(MONTH FROM o_orderdate)')).toEqual(fn('date_part', [str('month'), col('o_orderdate')]));
    expect(e('left(s, 2)')).toEqual(fn('left', [col('s'), num('2')]));
    expect(e('sum(x ORDER BY y)')).toEqual({ ...fn('sum', [col('x')]), orderBy: [{ expr: col('y'), desc: false }] });
    expect(e('min(x ORDER BY y DESC NULLS FIRST, z)')).toEqual({ ...fn('min', [col('x')]), orderBy: [{ expr: col('y'), desc: true, nullsFirst: true }, { expr: col('z'), desc: false }] });
    expect(e('string_agg(x ORDER BY y)')).toEqual({ ...fn('string_agg', [col('x')]), orderBy: [{ expr: col('y'), desc: false }] });
    expect(() => parseExpression('upper(x ORDER BY y)')).toThrow('only allowed in aggregate functions');
    expect(() => parseExpression('upper(s FROM 1)')).toThrow('only valid in substring');
  });

  it('CASE, simple and searched', () => {
    expect(e("CASE WHEN a > 1 THEN 'x' WHEN a > 0 THEN 'y' ELSE 'z' END")).toEqual({
      kind: 'case',
      whens: [{ when: bin('>', col('a'), num('1')), then: str('x') }, { when: bin('>', col('a'), num('0')), then: str('y') }],
      else: str('z'),
    });
    expect(e('CASE a WHEN 1 THEN 2 END')).toEqual({ kind: 'case', operand: col('a'), whens: [{ when: num('1'), then: num('2') }] });
  });

  it('CAST and :: with parameterised and two-word types', () => {
    expect(e('CAST(x AS DECIMAL(15, 2))')).toEqual({ kind: 'cast', arg: col('x'), type: 'DECIMAL(15,2)' });
    expect(e('x::VARCHAR(25)')).toEqual({ kind: 'cast', arg: col('x'), type: 'VARCHAR(25)' });
    expect(e('CAST(x AS DOUBLE PRECISION)')).toEqual({ kind: 'cast', arg: col('x'), type: 'DOUBLE PRECISION' });
    expect(e("'1'::INTEGER::DOUBLE")).toEqual({ kind: 'cast', arg: { kind: 'cast', arg: str('1'), type: 'INTEGER' }, type: 'DOUBLE' });
    expect(e('cast(d as date)')).toEqual({ kind: 'cast', arg: col('d'), type: 'date' });
  });

  it('IN lists and subqueries, EXISTS, scalar subqueries', () => {
    expect(e('x IN (1, 2)')).toEqual({ kind: 'inList', arg: col('x'), list: [num('1'), num('2')], negated: false });
    expect(e('x NOT IN (1)')).toEqual({ kind: 'inList', arg: col('x'), list: [num('1')], negated: true });
    const sub = { kind: 'select', distinct: false, items: [{ kind: 'expr', expr: col('a') }], from: [{ kind: 'table', name: 't' }] };
    expect(e('x IN (SELECT a FROM t)')).toEqual({ kind: 'inSubquery', arg: col('x'), query: sub, negated: false });
    expect(e('x NOT IN (SELECT a FROM t)')).toEqual({ kind: 'inSubquery', arg: col('x'), query: sub, negated: true });
    expect(e('EXISTS (SELECT a FROM t)')).toEqual({ kind: 'exists', query: sub, negated: false });
    expect(e('NOT EXISTS (SELECT a FROM t)')).toEqual({ kind: 'exists', query: sub, negated: true });
    expect(e('(SELECT a FROM t)')).toEqual({ kind: 'subquery', query: sub });
    expect(e('((SELECT a FROM t)) + 1')).toEqual(bin('+', { kind: 'subquery', query: sub }, num('1')));
    expect(e('((SELECT a FROM t) + 1)')).toEqual(bin('+', { kind: 'subquery', query: sub }, num('1')));
  });

  it('BETWEEN, LIKE, IS [NOT] NULL, != as <>', () => {
    expect(e('x NOT BETWEEN 1 AND 2')).toEqual({ kind: 'between', arg: col('x'), low: num('1'), high: num('2'), negated: true });
    expect(e("x LIKE 'a%'")).toEqual({ kind: 'like', arg: col('x'), pattern: str('a%'), negated: false });
    expect(e("x NOT LIKE 'a%'")).toEqual({ kind: 'like', arg: col('x'), pattern: str('a%'), negated: true });
    expect(e('x IS NULL')).toEqual({ kind: 'isNull', arg: col('x'), negated: false });
    expect(e('x IS NOT NULL')).toEqual({ kind: 'isNull', arg: col('x'), negated: true });
    expect(e('a != b')).toEqual(bin('<>', col('a'), col('b')));
    expect(e('a <> b')).toEqual(bin('<>', col('a'), col('b')));
    expect(e('a == b')).toEqual(bin('=', col('a'), col('b')));
  });

  it('IS [NOT] TRUE/FALSE are rewritten into never-NULL forms; IS [NOT] DISTINCT FROM is an operator (the binder expands it)', () => {
    const f = { kind: 'literal', literal: 'boolean', value: 'false' };
    expect(e('x IS TRUE')).toEqual(fn('coalesce', [col('x'), f]));
    expect(e('x IS NOT FALSE')).toEqual({ kind: 'unary', op: 'NOT', arg: fn('coalesce', [{ kind: 'unary', op: 'NOT', arg: col('x') }, f]) });
    expect(e('a IS NOT DISTINCT FROM b')).toEqual(bin('IS NOT DISTINCT FROM', col('a'), col('b')));
    expect(e('a IS DISTINCT FROM b')).toEqual(bin('IS DISTINCT FROM', col('a'), col('b')));
  });

  it('positions: the first token, spanning the whole expression', () => {
    const x = parseExpression('  a +\n  foo(b, 2)');
    expect(x.pos).toEqual({ line: 1, column: 3, offset: 2, length: 15 });
    if (x.kind !== 'binary') throw new Error('binary expected');
    expect(x.right.pos).toEqual({ line: 2, column: 3, offset: 8, length: 9 });
    const paren = parseExpression('(a + b) * c');
    if (paren.kind !== 'binary') throw new Error('binary expected');
    expect(paren.left.pos).toMatchObject({ column: 1, length: 7 });
  });
});

describe('position(needle IN haystack)', () => {
  it('is strpos(haystack, needle); operands are ||-level expressions', () => {
    expect(p("position('b' IN s)")).toBe("strpos(s, 'b')");
    expect(p("position('b' || c IN upper(s) || 'x') > 0")).toBe("(strpos((upper(s) || 'x'), ('b' || c)) > 0)");
    expect(p('position(a IN (b))')).toBe('strpos(b, a)');
  });
  it('leaves the plain call and IN lists inside other arguments alone', () => {
    expect(p('position(a, b)')).toBe('position(a, b)');
    expect(p('f(position(x IN y), z IN (1, 2))')).toBe('f(strpos(y, x), (z IN 1, 2))');
    expect(p('position')).toBe('position');
  });
});
