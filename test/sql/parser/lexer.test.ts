import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/relnode/errors.js';
import { Identifier, Kw, NumberLit, QuotedIdentifier, StringLit, tokenize, createSqlLexer } from '../../../src/sql/lexer.js';
import { SqlParser } from '../../../src/sql/parser.js';
import { decodeStringLiteral } from '../../../src/sql/string-literals.js';

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

  it('reads dollar-quoted strings: $$...$$ and $tag$...$tag$, case-sensitive tags, no escapes, across lines', () => {
    const toks = tokenize("$$it's$$ $tag$a $$ b$tag$ $T$x$t$y$T$ $_a1$\\n\n$_a1$ $$$$");
    expect(toks.map((t) => t.tokenType)).toEqual([StringLit, StringLit, StringLit, StringLit, StringLit]);
    expect(toks.map((t) => t.image)).toEqual(["$$it's$$", '$tag$a $$ b$tag$', '$T$x$t$y$T$', '$_a1$\\n\n$_a1$', '$$$$']);
    expect(toks.map((t) => decodeStringLiteral(t.image))).toEqual(["it's", 'a $$ b', 'x$t$y', '\\n\n', '']);
    // `$1` stays a parameter (a tag cannot start with a digit); `$` inside a name is part of the name.
    expect(kinds('$1 $12 a$$b$$')).toEqual(['NumberedParam', 'NumberedParam', 'Identifier']);
    expect(tokenize('SELECT $$a\nb$$, x')[2]!.startLine).toBe(2);
  });

  it("reads escape strings E'...' (either case) before names starting with E", () => {
    const toks = tokenize("E'a\\nb' e'it\\'s''' E 'x' end e else");
    expect(toks.map((t) => t.tokenType.name)).toEqual(['StringLit', 'StringLit', 'Identifier', 'StringLit', 'END', 'Identifier', 'ELSE']);
    expect(decodeStringLiteral(toks[0]!.image)).toBe('a\nb');
    expect(decodeStringLiteral(toks[1]!.image)).toBe("it's'");
    expect(decodeStringLiteral("'a\\nb'")).toBe('a\\nb'); // a standard string keeps its backslash
  });

  it('decodes every escape of an escape string as PostgreSQL does', () => {
    const d = (body: string): string => decodeStringLiteral(`E'${body}'`);
    expect(d('\\b\\f\\n\\r\\t\\\\\\\'')).toBe("\b\f\n\r\t\\'");
    expect(d('\\101\\1\\0101')).toBe('A\u0001\u00081');
    expect(d('\\x41\\x4a\\x4G\\xG')).toBe('AJ\u0004GxG');
    expect(d('\\u00e9\\U0001F600\\ud83d\\ude00')).toBe('é😀😀');
    expect(d('\\xe2\\x82\\xac\\342\\202\\254')).toBe('€€');
    expect(d('\\q\\%\\_')).toBe('q%_');
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
    expect(() => tokenize('select $$abc\n')).toThrow('line 1, column 8: unterminated dollar-quoted string: "$$" has no closing "$$"');
    expect(() => tokenize('select $Body$ abc $body$')).toThrow('unterminated dollar-quoted string: "$Body$" has no closing "$Body$"');
    // Reported before the characters it would have quoted (here `\` and `#`).
    expect(() => tokenize("select E'it\\'s # 1")).toThrow("line 1, column 8: unterminated string literal: an E' has no closing '");
    expect(() => tokenize("select E'ab\\x41\\u12' x")).toThrow('line 1, column 16: invalid Unicode escape "\\u12"');
    expect(() => tokenize('select $ 1')).toThrow('line 1, column 8: unexpected character "$"');
    // A list literal or array type: the message names the missing LIST type.
    expect(() => tokenize('select [1, 2]')).toThrow('line 1, column 8: unexpected character "[": lists ([1, 2], INTEGER[]) need a LIST type, which eddy does not have yet (see Types in docs/sql.md)');
    expect(() => tokenize('select cast(1 as integer[])')).toThrow('line 1, column 25: unexpected character "["');
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
