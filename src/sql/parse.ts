/**
 * The SQL parser's entry points: text in, AST (src/sql/ast.ts) out. Lexing
 * and parsing errors throw ParseError with line, column and a caret under
 * the offending token. One parser instance serves every call.
 *
 * Parsed queries and statement lists are kept in an LRU by their text (ASTs
 * are immutable): an application that runs the same SQL again — a dashboard,
 * a loop, the prepared statements' re-runs — parses it once (a 10-row query
 * spent ~40% of its time in the parser). Texts over 16k characters are not
 * kept (a 100k-item IN list would hold megabytes for a one-off).
 */
import type { CstNode, IToken } from 'chevrotain';
import { LRUCache } from 'lru-cache';
import { ParseError } from '../relnode/errors.js';
import type { Expr, Query, SelectItem, Statement } from './ast.js';
import { toExpr } from './cst-expr.js';
import { toStatement } from './cst-statement.js';
import { astContext, toQuery, toSelectItems } from './cst-to-ast.js';
import { formatSqlError } from './error-format.js';
import { NumberedParam, QuestionMark, Semicolon, tokenize } from './lexer.js';
import { syntaxError, type EntryRule } from './parse-errors.js';
import { checkTokenNesting } from './limits.js';
import { sqlParser } from './parser.js';

/**
 * Parses one or more `;`-separated statements (a trailing `;` is optional; empty statements are skipped).
 * Each Statement's pos spans its text without the `;`, so callers can slice it (see `statementText`).
 */
export function parseStatements(text: string): Statement[] {
  const key = `s:${text}`;
  const hit = cacheable(text) ? parsed.get(key) : undefined;
  if (hit !== undefined) { parseStats.hits++; return [...(hit as readonly Statement[])]; }
  const out = parseStatementsUncached(text);
  if (cacheable(text)) parsed.set(key, [...out]);
  return out;
}

/** Parse-cache counters of this process (tests check the cache with them). */
export const parseStats = { hits: 0, misses: 0 };

const MAX_CACHED_TEXT = 16_384;
const parsed = new LRUCache<string, Query | readonly Statement[]>({ max: 512 });

function cacheable(text: string): boolean {
  return text.length <= MAX_CACHED_TEXT;
}

function parseStatementsUncached(text: string): Statement[] {
  parseStats.misses++;
  const all = tokenize(text);
  const cx = astContext(text);
  const out: Statement[] = [];
  let start = 0;
  for (let i = 0; i <= all.length; i++) {
    const t = all[i];
    if (t !== undefined && t.tokenType !== Semicolon) continue;
    if (i > start) out.push(toStatement(cx, run(text, all.slice(start, i), 'statement', t)));
    start = i + 1;
  }
  return out;
}

/** Parses exactly one query (SELECT / VALUES / WITH ... / parenthesised / set operations); a trailing `;` is allowed. */
export function parseQuery(text: string): Query {
  const key = `q:${text}`;
  const hit = cacheable(text) ? parsed.get(key) : undefined;
  if (hit !== undefined) { parseStats.hits++; return hit as Query; }
  const q = parseQueryUncached(text);
  if (cacheable(text)) parsed.set(key, q);
  return q;
}

/**
 * The number of parameters of one statement's text: the highest `$n`, counting each `?` as one more than
 * the highest number before it (DuckDB's numbering; parameters of all statements when there are several).
 */
export function parameterCount(text: string): number {
  return numberParameters(tokenize(text));
}

/** `parseQuery` without the parse cache (bench/plan-time.ts measures parsing with it). */
export function parseQueryUncached(text: string): Query {
  parseStats.misses++;
  const tokens = withoutTrailingSemicolon(tokenize(text));
  const extra = tokens.find((t) => t.tokenType === Semicolon);
  if (extra !== undefined) {
    const pos = { line: extra.startLine ?? 1, column: extra.startColumn ?? 1, length: 1 };
    throw new ParseError(formatSqlError(text, pos, 'expected a single query, found ";" followed by more SQL; run several statements with executeSql'), pos.line, pos.column);
  }
  if (tokens.length === 0) throw emptyError(text, 'a query (SELECT, VALUES or WITH)');
  const first = tokens[0]!;
  const word = first.image.toUpperCase();
  if (STATEMENT_WORDS.has(word)) {
    const pos = { line: first.startLine ?? 1, column: first.startColumn ?? 1, length: first.image.length };
    const hint = word === 'EXPLAIN' ? ' (or call .explain() on the query\'s table)' : '';
    throw new ParseError(formatSqlError(text, pos, `${word} starts a statement, not a query: run statements with executeSql${hint}`), pos.line, pos.column);
  }
  const cx = astContext(text);
  return toQuery(cx, run(text, tokens, 'query', undefined));
}

/** One expression (`"l_quantity > 24 AND l_discount BETWEEN 0.05 AND 0.07"`). */
export function parseExpression(text: string): Expr {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw emptyError(text, 'an expression');
  return toExpr(astContext(text), run(text, tokens, 'expression', undefined));
}

/** A select list with aliases (`"l_orderkey, l_extendedprice * (1 - l_discount) AS revenue"`); `*` and `t.*` allowed. */
export function parseSelectItems(text: string): SelectItem[] {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw emptyError(text, 'one or more expressions');
  return toSelectItems(astContext(text), run(text, tokens, 'selectList', undefined));
}

/** The text of a statement as written (for EXPLAIN and error messages), without its `;`. */
export function statementText(text: string, stmt: Statement): string {
  return text.slice(stmt.pos.offset, stmt.pos.offset + stmt.pos.length);
}

/** Parses `tokens` from `rule`; `end` is the `;` after them, if any (where an early end is shown). */
function run(text: string, tokens: IToken[], rule: EntryRule, end: IToken | undefined): CstNode {
  checkTokenNesting(text, tokens);
  numberParameters(tokens);
  const parser = sqlParser();
  parser.input = tokens;
  const cst = parser[rule]();
  const err = parser.errors[0];
  if (err !== undefined) throw syntaxError(parser, text, tokens, rule, err, end);
  return cst;
}

/**
 * Numbers one statement's parameters on their tokens (`payload`), as DuckDB does: `$n` is n; a `?` is one more
 * than the highest number before it in the text (so `?, ?` are 1 and 2, and `$1 ... ?` makes the `?` 2).
 */
function numberParameters(tokens: readonly IToken[]): number {
  let highest = 0;
  for (const t of tokens) {
    if (t.tokenType === NumberedParam) {
      const n = Number(t.image.slice(1));
      t.payload = n;
      if (n > highest) highest = n;
    } else if (t.tokenType === QuestionMark) {
      t.payload = ++highest;
    }
  }
  return highest;
}

function withoutTrailingSemicolon(tokens: IToken[]): IToken[] {
  let n = tokens.length;
  while (n > 0 && tokens[n - 1]!.tokenType === Semicolon) n--;
  return n === tokens.length ? tokens : tokens.slice(0, n);
}

/** First words of statements that are not queries: `env.sql()` names them instead of a bare syntax error. */
const STATEMENT_WORDS = new Set(['CREATE', 'INSERT', 'DROP', 'SHOW', 'DESCRIBE', 'SUMMARIZE', 'UPDATE', 'DELETE', 'COPY', 'EXPLAIN', 'SET', 'CACHE', 'UNCACHE']);

function emptyError(text: string, what: string): ParseError {
  return new ParseError(formatSqlError(text, { line: 1, column: 1 }, `expected ${what}, found nothing`), 1, 1);
}
