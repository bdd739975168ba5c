/**
 * Syntax errors in plain words: `unexpected "FORM"; expected FROM, WHERE,
 * GROUP BY, ... or end of statement (did you mean FROM?)`, with the caret
 * text of formatSqlError. What may come next is found by asking the parser
 * itself: the tokens before the error, followed by each candidate token,
 * are parsed again, and a candidate counts when the parse gets past it.
 * That only runs after an error, so parsing stays fast.
 */
import { createTokenInstance, EOF, type IRecognitionException, type IToken, type TokenType } from 'chevrotain';
import { ParseError } from '../relnode/errors.js';
import { formatSqlError } from './error-format.js';
import {
  allTokens, Comma, Dot, Identifier, Ident, isReserved, KEYWORDS, Kw, Label, LParen, NumberLit, QuotedIdentifier, RParen, StringLit,
} from './lexer.js';
import type { SqlParser } from './parser.js';

/** The parser rules that can start a parse. */
export type EntryRule = 'statement' | 'query' | 'expression' | 'selectList';

const SAMPLE_IMAGES = new Map<TokenType, string>([
  [Identifier, 'x'], [QuotedIdentifier, '"x"'], [StringLit, "'x'"], [NumberLit, '1'],
]);

/** Token types worth proposing: everything real (no categories, whitespace, comments or unterminated openers). */
const CANDIDATES: readonly TokenType[] = allTokens.filter(
  (t) => t !== Ident && t !== Label && t.GROUP === undefined && !/^Open|Comment$|^Whitespace$/.test(t.name),
);

/** Multi-word keywords shown whole. */
const SHOWN_AS: Readonly<Record<string, string>> = { GROUP: 'GROUP BY', ORDER: 'ORDER BY', PRIMARY: 'PRIMARY KEY' };

/** Keywords listed first, in the order a reader expects them. */
const KEYWORD_ORDER = [
  'SELECT', 'WITH', 'VALUES', 'FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'UNION', 'INTERSECT',
  'EXCEPT', 'JOIN', 'INNER', 'LEFT', 'RIGHT', 'FULL', 'CROSS', 'NATURAL', 'ON', 'USING', 'AS', 'THEN', 'WHEN', 'ELSE',
  'END', 'AND', 'ASC', 'DESC', 'NULLS',
];

const OPERATORS = new Set(['Eq', 'NotEq', 'Lt', 'LtEq', 'Gt', 'GtEq', 'Plus', 'Minus', 'Star', 'Slash', 'Percent', 'Concat', 'DoubleColon', 'DoubleSlash', 'Caret', 'DoubleStar']);
const OPERATOR_WORDS = new Set(['AND', 'OR', 'IS', 'IN', 'NOT', 'LIKE', 'ILIKE', 'ESCAPE', 'BETWEEN']);
const VALUE_STARTERS = new Set(['NumberLit', 'StringLit', 'TRUE', 'FALSE', 'NULL', 'CASE', 'CAST', 'TRY_CAST', 'EXISTS', 'LParen', 'Minus', 'Plus', 'NOT', 'NumberedParam', 'QuestionMark', 'LiteralList']);

