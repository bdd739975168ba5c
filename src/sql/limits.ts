/**
 * Documented limits on statement nesting (docs/sql-limits.md). Parsing,
 * binding and planning recurse over the statement's tree, so a deep enough
 * tree would overflow the JavaScript stack ("Maximum call stack size
 * exceeded"); instead the depth is measured without recursion first and a
 * statement beyond a limit fails with a ParseError / ValidationError that
 * names the limit. Long flat lists (IN lists, VALUES rows, AND/OR chains,
 * select lists) are not nesting and have no limit.
 */
import type { IToken } from 'chevrotain';
import { ParseError } from '../relnode/errors.js';
import { formatSqlError } from './error-format.js';
import { Kw, LParen, RParen } from './lexer.js';

/** Most nested parentheses, function calls, subqueries and CASE expressions (together) in one statement. */
export const MAX_NESTING_DEPTH = 100;
/** Most nested subqueries (`(SELECT ...)`, `(VALUES ...)`, `(WITH ...)`) in one statement: each costs the parser far more stack. */
export const MAX_SUBQUERY_DEPTH = 50;
/** Most nested operators in one expression (`1+1+...`, `NOT NOT ...`, `- - ...`); an AND / OR chain counts once. */
export const MAX_EXPRESSION_DEPTH = 1000;

/** Throws when the tokens of one statement nest deeper than MAX_NESTING_DEPTH / MAX_SUBQUERY_DEPTH or chain NOT beyond MAX_EXPRESSION_DEPTH. */
export function checkTokenNesting(text: string, tokens: readonly IToken[]): void {
  // One entry per open `(` or CASE: true when it opens a subquery.
  const open: boolean[] = [];
  let subqueries = 0;
  let nots = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const type = t.tokenType;
    if (type === LParen || type === Kw.CASE) {
      const next = tokens[i + 1]?.tokenType;
      const sub = type === LParen && (next === Kw.SELECT || next === Kw.WITH || next === Kw.VALUES || next === Kw.FROM);
      open.push(sub);
      if (sub) subqueries++;
    } else if ((type === RParen || type === Kw.END) && open.length > 0) {
      if (open.pop()) subqueries--;
    }
    nots = type === Kw.NOT ? nots + 1 : 0;
    let what: string | undefined;
    if (open.length > MAX_NESTING_DEPTH) what = `nesting depth exceeds ${MAX_NESTING_DEPTH} (limit: ${MAX_NESTING_DEPTH} nested parentheses, function calls, subqueries and CASE expressions)`;
    else if (subqueries > MAX_SUBQUERY_DEPTH) what = `subquery nesting depth exceeds ${MAX_SUBQUERY_DEPTH} (limit: ${MAX_SUBQUERY_DEPTH} nested subqueries)`;
    else if (nots > MAX_EXPRESSION_DEPTH) what = `NOT is chained more than ${MAX_EXPRESSION_DEPTH} times (limit: ${MAX_EXPRESSION_DEPTH} nested operators)`;
    if (what !== undefined) {
      const pos = { line: t.startLine ?? 1, column: t.startColumn ?? 1, length: t.image.length };
      throw new ParseError(formatSqlError(text, pos, `statement too deeply nested: ${what}; see docs/sql-limits.md`), pos.line, pos.column);
    }
  }
}
