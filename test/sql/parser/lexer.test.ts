import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/relnode/errors.js';
import { Identifier, Kw, NumberLit, QuotedIdentifier, StringLit, tokenize, createSqlLexer } from '../../../src/sql/lexer.js';
import { SqlParser } from '../../../src/sql/parser.js';

const kinds = (sql: string) => tokenize(sql).map((t) => t.tokenType.name);
const images = (sql: string) => tokenize(sql).map((t) => t.image);

describe('lexer', () => {
  it('keywords are case-insensitive and prefer identifiers that merely start with one', () => {
    expect(kinds('select SeLeCt SELECT selected selection_id')).toEqual(['SELECT', 'SELECT', 'SELECT', 'Identifier', 'Identifier']);
    expect(kinds('in inner into interval intersect')).toEqual(['IN', 'INNER', 'INTO', 'INTERVAL', 'INTERSECT']);
    expect(kinds('order orders ordered')).toEqual(['ORDER', 'Identifier', 'Identifier']);
    expect(kinds('as asc ascii')).toEqual(['AS', 'ASC', 'Identifier']);
  });

  it('non-reserved keywords are tokens of their own that still count as identifiers', () => {
    const [date] = tokenize('date');
    expect(date!.tokenType).toBe(Kw.DATE);
    expect(tokenize('name')[0]!.tokenType).toBe(Identifier);
  });

  it('reads quoted identifiers with "" escapes, keeping case and spaces', () => {
    const [t] = tokenize('"My ""Col"""');
    expect(t!.tokenType).toBe(QuotedIdentifier);
    expect(t!.image).toBe('"My ""Col"""');
  });

  it("reads strings with '' escapes, across lines", () => {
    const toks = tokenize("'it''s' 'a\nb' ''");
    expect(toks.map((t) => t.tokenType)).toEqual([StringLit, StringLit, StringLit]);
    expect(toks[1]!.image).toBe("'a\nb'");
  });

  it('reads numbers: integers, decimals, .5, exponents', () => {
    expect(images('1 23.5 .5 1e5 2.5E-3 7.')).toEqual(['1', '23.5', '.5', '1e5', '2.5E-3', '7.']);
    expect(tokenize('1e5')[0]!.tokenType).toBe(NumberLit);
    expect(kinds('t.a')).toEqual(['Identifier', 'Dot', 'Identifier']);
  });

  it('skips -- and /* */ comments', () => {
    expect(images('select -- a comment\n 1 /* block\n comment */ + 2')).toEqual(['select', '1', '+', '2']);
  });

  it('reads every operator', () => {
    expect(kinds(':: || <> != <= >= < > = == := + - * / % , . ; ( )')).toEqual([
      'DoubleColon', 'Concat', 'NotEq', 'NotEq', 'LtEq', 'GtEq', 'Lt', 'Gt', 'Eq', 'Eq', 'ColonEq',
      'Plus', 'Minus', 'Star', 'Slash', 'Percent', 'Comma', 'Dot', 'Semicolon', 'LParen', 'RParen',
    ]);
  });

  it('tracks lines and columns', () => {
    const toks = tokenize('select\n  a,\n\tb');
    expect(toks.map((t) => [t.startLine, t.startColumn])).toEqual([[1, 1], [2, 3], [2, 4], [3, 2]]);
  });

  it('reports unterminated strings, identifiers and comments, and unknown characters', () => {
    expect(() => tokenize("select 'abc")).toThrow(ParseError);
    expect(() => tokenize("select 'abc")).toThrow("line 1, column 8: unterminated string literal: a ' has no closing '\n  1 | select 'abc\n    |        ^");
    expect(() => tokenize('select "abc')).toThrow('unterminated quoted identifier');
    expect(() => tokenize('select 1 /* never closed')).toThrow('line 1, column 10: unterminated comment');
    expect(() => tokenize('select 1 # 2')).toThrow('line 1, column 10: unexpected character "#"');
    let caught: unknown;
    try {
      tokenize('select\n  1 @ 2');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ParseError);
    expect([(caught as ParseError).line, (caught as ParseError).column]).toEqual([2, 5]);
  });
});

describe('grammar', () => {
  it("passes chevrotain's grammar checks (no ambiguity or left recursion; skipped when the shared parser is built)", () => {
    expect(() => new SqlParser({ validate: true })).not.toThrow();
  });

  it("passes chevrotain's lexer checks (skipped when the shared lexer is built)", () => {
    expect(() => createSqlLexer(true)).not.toThrow();
    expect(createSqlLexer(true).lexerDefinitionErrors).toEqual([]);
  });
});
