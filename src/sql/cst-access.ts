/**
 * Reading the chevrotain CST: labelled children, tokens, positions, and the
 * text of names and string literals. Shared by the CST → AST visitors.
 */
import type { CstElement, CstNode, IToken } from 'chevrotain';
import { ParseError } from '../relnode/errors.js';
import type { Pos } from './ast.js';
import { formatSqlError } from './error-format.js';
import { QuotedIdentifier } from './lexer.js';
import { decodeStringLiteral } from './string-literals.js';

/** The CST child nodes under `label` (empty when none). */
export function nodes(n: CstNode, label: string): CstNode[] {
  return (n.children[label] as CstNode[] | undefined) ?? [];
}

/** The first CST child node under `label`, or undefined. */
export function maybeNode(n: CstNode, label: string): CstNode | undefined {
  return n.children[label]?.[0] as CstNode | undefined;
}

/** The first CST child node under `label`; the grammar guarantees it. */
export function node(n: CstNode, label: string): CstNode {
  const c = maybeNode(n, label);
  if (c === undefined) throw new Error(`CST node ${n.name} has no child ${label}`);
  return c;
}

/** The tokens under `label` (empty when none). */
export function tokens(n: CstNode, label: string): IToken[] {
  return (n.children[label] as IToken[] | undefined) ?? [];
}

/** The first token under `label`, or undefined. */
export function maybeToken(n: CstNode, label: string): IToken | undefined {
  return n.children[label]?.[0] as IToken | undefined;
}

/** The first token under `label`; the grammar guarantees it. */
export function token(n: CstNode, label: string): IToken {
  const t = maybeToken(n, label);
  if (t === undefined) throw new Error(`CST node ${n.name} has no token ${label}`);
  return t;
}

/** True if anything was recorded under `label`. */
export function has(n: CstNode, label: string): boolean {
  return (n.children[label]?.length ?? 0) > 0;
}

/** True if a CST element is a token (not a node). */
export function isToken(e: CstElement): e is IToken {
  return (e as IToken).image !== undefined;
}

/** The position of one token. */
export function tokenPos(t: IToken): Pos {
  return { line: t.startLine ?? 1, column: t.startColumn ?? 1, offset: t.startOffset, length: t.image.length };
}

/** The position of a CST node: its first token, with `length` spanning to its last token. */
export function nodePos(n: CstNode): Pos {
  const l = n.location!;
  return { line: l.startLine ?? 1, column: l.startColumn ?? 1, offset: l.startOffset, length: (l.endOffset ?? l.startOffset) - l.startOffset + 1 };
}

/** From the start of `first` to the end of `last`. */
export function span(first: Pos, last: Pos): Pos {
  return { line: first.line, column: first.column, offset: first.offset, length: Math.max(first.length, last.offset + last.length - first.offset) };
}

/** From the start of `first` to the end of the token `last`. */
export function spanTo(first: Pos, last: IToken | undefined): Pos {
  return last === undefined ? first : span(first, tokenPos(last));
}

/** The name a token spells: quoted identifiers unquoted (`""` → `"`), others as written. */
export function nameOf(t: IToken): string {
  return t.tokenType === QuotedIdentifier ? t.image.slice(1, -1).replace(/""/g, '"') : t.image;
}

/** The text of a string literal token in any spelling (string-literals.ts): `''` → `'`, escapes decoded. */
export function stringOf(t: IToken): string {
  return decodeStringLiteral(t.image);
}

/** A ParseError pointing at `pos` in `text` (for errors found while building the AST). */
export function astError(text: string, pos: Pos, message: string): ParseError {
  return new ParseError(formatSqlError(text, pos, message), pos.line, pos.column);
}
