import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/relnode/errors.js';
import { formatSqlError } from '../../../src/sql/error-format.js';
import { parseExpression, parseQuery, parseSelectItems, parseStatements } from '../../../src/sql/parse.js';

/** The ParseError `f` throws (fails the test when it does not throw one). */
function parseError(f: () => unknown): ParseError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ParseError);
    return e as ParseError;
  }
  throw new Error('expected a ParseError');
}

describe('formatSqlError', () => {
  it('quotes the line with a caret under the token', () => {
    expect(formatSqlError('SELECT 1\nFROM x\nSELECT qty FROM lineitem', { line: 3, column: 8, length: 3 }, 'column "qty" not found')).toBe(
      'line 3, column 8: column "qty" not found\n  3 | SELECT qty FROM lineitem\n    |        ^^^',
    );
  });

  it('keeps tabs aligned, clips the caret to the line, widens the gutter for long line numbers', () => {
    expect(formatSqlError('\tSELECT\tqty', { line: 1, column: 9, length: 40 }, 'm')).toBe('line 1, column 9: m\n  1 | \tSELECT\tqty\n    | \t      \t^^^');
    const text = `${'\n'.repeat(11)}SELECT x`;
    expect(formatSqlError(text, { line: 12, column: 8 }, 'm')).toBe('line 12, column 8: m\n  12 | SELECT x\n     |        ^');
    expect(formatSqlError('SELECT', { line: 1, column: 7 }, 'm')).toBe('line 1, column 7: m\n  1 | SELECT\n    |       ^');
  });
});

