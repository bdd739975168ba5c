/**
 * The SQL token vocabulary and lexer: one ordered list (comments and
 * whitespace, keywords longest first, identifiers, literals, operators).
 * Keywords are case-insensitive and fall back to Identifier through
 * `longer_alt` (`selected` is a name, not SELECT). Non-reserved keywords also
 * belong to the `Ident` category, so they can name columns and tables
 * (`date`, `name`, `first`); every keyword belongs to `Label`, which is what
 * may follow a `.` or `AS` (`l.end`, `AS order`).
 */
import { createToken, Lexer, type IToken, type TokenType } from 'chevrotain';
import { ParseError } from '../relnode/errors.js';
import { formatSqlError } from './error-format.js';
import { lexWithLiteralRuns, type RunTokenTypes } from './literal-runs.js';
import { escapeProblem, matchStringLiteral, STRING_START_CHARS } from './string-literals.js';

/** Anything that may name a column, table or alias: identifiers, quoted identifiers, non-reserved keywords. */
export const Ident = createToken({ name: 'Ident', pattern: Lexer.NA });
/** An `Ident` or any keyword: allowed after `.` and after `AS`. */
export const Label = createToken({ name: 'Label', pattern: Lexer.NA });

/** A bare identifier (`l_orderkey`, `Lineitem`). */
export const Identifier = createToken({
  name: 'Identifier',
  pattern: /[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/,
  categories: [Ident, Label],
});

/** Words the grammar reserves: they never name a column, table or alias without quotes (except after `.`/`AS`). */
const RESERVED = [
  'SELECT', 'FROM', 'WHERE', 'GROUP', 'BY', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'UNION', 'INTERSECT', 'EXCEPT',
  'JOIN', 'ON', 'USING', 'AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE', 'CASE', 'WHEN', 'THEN', 'ELSE',
  'END', 'AS', 'DISTINCT', 'ALL', 'CREATE', 'TABLE', 'INSERT', 'INTO', 'VALUES', 'DROP', 'WITH', 'CAST', 'BETWEEN',
  'LIKE', 'ILIKE', 'TRY_CAST', 'EXISTS', 'INNER', 'LEFT', 'RIGHT', 'FULL', 'OUTER', 'CROSS', 'NATURAL', 'ASC', 'DESC',
  // Window functions (reserved as in DuckDB: `sum(x) OVER`, `FROM t WINDOW`, `QUALIFY` must not read as aliases).
  'OVER', 'WINDOW', 'QUALIFY',
  // `FROM t TABLESAMPLE 10%` (reserved in DuckDB and PostgreSQL: it must not read as an alias).
  'TABLESAMPLE',
  // `FROM t, LATERAL (SELECT ...)` (reserved in PostgreSQL and DuckDB: `FROM t lateral` must not read as an alias).
  'LATERAL',
] as const;

/** Words with a syntactic role that still name columns and tables where a name is expected. */
const NON_RESERVED = [
  'DATE', 'TIMESTAMP', 'INTERVAL', 'NULLS', 'FIRST', 'LAST', 'RECURSIVE', 'MATERIALIZED', 'REPLACE', 'IF', 'INDEX',
  'UNIQUE', 'PRIMARY', 'KEY', 'VIEW', 'TEMP', 'TEMPORARY', 'SHOW', 'TABLES', 'DESCRIBE', 'EXPLAIN', 'ANALYZE', 'SET',
  'TO', 'PRAGMA', 'CACHE', 'LAZY', 'UNCACHE', 'CLEAR', 'CACHES', 'OPTIONS', 'EXTERNAL', 'STORED', 'LOCATION',
  'HEADER', 'ROW', 'FOR', 'ESCAPE',
  // Window specifications and frames.
  'PARTITION', 'ROWS', 'RANGE', 'UNBOUNDED', 'PRECEDING', 'FOLLOWING', 'CURRENT',
  'UPDATE', 'DELETE', 'COPY', 'SUMMARIZE',
  // Prepared statements.
  'PREPARE', 'EXECUTE', 'DEALLOCATE',
  // PIVOT / UNPIVOT (parser-pivot.ts). DuckDB reserves them; eddy does not, so a column or table named pivot
  // keeps working: `FROM t PIVOT (` is a pivot only when the `(` follows (a gate keeps it from reading as an alias).
  'PIVOT', 'UNPIVOT', 'PIVOT_WIDER', 'PIVOT_LONGER',
] as const;

type KeywordName = (typeof RESERVED)[number] | (typeof NON_RESERVED)[number];

/** Every keyword token by its upper-case word (`Kw.SELECT`). */
export const Kw: Readonly<Record<KeywordName, TokenType>> = Object.fromEntries(
  [...RESERVED.map((w) => [w, true] as const), ...NON_RESERVED.map((w) => [w, false] as const)].map(([word, reserved]) => [
    word,
    createToken({
      name: word,
      label: word,
      pattern: new RegExp(word.toLowerCase(), 'i'),
      longer_alt: Identifier,
      categories: reserved ? [Label] : [Ident, Label],
    }),
  ]),
) as Record<KeywordName, TokenType>;

/** Is `word` (any case) a reserved keyword? */
export function isReserved(word: string): boolean {
  return (RESERVED as readonly string[]).includes(word.toUpperCase());
}

/** Every keyword, upper-case (for did-you-mean suggestions). */
export const KEYWORDS: readonly string[] = [...RESERVED, ...NON_RESERVED];

const op = (name: string, pattern: RegExp | string, label = typeof pattern === 'string' ? pattern : name): TokenType =>
  createToken({ name, pattern, label });

/** `"Quoted ""name"""`: case and spaces kept, `""` escapes a quote. */
export const QuotedIdentifier = createToken({ name: 'QuotedIdentifier', pattern: /"(?:[^"]|"")*"/, categories: [Ident, Label], line_breaks: true });
/** A number or string literal: what the fast path of long literal lists (`IN (1, 2, ...)`, VALUES rows) consumes. */
export const PlainLiteral = createToken({ name: 'PlainLiteral', pattern: Lexer.NA, label: 'a literal' });
/**
 * A string literal in any of its spellings: `'text'` (`''` escapes a quote), `E'a\tb'` (backslash escapes),
 * `$$text$$` / `$tag$text$tag$` (dollar-quoted): string-literals.ts matches and decodes them.
 */
export const StringLit = createToken({
  name: 'StringLit', pattern: { exec: matchStringLiteral }, start_chars_hint: [...STRING_START_CHARS],
  label: 'a string', line_breaks: true, categories: [PlainLiteral],
});
/** `42`, `3.14`, `.5`, `1e5`, `2.5E-3`: kept as text. */
export const NumberLit = createToken({ name: 'NumberLit', pattern: /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/, label: 'a number', categories: [PlainLiteral] });

/** `$1`, `$2`, ...: a numbered parameter of a prepared statement (docs/prepared-statements.md). */
export const NumberedParam = createToken({ name: 'NumberedParam', pattern: /\$[1-9]\d*/, label: 'a parameter ($1)' });
/** `?`: the next positional parameter of a prepared statement. */
export const QuestionMark = op('QuestionMark', '?');
/** A long list of literals lexed in one go (literal-runs.ts); never produced by a pattern. */
export const LiteralList = createToken({ name: 'LiteralList', pattern: Lexer.NA, label: 'a list of literals' });
/** `,` */
export const Comma = op('Comma', ',');
/** `.` (qualified names) */
export const Dot = op('Dot', '.');
/** `;` between statements */
export const Semicolon = op('Semicolon', ';');
/** `(` */
export const LParen = op('LParen', '(');
/** `)` */
export const RParen = op('RParen', ')');
/** `::` (cast) */
export const DoubleColon = op('DoubleColon', '::');
/** `:=` (named table-function argument) */
export const ColonEq = op('ColonEq', ':=');
/** `{` `}` and `:` of a struct literal (`read_csv(..., columns = {'a': 'INTEGER'})`). */
export const LBrace = op('LBrace', '{');
export const RBrace = op('RBrace', '}');
export const Colon = op('Colon', ':');
/** `||` (string concatenation) */
export const Concat = op('Concat', '||');
/** `<>` or `!=` */
export const NotEq = op('NotEq', /<>|!=/, '<>');
/** `<=` */
export const LtEq = op('LtEq', '<=');
/** `>=` */
export const GtEq = op('GtEq', '>=');
/** `<` */
export const Lt = op('Lt', '<');
/** `>` */
export const Gt = op('Gt', '>');
/** `=` (also `==`) */
export const Eq = op('Eq', /==?/, '=');
/** `+` */
export const Plus = op('Plus', '+');
/** `-` */
export const Minus = op('Minus', '-');
/** `*` (multiplication, `SELECT *`, `count(*)`) */
export const Star = op('Star', '*');
/** `//` (DuckDB's integer division) */
export const DoubleSlash = op('DoubleSlash', '//');
/** `/` */
export const Slash = op('Slash', '/');
/** `**` (power, as `^`) */
export const DoubleStar = op('DoubleStar', '**');
/** `^` (power) */
export const Caret = op('Caret', '^');
/** `%` (modulo) */
export const Percent = op('Percent', '%');

const Whitespace = createToken({ name: 'Whitespace', pattern: /\s+/, group: Lexer.SKIPPED, line_breaks: true });
const LineComment = createToken({ name: 'LineComment', pattern: /--[^\n\r]*/, group: Lexer.SKIPPED });
const BlockComment = createToken({ name: 'BlockComment', pattern: /\/\*[^]*?\*\//, group: Lexer.SKIPPED, line_breaks: true });
// Openers that did not close: lexed as tokens so the error can say what is unterminated.
const OpenComment = createToken({ name: 'OpenComment', pattern: /\/\*/ });
const OpenString = createToken({ name: 'OpenString', pattern: /'/ });
const OpenQuoted = createToken({ name: 'OpenQuoted', pattern: /"/ });
const OpenEscapeString = createToken({ name: 'OpenEscapeString', pattern: /[eE]'/ });
const OpenDollarString = createToken({ name: 'OpenDollarString', pattern: /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/ });

const UNTERMINATED = new Map<TokenType, string>([
  [OpenComment, 'unterminated comment: "/*" has no closing "*/"'],
  [OpenString, "unterminated string literal: a ' has no closing '"],
  [OpenQuoted, 'unterminated quoted identifier: a " has no closing "'],
  [OpenEscapeString, "unterminated string literal: an E' has no closing ' (inside E'...', \\' is a quote, not the end)"],
  [OpenDollarString, 'unterminated dollar-quoted string: "$$" has no closing "$$"'],
]);

const keywordsLongestFirst = Object.values(Kw).sort((a, b) => String(b.PATTERN).length - String(a.PATTERN).length);

/** The ordered vocabulary (order matters: the first pattern that matches wins, `longer_alt` aside). */
export const allTokens: readonly TokenType[] = [
  Whitespace, LineComment, BlockComment, OpenComment,
  // StringLit before the keywords and Identifier: `E'...'` is a string, not the name E.
  Ident, Label, PlainLiteral, StringLit, OpenEscapeString, OpenDollarString, ...keywordsLongestFirst, Identifier, QuotedIdentifier, OpenQuoted,
  OpenString, NumberLit,
  DoubleColon, ColonEq, Concat, NotEq, LtEq, GtEq, Lt, Gt, Eq,
  Comma, Dot, Semicolon, LParen, RParen, Plus, Minus, DoubleStar, Star, DoubleSlash, Slash, Percent, Caret,
  LBrace, RBrace, Colon, NumberedParam, QuestionMark, LiteralList,
];

/**
 * Builds the SQL lexer. chevrotain's pattern validations cost ~200–350 ms per process, so they run only when
 * `validate` is set (the lexer test does); the first-character optimisation is still required (`ensureOptimizations`).
 */
export function createSqlLexer(validate: boolean): Lexer {
  return new Lexer(allTokens as TokenType[], { ensureOptimizations: true, positionTracking: 'full', skipValidations: !validate });
}

const sqlLexer = createSqlLexer(false);

/** Splits SQL text into tokens (comments and whitespace dropped); throws ParseError on an unknown character or an unterminated string, identifier or comment. */
export function tokenize(text: string): IToken[] {
  const runs = lexWithLiteralRuns(text, (s) => sqlLexer.tokenize(s), RUN_TYPES);
  const result = runs !== undefined ? { tokens: runs, errors: [] } : sqlLexer.tokenize(text);
  // An unterminated literal explains the characters after it (`E'it\'s`, `$$ a \ b`): it is reported first.
  const open = result.tokens.find((t) => UNTERMINATED.has(t.tokenType));
  const firstError = result.errors[0]?.offset ?? Infinity;
  if (open !== undefined && open.startOffset < firstError) {
    const msg = UNTERMINATED.get(open.tokenType)!.replaceAll('$$', () => open.image); // a dollar quote's own delimiter
    throw lexError(text, open.startOffset, open.image.length, msg);
  }
  if (result.errors.length > 0) {
    const e = result.errors[0]!;
    const ch = text.slice(e.offset, e.offset + 1);
    const shown = ch === '\n' || ch === '\r' ? 'a line break' : `"${ch}"`;
    if (ch === '[' || ch === ']') throw lexError(text, e.offset, 1, `unexpected character ${shown}: lists ([1, 2], INTEGER[]) need a LIST type, which eddy does not have yet (see Types in docs/sql.md)`);
    throw lexError(text, e.offset, 1, `unexpected character ${shown}; it is not part of SQL here (quote names with "double quotes" and text with 'single quotes')`);
  }
  for (const t of result.tokens) {
    if (t.tokenType !== StringLit) continue;
    const p = escapeProblem(t.image);
    if (p !== undefined) throw lexError(text, t.startOffset + p.offset, p.length, p.message);
  }
  return result.tokens;
}

const RUN_TYPES: RunTokenTypes = { LiteralList, NumberLit, StringLit, Minus, LParen, unterminated: new Set(UNTERMINATED.keys()) };

function lexError(text: string, offset: number, length: number, message: string): ParseError {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return new ParseError(formatSqlError(text, { line, column, length }, message), line, column);
}