/** Builds the ParseError for a chevrotain recognition error while parsing `tokens` (one statement) from `rule`. */
export function syntaxError(
  parser: SqlParser, text: string, tokens: readonly IToken[], rule: EntryRule, err: IRecognitionException, end: IToken | undefined,
): ParseError {
  let at = err.token.tokenType === EOF ? tokens.length : Math.max(0, tokens.indexOf(err.token));
  let expected = expectedAt(parser, tokens.slice(0, at), rule);
  // With lookahead the parser may stop at a token that is fine by itself (`FROM (FROM)`): blame the next one.
  for (let k = 0; k < 2 && at < tokens.length && expected.types.includes(tokens[at]!.tokenType); k++) {
    at++;
    expected = expectedAt(parser, tokens.slice(0, at), rule);
  }
  const endWord = rule === 'statement' || rule === 'query' ? 'end of statement' : 'end of input';
  let found: IToken | undefined = tokens[at];
  let suggestion = found === undefined ? undefined : misspelledKeyword(found, expected.types);
  const prev = tokens[at - 1];
  if (suggestion === undefined && prev !== undefined && isImplicitAlias(tokens, at - 1)) {
    // `SELECT a FORM t`: FORM parsed as an alias of `a`; the real mistake is FORM, not `t`.
    const s = misspelledKeyword(prev, expected.types);
    if (s !== undefined) { suggestion = s; found = prev; }
  }
  if (found?.tokenType === LParen && prev?.tokenType === Identifier && /^within$/i.test(prev.image)) {
    // `percentile_cont(0.5) WITHIN (ORDER BY x)`: the clause is WITHIN GROUP (ORDER BY x).
    const pos = positionOf(prev);
    return new ParseError(formatSqlError(text, pos, 'expected WITHIN GROUP (ORDER BY ...) after the call'), pos.line, pos.column);
  }
  const what = found === undefined ? endWord : `"${found.image}"`;
  const wanted = expected.types.length > 0 || expected.canEnd ? `; expected ${describeExpected(expected.types, expected.canEnd ? endWord : undefined)}` : '';
  const advice = found?.tokenType === Kw.SELECT && inFromFirstQuery(tokens, at)
    ? ' (in a FROM-first query SELECT comes right after the FROM items: FROM t SELECT a WHERE ...)'
    : '';
  const message = `unexpected ${what}${wanted}${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}${advice}`;
  const pos = found !== undefined ? positionOf(found) : end !== undefined ? positionOf(end) : afterLast(tokens);
  return new ParseError(formatSqlError(text, pos, message), pos.line, pos.column);
}

const QUERY_OPENERS = new Set<TokenType>([LParen, Kw.UNION, Kw.EXCEPT, Kw.INTERSECT, Kw.ALL, Kw.DISTINCT, Kw.AS, Kw.EXPLAIN, Kw.ANALYZE]);

/** True when tokens[at] sits in a query that began with FROM and has no SELECT yet (`FROM t WHERE a SELECT b`). */
function inFromFirstQuery(tokens: readonly IToken[], at: number): boolean {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    const t = tokens[i]!.tokenType;
    if (t === RParen) depth++;
    else if (t === LParen) { if (depth-- === 0) return false; }
    else if (depth === 0 && t === Kw.SELECT) return false;
    else if (depth === 0 && t === Kw.FROM) return i === 0 || QUERY_OPENERS.has(tokens[i - 1]!.tokenType);
  }
  return false;
}

/** Tokens whose acceptance the parser decides only with a second token: tried again with these followers. */
const SECOND_TOKENS = new Map<TokenType, readonly TokenType[]>([
  [LParen, [Kw.SELECT, Identifier, NumberLit]],
  [Identifier, [Identifier, LParen, Dot]],
  [Kw.DATE, [StringLit]],
  [Kw.TIMESTAMP, [StringLit]],
  [Kw.INTERVAL, [StringLit]],
]);

/** The token types that may follow `prefix`, and whether the input may end there. */
function expectedAt(parser: SqlParser, prefix: readonly IToken[], rule: EntryRule): { types: TokenType[]; canEnd: boolean } {
  const last = prefix[prefix.length - 1];
  let offset = last === undefined ? 0 : last.endOffset! + 2;
  const line = last?.endLine ?? 1;
  const sample = (t: TokenType): IToken => {
    const image = SAMPLE_IMAGES.get(t) ?? (typeof t.LABEL === 'string' ? t.LABEL : t.name);
    const tok = createTokenInstance(t, image, offset, offset + image.length - 1, line, line, offset + 1, offset + image.length);
    offset += image.length + 1;
    return tok;
  };
  const parsesPast = (extra: IToken[]): boolean => {
    parser.input = [...prefix, ...extra];
    parser[rule]();
    const e = parser.errors[0];
    return e === undefined || (extra.length > 0 && e.token.tokenType === EOF);
  };
  const types = CANDIDATES.filter(
    (t) => parsesPast([sample(t)]) || (SECOND_TOKENS.get(t) ?? []).some((second) => parsesPast([sample(t), sample(second)])),
  );
  return { types, canEnd: parsesPast([]) };
}