describe('syntax errors', () => {
  it('a misspelled keyword parsed as an alias: points at it and suggests the keyword', () => {
    const e = parseError(() => parseStatements('SELECT l_quantity FORM lineitem'));
    expect(e.message).toBe(
      'line 1, column 19: unexpected "FORM"; expected FROM, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT, ... or end of statement (did you mean FROM?)\n' +
        '  1 | SELECT l_quantity FORM lineitem\n' +
        '    |                   ^^^^',
    );
    expect([e.line, e.column]).toEqual([1, 19]);
  });

  it('a misspelled keyword where a keyword is required', () => {
    expect(parseError(() => parseStatements('SELECT 1;\nSELEC 2')).message).toBe(
      'line 2, column 1: unexpected "SELEC"; expected SELECT, WITH, VALUES, FROM, CREATE, TABLE, ... (did you mean SELECT?)\n  2 | SELEC 2\n    | ^^^^^',
    );
    expect(parseError(() => parseStatements('SELECT * FROM t WHER a > 1')).message).toContain('unexpected "WHER"; expected WHERE, GROUP BY');
    expect(parseError(() => parseStatements('SELECT a FROM t GROPU BY a')).message).toContain('(did you mean GROUP BY?)');
  });

  it('an early end points just past the last token (or at the ;)', () => {
    expect(parseError(() => parseStatements('SELECT a\nFROM t\nWHERE a >')).message).toBe(
      'line 3, column 10: unexpected end of statement; expected an expression\n  3 | WHERE a >\n    |          ^',
    );
    expect(parseError(() => parseStatements('SELECT a FROM;')).message).toBe(
      'line 1, column 14: unexpected end of statement; expected "(", a name or a string\n  1 | SELECT a FROM;\n    |              ^',
    );
    expect(parseError(() => parseStatements('SELECT CASE WHEN a THEN 1')).message).toContain('expected WHEN, ELSE, END or an operator');
    expect(parseError(() => parseStatements('SELECT (1 + 2')).message).toContain('expected ",", ")" or an operator');
  });

  it('names what was expected in plain words', () => {
    expect(parseError(() => parseStatements('SELECT a FROM t ORDER a')).message).toContain('unexpected "a"; expected BY');
    expect(parseError(() => parseStatements('INSERT t VALUES (1)')).message).toContain('unexpected "t"; expected INTO');
    expect(parseError(() => parseStatements('DROP x')).message).toContain('expected TABLE, INDEX or VIEW');
    expect(parseError(() => parseStatements('SELECT 1 + * 2')).message).toContain('unexpected "*"; expected an expression');
    expect(parseError(() => parseStatements('SELECT a FROM t UNION')).message).toContain('expected SELECT, VALUES, FROM, DISTINCT, ALL, TABLE or "("');
    expect(parseError(() => parseStatements('SELECT * FROM (FROM)')).message).toContain('unexpected ")"; expected "(", a name or a string');
    expect(parseError(() => parseStatements('SELECT * FROM (WHERE t)')).message).toContain('unexpected "WHERE"; expected SELECT, WITH, VALUES, FROM, "(", a name or a string');
    expect(parseError(() => parseStatements('SELECT percentile_cont(0.5) WITHIN (ORDER BY a) FROM t')).message).toContain('line 1, column 29: expected WITHIN GROUP (ORDER BY ...) after the call');
    expect(parseError(() => parseStatements('SELECT count(*) FILTER (WHERE) FROM t')).message).toContain('unexpected ")"; expected an expression');
    expect(parseError(() => parseStatements('SELECT sum(a) OVER (ROWS BETWEEN 1 PRECEDING) FROM t')).message).toContain('unexpected ")"; expected AND');
  });

  it('a SELECT after the clauses of a FROM-first query says where SELECT goes', () => {
    const advice = '(in a FROM-first query SELECT comes right after the FROM items: FROM t SELECT a WHERE ...)';
    expect(parseError(() => parseStatements('FROM t WHERE a = 1 SELECT b')).message).toMatch(/^line 1, column 20: unexpected "SELECT"; expected .*\(in a FROM-first/);
    expect(parseError(() => parseStatements('SELECT * FROM (FROM t GROUP BY a SELECT a)')).message).toContain(advice);
    expect(parseError(() => parseStatements('WITH c AS (FROM t ORDER BY a SELECT a) FROM c')).message).toContain(advice);
    expect(parseError(() => parseStatements('SELECT a FROM t WHERE a = 1 SELECT b')).message).not.toContain('FROM-first');
    expect(parseError(() => parseStatements('DELETE FROM t WHERE a = 1 SELECT b')).message).not.toContain('FROM-first');
  });

  it('the other entry points say "end of input"', () => {
    expect(parseError(() => parseExpression('a +')).message).toBe('line 1, column 4: unexpected end of input; expected an expression\n  1 | a +\n    |    ^');
    expect(parseError(() => parseExpression('a b')).message).toContain('unexpected "b"; expected');
    expect(parseError(() => parseSelectItems('a, ')).message).toContain('unexpected end of input; expected an expression or "*"');
    expect(parseError(() => parseExpression('')).message).toContain('expected an expression, found nothing');
  });

  it('parseQuery wants exactly one query', () => {
    expect(parseQuery('SELECT 1;').kind).toBe('select');
    expect(parseError(() => parseQuery('SELECT 1; SELECT 2')).message).toContain('expected a single query');
    expect(parseError(() => parseQuery('')).message).toContain('expected a query');
    expect(parseError(() => parseQuery('CREATE TABLE t (a INT)')).message).toContain('CREATE starts a statement, not a query: run statements with executeSql');
    const explain = parseError(() => parseQuery('\n  explain SELECT 1'));
    expect(explain.message).toContain('EXPLAIN starts a statement, not a query: run statements with executeSql (or call .explain() on the query\'s table)');
    expect(explain.message).toMatch(/^line 2, column 3:/);
    // A word that only looks like one is still a syntax error with a suggestion.
    expect(parseError(() => parseQuery('SELEC 1')).message).toContain('unexpected "SELEC"');
  });

  it('positions count lines and columns across statements', () => {
    const e = parseError(() => parseStatements('SELECT 1;\n\n  SELECT 2 +;'));
    expect([e.line, e.column]).toEqual([3, 13]);
  });
});
