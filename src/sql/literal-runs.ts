/**
 * Long literal lists, lexed by hand into one token (issue #11: plan a
 * 100k-item IN list in under a second). A parenthesised list of at least
 * MIN_RUN_ITEMS plain literals (`(1, -2, 3.5, 'x', ...)`, as IN lists, VALUES
 * rows and function arguments are written) becomes `(` LiteralList `)`: the
 * LiteralList token carries its items as ordinary NumberLit / StringLit /
 * Minus tokens (with exact offsets, lines and columns) in `payload`, so the
 * parser takes one token where it took 200,000, and cst-expr.ts expands the
 * items exactly as the parser's own short-list fast path does. The text
 * around the runs goes through the chevrotain lexer as before. A run is only
 * taken when the lexer, run up to its `(`, ends on that `(` with nothing
 * unterminated (so a list inside a string or comment stays text); any doubt
 * and the whole text is lexed the ordinary way.
 */
import { createTokenInstance, type ILexingResult, type IToken, type TokenType } from 'chevrotain';

/** Lists shorter than this are left to the lexer and the parser's fast path. */
export const MIN_RUN_ITEMS = 256;

const ITEM = String.raw`(?:-[ \t\n\r\f\v]*)?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|'(?:[^']|'')*')`;
// ASCII white space only (the scanner below knows those); a list with other spaces takes the ordinary path.
const WS = '[ \\t\\n\\r\\f\\v]*';
const RUN = new RegExp(String.raw`\(${WS}${ITEM}(?:${WS},${WS}${ITEM}){${MIN_RUN_ITEMS - 1},}${WS}\)`, 'g');

/** What a LiteralList token carries: its items' tokens, in text order. */
export interface LiteralRun {
  readonly literals: readonly IToken[];
  /** The `-` tokens before negated items. */
  readonly signs: readonly IToken[];
}

/** The token types this module creates (passed in: they live in lexer.ts, which imports this file). */
export interface RunTokenTypes {
  readonly LiteralList: TokenType;
  readonly NumberLit: TokenType;
  readonly StringLit: TokenType;
  readonly Minus: TokenType;
  readonly LParen: TokenType;
  /** Tokens the lexer makes for unterminated strings, quoted names and comments. */
  readonly unterminated: ReadonlySet<TokenType>;
}

/**
 * Tokens of `text` with each long literal list as one LiteralList token; undefined when the text has no such
 * list or one could not be proven to be code (the caller then lexes the whole text).
 */
export function lexWithLiteralRuns(text: string, lex: (text: string) => ILexingResult, types: RunTokenTypes): IToken[] | undefined {
  if (text.length < MIN_RUN_ITEMS * 2) return undefined;
  RUN.lastIndex = 0;
  const out: IToken[] = [];
  let pos = 0;
  let line = 1;
  let column = 1;
  let found = false;
  for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) {
    const open = m.index;
    const seg = lex(text.slice(pos, open + 1));
    if (seg.errors.length > 0) return undefined;
    const last = seg.tokens[seg.tokens.length - 1];
    if (last === undefined || last.tokenType !== types.LParen || last.startOffset !== open - pos) return undefined;
    if (seg.tokens.some((t) => types.unterminated.has(t.tokenType))) return undefined;
    for (const t of seg.tokens) out.push(shifted(t, pos, line, column));
    ({ line, column } = advance(text, pos, open + 1, line, column));
    const close = open + m[0].length - 1;
    const run = scanRun(text, open + 1, close, line, column, types);
    out.push(run.token);
    ({ line, column } = advance(text, open + 1, close, line, column));
    pos = close;
    found = true;
  }
  if (!found) return undefined;
  const rest = lex(text.slice(pos));
  if (rest.errors.length > 0) return undefined;
  for (const t of rest.tokens) out.push(shifted(t, pos, line, column));
  return out;
}

/** The line and column after text[from, to), starting at (line, column). */
function advance(text: string, from: number, to: number, line: number, column: number): { line: number; column: number } {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) { line++; column = 1; } else column++;
  }
  return { line, column };
}

/** A token lexed from a slice starting at `base` (at line, column), moved to its place in the whole text. */
function shifted(t: IToken, base: number, line: number, column: number): IToken {
  const startLine = t.startLine ?? 1;
  const endLine = t.endLine ?? startLine;
  return createTokenInstance(
    t.tokenType, t.image, t.startOffset + base, (t.endOffset ?? t.startOffset) + base,
    startLine + line - 1, endLine + line - 1,
    (t.startColumn ?? 1) + (startLine === 1 ? column - 1 : 0), (t.endColumn ?? 1) + (endLine === 1 ? column - 1 : 0),
  );
}

/** The items of text[from, to) (known to match RUN's inside) as tokens, wrapped in one LiteralList token. */
function scanRun(text: string, from: number, to: number, line: number, column: number, types: RunTokenTypes): { token: IToken } {
  const literals: IToken[] = [];
  const signs: IToken[] = [];
  let i = from;
  const make = (type: TokenType, start: number, end: number, l0: number, c0: number): IToken => {
    if (type !== types.StringLit) { // no line break inside: columns by arithmetic
      column = c0 + (end - start);
      return createTokenInstance(type, text.slice(start, end), start, end - 1, l0, l0, c0, column - 1);
    }
    const after = advance(text, start, end, l0, c0);
    // The end position is that of the last character (chevrotain's convention).
    const endPos = end - 1 > start ? advance(text, start, end - 1, l0, c0) : { line: l0, column: c0 };
    const tok = createTokenInstance(type, text.slice(start, end), start, end - 1, l0, endPos.line, c0, endPos.column);
    line = after.line;
    column = after.column;
    return tok;
  };
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c === 44 /* , */ || c === 32 || c === 9 || c === 12 || c === 11) {
      column++;
      i++;
    } else if (c === 10 || c === 13) {
      ({ line, column } = advance(text, i, i + 1, line, column));
      i++;
    } else if (c === 45 /* - */) {
      signs.push(make(types.Minus, i, i + 1, line, column));
      i++;
    } else if (c === 39 /* ' */) {
      let j = i + 1;
      for (;;) {
        if (text.charCodeAt(j) === 39) { if (text.charCodeAt(j + 1) === 39) { j += 2; continue; } break; }
        j++;
      }
      literals.push(make(types.StringLit, i, j + 1, line, column));
      i = j + 1;
    } else {
      let j = i;
      while (j < to && !isSeparator(text.charCodeAt(j))) j++;
      literals.push(make(types.NumberLit, i, j, line, column));
      i = j;
    }
  }
  const first = literals[0]!;
  const lastTok = literals[literals.length - 1]!;
  const token = createTokenInstance(types.LiteralList, `(${literals.length} literals)`, first.startOffset, lastTok.endOffset ?? lastTok.startOffset,
    first.startLine ?? 1, lastTok.endLine ?? 1, first.startColumn ?? 1, lastTok.endColumn ?? 1);
  const payload: LiteralRun = { literals, signs };
  token.payload = payload;
  return { token };
}

function isSeparator(c: number): boolean {
  return c === 44 || c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 41;
}