/** "FROM, WHERE, GROUP BY, ... or end of statement". */
function describeExpected(types: readonly TokenType[], end: string | undefined): string {
  const names = new Set(types.map((t) => t.name));
  const items: string[] = [];
  const valueish = names.has('NumberLit') && names.has('Identifier');
  if (valueish) for (const n of [...VALUE_STARTERS, 'LEFT', 'RIGHT']) names.delete(n);
  const nameish = names.has('Identifier');
  if (nameish) for (const k of KEYWORDS) if (!isReserved(k)) names.delete(k);
  // LATERAL only prefixes a FROM item, which "a name" already announces.
  if (nameish) names.delete('LATERAL');
  // Where a query may start, SELECT stands for the PIVOT / UNPIVOT statements too (they would crowd the list).
  if (names.has('SELECT')) for (const w of ['PIVOT', 'UNPIVOT', 'PIVOT_WIDER', 'PIVOT_LONGER']) names.delete(w);
  names.delete('QuotedIdentifier');
  const operators = [...names].filter((n) => OPERATORS.has(n) || OPERATOR_WORDS.has(n));
  if (operators.length >= 3) for (const n of operators) names.delete(n);
  for (const k of KEYWORD_ORDER) if (names.delete(k)) items.push(SHOWN_AS[k] ?? k);
  for (const k of KEYWORDS) if (names.delete(k)) items.push(SHOWN_AS[k] ?? k);
  for (const t of [Comma, LParen, RParen, Dot]) if (names.delete(t.name)) items.push(`"${t.LABEL}"`);
  if (valueish) items.push('an expression');
  else if (nameish) items.push('a name');
  if (operators.length >= 3) items.push('an operator');
  for (const n of names) {
    if (n === 'Identifier') continue;
    const t = types.find((x) => x.name === n)!;
    items.push(typeof t.LABEL === 'string' && !/^[a-z]/.test(t.LABEL) ? `"${t.LABEL}"` : t.LABEL ?? n);
  }
  const shown = items.length > 7 ? [...items.slice(0, 6), '...'] : items;
  if (end !== undefined) return shown.length === 0 ? end : `${shown.join(', ')} or ${end}`;
  if (shown.length <= 1) return shown[0] ?? '';
  if (shown[shown.length - 1] === '...') return shown.join(', ');
  return `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
}

/** The expected keyword that `t` (a bare word) is a typo of, if any. */
function misspelledKeyword(t: IToken, expected: readonly TokenType[]): string | undefined {
  if (t.tokenType !== Identifier || t.image.length < 3) return undefined;
  const word = t.image.toUpperCase();
  let best: string | undefined;
  let bestD = word.length <= 4 ? 2 : 3;
  for (const e of expected) {
    if (!KEYWORDS.includes(e.name)) continue;
    const d = distance(word, e.name);
    if (d < bestD) { bestD = d; best = SHOWN_AS[e.name] ?? e.name; }
  }
  return best;
}

/** A bare word right after an expression or table, not after AS or `.`: the parser took it for an alias. */
function isImplicitAlias(tokens: readonly IToken[], i: number): boolean {
  const t = tokens[i]!;
  const before = tokens[i - 1];
  return t.tokenType === Identifier && before !== undefined && before.tokenType !== Kw.AS && before.tokenType !== Dot && before.tokenType !== Comma;
}

/** Optimal string alignment distance (a swap of two neighbours costs 1). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

function positionOf(t: IToken): { line: number; column: number; length: number } {
  return { line: t.startLine ?? 1, column: t.startColumn ?? 1, length: t.image.length };
}

/** Just after the last token (or at the start of an empty text). */
function afterLast(tokens: readonly IToken[]): { line: number; column: number; length: number } {
  const last = tokens[tokens.length - 1];
  if (last === undefined) return { line: 1, column: 1, length: 1 };
  return { line: last.endLine ?? 1, column: (last.endColumn ?? 0) + 1, length: 1 };
}
