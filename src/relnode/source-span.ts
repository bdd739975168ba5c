/**
 * Where an expression was written in SQL text, and the caret rendering every
 * SQL message uses ("line 3, column 12: <message>", the quoted line, `^^^`).
 *
 * Decision: a runtime error (a failed CAST, sqrt of a negative number) points at
 * the expression in the user's query, not at the operator that evaluated it. The
 * binder gives each Call, Cast, Case and Subquery it builds an `at` span (rex.ts; a
 * scalar subquery's span goes on to its Correlate and the row-count check the
 * planner builds from it, planner/subquery-joins.ts); spans
 * are display-only like column names (not in the digest or structural equality,
 * so a cache hit does not depend on where a query was written), survive rewrites
 * because rexWithChildren spreads the node, and travel to worker threads with the
 * plan (ship-serialize.ts). A span carries its quoted line rather than a pointer
 * to the statement text, so an error can be rendered wherever it is raised — in
 * a worker, in a Table composed of several SQL texts — without the text; the
 * line is clipped around the caret so a long one-line statement does not copy
 * itself into every span. `identical` (plan reuse) compares spans, so a plan reused
 * for another text quotes that text. At run time a span costs one try per batch: the
 * kernel compiler wraps only nodes with a span (kernels/compile.ts), once per
 * batch, not per row. A finer alternative (the span of every sub-expression,
 * implicit casts included) was not needed: an error in a node without a span
 * (an implicit cast, a rewritten node) reports the nearest enclosing one.
 */

/** An expression's place in SQL text (1-based line and column, length in characters) with its quoted line. */
export interface SourceSpan {
  readonly line: number;
  readonly column: number;
  readonly length: number;
  /** The line's text, clipped around the column (`column` counts in the unclipped line). */
  readonly lineText: string;
  /** Where `lineText` starts in the line (0 unless clipped). */
  readonly lineStart: number;
}

/** The longest quoted line kept in a span; longer lines keep a window around the column. */
const MAX_QUOTED = 160;

/**
 * The span of a token or expression at `pos` of `text` (1-based line and column, 0-based offset,
 * `length` characters). Looks at most MAX_QUOTED characters either side of the offset, so binding
 * a long one-line statement stays linear in its size.
 */
export function sourceSpan(text: string, pos: { readonly line: number; readonly column: number; readonly offset: number; readonly length: number }): SourceSpan {
  const { line, column, offset, length } = pos;
  const lo = Math.max(0, offset - (column - 1), offset - MAX_QUOTED);
  const hi = Math.min(text.length, offset + MAX_QUOTED);
  let start = offset;
  while (start > lo && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
  let end = offset;
  while (end < hi && text[end] !== '\n' && text[end] !== '\r') end++;
  // A long line keeps a window that starts a little before the column.
  if (end - start > MAX_QUOTED) {
    start = Math.max(start, Math.min(offset - MAX_QUOTED / 4, end - MAX_QUOTED));
    end = Math.min(end, start + MAX_QUOTED);
  }
  return { line, column, length, lineText: text.slice(start, end), lineStart: column - 1 - (offset - start) };
}

/** The SQL text a span covers, when it lies within its quoted line (not for an expression over several lines, or clipped). */
export function spanText(span: SourceSpan): string | undefined {
  const start = span.column - 1 - span.lineStart;
  if (start < 0 || span.length < 1 || start + span.length > span.lineText.length) return undefined;
  return span.lineText.slice(start, start + span.length);
}

/**
 * "line 3, column 12: <message>\n  3 | SELECT qty FROM lineitem\n    |        ^^^" — the message with the
 * span's line quoted and `length` carets (at least one, clipped to the end of the line) under the column.
 * Tabs in the quoted line are kept under the caret so it stays aligned.
 */
export function formatAtSpan(span: SourceSpan, message: string): string {
  const head = `line ${span.line}, column ${span.column}: ${message}`;
  const lineText = span.lineText;
  const gutter = String(span.line);
  const start = Math.min(Math.max(span.column - 1 - span.lineStart, 0), lineText.length);
  const padding = lineText.slice(0, start).replace(/[^\t]/g, ' ');
  const carets = '^'.repeat(Math.max(1, Math.min(span.length, lineText.length - start)));
  const cut = span.lineStart > 0 ? '…' : '';
  return `${head}\n  ${gutter} | ${cut}${lineText}\n  ${' '.repeat(gutter.length)} | ${cut === '' ? '' : ' '}${padding}${carets}`;
}
